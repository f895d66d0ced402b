"""`skilled`: the skill ladder's player, one continuous knob from novice (0) to strong (1).

It models a person at the table. Each turn it looks at every cell it can fly to and weighs
what the shots from there take (2 per point, +1 for a hit; a shot at a fighter whose owner
has nothing takes nothing and is worth nothing) against the dangers it sees:
- an emptied column brings the horde down: a descent costs `danger_weight` x 2^(4 - d) with
  d the descents the board can still take, and `raid_penalty` when it would raid (d <= 1);
- a low invader falls on a fighter right below it (`exposure_weight`).
It errs the way people do: it chooses among its evaluated cells with probability
proportional to exp(value / temperature) (a quantal response; `temperature` in points), so
it mostly misses small differences and rarely big ones. With `mine_use` (the share of turns
it thinks of the mine) it steps the mine like the miner: onto a low invader or under the
column whose invaders are nearest the planet.

Buying is a separate axis, played by the economist's shop functions (`shop_turn`,
`power_up_turn`) with its thresholds: `missile_at`, `upgrade_at`, `power_up_at` (the reserve
at which it buys), `fire_missile_min` (the row worth firing the missile at) and
`power_up_min` (the gain worth using the power-up for). With `shop` 0 (the default) it never
buys unless a threshold is given, as pricing experiments need (one buyer against non-buyers
of the same skill); with `shop` 1 it shops as a player of its skill does: the thresholds
left at -1 follow from `skill` (SHOP_ANCHORS).

`skill` sets every trait left at -1 (see `derive`); the named levels of the ladder are
points on it (strategies/guardians/ladder.py), and a trait given explicitly wins.
"""

import numpy as np

from sim.games.guardians import layout as L
from sim.games.guardians.board import at, bottom_cell_free, first_object_row, pl, reserve_points
from sim.games.guardians.moves import destinations, empties_column, volley, volley_up
from sim.jit import jit, jit_inline
from sim.random_streams import below, uniform
from strategies.guardians.cautious import (
    DANGER,
    EXPOSURE,
    MARGINS_AT,
    RAID,
    best_entry,
    penalised,
    raid_margins,
    scoring,
)
from strategies.guardians.common import opening, random_mine_row
from strategies.guardians.economist import power_up_turn, shop_turn
from strategies.guardians.miner import step_mine

# The first eight keep cautious's and the economist's positions, so their scoring and shop
# functions read this vector as they read their own.
PARAMS: dict[str, float] = {
    "danger_weight": -1.0,  # cost of a descent with 4 to spare (doubles per descent less)
    "raid_penalty": -1.0,  # cost of a descent that raids
    "exposure_weight": -1.0,  # cost of standing right below an invader after the turn
    "missile_at": -1.0,  # the shop (economist's thresholds): -1 = by `shop` (see derive)
    "upgrade_at": -1.0,
    "power_up_at": -1.0,
    "fire_missile_min": -1.0,
    "power_up_min": -1.0,
    "skill": 0.5,  # 0 novice .. 1 strong: sets every trait left at -1
    "temperature": -1.0,  # points: how big a difference it notices
    "mine_use": -1.0,  # share of turns it thinks of the mine
    "trap_weight": -1.0,  # cost of ending hemmed in, free to fly only up or down its column
    "shop": 0.0,  # 0: buys only at thresholds given; 1: shops as a player of its skill does
}
SKILL, TEMPERATURE, MINE_USE, TRAP = 8, 9, 10, 11
TRAITS = ("temperature", "danger_weight", "raid_penalty", "exposure_weight", "mine_use",
          "trap_weight")  # fmt: skip
