"""Golden files of complete Space Invaders games, for each built-in strategy on a few
rulesets: tests/golden/space_invaders/traces.json (seed -> turn-by-turn state hash) and, per
strategy, a readable playthrough of one two-player Standard game
(tests/golden/space_invaders/playthroughs/<strategy>.txt, as `sim play` prints it). Re-write them
only when a change of behaviour is intended (and bump layout.ENGINE_VERSION):
`python -m tests.games.space_invaders.golden`."""

from sim.games.space_invaders.layout import ENGINE_VERSION
from sim.games.space_invaders.ruleset import load_ruleset
from sim.games.space_invaders.schema import TEAM_SKILLS
from tests import goldens
from tests.goldens import playthrough, trace_hashes, write

GAME = "space-invaders"
PATH = goldens.folder("space_invaders") / "traces.json"
PLAYTHROUGHS = goldens.folder("space_invaders") / "playthroughs"
SEEDS = range(8)
# one level-1 token each and six level-3 ones: from the first reinforcement on, every token
# added is level 3 (the heal and three-tries decisions,
# tests/games/space_invaders/test_strategy_powers)
LEVEL3_EARLY = {
    "tokens.per_level": [1, 0, 6],
    "tokens.start_active": 1,
    "tokens.start_active_2p": 1,
}
CASES = {  # name -> (players, rule overrides)
    "standard-2p": (2, {}),
    "elite-4p-child": (4, {"setup.level": "elite", "dexterity.skill": "child"}),
    "solo-3-hands": (1, {"setup.solo_hands": 3, "setup.level": "expert"}),
    "level3-2p": (2, LEVEL3_EARLY),
}


def traces(keys: list[str] | None = None) -> dict:
    """{"case/strategy": {seed: hash}} for `keys` (default: every case x built-in)."""
    keys = keys or [f"{case}/{name}" for case in CASES for name in TEAM_SKILLS]
    out = {}
    for key in keys:
        case, name = key.split("/")
        players, rules = CASES[case]
        out[key] = trace_hashes(GAME, load_ruleset(GAME, rules), players, name, SEEDS)
    return out


def played(name: str) -> str:
    """The two-player Standard game of seed 0 with `name` at both seats, turn by turn."""
    return playthrough(GAME, load_ruleset(GAME), [name, name], seed=0)


if __name__ == "__main__":
    write(PATH, {"engine_version": ENGINE_VERSION, "traces": traces()})
    PLAYTHROUGHS.mkdir(exist_ok=True)
    for name in TEAM_SKILLS:
        (PLAYTHROUGHS / f"{name}.txt").write_text(played(name))
    print(f"wrote {PATH} and {PLAYTHROUGHS}/")
