"""The Guardians of Space plugin: rulesets, strategies and chunks of games as columns."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numba import njit

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
    kernel_for,
    play_batch,
)
from sim.games.guardians.params import to_params
from sim.games.guardians.python_loop import CompiledSeat, PythonSeat, play_game, seat_rows
from sim.games.guardians.ruleset import PRESETS, Ruleset, load_ruleset
from strategies.guardians import registry, user
from strategies.guardians.dispatch import builtin_policy

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
    player_counts = (2, 3, 4)
    outcomes = ("victory", "stall", "raid", "cap")
    skills = registry.SKILLS  # the ladder's levels, weakest first
    skill_knob = registry.CONTINUOUS  # (strategy, parameter) of the continuous skill
    skill_points = registry.LEVELS  # the levels on that knob: name -> skill

    def load_ruleset(self, name_or_path: str, overrides: Any = (), *, source: str = "--set"):
        return load_ruleset(name_or_path, overrides, source=source)

    def check_strategy(self, spec: StrategySpec, *, source: str) -> StrategySpec:
        _resolve(spec, source=source)
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
        n = len(seeds)
        if np.shape(seat_lineup) != (n, n_players):
            raise ValueError(f"seat_lineup must have one row of {n_players} per seed "
                             f"({n}, {n_players}); got {np.shape(seat_lineup)}")  # fmt: skip
        plan = _Plan(lineup)
        games = np.zeros((n, len(GAME_COLUMNS)), np.int64)
        seats = np.zeros((n, n_players, SEAT_SIZE), np.int64)
        seat_lineup = np.ascontiguousarray(seat_lineup, np.int64)
        if plan.python_players:
            _play_in_python(ruleset, n_players, plan, seat_lineup, seeds, games, seats)
        else:
            plan.kernel()(
                to_params(ruleset.values),
                n_players,
                np.asarray(seeds, np.uint64),
                seat_lineup,
                plan.kinds,
                plan.params,
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


def _resolve(spec: StrategySpec, *, source: str | None = None):
    """A built-in (or skill preset) or a user strategy, with its parameters checked."""
    if user.is_user_name(spec.name):
        strategy = user.load(spec.name, source=source)
    else:
        strategy = registry.resolve(spec.name, source=source)
    vector = registry.param_vector(strategy, dict(spec.params), source=source)
    return strategy, vector


class _Plan:
    """How a lineup is played: kinds and parameters for the compiled loop, or Python seats."""

    def __init__(self, lineup: list[StrategySpec]) -> None:
        self.lineup = lineup
        self.resolved = [_resolve(spec) for spec in lineup]
        width = max(len(v) for _, v in self.resolved)
        self.params = np.zeros((len(lineup), width), np.float64)
        self.kinds = np.zeros(len(lineup), np.int64)
        self.users: list = []  # compiled user strategies, played as kind -1 - index
        self.python_players = False
        for j, (strategy, vector) in enumerate(self.resolved):
            self.params[j, : len(vector)] = vector
            if not isinstance(strategy, user.UserStrategy):
                self.kinds[j] = strategy.kind
            elif strategy.compiled:
                if strategy.target not in self.users:
                    self.users.append(strategy.target)
                self.kinds[j] = -1 - self.users.index(strategy.target)
            else:
                self.python_players = True

    def kernel(self):
        return play_batch if not self.users else _kernel_for_users(tuple(self.users))

    def seat(self, j: int):
        strategy, _ = self.resolved[j]
        if isinstance(strategy, user.UserStrategy) and not strategy.compiled:
            return PythonSeat(strategy.make(dict(self.lineup[j].params)))
        policy = _chained_policy(tuple(self.users))
        return CompiledSeat(policy, int(self.kinds[j]), self.params[j])


@functools.cache
def _chained_policy(users: tuple):
    """The built-in dispatch extended with user policies: kind -1 - i runs users[i]."""
    policy = builtin_policy
    for i, target in enumerate(users):
        policy = _link(target.policy, -1 - i, policy)
    return policy


def _link(user_policy, kind_of_user, inner):
    @njit
    def policy(kind, phase, s, p, seat, sp, rng, a, scratch):
        if kind == kind_of_user:
            user_policy(phase, s, p, seat, sp, rng, a, scratch)
        else:
            inner(kind, phase, s, p, seat, sp, rng, a, scratch)

    return policy


@functools.cache
def _kernel_for_users(users: tuple):
    return kernel_for(_chained_policy(users))


def _play_in_python(ruleset, n_players, plan: _Plan, seat_lineup, seeds, games, seats) -> None:
    for g, seed in enumerate(seeds):
        players = [plan.seat(int(j)) for j in seat_lineup[g, :n_players]]
        game, row = play_game(ruleset, n_players, players, int(seed))
        games[g, :] = row
        seat_rows(game, seats[g])


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
