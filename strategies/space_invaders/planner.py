"""Strong round planner: every launch is the token and the aim point with the highest
expected worth for the team, where a card's worth is the tactical player's (values.py) and
the chance of landing on each card comes from the dexterity model (the seat's own spread):

  expected worth = sum over the cards the aim can land on of chance x worth of the hit
                   + what the token's power adds (a blast wave or a re-launch rescues part of
                     a miss, a called shot or a miss with the landing-spot power earns a UFO
                     shot, three tries triple the chances at the UFO)

Aim points are the cards' centres, the middle of every two neighbouring cards (one token on
both) and the UFO. A two-hit invader counts in full when a hit waits on it, else by the
chance that the team's tokens still to launch this round land a second hit; a shield
generator carries the cards it protects. The resolution choices and the level-2 re-launch
follow the same worths (the tactical player's rules). It takes every other optional action the
rules offer (common.take_option), the planet-area re-launch too; with `stay_in_planet` 1 it
leaves a token in the planet area instead when what its power does from there (a sure blast
wave, a bonus shot from close to the UFO) is worth more than the best new launch's expected
worth, which measured worse than always launching again (docs/games/space_invaders/
strategies.md)."""

import numpy as np

from sim.games.space_invaders import layout as L
from sim.games.space_invaders.board import (
    cell_center_x,
    cell_center_y,
    ufo_center_x,
    ufo_center_y,
)
from sim.games.space_invaders.engine import power_of, tk
from sim.jit import jit, jit_inline
from strategies.space_invaders.common import (
    OPTION_PARAMS,
    SC_GAME,
    SC_GAME_SEAT,
    SC_WORTH,
    SC_WORTH_PIERCE,
    UFO,
    WORTH_UNIT,
    aim_at,
    aim_target,
    chance_card,
    chance_ufo,
    chance_ufo_from,
    chance_ufo_in,
    choose_token,
    left_at,
    predict_threat,
    take_option,
)
from strategies.space_invaders.tactical import (
    _landing_worth,
    resolve_choices,
    wave_from_landing,
)
from strategies.space_invaders.values import hit_worths, landed_mask, tokens_after, ufo_worth

PARAMS = {
    "spread_scale": 1.0,
    "ufo_weight": 1.0,
    "future_weight": 0.6,
    **OPTION_PARAMS,
    "stay_in_planet": 0.0,  # 1: judge whether a token in the planet area stays there
}
_UFO_WEIGHT, _FUTURE = 1, 2  # the same places as the tactical player's (shared choices)
_OPTIONS = 3
_STAY = _OPTIONS + len(OPTION_PARAMS)
# what a blast wave recovers of a missed aimed shot (its chance of reaching the card)
SHORT_RESCUE, LONG_RESCUE = 0.5, 0.65
N_PAIRS = (L.COLS - 1) * L.ROWS + L.COLS * (L.ROWS - 1)  # neighbouring cells, across then down
N_AIMS = L.N_CELLS + N_PAIRS + 1  # centres, pairs, the UFO
# the chance table (chance_table): centres, two per pair, the UFO once and with three tries
_UFO_ONCE = L.N_CELLS + 2 * N_PAIRS
_UFO_TRIES = _UFO_ONCE + 1
assert 1 + _UFO_TRIES + 1 <= SC_GAME_SEAT, "the chance table outgrew a seat's part of the scratch"


@jit_inline
def pair_cells(k):
    """The two cells of neighbour pair k."""
    across = (L.COLS - 1) * L.ROWS
    if k < across:
        row, col = k // (L.COLS - 1), k % (L.COLS - 1)
        return row * L.COLS + col, row * L.COLS + col + 1
    k -= across
    row, col = k // L.COLS, k % L.COLS
    return row * L.COLS + col, (row + 1) * L.COLS + col


