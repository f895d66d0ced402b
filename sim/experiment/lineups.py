"""Who sits where: the tables of an arm and the seat lineup of each game.

An arm has a *pool* of strategy entries (the experiment's ``seats`` or ``pool``) and a rotation:

- ``none``: one table, pool entry k in seat k (the pool has exactly ``players`` entries);
- ``cyclic``: m tables for a pool of m >= players entries; table r seats entry (k + r) mod m in
  seat k. Every entry sits in every seat exactly once per m games;
- ``permutations``: every distinct ordered choice of ``players`` entries of the pool (identical
  arrangements, from repeated entries, are listed once). Every entry sits in every seat, and
  next to every other entry, equally often.

Game i of an arm plays table ``i mod T`` (T tables), so the lineup depends on the global game
index only, never on the chunking. Balance is exact when the number of games is a multiple of T.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from sim.plugins.base import StrategySpec

ROTATIONS = ("none", "cyclic", "permutations")


def table_positions(pool_size: int, players: int, rotate: str) -> np.ndarray:
    """int64[T, players]: the pool position seated in each seat of each table."""
    if rotate not in ROTATIONS:
        raise ValueError(f"rotate must be one of {ROTATIONS}, got {rotate!r}")
    if rotate == "none":
        if pool_size != players:
            raise ValueError("without rotation the pool needs exactly one entry per seat")
        return np.arange(players, dtype=np.int64)[None, :]
    if pool_size < players:
        raise ValueError("a rotation needs at least as many pool entries as seats")
    if rotate == "cyclic":
        r = np.arange(pool_size, dtype=np.int64)[:, None]
        k = np.arange(players, dtype=np.int64)[None, :]
        return (r + k) % pool_size
    return np.array(list(permutations(range(pool_size), players)), dtype=np.int64)


def build_lineup(
    pool: tuple[StrategySpec, ...], players: int, rotate: str
) -> tuple[tuple[StrategySpec, ...], np.ndarray]:
    """(lineup, tables): the distinct strategies and int64[T, players] indices into them."""
    lineup: list[StrategySpec] = []
    index_of: dict[StrategySpec, int] = {}
    for spec in pool:
        if spec not in index_of:
            index_of[spec] = len(lineup)
            lineup.append(spec)
    by_position = np.array([index_of[spec] for spec in pool], dtype=np.int64)
    tables = by_position[table_positions(len(pool), players, rotate)]
    # identical arrangements (repeated entries) are kept once, in first-seen order
    _, first = np.unique(tables, axis=0, return_index=True)
    tables = tables[np.sort(first)]
    return tuple(lineup), np.ascontiguousarray(tables)


def seat_lineup(tables: np.ndarray, start: int, stop: int) -> np.ndarray:
    """int64[stop - start, players]: game i plays table i mod T."""
    return tables[np.arange(start, stop, dtype=np.int64) % len(tables)]
