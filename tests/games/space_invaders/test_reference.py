"""The compiled rules against slow, obvious references: the invaders' march (a column at a
time with Python lists), where a token lands on the board (rounded-rectangle geometry) and
the dexterity sampler (its spread against the formula)."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.games.space_invaders import layout as L
from sim.games.space_invaders.advance import march
from sim.games.space_invaders.board import classify, in_planet_area, in_ufo
from sim.games.space_invaders.dexterity import sample_landing
from sim.games.space_invaders.params import to_params
from sim.games.space_invaders.ruleset import load_ruleset
from sim.random_streams import seed_streams

P = to_params(load_ruleset("space-invaders").values, 2)


def reference_march(grid, speeds, last):
    """grid: rows (top first) of cards (0 empty). Move column by column, right to left, each
    invader in turn from the planet side, as the rulebook tells (lines 242-258)."""
    grid = [list(row) for row in grid]
    crashed = []
    for col in reversed(range(L.COLS)):
        column = [grid[r][col] for r in range(L.ROWS)]
        movers = [r for r in reversed(range(L.ROWS)) if column[r]]
        for start in movers:
            card = column[start]
            speed = 3 if last else speeds[card]
            row = start
            steps = 0
            while True:
                if speed != 3 and steps == speed:
                    break
                below = row + 1
                if below == L.ROWS:  # past the last space: into the planet area
                    crashed.append(card)
                    column[row] = 0
                    break
                if column[below]:
                    if speed != 2:
                        break
                    end = below
                    while end + 1 < L.ROWS and column[end + 1]:
                        end += 1
                    for r in range(end, below - 1, -1):  # push the block down one space
                        if r + 1 == L.ROWS:
                            crashed.append(column[r])
                        else:
                            column[r + 1] = column[r]
                        column[r] = 0
                column[below], column[row] = card, 0
                row = below
                steps += 1
        for r in range(L.ROWS):
            grid[r][col] = column[r]
    return grid, crashed


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 3), min_size=20, max_size=20),
    st.lists(st.integers(1, 3), min_size=20, max_size=20),
    st.booleans(),
)
def test_march_matches_the_reference(fill, speeds, last):
    cards = [c + 1 if fill[c] else 0 for c in range(L.N_CELLS)]  # card number = cell + 1
    p = P.copy()
    for c in range(L.N_CELLS):
        p[L.P_CARD_SPEED + c] = speeds[c]
    board = np.array(cards, np.int32)
    crashed = np.zeros(L.N_CELLS, np.int32)
    n = march(board, 0, p, last, crashed, 0)
    grid = [cards[r * L.COLS : (r + 1) * L.COLS] for r in range(L.ROWS)]
    want_grid, want_crashed = reference_march(grid, {c + 1: speeds[c] for c in range(20)}, last)
    assert board.reshape(L.ROWS, L.COLS).tolist() == want_grid
    assert sorted(crashed[:n].tolist()) == sorted(want_crashed)
    assert n + int(np.count_nonzero(board)) == sum(1 for c in cards if c)


def reference_on_card(cell, x, y):
    """The disc overlaps the card: its centre is in the card grown by the radius across, or
    grown up and down, or within the radius of a corner (strictly: touching is not on)."""
    r = P[L.P_TOKEN_R]
    x0 = P[L.P_GRID_X0] + (cell % L.COLS) * P[L.P_PITCH_X]
    y0 = P[L.P_GRID_Y0] + (L.ROWS - 1 - cell // L.COLS) * P[L.P_PITCH_Y]
    x1, y1 = x0 + P[L.P_CARD_W], y0 + P[L.P_CARD_H]
    if x0 - r < x < x1 + r and y0 <= y <= y1:
        return True
    if x0 <= x <= x1 and y0 - r < y < y1 + r:
        return True
    return any(math.hypot(x - cx, y - cy) < r for cx in (x0, x1) for cy in (y0, y1))


@settings(max_examples=400, deadline=None)
@given(st.floats(-50, 500), st.floats(-100, 650), st.lists(st.booleans(), min_size=20, max_size=20))
def test_landing_matches_the_reference(x, y, occupied):
    s = np.zeros(L.STATE_SIZE, np.int32)
    for c in range(L.N_CELLS):
        s[L.S_BOARD + c] = c + 1 if occupied[c] else 0
    result, mask = classify(s, P, x, y)
    want = sum(1 << c for c in range(L.N_CELLS) if occupied[c] and reference_on_card(c, x, y))
    assert mask == want
    if want:
        assert result == L.ON_CARDS
    elif in_ufo(P, x, y):
        assert result == L.IN_UFO
    elif in_planet_area(P, y):
        assert result == L.IN_PLANET
    else:
        assert result == L.MISS


def test_the_launch_error_grows_with_distance_as_documented():
    p = P.copy()
    p[L.P_WILD] = 0.0
    rng = np.zeros(2, np.uint64)
    seed_streams(rng, 5)
    sx, sy = 200.0, p[L.P_SHOOTER_Y]
    for distance in (150.0, 450.0):
        pts = np.array(
            [sample_landing(p, rng, 1, sx, sy + distance, sx, sy, 1.0) for _ in range(20000)]
        )
        across = p[L.P_FLOOR] + p[L.P_SPREAD] * distance
        assert abs(pts[:, 0].std() / across - 1) < 0.03
        assert abs(pts[:, 1].std() / (p[L.P_LENGTH_RATIO] * across) - 1) < 0.03
        assert abs(pts[:, 0].mean() - sx) < 3 * across / math.sqrt(20000)


def test_wild_shots_land_anywhere():
    p = P.copy()
    p[L.P_WILD] = 1.0
    rng = np.zeros(2, np.uint64)
    seed_streams(rng, 9)
    pts = np.array(
        [sample_landing(p, rng, 1, 100.0, 300.0, 100.0, -20.0, 1.0) for _ in range(5000)]
    )
    assert pts[:, 0].min() < 0 and pts[:, 0].max() > p[L.P_BOARD_W]
    assert pts[:, 1].min() < 0 and pts[:, 1].max() > p[L.P_BOARD_H]
