"""Golden files of complete alien-raid games: tests/golden/alien_raid/traces.json (seed -> the
hash of the state after every turn) for each built-in strategy in every seat at 2 and 4
players, and per strategy a readable playthrough of one three-captain game
(tests/golden/alien_raid/playthroughs/<strategy>.txt, as `sim play` prints it). Re-write them only
when a change of behaviour is intended (and bump layout.ENGINE_VERSION):
`python -m tests.games.alien_raid.golden`."""

from sim.games.alien_raid.layout import ENGINE_VERSION
from sim.games.alien_raid.ruleset import load_ruleset
from sim.games.alien_raid.schema import SKILLS
from tests import goldens
from tests.goldens import playthrough, trace_hashes, write

GAME = "alien-raid"
PATH = goldens.folder("alien_raid") / "traces.json"
PLAYTHROUGHS = goldens.folder("alien_raid") / "playthroughs"
SEEDS = range(6)
TURN = "== "  # how a playthrough starts a turn


def traces(keys: list[str] | None = None) -> dict:
    """{"strategy/players": {seed: hash}} for `keys` (default: every built-in, 2 and 4)."""
    keys = keys or [f"{name}/{players}" for name in SKILLS for players in (2, 4)]
    out = {}
    for key in keys:
        name, players = key.split("/")
        out[key] = trace_hashes(GAME, load_ruleset(GAME), int(players), name, SEEDS)
    return out


def played(name: str) -> str:
    """The three-captain game of seed 0 with `name` in every seat, turn by turn."""
    return playthrough(GAME, load_ruleset(GAME), [name] * 3, seed=0)


if __name__ == "__main__":
    write(PATH, {"engine_version": ENGINE_VERSION, "traces": traces()})
    PLAYTHROUGHS.mkdir(exist_ok=True)
    for name in SKILLS:
        (PLAYTHROUGHS / f"{name}.txt").write_text(played(name))
    print(f"wrote {PATH} and {PLAYTHROUGHS}/")