# The traits at skill 0, 0.25, 0.5, 0.75 and 1 (novice, casual, club, strong, and beyond);
# `derive` interpolates between them. Calibrated so that every level's tables raid less than
# the level below on every preset at 2-4 players (docs/games/guardians/strategies.md).
ANCHORS = np.array(
    [
        # temperature, danger_weight, raid_penalty, exposure_weight, mine_use, trap_weight
        [2.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [1.5, 4.25, 100.0, 2.0, 0.0, 0.0],
        [1.2, 12.0, 200.0, 4.0, 0.0, 0.5],
        [0.6, 22.0, 300.0, 8.0, 1.0, 10.0],
        [0.4, 40.0, 400.0, 8.0, 1.0, 20.0],
    ]
)
# The shop (the economist's thresholds), for `shop` 1: at skill 0, 0.25, 0.5, 0.75 and 1, as
# ANCHORS. The missile decides most: bought early and fired at once it makes raids rare at
# every level (Space Defenders below 1%), so the levels differ in how rich they wait to be
# before shopping and in keeping the missile for a row worth 24; the novice, once it shops,
# fires at once. Measured (docs/games/guardians/strategies.md): at club and strong, one shopper
# among
# non-shoppers of its level wins at least its share; every level's shopping tables raid less
# than the level below's, by at most 30 points.
SHOP_TRAITS = ("missile_at", "upgrade_at", "power_up_at", "fire_missile_min", "power_up_min")
SHOP_ANCHORS = np.array(
    [
        # missile_at, upgrade_at, power_up_at, fire_missile_min, power_up_min
        [35.0, 35.0, 40.0, 0.0, 0.0],
        [35.0, 35.0, 40.0, 24.0, 1.0],
        [30.0, 30.0, 35.0, 24.0, 2.0],
        [16.0, 16.0, 22.0, 24.0, 3.0],
        [16.0, 16.0, 22.0, 24.0, 3.0],
    ]
)
# `shop` 0: never buys (a threshold beyond any reserve); fires and uses at the economist's
NO_SHOP = np.array([1000.0, 1000.0, 1000.0, 12.0, 3.0])
_MINER = np.array([1.0, 2.0])  # the miner's parameters, for the mine
_SCORES = 128  # scratch[_SCORES : _SCORES + 64]: the candidates' values (x _SCALE)
_SCALE = 1024.0
_OUT = -(1 << 62)  # the score of a cell left out of a draw at temperature 0 (choose_cell)
# What choose_cell remembers per column of the volley up it, while the first object above the
# cells it scores stays the same (a volley depends on nothing else of the cell):
_KEY = _SCORES + 64  # the row of that first object (-1: none; -2: nothing remembered)
_TOTAL = _KEY + L.MAX_COLS  # the volley's score
_EMPTIES = _TOTAL + L.MAX_COLS  # 1 if it empties the column
_ABOVE = _EMPTIES + L.MAX_COLS  # the row of the first invader it leaves above, or -1
_POOR = _ABOVE + L.MAX_COLS  # 1 if it hits a fighter whose owner has nothing to take
_WEIGHTS = _POOR + L.MAX_COLS  # scratch[_WEIGHTS : _WEIGHTS + 64]: pick's weights (float64)
_MARGINS_KNOWN = _WEIGHTS + 64  # 1 once a turn's decision has worked out the raid margins


def derive(values: dict[str, float]) -> dict[str, float]:
    """The parameters with every trait left at -1 set from `skill` (clamped to 0..1):
    piecewise linear between the ANCHORS rows; the shop's from SHOP_ANCHORS with `shop` 1,
    else NO_SHOP."""
    skill = min(max(float(values["skill"]), 0.0), 1.0)
    shop = _between(SHOP_ANCHORS, skill) if values["shop"] > 0 else NO_SHOP
    out = dict(values)
    for traits, row in ((TRAITS, _between(ANCHORS, skill)), (SHOP_TRAITS, shop)):
        for trait, value in zip(traits, row, strict=True):
            if out[trait] < 0:
                out[trait] = float(value)
    return out


def _between(anchors: np.ndarray, skill: float) -> np.ndarray:
    """The row at `skill` (0..1), linear between the anchors' rows (evenly spaced)."""
    x = skill * (len(anchors) - 1)
    i = min(int(x), len(anchors) - 2)
    return anchors[i] + (x - i) * (anchors[i + 1] - anchors[i])


@jit
def pick(n, temperature, rng, slot, scratch):
    """Index of one of the n candidates valued in scratch[_SCORES:]: drawn with probability
    proportional to exp(value / (2 temperature)) (values are 2 per point); at temperature 0,
    uniform among the best."""
    best = scratch[_SCORES]
    for k in range(1, n):
        best = max(best, scratch[_SCORES + k])
    if temperature <= 0.0:
        ties = 0
        for k in range(n):
            ties += scratch[_SCORES + k] == best
        j = below(rng, slot, ties)
        for k in range(n):
            if scratch[_SCORES + k] == best:
                if j == 0:
                    return k
                j -= 1
        return 0
    scale = 1.0 / (2.0 * temperature * _SCALE)
    floor = -40.0 / scale  # weights below e^-40 of the best are left out (weight -1 here)
    weights = scratch[_WEIGHTS : _WEIGHTS + n].view(np.float64)
    total = 0.0
    for k in range(n):
        d = scratch[_SCORES + k] - best
        weights[k] = -1.0
        if d > floor:
            weights[k] = np.exp(d * scale)
            total += weights[k]
    u = uniform(rng, slot) * total
    last = 0
    for k in range(n):
        if weights[k] >= 0.0:
            last = k
            u -= weights[k]
            if u < 0.0:
                return k
    return last


@jit
def hemmed(s, p, seat, c, r):
    """Whether a fighter on (c, r) could fly only up or down its column next turn: every
    cell beside it (diagonals included) is taken or off the board."""
    low, high = max(r - 1, 0), min(r + 2, p[L.P_ROWS])
    rows = (1 << high) - (1 << low)  # the window's bits in an occupancy word
    for cc in (c - 1, c + 1):
        if 0 <= cc < p[L.P_COLS] and rows & ~s[L.S_OCCUPIED + cc]:
            return False  # an empty cell beside it
    for cc in (c - 1, c + 1):  # all taken: free only where its own fighter stands
        if 0 <= cc < p[L.P_COLS]:
            for rr in range(low, high):
                if s[at(cc, rr)] == L.FIGHTER + seat:
                    return False
    return True


@jit
def value(s, p, seat, c, r, level, margins, sp):
    """cautious's cell score (volley, descent and exposure, with this seat's weights), less
    the hit bonus of shots at a fighter whose owner has nothing to take, less the trap."""
    total, _, empties, above = volley(s, p, c, r, seat, level)
    poor = hits_poor(s, p, seat, c, first_object_row(s, p, c, r))
    return adjusted(s, p, seat, c, r, level, margins, sp, total, empties, above, poor)


@jit_inline
def hits_poor(s, p, seat, c, tr):
    """Whether the object at (c, tr) is another's fighter whose owner has nothing to take."""
    if tr < 0:
        return False
    who = s[at(c, tr)]
    if who < L.FIGHTER or who == L.FIGHTER + seat:
        return False
    return reserve_points(s, p, who - L.FIGHTER) == 0


@jit_inline
def adjusted(s, p, seat, c, r, level, margins, sp, total, empties, above, poor):
    """value() from the volley's score, whether it empties the column, the first invader it
    leaves above and whether it hits a fighter with nothing to take."""
    v = penalised(p, c, r, total, empties, above, margins, sp)
    if poor:
        v -= level
    if sp[TRAP] > 0.0 and hemmed(s, p, seat, c, r):
        v -= sp[TRAP]
    return v


@jit_inline
def remember(s, p, seat, c, r, level, scratch):
    """Work out the volley up column c from (c, r) into scratch[_KEY:] (which the caller sets
    to -2 for every column first), unless it is known for the first object above (c, r)."""
    first = first_object_row(s, p, c, r)
    if scratch[_KEY + c] != first:
        scratch[_KEY + c] = first
        total, removed, above = volley_up(s, p, c, r, seat, level)
        scratch[_TOTAL + c] = total
        scratch[_EMPTIES + c] = empties_column(s, c, removed)
        if scratch[_EMPTIES + c]:
            known_margins(s, p, scratch)  # the descent's cost reads them
        scratch[_ABOVE + c] = above
        scratch[_POOR + c] = hits_poor(s, p, seat, c, first)


@jit_inline
def remembered_value(s, p, seat, c, r, level, margins, sp, scratch):
    """value() of the cell (c, r) from what remember() worked out for it."""
    return adjusted(s, p, seat, c, r, level, margins, sp, scratch[_TOTAL + c],
                    scratch[_EMPTIES + c] != 0, scratch[_ABOVE + c],
                    scratch[_POOR + c] != 0)  # fmt: skip


@jit_inline
def known_margins(s, p, scratch):
    """Work out the columns' raid margins (cautious.scoring's, into scratch[MARGINS_AT:]) the
    first time a turn's decision needs them: most turns empty no column and never do."""
    if scratch[_MARGINS_KNOWN] == 0:
        raid_margins(s, p, scratch[MARGINS_AT:])
        scratch[_MARGINS_KNOWN] = 1


@jit
def choose_cell(s, p, seat, c0, r0, level, margins, sp, rng, slot, scratch):
    """A reachable cell drawn by the quantal response over value(): (col, row).

    At temperature 0 only the best cells can be drawn, and with no weight negative the
    volley's score bounds a cell's value from above: a cell whose volley cannot reach the
    best value so far is left out (_OUT) without working out the rest of its value."""
    n = destinations(s, p, c0, r0, scratch)
    for c in range(p[L.P_COLS]):
        scratch[_KEY + c] = -2
    bounded = sp[TEMPERATURE] <= 0.0 and min(sp[DANGER], sp[RAID], sp[EXPOSURE]) >= 0.0
    best = _OUT
    for k in range(n):
        c, r = scratch[2 * k], scratch[2 * k + 1]
        remember(s, p, seat, c, r, level, scratch)
        if bounded and scratch[_TOTAL + c] * np.int64(_SCALE) < best:
            scratch[_SCORES + k] = _OUT
            continue
        v = remembered_value(s, p, seat, c, r, level, margins, sp, scratch)
        scratch[_SCORES + k] = np.int64(v * _SCALE)
        best = max(best, scratch[_SCORES + k])
    k = pick(n, sp[TEMPERATURE], rng, slot, scratch)
    return scratch[2 * k], scratch[2 * k + 1]


@jit
def choose_bottom(s, p, seat, sp, rng, slot, scratch):
    """A free bottom-row column drawn by the quantal response over value(), or -1."""
    margins, level = scoring(s, p, seat, scratch)
    n = 0
    for c in range(p[L.P_COLS]):
        if bottom_cell_free(s, p, c):
            scratch[2 * n] = c
            v = value(s, p, seat, c, np.int64(0), level, margins, sp)  # not a literal: one compile
            scratch[_SCORES + n] = np.int64(v * _SCALE)
            n += 1
    if n == 0:
        return -1
    return scratch[2 * pick(n, sp[TEMPERATURE], rng, slot, scratch)]


@jit
def thinks_of_mine(sp, rng, slot):
    if sp[MINE_USE] <= 0.0:
        return False
    return sp[MINE_USE] >= 1.0 or uniform(rng, slot) < sp[MINE_USE]


@jit
def policy(phase, s, p, seat, sp, rng, a, scratch):
    if opening(phase, s, p, seat, sp, rng, a, scratch, choose_bottom, random_mine_row, best_entry):
        return
    slot = seat + 1
    margins, level = scratch[MARGINS_AT:], s[pl(seat, L.PL_LEVEL)]
    scratch[_MARGINS_KNOWN] = 0  # worked out when first needed (known_margins)
    c0, r0 = a[L.A_DEST_COL], a[L.A_DEST_ROW]
    if shop_turn(s, p, seat, sp, a, scratch):
        return
    c, r = choose_cell(s, p, seat, c0, r0, level, margins, sp, rng, slot, scratch)
    a[L.A_DEST_COL], a[L.A_DEST_ROW] = c, r
    if s[pl(seat, L.PL_POWER)] == L.CHARGED:
        known_margins(s, p, scratch)
        v = value(s, p, seat, c, r, level, margins, sp)
        power_up_turn(s, p, seat, c0, r0, v, level, margins, sp, a, scratch)
    if thinks_of_mine(sp, rng, slot):
        step_mine(s, p, seat, _MINER, a)
