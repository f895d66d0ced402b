"""What every Space Invaders strategy shares: aiming, chances of a hit from the dexterity
model, and what the coming advance would do (the engine's own `march`).

A policy is `policy(phase, s, p, w, seat, sp, rng, a, scratch)`, compiled on its own for
the game's decision.POLICY_SIGNATURE (sim/games/space_invaders/decision.py says how the loop
calls it): it reads the state and fills the action `a` for `phase` (layout.PH_*). `sp` are
its parameters (PARAMS order), `scratch` the game's int64 buffer of SCRATCH_SIZE, laid out
below. The seat's own dexterity factor is the parameter `spread_scale` (index 0 of every
strategy's parameters).
"""

import math

from sim.games.space_invaders import layout as L
from sim.games.space_invaders.advance import march
from sim.games.space_invaders.board import (
    cell_center_x,
    cell_center_y,
    ufo_center_x,
    ufo_center_y,
)
from sim.games.space_invaders.decision import SCRATCH_SIZE
from sim.games.space_invaders.dexterity import bias_along, sd_across, sd_along
from sim.games.space_invaders.engine import pl, ufo_attackable
from sim.jit import jit, jit_inline

# scratch: a board copy for predictions, then the cards it would lose to the planet
SC_BOARD = 0
SC_CRASHED = SC_BOARD + L.N_CELLS
SC_THREAT = SC_CRASHED + L.N_CELLS  # per cell: damage it would do this round if left alone
SC_WORTH = SC_THREAT + L.N_CELLS  # per cell: a hit's worth x WORTH_UNIT (planner)
SC_WORTH_PIERCE = SC_WORTH + L.N_CELLS  # the same for a piercing hit
# per seat, what holds for a whole game (the loop zeroes the scratch when a game starts):
# the planner's chance table
SC_GAME = SC_WORTH_PIERCE + L.N_CELLS
SC_GAME_SEAT = 128
SC_END = SC_GAME + L.MAX_SEATS * SC_GAME_SEAT
assert SC_END <= SCRATCH_SIZE, "the strategies' scratch layout outgrew the game's buffer"
WORTH_UNIT = 1e6  # worths kept as integers in the int64 scratch
UFO = -2  # a target that is the UFO, not a cell
# the optional actions the rules offer (layout.OPTION_NAMES, in that order), every strategy's
# parameters: 1 takes the action when it can count, 0 never does (what an option is worth is
# measured against 0: experiments/invaders_options.yaml)
OPTION_PARAMS = {"planet_relaunch": 1.0, "ufo_relaunch": 1.0, "heal": 1.0, "bonus_shot": 1.0}


@jit_inline
def aim_at(p, a, x, y):
    """Aim at (x, y) with the shooter straight below it (the shortest shot, line 202)."""
    a[L.A_AIM_X], a[L.A_AIM_Y] = x, y
    a[L.A_SHOOTER_X] = min(max(x, 0.0), p[L.P_BOARD_W])


@jit_inline
def aim_target(p, a, target):
    """Aim at a cell's centre or at the UFO's (UFO)."""
    if target == UFO:
        aim_at(p, a, ufo_center_x(p), ufo_center_y(p))
    else:
        aim_at(p, a, cell_center_x(p, target), cell_center_y(p, target))


@jit_inline
def choose_token(a, level, target):
    a[L.A_LEVEL] = level
    a[L.A_THREE] = 0.0
    a[L.A_YES] = 0.0
    a[L.A_CALLED] = -1.0 if target == UFO else float(target)


@jit_inline
def take_option(s, p, sp, first, option):
    """Whether to take the optional action `option` (layout.OPT_*): never when its parameter
    (sp[first + option - 1], OPTION_PARAMS) is 0; a bonus shot at the UFO only when it can
    count (a destroyed UFO cannot be attacked, unless bonus shots also hit invaders); the
    others always: a re-launch or the heal costs nothing."""
    if sp[first + option - 1] < 0.5:
        return False
    if option == L.OPT_BONUS_SHOT:
        return ufo_attackable(s, p) or p[L.P_BONUS_HITS] != 0.0
    return True


@jit_inline
def left_at(s, seat, level):
    return s[pl(seat, L.PL_LEFT + level - 1)]


@jit_inline
def lowest_level_left(s, seat):
    for level in range(1, 4):
        if left_at(s, seat, level) > 0:
            return level
    return 0


