"""Complete games still play exactly as recorded (speed work must not change a game), and
the compiled code plays the same games as its plain-Python execution."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.games.guardians.layout import ENGINE_VERSION
from tests.golden.make_golden import PATH, PLAYTHROUGHS, playthrough, playthrough_keys, traces

ROOT = Path(__file__).resolve().parents[1]


def test_golden_traces_are_unchanged():
    doc = json.loads(PATH.read_text())
    assert doc["engine_version"] == ENGINE_VERSION, "engine version bumped: regenerate goldens"
    now = traces(list(doc["traces"]))
    for key, recorded in doc["traces"].items():
        assert now.get(key) == recorded, f"{key}: games differ from the golden traces"


@pytest.mark.parametrize(("preset", "name"), playthrough_keys())
def test_golden_playthroughs_are_unchanged(preset, name):
    """The recorded game, turn by turn; a change shows the first turn that differs."""
    recorded = (PLAYTHROUGHS / f"{preset}-{name}.txt").read_text()
    now = playthrough(preset, name)
    if now != recorded:
        pytest.fail(f"{preset}/{name}: the game differs from its golden playthrough\n"
                    + _first_difference(recorded, now))  # fmt: skip


def _first_difference(recorded: str, now: str) -> str:
    """The first turn (a block starting 'turn N') that differs, as recorded and as played."""
    old, new = recorded.split("\nturn "), now.split("\nturn ")
    for k, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            return f"recorded:\nturn {a}\nnow:\nturn {b}" if k else f"recorded:\n{a}\nnow:\n{b}"
    return f"the game is {len(new) - 1} turns long, recorded {len(old) - 1}"


PROBE = """
import json, warnings, numpy as np
warnings.simplefilter("ignore")
np.seterr(all="ignore")  # the generator's uint64 arithmetic wraps on purpose
from sim.games import get_game
from sim.games.base import StrategySpec
game = get_game("guardians")
out = {}
for preset in game.presets:
    ch = game.play_chunk(game.load_ruleset(preset), 3, [StrategySpec("random"),
        StrategySpec("greedy")], np.array([[0, 1, 1], [1, 0, 0]] * 2), np.arange(4), trace=True)
    out[preset] = [int(h) for h in ch.games["trace_hash"]]
print(json.dumps(out))
"""


def _hashes(disable_jit: str) -> dict:
    env = dict(os.environ, NUMBA_DISABLE_JIT=disable_jit, PYTHONPATH=str(ROOT))
    run = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_compiled_and_plain_python_play_the_same_games():
    plain, compiled = _hashes("1"), _hashes("0")
    assert plain == compiled
    assert all(len(set(hashes)) == len(hashes) for hashes in plain.values())
