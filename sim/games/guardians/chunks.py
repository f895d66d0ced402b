"""Simulating Guardians games in chunks, as columns: the plug-in's heavy half (plugin.py is the
light one). Compiled strategies run in the compiled loop, plain-Python ones in the Python loop."""

from __future__ import annotations

import numpy as np
from numba import types

from sim.compiling import Unit
from sim.errors import StrategyError
from sim.games.guardians import layout as L
from sim.games.guardians.choice import WORK_T
from sim.games.guardians.columns import (
    NO_CHOICE,
    RESERVE_COLUMNS,
    SEAT_STATS,
    SEAT_TRAJECTORY,
    TAKEN_COLUMNS,
)
from sim.games.guardians.decision import PARAMS_T, POLICY_SIGNATURE, RNG_T, STATE_T
from sim.games.guardians.engine import play_turn
from sim.games.guardians.kernel import (
    G_ERROR,
    G_ERROR_SEAT,
    G_OUTCOME,
    G_WINNERS,
    GAME_COLUMNS,
    SEAT_BLOCK,
    SEAT_NO_CHOICE,
    SEAT_SCORE,
    SEAT_SIZE,
    SEAT_TRAJ,
    TURN_SIGNATURE,
    TURN_TYPE,
    batch_loop,
    loop_signature,
    play_one_signature,
    policy_slots,
    workspace,
)
from sim.games.guardians.python_loop import (
    CompiledSeat,
    PlayerFailure,
    PythonSeat,
    play_one_in_python,
)
from sim.games.guardians.ruleset import Ruleset, to_params
from sim.plugins.base import (
    Chunk,
    Player,
    chunk_arrays,
    game_columns,
    refusals,
    winner_seat_columns,
)
from sim.plugins.policy_table import PolicyTable
from sim.plugins.trajectory_kernel import SUMMARISE_TYPES

_GAME = "sim.games.guardians."
_ENGINE, _KERNEL = _GAME + "engine", _GAME + "kernel"
_I64, _U64 = types.int64, types.uint64
# the engine functions play_one calls besides the turn, with the types it calls them with (an
# int32 item or an integer constant is asked for as int64: sim.jit)
_LOOP_CALLS = [
    Unit(_GAME + "start", "new_game", (STATE_T, PARAMS_T, _I64, RNG_T)),
    Unit(_GAME + "start", "place_fighter", (STATE_T, PARAMS_T, _I64, _I64)),
    Unit(_GAME + "start", "place_mine", (STATE_T, PARAMS_T, _I64)),
    Unit(_GAME + "census", "census_ok", (STATE_T, PARAMS_T)),
    Unit(_ENGINE, "winners_mask", (STATE_T, PARAMS_T)),
    Unit(_GAME + "board", "reserve_points", (STATE_T, PARAMS_T, _I64)),
    Unit(_KERNEL, "state_hash", (STATE_T, _U64)),
    Unit("sim.random_streams", "seed_streams", (RNG_T, _U64)),
    Unit(
        _GAME + "choice",
        "_standing_still_one_way",
        (STATE_T, PARAMS_T, _I64, _I64, _I64, WORK_T, PARAMS_T, TURN_TYPE),
    ),
    Unit("sim.plugins.trajectory_kernel", "summarise", SUMMARISE_TYPES),
]


def simulate_chunk(ruleset: Ruleset, n_players: int, players: list[Player],
               seat_lineup: np.ndarray, seeds: np.ndarray, *,
               trace: bool = False) -> Chunk:  # fmt: skip
    """Play the games; with `trace`, also hash every state and check the token census after
    every turn (slower; for tests and golden files)."""
    seat_lineup, games, seats = chunk_arrays(seat_lineup, seeds, n_players, len(GAME_COLUMNS),
                                             (n_players, SEAT_SIZE))  # fmt: skip
    plan = Plan(players)
    if plan.python_players:
        _play_in_python(ruleset, n_players, plan, seat_lineup, seeds, games, seats)
    else:
        batch_loop(plan.slots)(
            plan.padded(plan.slots),
            play_turn,
            to_params(ruleset.values),
            n_players,
            np.ascontiguousarray(seeds, np.uint64),
            seat_lineup,
            plan.which,
            plan.params,
            games,
            seats,
            trace,
            *workspace(n_players, plan.params.shape[1], ruleset.values["end.turn_cap"]),
        )
    labels = [player.label for player in players]
    errors, illegal = refusals(games[:, G_ERROR], games[:, G_ERROR_SEAT], seat_lineup, labels,
                               error_names=L.ERROR_NAMES, made="an illegal move")  # fmt: skip
    return Chunk(
        games=game_columns(
            games, GAME_COLUMNS, trace=trace, outcome=G_OUTCOME, outcome_names=L.STATUS_NAMES
        ),
        seats=_seat_columns(games, seats, seat_lineup, labels),
        errors=errors,
        illegal=illegal,
    )


