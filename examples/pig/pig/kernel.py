"""The compiled batch loop: many games of Pig on plain arrays (numba), the same games as the
plain-Python game.py for the same seeds (tests/examples/test_pig_engine.py plays both).

The caller makes every buffer: the players' roll tables stacked (one per lineup entry), the
seating, the seeds, one random stream, and the outputs, per game GAME_COLUMNS and per seat
SEAT_COLUMNS. The dice are the lab's splitmix64 stream 0 (sim/random_streams.py).
"""

from __future__ import annotations

from numba import types

from pig.policy import rolls_again
from sim.compiling import Unit
from sim.jit import jit, jit_inline
from sim.random_streams import below, seed_streams

GAME_COLUMNS = ("winners", "turns", "rolls", "lead_changes")  # winners: a bit mask of seats
SEAT_COLUMNS = ("score", "busts")
G_WINNERS, G_TURNS, G_ROLLS, G_LEAD = range(len(GAME_COLUMNS))
S_SCORE, S_BUSTS = range(len(SEAT_COLUMNS))

_rolls_again = jit_inline(rolls_again)


@jit
def play_games(goal, faces, bust, head_start, turn_cap, tables, seat_lineup, seeds, rng,
               games, seats):  # fmt: skip
    for g in range(seeds.shape[0]):
        seed_streams(rng, seeds[g])
        seats[g, 0, S_SCORE] = 0
        seats[g, 1, S_SCORE] = head_start
        seats[g, 0, S_BUSTS] = 0
        seats[g, 1, S_BUSTS] = 0
        leader = 1 if head_start > 0 else -1
        to_move = turns = rolls = changes = 0
        winner = -1
        while winner < 0 and turns < turn_cap:
            me = to_move
            mine = seats[g, me, S_SCORE]
            theirs = seats[g, 1 - me, S_SCORE]
            table = tables[seat_lineup[g, me]]
            total = 0
            while True:  # the first roll is compulsory
                face = below(rng, 0, faces) + 1
                rolls += 1
                if face == bust:
                    seats[g, me, S_BUSTS] += 1
                    total = 0
                    break
                total += face
                if not _rolls_again(table, mine, theirs, total, goal):
                    break
            if total > 0:  # held
                mine += total
                seats[g, me, S_SCORE] = mine
                if mine >= goal:
                    winner = me
                now = -1 if mine == theirs else (me if mine > theirs else 1 - me)
                if now >= 0 and leader >= 0 and now != leader:
                    changes += 1
                if now >= 0:
                    leader = now
            turns += 1
            to_move = 1 - me
        games[g, G_WINNERS] = (1 << winner) if winner >= 0 else 0
        games[g, G_TURNS] = turns
        games[g, G_ROLLS] = rolls
        games[g, G_LEAD] = changes


_I64 = types.int64
SIGNATURE = (
    _I64, _I64, _I64, _I64, _I64,
    types.Array(types.uint8, 4, "C"), types.Array(_I64, 2, "C"),
    types.Array(types.uint64, 1, "C"), types.Array(types.uint64, 1, "C"),
    types.Array(_I64, 2, "C"), types.Array(_I64, 3, "C"),
)  # fmt: skip
LOOP = Unit("pig.kernel", "play_games", SIGNATURE)  # what `prepare` compiles
