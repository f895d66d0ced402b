"""When a run stops adding games. Without a stop rule a run plays the experiment's `games`
per arm; with one, the caller's rule (the experiment's `precision`, sim.lab.stops) is asked
each time the arms have played up to their targets, and says which arms play on and up to
how many games. The runner knows no measure or report: the rule reads the stored games."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol


class StopRule(Protocol):
    """`found`: what the rule found so far, by arm (or one entry for all arms), JSON-able: the
    manifest keeps it (`precision_result`) and the run's summary gives it."""

    found: dict[str, dict[str, Any]]

    def more(self, root: Path, targets: Mapping[int, int]) -> dict[int, int]:
        """After the arms of `targets` (arm index -> games) have played that many games into
        `root`: the arms that play on, each with its new target ({} ends the run)."""
        ...
