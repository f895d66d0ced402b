"""Tactical team player: aims at the invader whose destruction is worth most to the team now,
judged by rules of thumb rather than by its chances of hitting: the damage it would do in
this round's advance (the engine's own march, on a copy), then nearest and fastest; a two-hit
invader only when a partner's token already waits on it (else little), a shielded one only
once its generator falls (or with the piercing token), a generator for the cards it shields.
It shoots at the UFO when the final assault looks short of hits (a UFO hit counts half its
worth against a card's; the heal power's hit adds the health it restores), declares the three
tries when the UFO with three launches is worth more than any card, launches its tokens
lowest level first, calls its target, re-launches
(level 2) when the landing was worth much less than its target, and makes each resolution
choice (redirect, extra, blast wave) for the most valuable card. It takes every other optional
action the rules offer (common.take_option), the planet-area re-launch too; with
`stay_in_planet` 1 it leaves a wave token in the planet area instead when its blast wave from
there reaches a card worth at least its best target (a sure hit against a chance of one),
which measured worse than always launching again (docs/games/space_invaders/strategies.md)."""

import math

from numpy import int64 as I64

from sim.games.space_invaders import layout as L
from sim.games.space_invaders.board import (
    neighbours_mask,
    wave_reaches,
)
from sim.games.space_invaders.engine import power_of, tk, wave_length
from sim.jit import jit, jit_inline
from strategies.space_invaders.common import (
    OPTION_PARAMS,
    UFO,
    aim_target,
    chance_ufo,
    chance_ufo_in,
    choose_token,
    left_at,
    predict_threat,
    take_option,
)
from strategies.space_invaders.values import hit_worth, landed_mask, tokens_after, ufo_worth

PARAMS = {
    "spread_scale": 1.0,
    "ufo_weight": 1.0,
    "future_weight": 0.5,
    "relaunch_below": 0.5,
    **OPTION_PARAMS,
    "stay_in_planet": 0.0,  # 1: judge whether a token in the planet area stays there
}
_UFO_WEIGHT, _FUTURE, _RELAUNCH_BELOW, _OPTIONS = 1, 2, 3, 4
_STAY = _OPTIONS + len(OPTION_PARAMS)
FOLLOW_UP = 0.4  # a lone hit on a two-hit card pays off about this often
# a UFO hit counts this share of its worth against a card's: a casual adult lands a shot in
# the UFO about half as often as on the card they aim at
UFO_SHARE = 0.5


@jit_inline
def _worth(s, p, scratch, cell, pierce, seat, sp, landed):
    """hit_worth with this strategy's parameters and follow-up guess."""
    follow = FOLLOW_UP if tokens_after(s, seat) > 1 else 0.05
    return hit_worth(s, p, scratch, cell, pierce, follow, sp[_FUTURE], landed)


@jit_inline
def ufo_option(s, p, power, sp, tries):
    """What aiming a token with `power` at the UFO is worth, against a card's full worth: a
    UFO hit counts UFO_SHARE of its worth (ufo_worth: the heal power's health included); a
    token with `tries` launches for one hit (three tries declared) by its gain in chance."""
    worth = ufo_worth(s, p, power, sp[0], sp[_UFO_WEIGHT]) * UFO_SHARE
    if tries > 1:
        worth *= chance_ufo_in(p, sp[0], tries) / max(chance_ufo(p, sp[0]), 1e-9)
    return worth


@jit_inline
def best_target(s, p, seat, power, sp, scratch, tries):
    """(target, worth) for a token with `power` whose shot at the UFO has `tries` launches:
    a cell or UFO. `power` (an int32 read from the state or an int64) and `tries` (a literal
    1 or an int64) are widened, so that `_best_target` is compiled once."""
    return _best_target(s, p, seat, I64(power), sp, scratch, I64(tries))