@jit
def chance_table(p, seat, sp, scratch):
    """Where the seat's chances of landing start in the scratch seen as float64
    (scratch.view): per aim point, on its card (a centre) or on each of its two cards (a
    pair), then at the UFO with one launch and with UFO_TRIES. They depend only on the rules
    and the seat's dexterity, so they are worked out at the seat's first plan of a game and
    kept in its part of the scratch (common.SC_GAME), which the loop zeroes when a game
    starts."""
    base = SC_GAME + seat * SC_GAME_SEAT
    if scratch[base] == 0:
        chances = scratch.view(np.float64)
        for aim in range(N_AIMS - 1):
            x, y = aim_point(p, aim)
            if aim < L.N_CELLS:
                chances[base + 1 + aim] = chance_card(p, x, y, aim, sp[0])
            else:
                c1, c2 = pair_cells(aim - L.N_CELLS)
                at = base + 1 + L.N_CELLS + 2 * (aim - L.N_CELLS)
                chances[at] = chance_card(p, x, y, c1, sp[0])
                chances[at + 1] = chance_card(p, x, y, c2, sp[0])
        chances[base + 1 + _UFO_ONCE] = chance_ufo(p, sp[0])
        chances[base + 1 + _UFO_TRIES] = chance_ufo_in(p, sp[0], L.UFO_TRIES)
        scratch[base] = 1
    return base + 1


@jit
def fill_worths(s, p, seat, sp, scratch, at):
    """Each card's worth for a plain and a piercing hit, kept in the scratch (`at`: the
    seat's chance table, chance_table)."""
    predict_threat(s, p, scratch)
    chances = scratch.view(np.float64)
    after = tokens_after(s, seat) - 1
    landed = landed_mask(s)
    for cell in range(L.N_CELLS):
        if s[L.S_BOARD + cell] == 0:
            scratch[SC_WORTH + cell] = 0
            scratch[SC_WORTH_PIERCE + cell] = 0
            continue
        # a second hit on a two-hit card: some of the team's remaining tokens land on it
        miss_all = (1.0 - chances[at + cell] * 0.5) ** max(after, 0)
        follow = 1.0 - miss_all
        plain, pierce = hit_worths(s, p, scratch, cell, follow, sp[_FUTURE], landed)
        scratch[SC_WORTH + cell] = int(plain * WORTH_UNIT)
        scratch[SC_WORTH_PIERCE + cell] = int(pierce * WORTH_UNIT)


@jit_inline
def _worth(scratch, cell, power):
    key = SC_WORTH_PIERCE if power == L.PIERCE else SC_WORTH
    return scratch[key + cell] / WORTH_UNIT


@jit_inline
def aim_point(p, aim):
    """(x, y) of aim point `aim` (a centre, a pair's middle or the UFO)."""
    if aim < L.N_CELLS:
        return cell_center_x(p, aim), cell_center_y(p, aim)
    if aim < L.N_CELLS + N_PAIRS:
        c1, c2 = pair_cells(aim - L.N_CELLS)
        return (
            0.5 * (cell_center_x(p, c1) + cell_center_x(p, c2)),
            0.5 * (cell_center_y(p, c1) + cell_center_y(p, c2)),
        )
    return ufo_center_x(p), ufo_center_y(p)


@jit
def aim_worth(s, aim, power, scratch, at, ufo_value):
    """Expected worth of a token with `power` aimed at aim point `aim` (`at`: the seat's
    chance table)."""
    chances = scratch.view(np.float64)
    ufo_chance = chances[at + _UFO_ONCE]
    if aim == N_AIMS - 1:
        if power == L.UFO_THREE_TRIES:  # declared: up to three launches for one hit
            return chances[at + _UFO_TRIES] * ufo_value
        return ufo_chance * ufo_value
    if aim < L.N_CELLS:
        if s[L.S_BOARD + aim] == 0:
            return -1.0
        c1, c2 = aim, -1
        p1 = chances[at + aim]
    else:
        c1, c2 = pair_cells(aim - L.N_CELLS)
        if s[L.S_BOARD + c1] == 0 or s[L.S_BOARD + c2] == 0:
            return -1.0
        p1 = chances[at + L.N_CELLS + 2 * (aim - L.N_CELLS)]
    worth = p1 * _worth(scratch, c1, power)
    on_any = p1
    if c2 >= 0:
        p2 = chances[at + L.N_CELLS + 2 * (aim - L.N_CELLS) + 1]
        worth += p2 * _worth(scratch, c2, power)
        on_any = min(1.0, p1 + p2)
    if power == L.SHORT_WAVE or power == L.LONG_WAVE:
        rescue = SHORT_RESCUE if power == L.SHORT_WAVE else LONG_RESCUE
        worth += (1.0 - on_any) * rescue * _worth(scratch, c1, power)
    elif power == L.RELAUNCH:
        worth += (1.0 - on_any) * worth
    elif power == L.UFO_FROM_LANDING:
        worth += (1.0 - on_any) * ufo_chance * ufo_value
    elif power == L.CALLED_SHOT:
        worth += p1 * ufo_chance * ufo_value
    return worth


