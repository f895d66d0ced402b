"""Write the golden files, for each preset x built-in strategy and ladder level:
tests/golden/guardians/traces.json (seed -> turn-by-turn trace hash of 12 complete four-player
games)
and, per preset x built-in strategy, a readable playthrough of one two-player game
(tests/golden/guardians/playthroughs/<preset>-<strategy>.txt: the board, the action and the scores
after every turn, as `sim play` prints them). Re-run only when a change of behaviour is
intended (and bump layout.ENGINE_VERSION): `python -m tests.games.guardians.golden`; a new
strategy's files are added, the rest left as recorded, by `... make_golden --add`."""

import json
from pathlib import Path

from sim.games import get_game
from sim.games.guardians.layout import ENGINE_VERSION
from strategies.guardians.registry import BUILTIN, SKILLS
from tests import goldens
from tests.goldens import trace_hashes

PATH = goldens.folder("guardians") / "traces.json"
PLAYTHROUGHS = goldens.folder("guardians") / "playthroughs"
SEEDS = range(12)
PLAYERS = 4


def all_keys() -> list[str]:
    """Every preset x built-in strategy and ladder level, as "preset/strategy"."""
    names = dict.fromkeys(BUILTIN + SKILLS)
    return [f"{preset}/{name}" for preset in get_game("guardians").presets for name in names]


def traces(keys: list[str] | None = None) -> dict:
    """{"preset/strategy": {seed: hash}} for `keys` (default: every preset x built-in and
    ladder level)."""
    game = get_game("guardians")
    out = {}
    for key in keys or all_keys():
        preset, name = key.split("/")
        out[key] = trace_hashes("guardians", game.load_ruleset(preset), PLAYERS, name, SEEDS)
    return out


def playthrough(preset: str, name: str) -> str:
    """One two-player game of `name` against itself (seed 0), told turn by turn."""
    return goldens.playthrough("guardians", get_game("guardians").load_ruleset(preset),
                               [name, name], seed=0)  # fmt: skip


def playthrough_keys() -> list[tuple[str, str]]:
    return [(preset, name) for preset in get_game("guardians").presets for name in BUILTIN]


def playthrough_path(preset: str, name: str) -> Path:
    return PLAYTHROUGHS / f"{preset}-{name}.txt"


if __name__ == "__main__":
    import sys

    add = "--add" in sys.argv  # record only what is missing; the rest is left as recorded
    if add:
        doc = json.loads(PATH.read_text())
        missing = [key for key in all_keys() if key not in doc["traces"]]
        doc["traces"].update(traces(missing) if missing else {})
    else:
        doc = {"engine_version": ENGINE_VERSION, "players": PLAYERS, "traces": traces()}
    PATH.write_text(json.dumps(doc, indent=1) + "\n")
    PLAYTHROUGHS.mkdir(exist_ok=True)
    for preset, name in playthrough_keys():
        if not (add and playthrough_path(preset, name).exists()):
            playthrough_path(preset, name).write_text(playthrough(preset, name))
    print(f"wrote {PATH} and {PLAYTHROUGHS}/")
