"""Complete games still play exactly as recorded (speed work must not change a game), and
the compiled code plays the same games as its plain-Python execution."""

import pytest

from sim.games.guardians.layout import ENGINE_VERSION
from tests.games.guardians.golden import PATH, PLAYTHROUGHS, playthrough, playthrough_keys, traces
from tests.goldens import PROBE_HEAD, check_playthrough, check_traces, probe


def test_golden_traces_are_unchanged():
    check_traces(PATH, ENGINE_VERSION, traces)


@pytest.mark.parametrize(("preset", "name"), playthrough_keys())
def test_golden_playthroughs_are_unchanged(preset, name):
    """The recorded game, turn by turn; a change shows the first turn that differs."""
    recorded = (PLAYTHROUGHS / f"{preset}-{name}.txt").read_text()
    check_playthrough(f"{preset}/{name}", recorded, playthrough(preset, name), "turn ")


PROBE = (
    PROBE_HEAD
    + """
game = get_game("guardians")
out = {}
for preset in game.presets:
    ch = game.play_chunk(game.load_ruleset(preset), 3, [StrategySpec("random"),
        StrategySpec("greedy")], np.array([[0, 1, 1], [1, 0, 0]] * 2), np.arange(4), trace=True)
    out[preset] = [int(h) for h in ch.games["trace_hash"]]
print(json.dumps(out))
"""
)


def test_compiled_and_plain_python_play_the_same_games():
    plain, compiled = probe(PROBE, disable_jit=True), probe(PROBE, disable_jit=False)
    assert plain == compiled
    assert all(len(set(hashes)) == len(hashes) for hashes in plain.values())
