"""The Guardians of Space plugin: rulesets, strategies and chunks of games as columns."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.games import register
from sim.games.base import Chunk, StrategySpec
from sim.games.guardians import layout as L
from sim.games.guardians.kernel import (
    G_ERROR,
    G_ERROR_SEAT,
    G_OUTCOME,
    G_WINNERS,
    GAME_COLUMNS,
    SEAT_BLOCK,
    SEAT_SCORE,
    SEAT_SIZE,
    play_batch,
)
from sim.games.guardians.params import to_params
from sim.games.guardians.ruleset import PRESETS, Ruleset, load_ruleset
from strategies.guardians import registry

# per-seat statistics copied from the player's block of the state: column -> PL_* field
_SEAT_FIELDS = {
    "level": L.PL_LEVEL,
    "steals_made": L.PL_STEALS_MADE,
    "steals_suffered": L.PL_STEALS_SUFFERED,
    "missiles_bought": L.PL_MISSILES_BOUGHT,
    "missiles_fired": L.PL_MISSILES_FIRED,
    "missile_points": L.PL_MISSILE_POINTS,
    "upgrades_bought": L.PL_UPGRADES_BOUGHT,
    "power_ups_bought": L.PL_POWER_UPS_BOUGHT,
    "power_ups_used": L.PL_POWER_UPS_USED,
    "points_paid": L.PL_POINTS_PAID,
    "losses": L.PL_LOSSES,
    "reentries": L.PL_REENTRIES,
    "mine_explosions": L.PL_MINE_EXPLOSIONS,
    "shots": L.PL_SHOTS,
    "hits": L.PL_HITS,
    "turns_played": L.PL_TURNS,
}
_KIND_NAMES = ("", "1", "2", "3", "4", "5", "ship")
STATUS_NAMES = ("active", "destroyed", "out")


class Guardians:
    name = "guardians"
    presets = PRESETS

    def load_ruleset(self, name_or_path: str, overrides: Any = (), *, source: str = "--set"):
        return load_ruleset(name_or_path, overrides, source=source)

    def check_strategy(self, spec: StrategySpec, *, source: str) -> StrategySpec:
        strategy = registry.resolve(spec.name, source=source)
        registry.param_vector(strategy, dict(spec.params), source=source)
        return spec

    def play_chunk(
        self,
        ruleset: Ruleset,
        n_players: int,
        lineup: list[StrategySpec],
        seat_lineup: np.ndarray,
        seeds: np.ndarray,
        *,
        trace: bool = False,
    ) -> Chunk:
        """Play the games; with `trace`, also hash every state and check the token census
        after every turn (slower; for tests and golden files)."""
        kinds, params = _lineup_arrays(lineup)
        n = len(seeds)
        games = np.zeros((n, len(GAME_COLUMNS)), np.int64)
        seats = np.zeros((n, n_players, SEAT_SIZE), np.int64)
        play_batch(
            to_params(ruleset.values),
            n_players,
            np.asarray(seeds, np.uint64),
            np.ascontiguousarray(seat_lineup, np.int64),
            kinds,
            params,
            games,
            seats,
            trace,
        )
        labels = [spec.label for spec in lineup]
        return Chunk(
            games=_game_columns(games, trace),
            seats=_seat_columns(games, seats, seat_lineup, labels),
            errors=_errors(games, seat_lineup, labels),
        )


def _lineup_arrays(lineup: list[StrategySpec]) -> tuple[np.ndarray, np.ndarray]:
    resolved = [registry.resolve(spec.name) for spec in lineup]
    vectors = [
        registry.param_vector(s, dict(spec.params))
        for s, spec in zip(resolved, lineup, strict=True)
    ]
    width = max(len(v) for v in vectors)
    params = np.zeros((len(lineup), width), np.float64)
    for j, v in enumerate(vectors):
        params[j, : len(v)] = v
    return np.array([s.kind for s in resolved], np.int64), params


def _game_columns(games: np.ndarray, trace: bool) -> dict[str, np.ndarray]:
    cols = {name: games[:, i] for i, name in enumerate(GAME_COLUMNS)}
    if not trace:
        del cols["trace_hash"]
    cols["outcome"] = np.array(L.STATUS_NAMES, dtype=object)[games[:, G_OUTCOME]]
    return cols


def _seat_columns(games, seats, seat_lineup, labels) -> dict[str, np.ndarray]:
    n, players, _ = seats.shape
    seat = np.tile(np.arange(players), n)
    mask = np.repeat(games[:, G_WINNERS], players)
    won = (mask >> seat) & 1
    n_winners = np.repeat(np.bitwise_count(games[:, G_WINNERS].astype(np.uint64)), players)
    flat = seats.reshape(n * players, SEAT_SIZE)
    block = flat[:, SEAT_BLOCK:]
    cols: dict[str, np.ndarray] = {
        "seat": seat,
        "strategy": np.array(labels, dtype=object)[np.asarray(seat_lineup).reshape(-1)],
        "score": flat[:, SEAT_SCORE],
        "win_share": np.where(won == 1, 1.0 / np.maximum(n_winners, 1), 0.0),
        "status": np.array(STATUS_NAMES, dtype=object)[block[:, L.PL_STATUS]],
    }
    for name, f in _SEAT_FIELDS.items():
        cols[name] = block[:, f]
    for k in range(1, L.N_KINDS):
        cols[f"reserve_{_KIND_NAMES[k]}"] = block[:, L.PL_RESERVE + k]
        cols[f"taken_{_KIND_NAMES[k]}"] = block[:, L.PL_TAKEN + k]
    return cols


def _errors(games, seat_lineup, labels) -> list[str]:
    out = []
    for g in np.flatnonzero(games[:, G_ERROR]):
        seat = int(games[g, G_ERROR_SEAT])
        who = labels[int(seat_lineup[g, seat])]
        out.append(f"game {g}: {who} in seat {seat} made an illegal move "
                   f"({L.ERROR_NAMES[games[g, G_ERROR]]})")  # fmt: skip
    return out


GAME = register(Guardians())
