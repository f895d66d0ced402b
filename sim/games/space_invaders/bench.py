"""How fast Space Invaders plays on this machine: `sim bench --game space-invaders` prints
`bench_rows()`, one row per strategy (two-player Standard games per second on one core, timed
after a warm-up, the median of repeats). The kernel is timed alone (the compiled batch loop)
and through play_chunk (the columns included), on the wall clock and on this process's CPU
time (the per-core cost on a machine shared with other work). The full bench (not --quick)
adds to each row how long a new process takes to its first game of that strategy alone: on
an empty compile cache (the engine and the strategy compiled) and on a filled one
(`compile_times`, which also times any other lineup, e.g. every strategy at once)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

STRATEGIES = ("naive", "tactical", "planner")


def bench_rows(*, quick: bool = False, players: int = 2, level: str = "standard") -> list[dict]:
    """Rows {game, preset, level, players, strategy, games_per_s_per_core, games_per_cpu_s,
    chunk_games_per_s, launches_per_game, games, repeats} for each built-in strategy; the full
    bench adds compile_cold_s and compile_warm_s (seconds to the first game of a new process
    playing the strategy alone, on an empty and on a filled compile cache)."""
    from sim.games.space_invaders.plugin import GAME

    ruleset = GAME.load_ruleset(GAME.presets[0], {"setup.level": level})
    seconds, repeats = (0.5, 3) if quick else (2.0, 5)
    rows = [_row(ruleset, name, players, seconds, repeats) for name in STRATEGIES]
    if not quick:
        compiled = compile_times(STRATEGIES)
        for row in rows:
            row["compile_cold_s"] = compiled[row["strategy"]]["cold_s"]
            row["compile_warm_s"] = compiled[row["strategy"]]["warm_s"]
    return rows


# a new process: prepare a lineup (argv[1], names joined by commas) and play one game with it
_FIRST_GAME = """
import sys, numpy as np
from sim.games import get_game
from sim.games.base import StrategySpec
game = get_game("space-invaders")
lineup = [StrategySpec(name) for name in sys.argv[1].split(",")]
game.prepare(lineup)
seats = np.arange(2, dtype=np.int64)[None, :] % len(lineup)
game.play_chunk(game.load_ruleset("space-invaders"), 2, lineup, seats, np.arange(1))
"""


def first_game_seconds(lineup: str, cache: str) -> float:
    """Wall seconds of a new process that prepares `lineup` ("naive" or "naive,planner") and
    plays one game, with the compile cache in the folder `cache`."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    began = time.perf_counter()
    subprocess.run([sys.executable, "-c", _FIRST_GAME, lineup], env=env, check=True)
    return round(time.perf_counter() - began, 1)


def compile_times(lineups: Sequence[str]) -> dict[str, dict[str, float]]:
    """{lineup: {"cold_s", "warm_s"}}: seconds to the first game of each lineup on an empty
    compile cache of its own, then again with that cache filled."""
    out = {}
    for lineup in lineups:
        with tempfile.TemporaryDirectory() as cache:
            cold = first_game_seconds(lineup, cache)
            out[lineup] = {"cold_s": cold, "warm_s": first_game_seconds(lineup, cache)}
    return out


def _row(ruleset, name: str, players: int, seconds: float, repeats: int) -> dict[str, Any]:
    from sim.games.base import StrategySpec
    from sim.games.space_invaders import layout as L
    from sim.games.space_invaders.kernel import G_LAUNCHES, GAME_COLUMNS, batch_loop, workspace
    from sim.games.space_invaders.params import to_params
    from sim.games.space_invaders.play import Plan, play_chunk
    from sim.games.space_invaders.plugin import GAME

    lineup = [StrategySpec(name)]
    GAME.prepare(lineup)
    plan, p = Plan(lineup), to_params(ruleset.values, players)
    loop, work = batch_loop(plan.slots), workspace(players, plan.params.shape[1])

    def kernel(n: int, start: int) -> tuple[float, float, float]:
        """Wall and CPU seconds for n games from seed `start`, and their mean launches."""
        games = np.zeros((n, len(GAME_COLUMNS)), np.int64)
        seats = np.zeros((n, players, L.PL_SIZE), np.int64)
        seeds = np.arange(start, start + n, dtype=np.uint64)
        table = np.zeros((n, players), np.int64)
        began, cpu = time.perf_counter(), time.process_time()
        loop(plan.padded(plan.slots), p, players, seeds, table, plan.which, plan.params, games,
             seats, False, *work)  # fmt: skip
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
