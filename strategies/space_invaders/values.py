"""What destroying each invader is worth to the team, in planet health saved, and how much a
hit on it can do now (the tactical and planner strategies' shared judgement).

value(cell) = damage it does this round if left alone (the engine's advance, on a copy)
            + future_weight x damage x its speed over the spaces left, for the rest
            + a small share for clearing the deck (every card must fall some day)
and a generator of shields also carries part of the value of the cards it protects. A hit
now is worth value x effect: 1 if the hit destroys it at the resolution, a fraction if it
only waits (a shielded card, a two-hit card with no other hit coming), 0 if one of this
turn's tokens is already on it.
"""

from numpy import int64 as I64

from sim.games.space_invaders import layout as L
from sim.games.space_invaders.board import neighbours_mask
from sim.games.space_invaders.engine import heal_gain, pl, ufo_attackable
from sim.games.space_invaders.resolve import icon_at, shielded
from sim.jit import jit, jit_inline
from strategies.space_invaders.common import SC_THREAT, chance_ufo, rows_to_planet

CLEAR_SHARE = 0.3  # a kill's worth beyond the damage it prevents: the deck must be cleared
HEALTH_PRESSURE = 1.5  # one health point is worth this / health of the win chance
PACE_WORTH = 4.0  # health a UFO hit is worth while the final assault looks hopeless


@jit_inline
def base_value(s, p, scratch, cell, future_weight):
    """Planet health the card in `cell` is worth destroying now (0 for an empty space)."""
    card = s[L.S_BOARD + cell]
    if card == 0:
        return 0.0
    now = float(scratch[SC_THREAT + cell])
    damage = p[L.P_CARD_DAMAGE + card - 1]
    reach = min(1.0, p[L.P_CARD_SPEED + card - 1] / rows_to_planet(cell))
    later = future_weight * damage * reach if now == 0.0 else 0.0
    return now + later + CLEAR_SHARE * damage


@jit_inline
def tokens_after(s, seat):
    """Active tokens still to launch this round by the seats after `seat` (and its own)."""
    n = s[L.S_N_SEATS]
    total = 0
    start = s[L.S_START_SEAT]
    order_me = (seat - start) % n
    for other in range(L.MAX_SEATS):
        if other >= n or (other - start) % n < order_me:
            continue
        base = pl(other, L.PL_LEFT)
        total += s[base] + s[base + 1] + s[base + 2]
    return total


@jit_inline
def landed_mask(s):
    """Cards this turn's tokens are on so far (they fall or wait at the resolution)."""
    return s[L.S_TURN_LANDED]


@jit_inline
def effect(s, p, cell, pierce, follow_up, landed):
    """How much of a card's value a hit on it realises now (0..1). `follow_up` is the chance
    that another hit reaches a two-hit card later this round; `landed` the cards other
    tokens of this turn are on."""
    if s[L.S_BOARD + cell] == 0:
        return 0.0
    icon = icon_at(s, p, cell)
    own = (landed >> cell) & 1 == 1
    if pierce:
        return 0.0 if own else 1.0
    factor = 1.0
    if icon & L.ICON_TWO_HIT:
        if s[L.S_HITS + cell] >= 1 or own:
            factor = 1.0
        else:
            factor = follow_up
    elif own:
        return 0.0
    if shielded(s, p, cell):
        freed = False
        around = neighbours_mask(cell)
        for other in range(L.N_CELLS):
            if (around >> other) & 1 and icon_at(s, p, other) & L.ICON_SHIELD:
                freed = (landed >> other) & 1 == 1
                if not freed:
                    break
        if not freed:
            factor *= 0.1
    return factor


@jit_inline
def generator_bonus(s, p, scratch, cell, future_weight):
    """A shield generator's extra worth: the cards it protects (in full for those with a hit
    waiting on them, they fall with it)."""
    if icon_at(s, p, cell) & L.ICON_SHIELD == 0:
        return 0.0
    bonus = 0.0
    around = neighbours_mask(cell)
    for other in range(L.N_CELLS):
        if (around >> other) & 1 and s[L.S_BOARD + other] != 0:
            if icon_at(s, p, other) & L.ICON_SHIELD:
                continue
            worth = base_value(s, p, scratch, other, future_weight)
            bonus += worth if s[L.S_HITS + other] > 0 else 0.3 * worth
    return bonus


