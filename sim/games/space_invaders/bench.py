"""How fast Space Invaders plays on this machine: `sim bench --game space-invaders` prints
`bench_rows()`, one row per strategy (two-player Standard games per second on one core, timed
after a warm-up, the median of repeats). The kernel is timed alone (the compiled batch loop)
and through play_chunk (the columns included), on the wall clock and on this process's CPU
time (the per-core cost on a machine shared with other work)."""

from __future__ import annotations

import statistics
import time
from typing import Any

import numpy as np

STRATEGIES = ("naive", "tactical", "planner")


def bench_rows(*, quick: bool = False, players: int = 2, level: str = "standard") -> list[dict]:
    """Rows {game, preset, level, players, strategy, games_per_s_per_core, games_per_cpu_s,
    chunk_games_per_s, launches_per_game, games, repeats} for each built-in strategy."""
    from sim.games.space_invaders.plugin import GAME

    ruleset = GAME.load_ruleset(GAME.presets[0], {"setup.level": level})
    seconds, repeats = (0.5, 3) if quick else (2.0, 5)
    return [_row(ruleset, name, players, seconds, repeats) for name in STRATEGIES]


def _row(ruleset, name: str, players: int, seconds: float, repeats: int) -> dict[str, Any]:
    from sim.games.base import StrategySpec
    from sim.games.space_invaders import layout as L
    from sim.games.space_invaders.kernel import G_LAUNCHES, GAME_COLUMNS, play_batch
    from sim.games.space_invaders.params import to_params
    from sim.games.space_invaders.play import lineup_arrays, play_chunk, prepare

    lineup = [StrategySpec(name)]
    prepare(lineup)
    p, arrays = to_params(ruleset.values, players), lineup_arrays(lineup)

    def kernel(n: int, start: int) -> tuple[float, float, float]:
        """Wall and CPU seconds for n games from seed `start`, and their mean launches."""
        games = np.zeros((n, len(GAME_COLUMNS)), np.int64)
        seats = np.zeros((n, players, L.PL_SIZE), np.int64)
        seeds = np.arange(start, start + n, dtype=np.uint64)
        table = np.zeros((n, players), np.int64)
        began, cpu = time.perf_counter(), time.process_time()
        play_batch(p, players, seeds, table, *arrays, games, seats, False)
        took = (time.perf_counter() - began, time.process_time() - cpu)
        return *took, float(games[:, G_LAUNCHES].mean())

    kernel(50, 0)  # warm-up
    n = max(200, int(seconds * 200 / max(kernel(200, 0)[0], 1e-9)))
    samples = [kernel(n, 1_000_000 * (r + 1)) for r in range(repeats)]
    chunk = min(n, 20_000)
    began = time.perf_counter()
    play_chunk(ruleset, players, lineup, np.zeros((chunk, players), np.int64), np.arange(chunk))
    return {
        "game": "space-invaders",
        "preset": ruleset.name,
        "level": ruleset["setup.level"],
        "players": players,
        "strategy": name,
        "games": n,
        "repeats": repeats,
        "games_per_s_per_core": round(statistics.median(n / wall for wall, _, _ in samples), 1),
        "games_per_cpu_s": round(statistics.median(n / cpu for _, cpu, _ in samples), 1),
        "chunk_games_per_s": round(chunk / (time.perf_counter() - began), 1),
        "launches_per_game": round(statistics.mean(launches for _, _, launches in samples), 1),
    }
