"""The trajectory columns (sim/plugins/trajectory.py) summed up from a score track drawn by hand."""

import numpy as np

from sim.plugins.trajectory_kernel import lead_changes, score_track, summarise

# Three seats, eight steps (rounds of the table):
#
#   step   A   B   C    leader
#     0    0   0   0    (tie)
#     1    3   0   0    A
#     2    3   4   0    B      change 1
#     3    3   4   4    (tie B/C: no change, B remembered)
#     4    6   4   4    A      change 2
#     5    6   4   9    C      change 3
#     6    6   4   9    C
#     7   12   4   9    A      change 4
#     8   12   4  15    C      change 5
ROWS = [
    (0, 0, 0), (3, 0, 0), (3, 4, 0), (3, 4, 4), (6, 4, 4), (6, 4, 9), (6, 4, 9), (12, 4, 9),
    (12, 4, 15),
]  # fmt: skip


def track() -> np.ndarray:
    t = score_track(len(ROWS) - 1, 3)
    t[:] = np.array(ROWS)
    return t


def test_lead_changes_by_hand():
    assert lead_changes(track(), 8, 3) == 5
    assert lead_changes(track(), 3, 3) == 1  # up to step 3: A, B, then a tie at the top


def test_summarise_writes_the_fractions_and_the_last_round():
    game = np.zeros(3, np.int64)
    seats = np.zeros((3, 6), np.int64)
    summarise(track(), 8, 3, game, 1, seats, 2)
    assert game[1] == 5
    # a third: floor(8/3) = 2 steps; half: 4; two thirds: floor(16/3) = 5; before the last
    # round: after step 7
    assert seats[:, 2].tolist() == [3, 4, 0]
    assert seats[:, 3].tolist() == [6, 4, 4]
    assert seats[:, 4].tolist() == [6, 4, 9]
    assert seats[:, 5].tolist() == [12, 4, 9]
    assert seats[:, :2].tolist() == [[0, 0]] * 3  # nothing else written


def test_a_game_of_one_round():
    game = np.zeros(1, np.int64)
    seats = np.zeros((3, 4), np.int64)
    summarise(track(), 1, 3, game, 0, seats, 0)
    assert game[0] == 0  # one leader, no change
    assert seats[:, 3].tolist() == [0, 0, 0]  # before the only round: the start
    assert seats[:, 0].tolist() == [0, 0, 0]  # a third of one round: the start