@jit_inline
def hit_worth(s, p, scratch, cell, pierce, follow_up, future_weight, landed):
    """What one hit on the card in `cell` is worth now. The arguments numba types apart
    (an int32 or literal `landed`, a literal `pierce`) are widened, so that `_hit_worth` is
    compiled once: pasted into each of tactical's five `_worth` signatures, it took over
    half of tactical's compile."""
    return _hit_worth(s, p, scratch, I64(cell), bool(pierce), follow_up, future_weight, I64(landed))


@jit
def _hit_worth(s, p, scratch, cell, pierce, follow_up, future_weight, landed):
    if s[L.S_BOARD + cell] == 0:
        return 0.0
    return _card_worth(s, p, scratch, cell, future_weight) * effect(
        s, p, cell, pierce, follow_up, landed
    )


@jit_inline  # pasted into the planner's one call: it asks it for every card of every plan
def hit_worths(s, p, scratch, cell, follow_up, future_weight, landed):
    """(hit_worth of a plain hit, of a piercing one), the card's worth worked out once."""
    if s[L.S_BOARD + cell] == 0:
        return 0.0, 0.0
    worth = _card_worth(s, p, scratch, cell, future_weight)
    plain = worth * effect(s, p, cell, False, follow_up, landed)
    return plain, worth * effect(s, p, cell, True, follow_up, landed)


@jit_inline
def _card_worth(s, p, scratch, cell, future_weight):
    return base_value(s, p, scratch, cell, future_weight) + generator_bonus(
        s, p, scratch, cell, future_weight
    )


@jit_inline
def at_least(n, q, k):
    """P(Binomial(n, q) >= k)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    below = 0.0
    term = (1.0 - q) ** n  # P(0)
    for i in range(k):
        below += term
        if q >= 1.0:
            return 0.0 if k > i + 1 else 1.0 - below
        term *= (n - i) / (i + 1) * q / (1.0 - q)
    return max(0.0, 1.0 - below)


@jit_inline
def active_tokens(s):
    """Tokens the team would launch in the final assault now (line 330)."""
    total = 0
    for seat in range(s[L.S_N_SEATS]):
        base = pl(seat, L.PL_ACTIVE)
        total += s[base] + s[base + 1] + s[base + 2]
    return total


@jit_inline
def ufo_worth(s, p, power, scale, ufo_weight):
    """What a UFO hit with a token of `power` is worth now, in planet health. The team must
    destroy the UFO by the end of the final assault (lines 330-333), where it launches all
    its active tokens: a hit now raises that chance from P(assault lands u hits) to
    P(u - 1 hits) (binomial, the seat's UFO chance), weighed against what one health point
    is worth (more the less health is left); far from enough hits, a hit is worth
    PACE_WORTH x the share of the UFO the assault will not take. The heal power adds the
    health it restores (the engine's heal_gain: 0 on a full planet or a UFO that cannot be
    attacked), the UFO re-launch power another shot."""
    worth = 0.0
    if power == L.HEAL and ufo_attackable(s, p):
        worth += heal_gain(s, p)
    u = s[L.S_UFO]
    if u > 0:
        q = chance_ufo(p, scale)
        n = active_tokens(s)
        now = at_least(n, q, u)
        gain = at_least(n, q, u - 1) - now
        health = max(s[L.S_PLANET], 1)
        near = gain * health / (HEALTH_PRESSURE * max(now, 0.02))
        # far from enough hits the binomial gain of one hit is tiny, yet the hits must come:
        # the share of the UFO's health the assault will not take, at PACE_WORTH a hit
        pace = PACE_WORTH * max(u - n * q, 0.0) / u
        worth += min(ufo_weight * max(near, pace), 20.0)
        if power == L.UFO_RELAUNCH:
            worth += 1.0
    return worth
