"""`random`: the rules-only baseline. Keep this definition stable.

Placement uniform over empty bottom cells; mine start uniform over free mine spaces; each turn
it re-enters (uniform empty bottom cell) when it can pay, never buys, picks its destination
uniformly among all reachable cells including its own, fires, and never moves the mine.
"""

from sim.games.guardians import layout as L
from sim.games.guardians.moves import destinations
from sim.jit import jit
from sim.random_streams import below
from strategies.guardians.common import opening, random_empty_bottom, random_mine_row

PARAMS: dict[str, float] = {}


@jit
def policy(phase, s, p, seat, sp, rng, a, scratch):
    if opening(phase, s, p, seat, sp, rng, a, scratch,
               random_empty_bottom, random_mine_row, random_empty_bottom):  # fmt: skip
        return
    n = destinations(s, p, a[L.A_DEST_COL], a[L.A_DEST_ROW], scratch)
    k = below(rng, seat + 1, n)
    a[L.A_DEST_COL] = scratch[2 * k]
    a[L.A_DEST_ROW] = scratch[2 * k + 1]
