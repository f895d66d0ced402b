"""The compiled batch loop: many games of Pig on plain arrays (numba), the same games as the
plain-Python game.py for the same seeds (tests/examples/test_pig_engine.py plays both).

The caller makes every buffer: the players' roll tables stacked (one per lineup entry), the
seating, the seeds, one random stream, the score track, and the outputs, per game GAME_COLUMNS
and per seat SEAT_COLUMNS. The dice are the lab's splitmix64 stream 0 (sim/random_streams.py);
how the game went (the trajectory columns) is summed up by the lab's trajectory_kernel.
"""

from __future__ import annotations

from pathlib import Path

from numba import types

from pig.columns import BUSTS, NO_CHOICE
from pig.policy import rolls_again
from pig.rules import holding_wins
from sim import compile_cache
from sim.compiling import Unit
from sim.jit import jit, jit_inline
from sim.plugins import trajectory
from sim.plugins.trajectory_kernel import SUMMARISE_TYPES, summarise
from sim.random_streams import below, seed_streams

GAME_COLUMNS = ("winners", "turns", "rolls", trajectory.LEAD_CHANGES)  # winners: a seat mask
SEAT_COLUMNS = ("score", BUSTS, NO_CHOICE, *trajectory.SEAT_COLUMNS)
G_WINNERS, G_TURNS, G_ROLLS, G_LEAD = range(len(GAME_COLUMNS))
S_SCORE, S_BUSTS, S_NO_CHOICE, S_TRAJECTORY = range(4)  # the trajectory's columns from 3 on

# stamp the compiled code by the game's files it reaches (the rules and the roll tables it
# inlines), not by this file alone, so that a changed rule recompiles it; before any
# function is compiled here (numba picks a function's cache when it is decorated)
compile_cache.track(Path(__file__).resolve().parent)

_rolls_again = jit_inline(rolls_again)
_holding_wins = jit_inline(holding_wins)


@jit
def play_games(goal, faces, bust, head_start, turn_cap, tables, seat_lineup, seeds, rng,
               track, games, seats):  # fmt: skip
    """track: the lab's score track (trajectory_kernel.score_track) for turn_cap turns; row t
    holds the scores after round t, written after every turn (a round's second turn
    overwrites what its first wrote), so its last row is the final scores."""
    for g in range(seeds.shape[0]):
        seed_streams(rng, seeds[g])
        seats[g, 0, S_SCORE] = 0
        seats[g, 1, S_SCORE] = head_start
        seats[g, :, S_BUSTS] = 0
        seats[g, :, S_NO_CHOICE] = 0
        track[0, 0] = 0
        track[0, 1] = head_start
        to_move = turns = rolls = 0
        winner = -1
        while winner < 0 and turns < turn_cap:
            me = to_move
            mine = seats[g, me, S_SCORE]
            theirs = seats[g, 1 - me, S_SCORE]
            table = tables[seat_lineup[g, me]]
            total = 0
            chose = False  # a decision where holding does not win came up
            while True:  # the first roll is compulsory
                face = below(rng, 0, faces) + 1
                rolls += 1
                if face == bust:
                    seats[g, me, S_BUSTS] += 1
                    total = 0
                    break
                total += face
                if _holding_wins(mine, total, goal):
                    break  # every player holds and wins
                chose = True
                if not _rolls_again(table, mine, theirs, total):
                    break
            if not chose:
                seats[g, me, S_NO_CHOICE] += 1
            if total > 0:  # held
                if _holding_wins(mine, total, goal):
                    winner = me
                mine += total
                seats[g, me, S_SCORE] = mine
            turns += 1
            to_move = 1 - me
            track[(turns + 1) // 2, me] = mine
            track[(turns + 1) // 2, 1 - me] = theirs
        games[g, G_WINNERS] = (1 << winner) if winner >= 0 else 0
        games[g, G_TURNS] = turns
        games[g, G_ROLLS] = rolls
        summarise(track, (turns + 1) // 2, 2, games[g], G_LEAD, seats[g], S_TRAJECTORY)


_I64 = types.int64
SIGNATURE = (
    _I64, _I64, _I64, _I64, _I64,
    types.Array(types.uint8, 4, "C"), types.Array(_I64, 2, "C"),
    types.Array(types.uint64, 1, "C"), types.Array(types.uint64, 1, "C"),
    types.Array(_I64, 2, "C"), types.Array(_I64, 2, "C"), types.Array(_I64, 3, "C"),
)  # fmt: skip
# what `prepare` compiles, a unit after the ones it calls
JOB = [Unit("sim.plugins.trajectory_kernel", "summarise", SUMMARISE_TYPES),
       Unit("pig.kernel", "play_games", SIGNATURE)]  # fmt: skip
