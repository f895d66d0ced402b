"""Playing Space Invaders games in chunks, as columns: the plug-in's heavy half (plugin.py is
the light one). Every built-in strategy is played by the compiled batch loop (kernel.py).

A cooperative table plays as one team: every seat's `score` is the team's score and each
seat's `win_share` is 1/players of a win (a shared win, as the framework counts it). A
1-player game is one person playing the cards of `setup.solo_hands` hands (line 102): the
kernel plays the hands as seats with that person's strategy and dexterity, and the seat row
sums them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import types

from sim.compiling import Notice, Unit, ensure_compiled
from sim.games.base import Chunk, StrategySpec, seat_table
from sim.games.space_invaders import layout as L
from sim.games.space_invaders.columns import POWER_COLUMNS, SEAT_FIELDS, TOKEN_COLUMNS
from sim.games.space_invaders.kernel import (
    G_ERROR,
    G_ERROR_SEAT,
    G_OUTCOME,
    G_SCORE,
    GAME_COLUMNS,
    play_batch,
)
from sim.games.space_invaders.params import setup_numbers, table_size, to_params
from sim.rulesets import Ruleset
from strategies.space_invaders import registry

# play_batch as play_chunk calls it: params, seats, seeds, seat_lineup, kinds, strategy
# parameters, games, seats' blocks, trace (every array C-contiguous)
_PLAY_BATCH_TYPES = (
    types.float64[::1],
    types.int64,
    types.uint64[::1],
    types.int64[:, ::1],
    types.int64[::1],
    types.float64[:, ::1],
    types.int64[:, ::1],
    types.int64[:, :, ::1],
    types.boolean,
)


def check_strategy(spec: StrategySpec, *, source: str) -> StrategySpec:
    _resolve(spec, source=source)
    return spec


def prepare(lineup: Sequence[StrategySpec], *, notice: Notice | None = None) -> float:
    """Compile (or find in the cache) the batch loop before any game: every built-in
    strategy is compiled into it, so one unit serves every lineup. Returns the seconds
    spent compiling (0.0 when it was cached)."""
    for spec in lineup:
        _resolve(spec)
    jobs = [[Unit("sim.games.space_invaders.kernel", "play_batch", _PLAY_BATCH_TYPES)]]
    names = ", ".join(dict.fromkeys(spec.name for spec in lineup)) or "Space Invaders"
    return ensure_compiled(jobs, what=names, notice=notice)


def play_chunk(
    ruleset: Ruleset,
    n_players: int,
    lineup: list[StrategySpec],
    seat_lineup: np.ndarray,
    seeds: np.ndarray,
    *,
    trace: bool = False,
) -> Chunk:
    """Play len(seeds) games; with `trace` also hash the state after every turn."""
    n = len(seeds)
    seat_lineup = seat_table(seat_lineup, n, n_players)
    hands = table_size(n_players, ruleset.values)
    table = np.repeat(seat_lineup, hands, axis=1) if n_players == 1 else seat_lineup
    kinds, params = lineup_arrays(lineup)
    games = np.zeros((n, len(GAME_COLUMNS)), np.int64)
    seats = np.zeros((n, hands, L.PL_SIZE), np.int64)
    play_batch(to_params(ruleset.values, n_players), hands,
               np.ascontiguousarray(seeds, np.uint64), table, kinds, params, games, seats,
               bool(trace))  # fmt: skip
    labels = [spec.label for spec in lineup]
    return Chunk(
        games=_game_columns(games, ruleset, n_players, hands, trace),
        seats=_seat_columns(games, seats, seat_lineup, labels),
        errors=_errors(games, seat_lineup, labels),
        illegal=_illegal(games, seat_lineup, labels),
    )


def _resolve(spec: StrategySpec, *, source: str | None = None):
    strategy = registry.resolve(spec.name, source=source)
    return strategy, registry.param_vector(strategy, dict(spec.params), source=source)


def lineup_arrays(lineup: list[StrategySpec]) -> tuple[np.ndarray, np.ndarray]:
    """Kind and parameter vector of each lineup entry (spread_scale first)."""
    resolved = [_resolve(spec) for spec in lineup]
    width = max(len(v) for _, v in resolved)
    params = np.zeros((len(lineup), width), np.float64)
    kinds = np.zeros(len(lineup), np.int64)
    for j, (strategy, vector) in enumerate(resolved):
        params[j, : len(vector)] = vector
        kinds[j] = strategy.kind
    return kinds, params


def _game_columns(games, ruleset, n_players, hands, trace) -> dict[str, np.ndarray]:
    n = games.shape[0]
    numbers = setup_numbers(ruleset.values, n_players)
    cols: dict[str, np.ndarray] = {name: games[:, i] for i, name in enumerate(GAME_COLUMNS)}
    if not trace:
        del cols["trace_hash"]
    cols["outcome"] = np.array(L.STATUS_NAMES, dtype=object)[games[:, G_OUTCOME]]
    cols["won"] = (games[:, G_OUTCOME] == L.VICTORY).astype(np.int64)
    cols["level"] = np.full(n, ruleset.values["setup.level"], dtype=object)
    cols["dexterity"] = np.full(n, ruleset.values["dexterity.skill"], dtype=object)
    cols["hands"] = np.full(n, hands, np.int64)
    cols["deck_size"] = np.full(n, numbers["deck"], np.int64)
    cols["planet_start"] = np.full(n, numbers["planet"], np.int64)
    cols["ufo_start"] = np.full(n, numbers["ufo"], np.int64)
    return cols


def _seat_columns(games, seats, seat_lineup, labels) -> dict[str, np.ndarray]:
    """One row per player; a solo player's row holds every hand (counters summed, powers
    joined with '+')."""
    n, players = seat_lineup.shape
    block = seats.sum(axis=1, keepdims=True) if players == 1 else seats
    flat = block.reshape(n * players, L.PL_SIZE)
    won = np.repeat(games[:, G_OUTCOME] == L.VICTORY, players)
    cols: dict[str, np.ndarray] = {
        "seat": np.tile(np.arange(players), n),
        "strategy": np.array(labels, dtype=object)[seat_lineup.reshape(-1)],
        "score": np.repeat(games[:, G_SCORE], players),
        "win_share": np.where(won, 1.0 / players, 0.0),
    }
    names = np.array(L.POWER_NAMES, dtype=object)
    for level, column in enumerate(POWER_COLUMNS):
        powers = names[seats[:, :, L.PL_POWER + level]]
        if players == 1:
            powers = np.array(["+".join(row) for row in powers], dtype=object)[:, None]
        cols[column] = powers.reshape(-1)
    for level, column in enumerate(TOKEN_COLUMNS):
        cols[column] = flat[:, L.PL_ACTIVE + level]
    for column, field in SEAT_FIELDS.items():
        cols[column] = flat[:, field]
    return cols


def _who(games, g: int, seat_lineup, labels) -> tuple[int, str]:
    """The seat (0 for a solo player's hands) and strategy of game g's refused decision."""
    seat = int(games[g, G_ERROR_SEAT]) if seat_lineup.shape[1] > 1 else 0
    return seat, labels[int(seat_lineup[g, seat])]


def _errors(games, seat_lineup, labels) -> list[str]:
    out = []
    for g in np.flatnonzero(games[:, G_ERROR]):
        seat, who = _who(games, g, seat_lineup, labels)
        out.append(f"game {g}: {who} in seat {seat} made an illegal decision "
                   f"({L.ERROR_NAMES[games[g, G_ERROR]]})")  # fmt: skip
    return out


def _illegal(games, seat_lineup, labels) -> dict[str, int]:
    out: dict[str, int] = {}
    for g in np.flatnonzero(games[:, G_ERROR]):
        _, who = _who(games, g, seat_lineup, labels)
        out[who] = out.get(who, 0) + 1
    return out
