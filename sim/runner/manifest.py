"""The manifest a run writes (see docs/results.md): the experiment, its arms, seeds, versions,
the history of runs on the folder, and every stored chunk with its parts' records."""

from __future__ import annotations

import functools
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sim.experiment.model import Arm, Experiment
from sim.seeds import DERIVATION, root_keys
from sim.storage import read_manifest

MANIFEST_FORMAT = 1
Key = tuple[int, int, int]  # (arm index, start, stop)


def freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


def chunk_list(
    stored: dict[int, list[tuple[int, int]]],
    seconds: dict[Key, float],
    records: dict[Key, dict[str, Any]],
) -> list[dict[str, Any]]:
    """The manifest's `chunks`: every stored chunk with its seconds and its parts' records."""
    return [
        {
            "arm": arm,
            "start": a,
            "stop": b,
            "seconds": round(seconds.get((arm, a, b), 0.0), 4),
            **records.get((arm, a, b), {}),
        }  # fmt: skip
        for arm in sorted(stored)
        for a, b in sorted(stored[arm])
    ]


def previous_seconds(manifest: dict[str, Any] | None) -> dict[Key, float]:
    if not manifest:
        return {}
    chunks = manifest.get("chunks", [])
    return {(c["arm"], c["start"], c["stop"]): c.get("seconds", 0.0) for c in chunks}


def new_manifest(exp: Experiment, root: Path,
                 stopped: dict[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    """The manifest of a run starting on `root` (its history kept from the stored one;
    `stopped`: why the last run stopped, when its manifest could not say it)."""
    old = read_manifest(root) or {}
    keys = root_keys(exp.seed)
    return {
        "format": MANIFEST_FORMAT,
        "name": exp.name,
        "status": "running",
        "fingerprint": exp.fingerprint(),
        "experiment_file": exp.file,
        "experiment_text": exp.text,
        "cli_overrides": [list(p) for p in exp.cli_overrides],
        "game": exp.game,
        "games_per_arm": exp.games,
        "baseline": exp.baseline,
        "report": list(exp.report),
        "precision": None
        if exp.precision is None
        else {
            "metric": exp.precision.metric,
            "width": exp.precision.width,
            "step": exp.precision.step,
            "max_games": exp.precision.max_games,
            "settle": exp.precision.settle,
        },
        "tolerances": dict(exp.tolerances),
        "param_columns": [list(c) for c in exp.param_columns],
        "seed": {"root": exp.seed, "keys": [str(k) for k in keys], "derivation": DERIVATION},
        "package_version": _package_version(),
        "git_commit": _git_commit(),
        "created": old.get("created", now()),
        "effective": exp.effective(),
        "arms": [arm_entry(arm) for arm in exp.arms],
        "runs": closed_runs(old.get("runs", []), stopped),
        "illegal_moves": old.get("illegal_moves", {"count": 0, "examples": []}),
        "chunks": [],
    }


def arm_entry(arm: Arm) -> dict[str, Any]:
    return {
        "index": arm.index,
        "name": arm.name,
        "dir": f"arm-{arm.index:03d}",
        "players": arm.players,
        "ruleset": arm.ruleset_name,
        "ruleset_ref": arm.ruleset_ref,
        "overrides": [[k, thaw(v)] for k, v in arm.overrides],
        "ruleset_fingerprint": arm.ruleset.fingerprint(),
        "ruleset_yaml": arm.ruleset.to_yaml(),
        "pool": [spec.label for spec in arm.pool],
        "rotate": arm.rotate,
        "lineup": [spec.label for spec in arm.lineup],
        "lineup_specs": [
            {"name": s.name, "params": [list(p) for p in s.params]} for s in arm.lineup
        ],
        "tables": [list(t) for t in arm.tables],
        "params": dict(arm.params),
        **({"skill": arm.skill, "base_arm": arm.base_arm} if arm.skill is not None else {}),
        "games": 0,
        "target": 0,
    }


def closed_runs(runs: list[Any], stopped: dict[str, Any] | None) -> list[Any]:
    """The runs of the stored manifest, none still `running`: another run holds the folder's
    lock now. The last one `failed` when the lock file recorded why it `stopped` (a full disk
    kept its manifest from saying so); any other was `killed` (kill -9, a crash, a power cut)
    or could not write its manifest at all (a folder gone read-only)."""
    out = [{**e, "status": "killed"} if _running(e) else e for e in runs]
    if stopped and runs and _running(runs[-1]):
        out[-1] = {**runs[-1], "status": "failed", "error": stopped.get("error"),
                   "finished": stopped.get("at")}  # fmt: skip
    return out


def _running(entry: Any) -> bool:
    return isinstance(entry, dict) and entry.get("status") == "running"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@functools.lru_cache(maxsize=1)
def _package_version() -> str:
    try:
        from importlib.metadata import version

        return version("board-game-balance-lab")
    except Exception:  # noqa: BLE001 - not installed: still runnable from a checkout
        return "unknown"


@functools.lru_cache(maxsize=1)
def _git_commit() -> str | None:
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5
        )
        if out.returncode != 0:
            return None
        commit = out.stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=here,
            capture_output=True,
            text=True,
            timeout=5,
        )
        return commit + ("-dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None
