"""Write tests/alien_raid/golden.json: seed -> trace hash of complete games, per strategy and
player count. Re-run only for an intended change of behaviour (and bump layout.ENGINE_VERSION):
`python -m tests.alien_raid.make_golden`."""

import json
from pathlib import Path

import numpy as np

from sim.games import get_game
from sim.games.alien_raid.layout import ENGINE_VERSION
from sim.games.base import StrategySpec
from strategies.alien_raid.dispatch import ORDER

PATH = Path(__file__).with_name("golden.json")
SEEDS = range(6)


def traces(keys: list[str] | None = None) -> dict:
    """{"strategy/players": {seed: hash}} for `keys` (default: every built-in, 2 and 4 players)."""
    game = get_game("alien-raid")
    ruleset = game.load_ruleset("alien-raid")
    keys = keys or [f"{name}/{players}" for name in ORDER for players in (2, 4)]
    out = {}
    for key in keys:
        name, players = key.split("/")
        seats = np.zeros((len(SEEDS), int(players)), np.int64)
        chunk = game.play_chunk(
            ruleset, int(players), [StrategySpec(name)], seats, np.array(SEEDS), trace=True
        )
        assert not chunk.errors, chunk.errors
        out[key] = {str(s): int(h) for s, h in zip(SEEDS, chunk.games["trace_hash"], strict=True)}
    return out


if __name__ == "__main__":
    doc = {"engine_version": ENGINE_VERSION, "traces": traces()}
    PATH.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {PATH}")
