"""The game loop in Python, for games with a plain-Python strategy and for watching a game.

It follows the compiled loop (kernel.play_one) step for step, so a game with only compiled
players is the same game here as in the kernel (a test checks the trace hashes agree).
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sim.games.guardians import layout as L
from sim.games.guardians.choice import choice_work
from sim.games.guardians.decision import MINE_START, PLACE, SCRATCH_SIZE, TURN, reset_action
from sim.games.guardians.engine import play_turn
from sim.games.guardians.kernel import (
    _FNV_OFFSET,
    G_DESCENTS,
    G_ERROR,
    G_ERROR_SEAT,
    G_HASH,
    G_INVADERS_LEFT,
    G_LEAD,
    G_OUTCOME,
    G_PILE_LEFT,
    G_REINFORCED,
    G_ROUNDS,
    G_TURNS,
    G_WINNERS,
    GAME_COLUMNS,
    SEAT_BLOCK,
    SEAT_NO_CHOICE,
    SEAT_SCORE,
    SEAT_TRAJ,
    one_way_check,
    state_hash,
)
from sim.games.guardians.session import GameSession, Turn
from sim.games.guardians.view import GameView
from sim.plugins.trajectory_kernel import score_track, summarise


@dataclass
class CompiledSeat:
    """A compiled policy (decision.POLICY_SIGNATURE) and its parameters."""

    policy: Callable
    params: np.ndarray


@dataclass
class PythonSeat:
    player: Any  # has place(view), mine_start(view), turn(view)


Seat = CompiledSeat | PythonSeat
OnTurn = Callable[[GameSession, int, np.ndarray, "str | None"], None]


class PlayerFailure(Exception):
    """A plain-Python player raised, or answered with the wrong type; `where` is the line of
    the player's own code that raised (or '')."""

    def __init__(self, seat: int, error: BaseException) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.seat = seat
        self.error = error
        self.where = _user_line(error)


class _Decider:
    def __init__(self, game: GameSession, seats: list[Seat], seed: int) -> None:
        self.game = game
        self.seats = seats
        self.a = np.zeros(L.ACTION_SIZE, np.int32)
        self.scratch = np.zeros(SCRATCH_SIZE, np.int64)
        self.randoms = [np.random.default_rng([seed, k]) for k in range(len(seats))]

    def decide(self, seat: int, phase: int) -> np.ndarray:
        player = self.seats[seat]
        game = self.game
        reset_action(game.s, seat, self.a)
        if isinstance(player, CompiledSeat):
            player.policy(phase, game.s, game.p, seat, player.params, game.rng, self.a,
                          self.scratch)  # fmt: skip
            return self.a
        view = GameView(game, seat, self.randoms[seat])
        try:
            return self._ask(player.player, view, phase)
        except Exception as exc:  # the player's own code: whatever it raises is its failure
            raise PlayerFailure(seat, exc) from exc

    def _ask(self, player: Any, view: GameView, phase: int) -> np.ndarray:
        if phase == PLACE:
            self.a[L.A_DEST_COL] = _whole(player.place(view), "place", "a column") - 1
        elif phase == MINE_START:
            self.a[L.A_MINE_ROW] = _whole(player.mine_start(view), "mine_start", "a row") - 1
        else:
            turn = player.turn(view)
            if not isinstance(turn, Turn):
                raise TypeError(f"turn() returned {_kind(turn)}, expected a Turn "
                                "(sim.games.guardians.session.Turn)")  # fmt: skip
            return self.game.action(turn)
        return self.a


def _whole(value: Any, method: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{method}() returned {_kind(value)}, expected {what} (a whole number, "
                        "1-based)")  # fmt: skip
    return int(value)


def _kind(value: Any) -> str:
    shown = repr(value)
    return f"{type(value).__name__} {shown[:40]}"


# not the player's code: the sim package, the standard library and installed packages
_NOT_THEIRS = (str(Path(__file__).resolve().parents[2]), sys.prefix, sys.base_prefix)


def _user_line(error: BaseException) -> str:
    """'file.py:12 in turn' for the deepest frame of the player's own code, or ''."""
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if not str(Path(f.filename).resolve()).startswith(_NOT_THEIRS)]  # fmt: skip
    if not frames:
        return ""
    last = frames[-1]
    return f"{Path(last.filename).name}:{last.lineno} in {last.name}"


