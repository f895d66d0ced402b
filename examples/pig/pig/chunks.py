"""Simulating chunks of games for the runner: the lineup's roll tables built for the ruleset, the
games played by the compiled loop (`simulate_chunk`) or by the plain-Python reference
(`simulate_chunk_python`, the same games, for `sim bench` and the tests), stored as columns: the
kernel's (kernel.GAME_COLUMNS, SEAT_COLUMNS) and each seat's turns played."""

from __future__ import annotations

import numpy as np

from pig import kernel as K
from pig.columns import TURNS_PLAYED
from pig.course import summary
from pig.dice import Dice
from pig.game import play
from pig.policy import table_for
from pig.rules import OUTCOMES
from pig.ruleset import Rules
from sim.plugins.base import Chunk, Player, chunk_arrays, winner_seat_columns
from sim.plugins.trajectory_kernel import score_track

__all__ = ["Plan", "simulate_chunk", "simulate_chunk_python"]
PLAYERS = 2


class Plan:
    """What playing a lineup compiles: the loop alone (strategies are tables, not code)."""

    def __init__(self, players: list[Player]) -> None:
        self.players = players

    def compile_jobs(self) -> list[list]:
        return [K.JOB]


def simulate_chunk(ruleset, n_players, players, seat_lineup, seeds) -> Chunk:
    """len(seeds) games by the compiled loop; game g seats players[seat_lineup[g, k]] in k
    (the lineup's ready players, sim.plugins.base.Player)."""
    rules, tables, seat_lineup, games, seats = _setup(ruleset, n_players, players, seat_lineup,
                                                      seeds)  # fmt: skip
    rng = np.zeros(1, np.uint64)
    track = score_track((rules.turn_cap + 1) // 2, PLAYERS)  # rounds: the last perhaps cut short
    K.play_games(*rules, tables, seat_lineup, np.ascontiguousarray(seeds, np.uint64), rng,
                 track, games, seats)  # fmt: skip
    return _chunk(games, seats, seat_lineup, players)


def simulate_chunk_python(ruleset, n_players, players, seat_lineup, seeds) -> Chunk:
    """The same games as `simulate_chunk`, played by the plain-Python rules (game.py)."""
    rules, tables, seat_lineup, games, seats = _setup(ruleset, n_players, players, seat_lineup,
                                                      seeds)  # fmt: skip
    for g, seed in enumerate(seeds):
        state = play(rules, [tables[t] for t in seat_lineup[g]], Dice(int(seed)))
        won = state.winner is not None
        lead_changes, at = summary(state)
        games[g] = (1 << state.winner if won else 0, state.turns, state.rolls, lead_changes)
        seats[g, :, K.S_SCORE] = state.scores
        seats[g, :, K.S_BUSTS] = state.busts
        seats[g, :, K.S_NO_CHOICE] = state.no_choice_turns
        for column, values in at.items():
            seats[g, :, K.SEAT_COLUMNS.index(column)] = values
    return _chunk(games, seats, seat_lineup, players)


def _setup(ruleset, n_players, players, seat_lineup, seeds):
    if n_players != PLAYERS:
        raise ValueError(f"Pig is played by {PLAYERS} players, not {n_players}")
    rules = Rules.of(ruleset)
    tables = np.stack([table_for(player, rules) for player in players])
    seating, games, seats = chunk_arrays(seat_lineup, seeds, PLAYERS, len(K.GAME_COLUMNS),
                                         (PLAYERS, len(K.SEAT_COLUMNS)))  # fmt: skip
    return rules, tables, seating, games, seats


def _chunk(games, seats, seat_lineup, players) -> Chunk:
    labels = [player.label for player in players]
    winners = games[:, K.G_WINNERS]
    flat = seats.reshape(-1, len(K.SEAT_COLUMNS))
    seat_cols = winner_seat_columns(winners, flat[:, K.S_SCORE], seat_lineup, labels)
    seat_cols.update({name: flat[:, i] for i, name in enumerate(K.SEAT_COLUMNS) if i != K.S_SCORE})
    # the first seat plays the odd turns, the second the even ones
    turns = np.repeat(games[:, K.G_TURNS], PLAYERS)
    seat_cols[TURNS_PLAYED] = (turns + 1 - seat_cols["seat"]) // 2
    game_cols = {name: games[:, i] for i, name in enumerate(K.GAME_COLUMNS) if name != "winners"}
    game_cols["outcome"] = np.array(OUTCOMES, dtype=object)[(winners == 0).astype(np.int64)]
    return Chunk(games=game_cols, seats=seat_cols)
