"""manifest.json: what was run (experiment text, effective rulesets, seeds, versions, chunks)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sim.errors import SimError
from sim.storage.parts import MANIFEST, write_atomic


def read_manifest(root: str | Path) -> dict[str, Any] | None:
    """The manifest of a results folder, or None when there is none."""
    path = Path(root) / MANIFEST
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise SimError(f"cannot read the manifest: {exc}", file=path) from None


def write_manifest(root: str | Path, manifest: dict[str, Any]) -> None:
    text = json.dumps(manifest, indent=1, sort_keys=False, default=_default)
    write_atomic(Path(root) / MANIFEST, text.encode("utf-8"))


def _default(value: Any) -> Any:
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, tuple | set):
        return list(value)
    return str(value)
