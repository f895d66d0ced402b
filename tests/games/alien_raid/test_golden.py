"""Complete games still play exactly as recorded (speed work must not change a game), told
turn by turn for the readable playthroughs; and the compiled code plays the same games as its
plain-Python execution (NUMBA_DISABLE_JIT=1)."""

import pytest

from sim.games.alien_raid.layout import ENGINE_VERSION
from sim.games.alien_raid.schema import SKILLS
from tests.games.alien_raid.golden import PATH, PLAYTHROUGHS, TURN, played, traces
from tests.goldens import PROBE_HEAD, check_playthrough, check_traces, probe


def test_golden_traces_are_unchanged():
    check_traces(PATH, ENGINE_VERSION, traces)


@pytest.mark.parametrize("name", SKILLS)
def test_golden_playthroughs_are_unchanged(name):
    """The recorded game, turn by turn; a change shows the first turn that differs."""
    recorded = (PLAYTHROUGHS / f"{name}.txt").read_text()
    check_playthrough(name, recorded, played(name), TURN)


PROBE = (
    PROBE_HEAD
    + """
game = get_game("alien-raid")
lineup = [StrategySpec(n) for n in ("random", "naive", "value", "planner", "strong")]
ch = game.play_chunk(game.load_ruleset("alien-raid"), 5, lineup,
                     np.array([[0, 1, 2, 3, 4], [4, 3, 2, 1, 0]]), np.arange(2), trace=True)
print(json.dumps([int(h) for h in ch.games["trace_hash"]]))
"""
)


def test_compiled_and_plain_python_play_the_same_games():
    plain, compiled = probe(PROBE, disable_jit=True), probe(PROBE, disable_jit=False)
    assert plain == compiled
    assert len(set(plain)) == len(plain)
