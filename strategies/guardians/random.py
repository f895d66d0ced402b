"""`random`: the rules-only baseline. Keep this definition stable.

Placement uniform over empty bottom cells; mine start uniform over free mine spaces; each turn
it re-enters (uniform empty bottom cell) when it can pay, never buys, picks its destination
uniformly among all reachable cells including its own, fires, and never moves the mine.
"""

from sim.games.guardians import layout as L
from sim.games.guardians.board import pl
from sim.games.guardians.decision import MINE_START, PLACE
from sim.games.guardians.moves import destinations
from sim.games.guardians.rng import below
from sim.jit import jit
from strategies.guardians.common import can_reenter, random_empty_bottom, random_mine_row, stand_at

NAME = "random"
PARAMS: dict[str, float] = {}


@jit
def policy(phase, s, p, seat, sp, rng, a, scratch):
    slot = seat + 1
    if phase == PLACE:
        a[L.A_DEST_COL] = random_empty_bottom(s, p, rng, slot)
        return
    if phase == MINE_START:
        a[L.A_MINE_ROW] = random_mine_row(s, p, rng, slot)
        return
    if s[pl(seat, L.PL_STATUS)] == L.DESTROYED:
        if not can_reenter(s, p, seat):
            return
        stand_at(s, seat, a, random_empty_bottom(s, p, rng, slot), 0)
    n = destinations(s, p, a[L.A_DEST_COL], a[L.A_DEST_ROW], scratch)
    k = below(rng, slot, n)
    a[L.A_DEST_COL] = scratch[2 * k]
    a[L.A_DEST_ROW] = scratch[2 * k + 1]