@jit
def _best_target(s, p, seat, power, sp, scratch, tries):
    pierce = power == L.PIERCE
    landed = landed_mask(s)
    best, worth = UFO, ufo_option(s, p, power, sp, tries)
    for cell in range(L.N_CELLS):
        if s[L.S_BOARD + cell] != 0:
            value = _worth(s, p, scratch, cell, pierce, seat, sp, landed)
            if value > worth:
                best, worth = cell, value
    return best, worth


@jit_inline
def others_mask(s, t):
    """Cards the turn's tokens other than record t are on."""
    mask = 0
    for other in range(s[L.S_TOKENS]):
        if other != t:
            mask |= s[tk(other, L.TK_CELLS)]
    return mask


@jit_inline
def best_neighbour(s, p, scratch, cells, seat, sp, landed, keep, floor):
    """The most valuable invader next to one of `cells` (or in `cells` if `keep`) worth more
    than `floor`: (cell, worth), (-1, floor) if none. The masks (int32 or int64, a literal
    0) and the literal `keep` are widened, so that `_best_neighbour` is compiled once."""
    return _best_neighbour(s, p, scratch, I64(cells), seat, sp, I64(landed), bool(keep), floor)


@jit
def _best_neighbour(s, p, scratch, cells, seat, sp, landed, keep, floor):
    best, worth = -1, floor
    for cell in range(L.N_CELLS):
        if (cells >> cell) & 1 == 0:
            continue
        around = neighbours_mask(cell) | ((1 << cell) if keep else 0)
        for other in range(L.N_CELLS):
            if (around >> other) & 1 and s[L.S_BOARD + other] != 0:
                if not keep and (cells >> other) & 1:
                    continue
                value = _worth(s, p, scratch, other, False, seat, sp, landed)
                if value > worth:
                    best, worth = other, value
    return best, worth


@jit
def resolve_choices(s, p, w, seat, sp, a, scratch):
    """Each resolution choice (redirect, extra hit, blast wave) for the most valuable card,
    the threat predicted first (the planner answers these the same way)."""
    predict_threat(s, p, scratch)
    for t in range(s[L.S_TOKENS]):
        power, result = s[tk(t, L.TK_POWER)], s[tk(t, L.TK_RESULT)]
        mask = s[tk(t, L.TK_CELLS)]
        landed = others_mask(s, t)
        base = L.A_RES + t * L.RES_SIZE
        if result == L.ON_CARDS and power == L.ADJACENT_INSTEAD:
            slot = 0
            for cell in range(L.N_CELLS):
                if (mask >> cell) & 1 and slot < 4:
                    best, _ = best_neighbour(s, p, scratch, 1 << cell, seat, sp, landed, True, 0.0)
                    a[base + L.RES_REDIRECT + slot] = best
                    if best >= 0:
                        landed |= 1 << best
                    slot += 1
        elif result == L.ON_CARDS and power == L.EXTRA_ADJACENT:
            # line 436: one must be hit, worth it or not (unless `powers.extra_hit: may`)
            floor = 0.0 if p[L.P_EXTRA_MAY] != 0.0 else -math.inf
            best, _ = best_neighbour(s, p, scratch, mask, seat, sp, landed, False, floor)
            a[base + L.RES_EXTRA] = best
        elif result == L.MISS and (power == L.SHORT_WAVE or power == L.LONG_WAVE):
            worth = 0.0
            reach = wave_length(p, power)
            for cell in range(L.N_CELLS):
                if s[L.S_BOARD + cell] != 0 and wave_reaches(
                    p, cell, w[L.W_X + t], w[L.W_Y + t], reach
                ):
                    pierce = power == L.LONG_WAVE and p[L.P_LONG_DESTROYS] != 0.0
                    value = _worth(s, p, scratch, cell, pierce, seat, sp, landed)
                    if value > worth:
                        a[base + L.RES_WAVE], worth = cell, value


