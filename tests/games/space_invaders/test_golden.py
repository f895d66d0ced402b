"""Complete games still play exactly as recorded (speed work must not change a game), told
turn by turn for the readable playthroughs; and the compiled code plays the same games as its
plain-Python execution (NUMBA_DISABLE_JIT=1)."""

import pytest

from sim.games.space_invaders.layout import ENGINE_VERSION
from sim.games.space_invaders.schema import TEAM_SKILLS
from tests.games.space_invaders.golden import PATH, PLAYTHROUGHS, played, traces
from tests.goldens import PROBE_HEAD, check_playthrough, check_traces, probe


def test_golden_traces_are_unchanged():
    check_traces(PATH, ENGINE_VERSION, traces)


@pytest.mark.parametrize("name", TEAM_SKILLS)
def test_golden_playthroughs_are_unchanged(name):
    """The recorded game, round by round; a change shows the first turn that differs."""
    recorded = (PLAYTHROUGHS / f"{name}.txt").read_text()
    check_playthrough(name, recorded, played(name), "--- ")


PROBE = (
    PROBE_HEAD
    + """
game = get_game("space-invaders")
ruleset = game.load_ruleset("space-invaders", {"setup.level": "expert"})
ch = game.play_chunk(ruleset, 3, [StrategySpec("naive"), StrategySpec("tactical"),
    StrategySpec("planner")], np.array([[0, 1, 2], [2, 1, 0]]), np.arange(2), trace=True)
print(json.dumps([int(h) for h in ch.games["trace_hash"]]))
"""
)


def test_compiled_and_plain_python_play_the_same_games():
    plain, compiled = probe(PROBE, disable_jit=True), probe(PROBE, disable_jit=False)
    assert plain == compiled
    assert len(set(plain)) == len(plain)