@jit
def plan(s, p, seat, sp, scratch, only_level):
    """(level, aim) with the highest expected worth; `only_level` > 0 fixes the token."""
    at = chance_table(p, seat, sp, scratch)
    fill_worths(s, p, seat, sp, scratch, at)
    best_level, best_aim, best = 0, N_AIMS - 1, -2.0
    for level in range(1, 4):
        if (only_level > 0 and level != only_level) or (
            only_level == 0 and left_at(s, seat, level) == 0
        ):
            continue
        power = power_of(s, p, seat, level)
        ufo_value = ufo_worth(s, p, power, sp[0], sp[_UFO_WEIGHT])
        for aim in range(N_AIMS):
            worth = aim_worth(s, aim, power, scratch, at, ufo_value)
            if worth > best:
                best_level, best_aim, best = level, aim, worth
    return best_level, best_aim, best


@jit
def stays(s, p, w, seat, sp, scratch):
    """Whether the token in flight stays in the planet area, the planet-area re-launch offered:
    what its power does from where it lies (a sure blast wave; a bonus shot at the UFO from
    there, lines 411, 419, 424) beats the expected worth of launching it again."""
    if s[L.S_OPTION] != L.OPT_PLANET_RELAUNCH or sp[_STAY] < 0.5:
        return False
    t = s[L.S_CUR]
    power, level = s[tk(t, L.TK_POWER)], s[tk(t, L.TK_LEVEL)]
    if power == L.UFO_FROM_LANDING:
        value = ufo_worth(s, p, power, sp[0], sp[_UFO_WEIGHT])
        staying = chance_ufo_from(p, w[L.W_LAND_Y], sp[0]) * value
    else:
        predict_threat(s, p, scratch)
        staying = wave_from_landing(s, p, w, seat, sp, scratch, power, landed_mask(s))
    if staying <= 0.0:
        return False
    _, _, fresh = plan(s, p, seat, sp, scratch, level)
    return staying > fresh


@jit_inline
def _aim(p, a, aim):
    if aim == N_AIMS - 1:
        aim_target(p, a, UFO)
    else:
        x, y = aim_point(p, aim)
        aim_at(p, a, x, y)


@jit  # compiled on its own: the loop calls it through a pointer (decision.py)
def policy(phase, s, p, w, seat, sp, rng, a, scratch):
    if phase == L.PH_CHOOSE:
        # an int32 0, as the levels read from the state below: plan is compiled once
        level, aim, worth = plan(s, p, seat, sp, scratch, np.int32(0))
        power = power_of(s, p, seat, level)
        target = (
            aim
            if aim < L.N_CELLS
            else (pair_cells(aim - L.N_CELLS)[0] if aim < N_AIMS - 1 else UFO)
        )
        choose_token(a, level, target)
        if power != L.CALLED_SHOT:
            a[L.A_CALLED] = -1.0
        # declared when the UFO with three launches is the best use of the token
        a[L.A_THREE] = (
            1.0 if power == L.UFO_THREE_TRIES and aim == N_AIMS - 1 and worth > 0.0 else 0.0
        )
        _aim(p, a, aim)
    elif phase == L.PH_REAIM:
        t = s[L.S_CUR]
        if s[tk(t, L.TK_THREE)] != 0:
            aim_target(p, a, UFO)
        else:
            _, aim, _ = plan(s, p, seat, sp, scratch, s[tk(t, L.TK_LEVEL)])
            _aim(p, a, aim)
    elif phase == L.PH_RELAUNCH_Q:
        t = s[L.S_CUR]
        _, _, fresh = plan(s, p, seat, sp, scratch, s[tk(t, L.TK_LEVEL)])
        got = _landing_worth(s, p, t, seat, sp, scratch)
        a[L.A_YES] = 1.0 if got < fresh else 0.0
    elif phase == L.PH_OPTION:
        take = take_option(s, p, sp, _OPTIONS, s[L.S_OPTION])
        a[L.A_TAKE] = 1.0 if take and not stays(s, p, w, seat, sp, scratch) else 0.0
    elif phase == L.PH_RESOLVE:
        resolve_choices(s, p, w, seat, sp, a, scratch)
