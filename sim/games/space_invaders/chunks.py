"""Simulating Space Invaders games in chunks, as columns: the plug-in's heavy half (plugin.py is
the light one). Every built-in strategy is played by the compiled batch loop (kernel.py),
which calls each seat's policy through a function pointer; this module hands the loop the
policies of the ready players the plug-in found (plugin.py).

A cooperative table plays as one team: every seat's `score` is the team's score and each
seat's `win_share` is 1/players of a win (a shared win, as the framework counts it). A
1-player game is one person playing the cards of `setup.solo_hands` hands (line 102): the
kernel plays the hands as seats with that person's strategy and dexterity, and the seat row
sums them.
"""

from __future__ import annotations

import numpy as np
from numba import types

from sim.compiling import Unit
from sim.games.space_invaders import layout as L
from sim.games.space_invaders.columns import POWER_COLUMNS, SEAT_FIELDS, TOKEN_COLUMNS
from sim.games.space_invaders.decision import (
    ACTION_T,
    PARAMS_T,
    POLICY_SIGNATURE,
    RNG_T,
    STATE_T,
    WORK_T,
)
from sim.games.space_invaders.kernel import (
    CRASHED_T,
    FLOAT_VECTOR,
    G_ERROR,
    G_ERROR_SEAT,
    G_OUTCOME,
    G_SCORE,
    GAME_COLUMNS,
    MATRIX_T,
    batch_loop,
    loop_signature,
    play_one_signature,
    play_turn_signature,
    policy_slots,
    workspace,
)
from sim.games.space_invaders.params import setup_numbers, table_size, to_params
from sim.plugins.base import Chunk, Player, chunk_arrays, refusals
from sim.plugins.policy_table import PolicyTable
from sim.rulesets import Ruleset

_ENGINE, _ROUNDS = "sim.games.space_invaders.engine", "sim.games.space_invaders.rounds"
_KERNEL = "sim.games.space_invaders.kernel"
_I64, _F64, _U64 = types.int64, types.float64, types.uint64
# step(s, p, w, a, rng, script, scale, log), as play_turn calls it
_STEP_TYPES = (STATE_T, PARAMS_T, WORK_T, ACTION_T, RNG_T, MATRIX_T, _F64, MATRIX_T)
# end_round(s, p, w, rng, script, scales, log, crashed)
_END_ROUND_TYPES = (STATE_T, PARAMS_T, WORK_T, RNG_T, MATRIX_T, FLOAT_VECTOR, MATRIX_T, CRASHED_T)
# the engine functions the loop calls besides step, with the types it calls them with
_LOOP_CALLS = [
    Unit(_ENGINE, "begin_turn", (STATE_T, _I64)),
    Unit(_ROUNDS, "end_round", _END_ROUND_TYPES),
    Unit(_ROUNDS, "new_game", (STATE_T, PARAMS_T, _I64, RNG_T)),
    Unit(_ROUNDS, "next_round", (STATE_T, PARAMS_T)),
    Unit(_ROUNDS, "turn_seat", (STATE_T, _I64)),
    Unit(_KERNEL, "state_hash", (STATE_T, _U64)),
    Unit("sim.random_streams", "seed_streams", (RNG_T, _U64)),
]


def simulate_chunk(ruleset: Ruleset, n_players: int, players: list[Player],
               seat_lineup: np.ndarray, seeds: np.ndarray, *,
               trace: bool = False) -> Chunk:  # fmt: skip
    """Play len(seeds) games; with `trace` also hash the state after every turn."""
    hands = table_size(n_players, ruleset.values)
    seat_lineup, games, seats = chunk_arrays(seat_lineup, seeds, n_players, len(GAME_COLUMNS),
                                             (hands, L.PL_SIZE))  # fmt: skip
    table = np.repeat(seat_lineup, hands, axis=1) if n_players == 1 else seat_lineup
    plan = Plan(players)
    batch_loop(plan.slots)(plan.padded(plan.slots), to_params(ruleset.values, n_players), hands,
                           np.ascontiguousarray(seeds, np.uint64), table, plan.which,
                           plan.params, games, seats, bool(trace),
                           *workspace(hands, plan.params.shape[1]))  # fmt: skip
    labels = [player.label for player in players]
    # a solo player's hands are all seat 0 of the seat lineup
    error_seat = games[:, G_ERROR_SEAT] if n_players > 1 else np.zeros(len(seeds), np.int64)
    errors, illegal = refusals(games[:, G_ERROR], error_seat, seat_lineup, labels,
                               error_names=L.ERROR_NAMES, made="an illegal decision")  # fmt: skip
    return Chunk(
        games=_game_columns(games, ruleset, n_players, hands, trace),
        seats=_seat_columns(games, seats, seat_lineup, labels),
        errors=errors,
        illegal=illegal,
    )


class Plan(PolicyTable):
    """How a lineup's ready players are played: their policy table (parameters: spread_scale
    first)."""

    @property
    def slots(self) -> int:
        return policy_slots(len(self.policies))

    def compile_jobs(self) -> list[list[Unit]]:
        """What playing the lineup compiles, as jobs for parallel processes: the engine's
        step, then the turn and the loop (the longest chain); the loop's other engine calls;
        each policy on its own."""
        loop = [Unit(_ENGINE, "step", _STEP_TYPES),
                Unit(_KERNEL, "play_turn", play_turn_signature(self.slots)),
                Unit(_KERNEL, "play_one", play_one_signature(self.slots)),
                Unit(_KERNEL, "play_batch", loop_signature(self.slots))]  # fmt: skip
        return [loop, _LOOP_CALLS, *self.policy_jobs(POLICY_SIGNATURE)]


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
