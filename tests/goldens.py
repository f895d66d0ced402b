"""Golden files of any game: trace hashes of whole games (a hash of the state after every
turn, from the plug-in's `play_chunk(..., trace=True)`), readable playthroughs (`sim play`'s
text), the first turn in which a game differs from its recording, and the check that the
compiled code plays the same games as its plain-Python execution (NUMBA_DISABLE_JIT=1).
A game's golden module says what is recorded; this one records and compares."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim.games import get_game
from sim.games.base import StrategySpec, watch

ROOT = Path(__file__).resolve().parents[1]


def folder(package: str) -> Path:
    """Where a game's golden files live: tests/golden/<package>/."""
    return ROOT / "tests" / "golden" / package


def trace_hashes(game: str, ruleset, players: int, strategy: str, seeds) -> dict[str, int]:
    """{seed: trace hash} of the games of `seeds`, `strategy` in every seat."""
    plugin = get_game(game)
    seeds = np.array(list(seeds))
    seats = np.zeros((len(seeds), players), np.int64)
    chunk = plugin.play_chunk(ruleset, players, [StrategySpec(strategy)], seats, seeds,
                              trace=True)  # fmt: skip
    assert not chunk.errors, chunk.errors
    hashes = [int(h) for h in chunk.games["trace_hash"]]
    return dict(zip(map(str, seeds), hashes, strict=True))


def playthrough(game: str, ruleset, lineup: list[str], seed: int = 0) -> str:
    """One game told turn by turn, as `sim play` prints it."""
    return watch(get_game(game), ruleset, [StrategySpec(name) for name in lineup], seed).text


def check_traces(path: Path, engine_version: int, traces) -> None:
    """Every recorded trace of the golden file at `path` played again by `traces(keys)` (key ->
    hash) and unchanged; a bumped engine version says to regenerate the file instead."""
    doc = json.loads(path.read_text())
    assert doc["engine_version"] == engine_version, "engine version bumped: regenerate goldens"
    now = traces(list(doc["traces"]))
    for key, recorded in doc["traces"].items():
        assert now.get(key) == recorded, f"{key}: games differ from the golden traces"


def check_playthrough(label: str, recorded: str, now: str, turn: str) -> None:
    """Fail with the first turn that differs when a game no longer plays as recorded."""
    if now != recorded:
        pytest.fail(f"{label}: the game differs from its golden playthrough\n"
                    + first_difference(recorded, now, turn))  # fmt: skip


def first_difference(recorded: str, now: str, turn: str) -> str:
    """The first block (a turn: a line starting with `turn`) that differs, as recorded and as
    played; `turn` is how the game's playthrough starts a turn ('turn ', '--- ')."""
    old, new = recorded.split(f"\n{turn}"), now.split(f"\n{turn}")
    for k, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            return f"recorded:\n{turn}{a}\nnow:\n{turn}{b}" if k else f"recorded:\n{a}\nnow:\n{b}"
    return f"the game is {len(new) - 1} turns long, recorded {len(old) - 1}"


def write(path: Path, doc: dict) -> None:
    path.write_text(json.dumps(doc, indent=1) + "\n")


def probe(code: str, *, disable_jit: bool) -> object:
    """Run `code` (it prints JSON last) in a new process, compiled or as plain Python; the
    JSON it printed."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1" if disable_jit else "0", PYTHONPATH=str(ROOT))
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


# the start of a probe: warnings off (the generators' uint64 arithmetic wraps on purpose)
PROBE_HEAD = """
import json, warnings, numpy as np
warnings.simplefilter("ignore")
np.seterr(all="ignore")
from sim.games import get_game
from sim.games.base import StrategySpec
"""
