"""How fast alien-raid games play on one core: rows for `sim bench`.

`bench_rows()` times whole games of each strategy (every seat the same) and of the naive pool
(naive and random captains alternating), after a warm-up that compiles or loads the game loop;
each figure is the median of `repeats` runs. Run it alone with
`python -m sim.games.alien_raid.bench [--games N] [--repeats R]`.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np

GAME = "alien-raid"
PRESET = "alien-raid"
POOLS = {
    "naive pool": ("naive", "random"),
    "random": ("random",),
    "naive": ("naive",),
    "value": ("value",),
    "planner": ("planner",),
    "strong": ("strong",),
}
SLOW = {"value": 0.1, "planner": 0.1, "strong": 0.02}  # share of `games` for slow strategies


def rate(pool: tuple[str, ...], *, games: int, repeats: int, players: int = 4) -> dict[str, Any]:
    """Games/s per core of `pool` (seat k plays pool[(k + game) % len(pool)])."""
    from sim.games import get_game
    from sim.games.base import StrategySpec

    game = get_game(GAME)
    ruleset = game.load_ruleset(PRESET)
    lineup = [StrategySpec(name) for name in pool]
    rows = np.array([[(k + g) % len(pool) for k in range(players)] for g in range(games)])
    game.play_chunk(ruleset, players, lineup, rows[:10], np.arange(10))  # warm-up
    samples = []
    for rep in range(repeats):
        seeds = np.arange(rep * games, (rep + 1) * games)
        start = time.perf_counter()
        game.play_chunk(ruleset, players, lineup, rows, seeds)
        samples.append(games / (time.perf_counter() - start))
    return {
        "game": GAME,
        "preset": PRESET,
        "players": players,
        "strategy": "+".join(pool),
        "games": games,
        "repeats": repeats,
        "games_per_s_per_core": round(statistics.median(samples), 1),
    }


def bench_rows(*, games: int = 4000, repeats: int = 3, pools: tuple[str, ...] = tuple(POOLS)):
    """One row per pool (see POOLS); slow strategies play a share of `games`."""
    out = []
    for name in pools:
        n = max(20, int(games * SLOW.get(name, 1.0)))
        row = rate(POOLS[name], games=n, repeats=repeats)
        row["pool"] = name
        out.append(row)
    return out


def main() -> None:  # pragma: no cover - a command-line wrapper
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pools", default=",".join(POOLS))
    args = parser.parse_args()
    rows = bench_rows(games=args.games, repeats=args.repeats, pools=tuple(args.pools.split(",")))
    for row in rows:
        print(
            f"{row['pool']:12s} {row['games_per_s_per_core']:>10,.1f} games/s per core "
            f"({row['players']} players, {row['games']} games x {row['repeats']})"
        )


if __name__ == "__main__":  # pragma: no cover
    main()
