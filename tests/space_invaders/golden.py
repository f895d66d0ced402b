"""Golden trace hashes of complete Space Invaders games: seed -> turn-by-turn state hash, for
each built-in strategy on a few rulesets. Re-write them only when a change of behaviour is
intended (and bump layout.ENGINE_VERSION): `python -m tests.space_invaders.golden`."""

import json
from pathlib import Path

import numpy as np

from sim.games import get_game
from sim.games.base import StrategySpec
from sim.games.space_invaders.layout import ENGINE_VERSION
from strategies.space_invaders.dispatch import ORDER

PATH = Path(__file__).with_name("golden_traces.json")
SEEDS = range(8)
CASES = {  # name -> (players, rule overrides)
    "standard-2p": (2, {}),
    "elite-4p-child": (4, {"setup.level": "elite", "dexterity.skill": "child"}),
    "solo-3-hands": (1, {"setup.solo_hands": 3, "setup.level": "expert"}),
}


def traces(keys: list[str] | None = None) -> dict:
    """{"case/strategy": {seed: hash}} for `keys` (default: every case x built-in)."""
    game = get_game("space-invaders")
    keys = keys or [f"{case}/{name}" for case in CASES for name in ORDER]
    out = {}
    for key in keys:
        case, name = key.split("/")
        players, rules = CASES[case]
        ruleset = game.load_ruleset("space-invaders", rules)
        seats = np.zeros((len(SEEDS), players), np.int64)
        chunk = game.play_chunk(
            ruleset, players, [StrategySpec(name)], seats, np.array(SEEDS), trace=True
        )
        assert not chunk.errors, chunk.errors
        out[key] = {str(s): int(h) for s, h in zip(SEEDS, chunk.games["trace_hash"], strict=True)}
    return out


if __name__ == "__main__":
    PATH.write_text(
        json.dumps({"engine_version": ENGINE_VERSION, "traces": traces()}, indent=1) + "\n"
    )
    print(f"wrote {PATH}")
