"""Write tests/golden/traces.json: seed -> turn-by-turn trace hash of complete games, for
each preset x built-in strategy and ladder level. Re-run only when a change of behaviour is
intended (and bump layout.ENGINE_VERSION): `python tests/golden/make_golden.py`; a new
strategy's traces are added to the file by `python tests/golden/make_golden.py --add`."""

import json
from pathlib import Path

import numpy as np

from sim.games import get_game
from sim.games.base import StrategySpec
from sim.games.guardians.layout import ENGINE_VERSION
from strategies.guardians.dispatch import ORDER
from strategies.guardians.registry import SKILLS

PATH = Path(__file__).with_name("traces.json")
SEEDS = range(12)
PLAYERS = 4


def all_keys() -> list[str]:
    """Every preset x built-in strategy and ladder level, as "preset/strategy"."""
    names = dict.fromkeys(ORDER + SKILLS)
    return [f"{preset}/{name}" for preset in get_game("guardians").presets for name in names]


def traces(keys: list[str] | None = None) -> dict:
    """{"preset/strategy": {seed: hash}} for `keys` (default: every preset x built-in and
    ladder level)."""
    game = get_game("guardians")
    keys = keys or all_keys()
    out = {}
    for key in keys:
        preset, name = key.split("/")
        ruleset = game.load_ruleset(preset)
        seats = np.zeros((len(SEEDS), PLAYERS), np.int64)
        chunk = game.play_chunk(
            ruleset, PLAYERS, [StrategySpec(name)], seats, np.array(SEEDS), trace=True
        )
        assert not chunk.errors, chunk.errors
        hashes = [int(h) for h in chunk.games["trace_hash"]]
        out[key] = dict(zip(map(str, SEEDS), hashes, strict=True))
    return out


if __name__ == "__main__":
    import sys

    if "--add" in sys.argv:  # record only what the file lacks; the rest is left as recorded
        doc = json.loads(PATH.read_text())
        missing = [key for key in all_keys() if key not in doc["traces"]]
        doc["traces"].update(traces(missing) if missing else {})
    else:
        doc = {"engine_version": ENGINE_VERSION, "players": PLAYERS, "traces": traces()}
    PATH.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {PATH}")
