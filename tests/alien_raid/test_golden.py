"""Complete games still play exactly as recorded, and the compiled code plays the same games
as its plain-Python execution (NUMBA_DISABLE_JIT=1)."""

import json
import os
import subprocess
import sys
from pathlib import Path

from sim.games.alien_raid.layout import ENGINE_VERSION
from tests.alien_raid.make_golden import PATH, traces

ROOT = Path(__file__).resolve().parents[2]


def test_golden_traces_are_unchanged():
    doc = json.loads(PATH.read_text())
    assert doc["engine_version"] == ENGINE_VERSION, "engine version bumped: regenerate goldens"
    now = traces(list(doc["traces"]))
    for key, recorded in doc["traces"].items():
        assert now.get(key) == recorded, f"{key}: games differ from the golden traces"


PROBE = """
import json, warnings, numpy as np
warnings.simplefilter("ignore")
np.seterr(all="ignore")  # the generator's uint64 arithmetic wraps on purpose
from sim.games import get_game
from sim.games.base import StrategySpec
game = get_game("alien-raid")
lineup = [StrategySpec(n) for n in ("random", "naive", "value", "planner", "strong")]
ch = game.play_chunk(game.load_ruleset("alien-raid"), 5, lineup,
                     np.array([[0, 1, 2, 3, 4], [4, 3, 2, 1, 0]]), np.arange(2), trace=True)
print(json.dumps([int(h) for h in ch.games["trace_hash"]]))
"""


def _hashes(disable_jit: str) -> list:
    env = dict(os.environ, NUMBA_DISABLE_JIT=disable_jit, PYTHONPATH=str(ROOT))
    run = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_compiled_and_plain_python_play_the_same_games():
    plain, compiled = _hashes("1"), _hashes("0")
    assert plain == compiled
    assert len(set(plain)) == 2
