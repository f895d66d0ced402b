"""How fast alien-raid plays on one core: `sim bench --game alien-raid` prints `bench_rows()`,
four-player games of the naive pool (naive and random captains alternating seats) and of each
built-in strategy in every seat, on the preset as printed.

Each row times the compiled batch loop alone, after a warm-up, on the wall clock and on this
process's CPU time (the per-core cost on a machine shared with other work): the median of
repeated batches, each of different seeds. The slower strategies play a share of the games.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import numpy as np

PLAYERS = 4
POOLS = {  # row name -> the strategies that alternate seats
    "naive pool": ("naive", "random"),
    "random": ("random",),
    "naive": ("naive",),
    "value": ("value",),
    "planner": ("planner",),
    "strong": ("strong",),
}
SHARE = {"value": 0.1, "planner": 0.1, "strong": 0.02}  # of the games, for the slow ones


def bench_rows(*, quick: bool = False, pools: tuple[str, ...] | None = None) -> list[dict]:
    """Rows {game, preset, players, strategy, pool, games_per_s_per_core, games_per_cpu_s,
    games, repeats}, one per pool (default: every pool of POOLS)."""
    from sim.games.alien_raid.plugin import GAME

    ruleset = GAME.load_ruleset(GAME.presets[0])
    games, repeats = (1000, 3) if quick else (4000, 5)
    out = []
    for pool in pools or tuple(POOLS):
        n = max(20, int(games * SHARE.get(pool, 1.0)))
        out.append({"pool": pool, **pool_rate(ruleset, POOLS[pool], n, repeats)})
    return out


def pool_rate(ruleset, names: tuple[str, ...], games: int, repeats: int) -> dict[str, Any]:
    """Games per second of `names` alternating seats (game g seats names[(k + g) % len])."""
    from sim.games.alien_raid import kernel as K
    from sim.games.alien_raid.params import to_params
    from sim.games.alien_raid.play import Plan
    from sim.games.alien_raid.plugin import GAME
    from sim.games.base import StrategySpec

    lineup = [StrategySpec(name) for name in names]
    GAME.prepare(lineup)
    plan, play_batch = Plan(lineup), K.compiled(K.play_batch, K.BATCH_TYPES)
    p = to_params(ruleset.values)
    table = (np.arange(PLAYERS)[None, :] + np.arange(games)[:, None]) % len(names)
    out_games = np.zeros((games, len(K.GAME_COLUMNS)), np.int64)
    out_seats = np.zeros((games, PLAYERS, K.SEAT_SIZE), np.int64)
    work = K.workspace(plan.policies, plan.params.shape[1], ruleset.values["game.turns"])

    def batch(first_seed: int, n: int) -> tuple[float, float]:
        seeds = np.arange(first_seed, first_seed + n, dtype=np.uint64)
        wall, cpu = time.perf_counter(), time.process_time()
        play_batch(p, PLAYERS, seeds, table[:n], plan.which, plan.params, out_games[:n],
                   out_seats[:n], False, *work)  # fmt: skip
        return time.perf_counter() - wall, time.process_time() - cpu

    batch(0, min(games, 20))  # loads the compiled code
    samples = [batch(1_000_000 * (r + 1), games) for r in range(repeats)]
    return {
        "game": "alien-raid",
        "preset": ruleset.name,
        "players": PLAYERS,
        "strategy": "+".join(names),
        "games": games,
        "repeats": repeats,
        "games_per_s_per_core": round(statistics.median(games / wall for wall, _ in samples), 1),
        "games_per_cpu_s": round(statistics.median(games / cpu for _, cpu in samples), 1),
    }
