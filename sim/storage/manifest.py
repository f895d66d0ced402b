"""manifest.json: what was run (experiment text, effective rulesets, seeds, versions, chunks)."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sim.errors import SimError
from sim.storage.journal import fold
from sim.storage.parts import MANIFEST, write_atomic

# what every manifest `sim run` writes holds; a folder without them is not the lab's
REQUIRED_KEYS = ("format", "fingerprint", "arms")


def read_manifest(root: str | Path) -> dict[str, Any] | None:
    """The manifest of a results folder, or None when there is none.

    A manifest.json that is not one `sim run` wrote (not JSON, not an object, no arms) is a
    SimError naming the file: nothing is resumed into, replayed from or deleted in its folder.
    The chunks a run stored since it last wrote the manifest are read from its journal
    (sim.storage.journal).
    """
    path = Path(root) / MANIFEST
    if not path.is_file():
        return None
    found = load_json(path)
    problem = manifest_problem(found)
    if problem:
        raise SimError(
            f"not a manifest written by `sim run` ({problem})",
            file=path,
            hint="Point at a folder `sim run` wrote; for a new run choose another --out "
            "(the lab never deletes files it did not write).",
        )
    return fold(root, found)


def load_json(path: Path) -> Any:
    """A manifest file parsed; one that is not UTF-8 JSON (or nests past Python's limits) is a
    SimError naming it."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:  # decoding and JSON errors: ValueError
        raise SimError(f"cannot read the manifest: {exc}", file=path) from None


@contextmanager
def fields_of(path: Path) -> Iterator[None]:
    """Reading a manifest's fields: one missing or of the wrong kind (a file damaged or edited
    by hand) is a SimError naming the file, not a traceback."""
    try:
        yield
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise SimError(
            f"not a manifest written by `sim run` (a field is missing or of the wrong kind: "
            f"{type(exc).__name__}: {exc})",
            file=path,
            hint="Point at a folder `sim run` wrote; a manifest edited by hand can be "
            "restored by running the same `sim run` again in a new folder.",
        ) from None


def manifest_problem(found: Any) -> str | None:
    """Why `found` is not a manifest the lab wrote, or None."""
    if not isinstance(found, dict):
        kind = "a list" if isinstance(found, list) else f"a {type(found).__name__}"
        return f"{kind}, expected a JSON object"
    missing = [k for k in REQUIRED_KEYS if k not in found]
    if missing:
        return "no " + ", no ".join(missing)
    arms = found["arms"]
    if not isinstance(arms, list) or not arms:
        return "no list of arms"
    for i, arm in enumerate(arms):
        if not isinstance(arm, dict) or not isinstance(arm.get("name"), str):
            return f"arms[{i}] has no name"
        if arm.get("index") != i:
            return f"arms[{i}] has index {arm.get('index')!r}"
    if not isinstance(found.get("chunks", []), list):  # older manifests have none
        return "chunks is not a list"
    return None


def write_manifest(root: str | Path, manifest: dict[str, Any]) -> None:
    text = json.dumps(manifest, indent=1, sort_keys=False, default=_default)
    write_atomic(Path(root) / MANIFEST, text.encode("utf-8"), what="the manifest")


def _default(value: Any) -> Any:
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, tuple | set):
        return list(value)
    return str(value)


def flat_keys(nested: Any, prefix: str = "") -> dict[str, Any]:
    """A nested mapping as dotted keys: {'missile': {'cost': 8}} -> {'missile.cost': 8}."""
    out: dict[str, Any] = {}
    if isinstance(nested, dict):
        for k, v in nested.items():
            key = f"{prefix}.{k}" if prefix else str(k)
            if isinstance(v, dict) and v:
                out.update(flat_keys(v, key))
            else:
                out[key] = v
    return out


def ruleset_values(entry: dict[str, Any]) -> dict[str, Any]:
    """An arm's effective rule keys (dotted) from its manifest entry; {} when unknown."""
    for key in ("ruleset_values", "rules_effective", "ruleset_effective"):
        if isinstance(entry.get(key), dict):
            return flat_keys(entry[key])
    text = entry.get("ruleset_yaml")
    return dict(_ruleset_keys(text)) if isinstance(text, str) else {}


@functools.lru_cache(maxsize=64)
def _ruleset_keys(text: str) -> dict[str, Any]:
    """The dotted keys of a ruleset's YAML (parsed once a text: every load of a results folder
    reads each arm's; callers get a copy)."""
    try:
        from sim import safe_yaml

        return flat_keys(safe_yaml.load(text) or {})
    except Exception:  # noqa: BLE001 - a malformed copy only loses the defaults
        return {}
