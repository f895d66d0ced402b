"""Resolving hits (lines 212-232, 376-390): which hit invaders are destroyed.

Hits are kept per card for the whole round (a token waiting on a shielded or two-hit card,
lines 223-224); a player's resolution destroys every hit card that is neither shielded nor
short of hits, repeatedly, since a destroyed shield generator frees its neighbours in the same
resolution (the shield example, line 380).
"""

from sim.games.space_invaders import layout as L
from sim.games.space_invaders.board import neighbours_mask, popcount
from sim.jit import jit_inline


@jit_inline
def icon_at(s, p, cell):
    """Icon bits of the card in `cell` (0 for an empty space)."""
    card = s[L.S_BOARD + cell]
    if card == 0:
        return 0
    return int(p[L.P_CARD_ICON + card - 1])


@jit_inline
def add_hit(s, cell, seat, pierce):
    """One token's hit on the card in `cell` (a token counts once per card)."""
    s[L.S_HITS + cell] += 1
    s[L.S_HIT_SEATS + cell] |= 1 << seat
    if pierce:
        s[L.S_PIERCED + cell] = 1


@jit_inline
def shielded(s, p, cell):
    """An orthogonal neighbour generates a shield; shields do not shield shield cards
    (lines 376-378)."""
    if icon_at(s, p, cell) & L.ICON_SHIELD:
        return False
    around = neighbours_mask(cell)
    for other in range(L.N_CELLS):
        if (around >> other) & 1 and icon_at(s, p, other) & L.ICON_SHIELD:
            return True
    return False


@jit_inline
def hits_suffice(s, p, cell):
    """Enough hits this round: one, or two for a two-hit invader (line 386); a piercing
    level-2 token's hit always suffices (line 418). With P_TWO_HIT_OTHERS the two hits must
    come from two different players (the reading of line 223)."""
    if s[L.S_HITS + cell] == 0:
        return False
    if s[L.S_PIERCED + cell] != 0 or (icon_at(s, p, cell) & L.ICON_TWO_HIT) == 0:
        return True
    if p[L.P_TWO_HIT_OTHERS] != 0.0:
        return popcount(s[L.S_HIT_SEATS + cell]) >= 2
    return s[L.S_HITS + cell] >= 2


@jit_inline
def can_destroy(s, p, cell):
    """The card in `cell` would be destroyed by a resolution now."""
    if s[L.S_BOARD + cell] == 0 or not hits_suffice(s, p, cell):
        return False
    return s[L.S_PIERCED + cell] != 0 or not shielded(s, p, cell)


@jit_inline
def remove_card(s, cell):
    s[L.S_BOARD + cell] = 0
    s[L.S_HITS + cell] = 0
    s[L.S_HIT_SEATS + cell] = 0
    s[L.S_PIERCED + cell] = 0


@jit_inline
def destroy_all(s, p, seat):
    """Destroy every hit card that can be, until none can (a resolution); returns the mask of
    the destroyed cells. Destroyed cards go to the score board (line 216)."""
    killed = 0
    changed = True
    while changed:
        changed = False
        for cell in range(L.N_CELLS):
            if can_destroy(s, p, cell):
                if icon_at(s, p, cell) & (L.ICON_SHIELD | L.ICON_TWO_HIT):
                    s[L.S_BONUS_KILLS] += 1  # line 369
                remove_card(s, cell)
                s[L.S_DESTROYED] += 1
                s[L.S_PLAYERS + seat * L.PL_SIZE + L.PL_KILLS] += 1
                killed |= 1 << cell
                changed = True
    return killed


@jit_inline
def clear_round_hits(s):
    """Tokens still waiting when the round's last player is done are removed (line 224)."""
    for cell in range(L.N_CELLS):
        s[L.S_HITS + cell] = 0
        s[L.S_HIT_SEATS + cell] = 0
        s[L.S_PIERCED + cell] = 0