class Plan(PolicyTable):
    """How a lineup's ready players are played: their policy table, or Python seats when a
    plain-Python strategy sits in (the plug-in found the strategies: plugin.py)."""

    @property
    def python_players(self) -> bool:
        return not all(player.strategy.compiled for player in self.players)

    @property
    def slots(self) -> int:
        return policy_slots(len(self.policies))

    def compile_jobs(self) -> list[list[Unit]]:
        """What playing the lineup compiles, as jobs for parallel processes, longest first:
        the turn, the loop (which calls the turn through a pointer, so it compiles without
        it), the loop's other engine calls, each policy."""
        loop = [Unit(_KERNEL, "play_one", play_one_signature(self.slots)),
                Unit(_KERNEL, "play_batch", loop_signature(self.slots))]  # fmt: skip
        turn = [Unit(_ENGINE, "play_turn", TURN_SIGNATURE)]
        return [turn, loop, _LOOP_CALLS, *self.policy_jobs(POLICY_SIGNATURE)]

    def seat(self, j: int):
        player = self.players[j]
        if not player.strategy.compiled:
            return PythonSeat(player.strategy.make(dict(player.spec.params)))
        return CompiledSeat(player.strategy.policy, self.params[j])


def _play_in_python(ruleset, n_players, plan: Plan, seat_lineup, seeds, games, seats) -> None:
    for g, seed in enumerate(seeds):
        players = [plan.seat(int(j)) for j in seat_lineup[g, :n_players]]
        try:
            _, row = play_one_in_python(ruleset, n_players, players, int(seed),
                                        seats_out=seats[g])  # fmt: skip
        except PlayerFailure as failure:
            label = plan.players[int(seat_lineup[g, failure.seat])].label
            raise strategy_error(failure, label, g) from failure.error
        games[g, :] = row


def strategy_error(failure: PlayerFailure, label: str, game: int) -> StrategyError:
    """The error for a player's failure in chunk-local game `game` (the runner adds where)."""
    at = f" (at {failure.where})" if failure.where else ""
    return StrategyError(
        f"strategy '{label}' failed in seat {failure.seat}: {failure}{at}",
        strategy=label,
        game=game,
        seat=failure.seat,
        hint="Fix the strategy; see docs/games/guardians/strategies.md for what place, "
        "mine_start and turn must return.",
    )


def _seat_columns(games, seats, seat_lineup, labels) -> dict[str, np.ndarray]:
    n, players, _ = seats.shape
    flat = seats.reshape(n * players, SEAT_SIZE)
    block = flat[:, SEAT_BLOCK:]
    cols = winner_seat_columns(games[:, G_WINNERS], flat[:, SEAT_SCORE], seat_lineup, labels)
    cols["status"] = np.array(L.PLAYER_STATUS_NAMES, dtype=object)[block[:, L.PL_STATUS]]
    for stat in SEAT_STATS:
        cols[stat.column] = block[:, stat.field]
    for k in range(1, L.N_KINDS):
        cols[RESERVE_COLUMNS[k - 1]] = block[:, L.PL_RESERVE + k]
        cols[TAKEN_COLUMNS[k - 1]] = block[:, L.PL_TAKEN + k]
    for i, column in enumerate(SEAT_TRAJECTORY):
        cols[column] = flat[:, SEAT_TRAJ + i]
    cols[NO_CHOICE] = flat[:, SEAT_NO_CHOICE]
    return cols
