"""Pig's skill ladder as plain data (ladder.yaml): each level a strategy with its parameters,
weakest first. Pig has no continuous skill knob (`sim calibrate` refuses it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

LADDER_FILE = Path(__file__).resolve().parent / "ladder.yaml"
LEVELS: dict[str, dict[str, Any]] = yaml.safe_load(LADDER_FILE.read_text(encoding="utf-8"))
LADDER = tuple(LEVELS)  # weakest first
KNOB = None
POINTS: dict[str, float] = {}
