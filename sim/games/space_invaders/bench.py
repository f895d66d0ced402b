"""How fast Space Invaders plays on this machine: `bench_rows()` gives one row per strategy
(games per second on one core, timed after a warm-up, the median of repeats), for the lead
to add to `sim bench`. Run it alone: `python -m sim.games.space_invaders.bench`."""

from __future__ import annotations

import statistics
import time

import numpy as np


def bench_rows(
    *,
    strategies: tuple[str, ...] = ("naive", "tactical", "planner"),
    players: int = 2,
    level: str = "standard",
    seconds: float = 2.0,
    repeats: int = 5,
) -> list[dict]:
    """Rows {game, preset, level, players, strategy, games_per_s_per_core, launches_per_game,
    kernel_games_per_s, chunk_games_per_s}. `kernel` times the compiled batch loop alone;
    `chunk` the plug-in's play_chunk (columns included) on chunks of 20,000 games."""
    from sim.games import get_game
    from sim.games.base import StrategySpec
    from sim.games.space_invaders import layout as L
    from sim.games.space_invaders.kernel import G_LAUNCHES, GAME_COLUMNS, play_batch
    from sim.games.space_invaders.params import to_params
    from sim.games.space_invaders.plugin import _lineup_arrays

    game = get_game("space-invaders")
    ruleset = game.load_ruleset("space-invaders", {"setup.level": level})
    p = to_params(ruleset.values, players)
    rows = []

    def kernel(lineup, n: int, start: int) -> tuple[float, float]:
        """Seconds for n games from seed `start`, and their mean launches."""
        seeds = np.arange(start, start + n, dtype=np.uint64)
        games = np.zeros((n, len(GAME_COLUMNS)), np.int64)
        seats = np.zeros((n, players, L.PL_SIZE), np.int64)
        table = np.zeros((n, players), np.int64)
        began = time.perf_counter()
        play_batch(p, players, seeds, table, *lineup, games, seats, False)
        return time.perf_counter() - began, float(games[:, G_LAUNCHES].mean())

    for name in strategies:
        lineup = _lineup_arrays([StrategySpec(name)])
        kernel(lineup, 50, 0)  # compile or load
        took, _ = kernel(lineup, 200, 0)
        n = max(200, int(seconds * 200 / max(took, 1e-9)))
        rates, launches = [], []
        for r in range(repeats):
            took, per_game = kernel(lineup, n, 1_000_000 * (r + 1))
            rates.append(n / took)
            launches.append(per_game)
        chunk = min(n, 20_000)
        began = time.perf_counter()
        game.play_chunk(
            ruleset,
            players,
            [StrategySpec(name)],
            np.zeros((chunk, players), np.int64),
            np.arange(chunk),
        )
        rows.append(
            {
                "game": "space-invaders",
                "preset": ruleset.name,
                "level": level,
                "players": players,
                "strategy": name,
                "games_per_s_per_core": statistics.median(rates),
                "kernel_games_per_s": statistics.median(rates),
                "chunk_games_per_s": chunk / (time.perf_counter() - began),
                "launches_per_game": statistics.mean(launches),
            }
        )
    return rows


if __name__ == "__main__":
    for row in bench_rows():
        print(
            f"{row['strategy']:>9}: {row['games_per_s_per_core']:>9,.0f} games/s per core "
            f"(play_chunk {row['chunk_games_per_s']:,.0f}), "
            f"{row['launches_per_game']:.1f} launches a game"
        )