# --- chances ------------------------------------------------------------------------------


@jit_inline
def _phi(z):
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


@jit_inline
def _within(centre, half, sd):
    """P(|N(centre, sd)| < half): a normal error inside an interval around zero."""
    if sd <= 1e-9:
        return 1.0 if abs(centre) < half else 0.0
    return _phi((half - centre) / sd) - _phi((-half - centre) / sd)


@jit_inline
def chance_box(p, ax, ay, x0, x1, y0, y1, scale):
    """Chance that a straight shot aimed at (ax, ay) lands with its centre in the box (the
    shooter below the aim: the error along the shot is along y). Ignores wild shots' luck."""
    return chance_box_from(p, p[L.P_SHOOTER_Y], ax, ay, x0, x1, y0, y1, scale)


@jit_inline
def chance_box_from(p, sy, ax, ay, x0, x1, y0, y1, scale):
    """chance_box for a shot from height sy (a bonus shot from where a token lies)."""
    distance = ay - sy
    across = sd_across(p, distance, scale)
    along = sd_along(p, distance, scale)
    bias = bias_along(p, distance)
    px = _within(0.5 * (x0 + x1) - ax, 0.5 * (x1 - x0), across)
    py = _within(0.5 * (y0 + y1) - ay - bias, 0.5 * (y1 - y0), along)
    return (1.0 - p[L.P_WILD]) * px * py


@jit_inline
def chance_card(p, ax, ay, cell, scale):
    """Chance that a shot aimed at (ax, ay) ends on the card in `cell` (the overlap rule
    approximated by the card grown by the token's radius; the centre rule exactly)."""
    grow = 0.0 if p[L.P_HIT_CENTER] != 0.0 else p[L.P_TOKEN_R]
    x0 = cell_center_x(p, cell) - 0.5 * p[L.P_CARD_W] - grow
    y0 = cell_center_y(p, cell) - 0.5 * p[L.P_CARD_H] - grow
    return chance_box(
        p, ax, ay, x0, x0 + p[L.P_CARD_W] + 2 * grow, y0, y0 + p[L.P_CARD_H] + 2 * grow, scale
    )


@jit_inline
def chance_ufo(p, scale):
    """Chance that a shot from the shooter at the UFO's centre lands inside it."""
    return chance_ufo_from(p, p[L.P_SHOOTER_Y], scale)


@jit_inline
def chance_ufo_from(p, sy, scale):
    """Chance that a shot from height sy at the UFO's centre lands inside it."""
    return chance_box_from(
        p,
        sy,
        ufo_center_x(p),
        ufo_center_y(p),
        p[L.P_UFO_X0],
        p[L.P_UFO_X1],
        p[L.P_UFO_Y0],
        p[L.P_UFO_Y1],
        scale,
    )


@jit_inline
def chance_ufo_in(p, scale, launches):
    """Chance that at least one of `launches` shots at the UFO's centre lands inside it (a
    declared three-tries token has UFO_TRIES, line 435)."""
    return 1.0 - (1.0 - chance_ufo(p, scale)) ** launches


# --- the coming advance -----------------------------------------------------------------------


@jit  # a call, not pasted in: the policies ask it in several places (compile time)
def predict_threat(s, p, scratch):
    """scratch[SC_THREAT + cell]: the planet damage the card in `cell` would do in this
    round's advance if nobody destroyed anything (the engine's march on a copy). Returns the
    total."""
    for cell in range(L.N_CELLS):
        scratch[SC_BOARD + cell] = s[L.S_BOARD + cell]
        scratch[SC_THREAT + cell] = 0
    last = s[L.S_LAST_ROUND] != 0
    end = march(scratch, SC_BOARD, p, last, scratch, SC_CRASHED)
    mult = int(p[L.P_LAST_MULT]) if last else 1
    total = 0
    for i in range(SC_CRASHED, end):
        card = scratch[i]
        for cell in range(L.N_CELLS):
            if s[L.S_BOARD + cell] == card:
                damage = int(p[L.P_CARD_DAMAGE + card - 1]) * mult
                scratch[SC_THREAT + cell] = damage
                total += damage
    return total


@jit_inline
def rows_to_planet(cell):
    """Spaces between the card and the planet area, counting its own (1 on the bottom row)."""
    return 4 - cell // L.COLS