@jit
def wave_from_landing(s, p, w, seat, sp, scratch, power, landed):
    """What the token in flight, left where it lies, is worth by its blast wave (lines 411,
    424): the best card the wave reaches from there, 0 without a wave power."""
    if power != L.SHORT_WAVE and power != L.LONG_WAVE:
        return 0.0
    reach = wave_length(p, power)
    pierce = power == L.LONG_WAVE and p[L.P_LONG_DESTROYS] != 0.0
    best = 0.0
    for cell in range(L.N_CELLS):
        if s[L.S_BOARD + cell] != 0 and wave_reaches(p, cell, w[L.W_LAND_X], w[L.W_LAND_Y], reach):
            best = max(best, _worth(s, p, scratch, cell, pierce, seat, sp, landed))
    return best


@jit_inline
def stays(s, p, w, seat, sp, scratch):
    """Whether the token in flight stays in the planet area, the planet-area re-launch offered:
    its wave from there reaches a card worth at least its best target (the rules of thumb
    weigh no chances: a sure hit on as good a card beats a new launch)."""
    if s[L.S_OPTION] != L.OPT_PLANET_RELAUNCH or sp[_STAY] < 0.5:
        return False
    predict_threat(s, p, scratch)
    power = s[tk(s[L.S_CUR], L.TK_POWER)]
    staying = wave_from_landing(s, p, w, seat, sp, scratch, power, landed_mask(s))
    if staying <= 0.0:
        return False
    _, worth = best_target(s, p, seat, power, sp, scratch, 1)
    return staying >= worth


@jit
def _landing_worth(s, p, t, seat, sp, scratch):
    """What token t's landing is worth (the cards it is on)."""
    mask = s[tk(t, L.TK_CELLS)]
    pierce = s[tk(t, L.TK_POWER)] == L.PIERCE
    worth = 0.0
    for cell in range(L.N_CELLS):
        if (mask >> cell) & 1:
            worth += _worth(s, p, scratch, cell, pierce, seat, sp, landed_mask(s))
    return worth


@jit  # compiled on its own: the loop calls it through a pointer (decision.py)
def policy(phase, s, p, w, seat, sp, rng, a, scratch):
    if phase == L.PH_CHOOSE:
        predict_threat(s, p, scratch)
        level = 1
        while left_at(s, seat, level) == 0:
            level += 1
        power = power_of(s, p, seat, level)
        # three tries are declared before the first launch (line 435): with the power, a
        # shot at the UFO has UFO_TRIES launches, and the UFO is taken when that is worth most
        tries = L.UFO_TRIES if power == L.UFO_THREE_TRIES else 1
        target, worth = best_target(s, p, seat, power, sp, scratch, tries)
        choose_token(a, level, target)
        if power != L.CALLED_SHOT:
            a[L.A_CALLED] = -1.0
        a[L.A_THREE] = 1.0 if tries > 1 and target == UFO and worth > 0.0 else 0.0
        aim_target(p, a, target)
    elif phase == L.PH_REAIM:
        predict_threat(s, p, scratch)
        t = s[L.S_CUR]
        target, _ = best_target(s, p, seat, s[tk(t, L.TK_POWER)], sp, scratch, 1)
        if s[tk(t, L.TK_THREE)] != 0:  # three tries: the UFO only
            target = UFO
        aim_target(p, a, target)
    elif phase == L.PH_RELAUNCH_Q:
        predict_threat(s, p, scratch)
        t = s[L.S_CUR]
        _, worth = best_target(s, p, seat, s[tk(t, L.TK_POWER)], sp, scratch, 1)
        got = _landing_worth(s, p, t, seat, sp, scratch)
        a[L.A_YES] = 1.0 if got < sp[_RELAUNCH_BELOW] * worth else 0.0
    elif phase == L.PH_OPTION:
        take = take_option(s, p, sp, _OPTIONS, s[L.S_OPTION])
        a[L.A_TAKE] = 1.0 if take and not stays(s, p, w, seat, sp, scratch) else 0.0
    elif phase == L.PH_RESOLVE:
        resolve_choices(s, p, w, seat, sp, a, scratch)
