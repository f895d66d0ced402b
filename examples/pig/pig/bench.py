"""How fast Pig plays on one core: `sim bench --game pig` prints `bench_rows()`, two-player
games of each benched lineup on the `pig` preset, played by the plain-Python rules (what a
designer's first plug-in runs at) and by the compiled loop (the same games).

Each row times `play_chunk` alone, after a warm-up (the roll tables built, the loop compiled),
on the wall clock and on this process's CPU time (the per-core cost on a machine shared with
other work): the median of repeated batches, each of different seeds.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

LINEUPS = ("steady", "optimal")  # every seat plays the level
ENGINES = ("python", "compiled")
GAMES = {"python": (1000, 4000), "compiled": (50_000, 400_000)}  # (quick, full) per batch


def bench_rows(*, quick: bool = False) -> list[dict]:
    """Rows {game, preset, players, strategy, engine, games, repeats, games_per_s_per_core,
    games_per_cpu_s, turns_per_game}, one per lineup and engine."""
    from pig.plugin import GAME
    from sim.games.base import StrategySpec

    ruleset = GAME.load_ruleset("pig")
    rows = []
    for name in LINEUPS:
        lineup = [StrategySpec(name)]
        GAME.prepare(lineup)
        for engine in ENGINES:
            games = GAMES[engine][0 if quick else 1]
            rows.append(_rate(ruleset, lineup, engine, games, repeats=3 if quick else 5))
    return rows


def _rate(ruleset, lineup, engine: str, games: int, *, repeats: int) -> dict:
    from pig.play import play_chunk, play_chunk_python

    play = play_chunk_python if engine == "python" else play_chunk
    seats = np.zeros((games, 2), np.int64)

    def batch(first: int, n: int) -> tuple[float, float, float]:
        seeds = np.arange(first, first + n, dtype=np.uint64)
        wall, cpu = time.perf_counter(), time.process_time()
        chunk = play(ruleset, 2, lineup, seats[:n], seeds)
        return time.perf_counter() - wall, time.process_time() - cpu, chunk.games["turns"].mean()

    batch(0, 20)  # builds the tables, loads the compiled loop
    samples = [batch(10_000_000 * (r + 1), games) for r in range(repeats)]
    return {
        "game": "pig",
        "preset": ruleset.name,
        "players": 2,
        "strategy": f"{lineup[0].name} [{engine}]",
        "engine": engine,
        "games": games,
        "repeats": repeats,
        "games_per_s_per_core": round(statistics.median(games / w for w, _, _ in samples), 1),
        "games_per_cpu_s": round(statistics.median(games / c for _, c, _ in samples), 1),
        "turns_per_game": round(float(statistics.median(t for _, _, t in samples)), 1),
    }