def play_one_in_python(
    ruleset,
    n_players: int,
    seats: list[Seat],
    seed: int,
    *,
    on_setup: Callable[[GameSession], None] | None = None,
    on_turn: OnTurn | None = None,
    seats_out: np.ndarray | None = None,
) -> tuple[GameSession, np.ndarray]:
    """Play one game; returns the final session and the kernel's per-game result row, and
    fills `seats_out` (the kernel's per-seat rows) when given. `on_setup` sees the position
    before the first turn, `on_turn` each turn just played."""
    game = GameSession.new(ruleset, n_players, seed)
    decider = _Decider(game, seats, seed)
    out = np.zeros(len(GAME_COLUMNS), np.int64)
    track = score_track(int(ruleset.values["end.turn_cap"]) + 1, n_players)
    forced = np.zeros(n_players, np.int64)
    probe, buf = choice_work(), np.zeros(L.N_KINDS, np.int64)
    only_one_way = one_way_check()
    for seat in range(n_players):
        error = game.place_fighter(seat, int(decider.decide(seat, PLACE)[L.A_DEST_COL]))
        if error:
            out[G_ERROR], out[G_ERROR_SEAT] = L.ERROR_NAMES.index(error), seat
            return game, out
    last = n_players - 1
    error = game.place_mine(int(decider.decide(last, MINE_START)[L.A_MINE_ROW]))
    if error:
        out[G_ERROR], out[G_ERROR_SEAT] = L.ERROR_NAMES.index(error), last
        return game, out
    if on_setup is not None:
        on_setup(game)
    h = np.uint64(state_hash(game.s, _FNV_OFFSET))
    _record(game, track, 0)
    rounds = 0
    while game.status == "running":
        seat = game.to_move
        if only_one_way(game.s, game.p, probe, buf, play_turn):
            forced[seat] += 1
        action = decider.decide(seat, TURN).copy()
        error = game.play_turn(action)
        if on_turn is not None:
            on_turn(game, seat, action, error)
        if error:
            out[G_ERROR], out[G_ERROR_SEAT] = L.ERROR_NAMES.index(error), seat
            return game, out
        h = np.uint64(state_hash(game.s, h))
        if game.s[L.S_ROUND] != rounds:  # a round is complete (kernel.play_one)
            rounds = int(game.s[L.S_ROUND])
            _record(game, track, rounds)
    _record(game, track, rounds + 1)  # the end, in the round the game ended in
    _fill_result(game, out, h)
    if seats_out is not None:
        _seat_rows(game, seats_out, track, forced, out)
    return game, out


def _record(game: GameSession, track: np.ndarray, t: int) -> None:
    """Row t of the score track (kernel._record)."""
    for seat in range(game.n_players):
        track[t, seat] = game.score(seat)


def _fill_result(game: GameSession, out: np.ndarray, h) -> None:
    s = game.s
    out[G_OUTCOME] = s[L.S_STATUS]
    out[G_TURNS] = s[L.S_TURN]
    out[G_ROUNDS] = s[L.S_ROUND]
    out[G_DESCENTS] = s[L.S_DESCENTS]
    out[G_REINFORCED] = s[L.S_REINFORCED]
    out[G_WINNERS] = sum(1 << seat for seat in game.winners())
    out[G_PILE_LEFT] = len(game.pile())
    out[G_INVADERS_LEFT] = s[L.S_INVADERS]
    out[G_HASH] = np.int64(np.uint64(h).view(np.int64))


def _seat_rows(game: GameSession, seats_out: np.ndarray, track, forced, out) -> None:
    """The kernel's per-seat result rows: the score, the player's block of the state, the
    trajectory and the turns without a choice (kernel.play_batch)."""
    steps = int(game.s[L.S_ROUND]) + 1
    summarise(track, steps, game.n_players, out, G_LEAD, seats_out, SEAT_TRAJ)
    for seat in range(game.n_players):
        seats_out[seat, SEAT_SCORE] = game.score(seat)
        base = L.S_PLAYERS + seat * L.PL_SIZE
        seats_out[seat, SEAT_BLOCK : SEAT_BLOCK + L.PL_SIZE] = game.s[base : base + L.PL_SIZE]
        seats_out[seat, SEAT_NO_CHOICE] = forced[seat]
