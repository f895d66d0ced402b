"""Two user strategies: a compiled one, and the plain-Python example re-exported from a
module of the user's own."""

from numba import njit

from sim.games.guardians.decision import MINE_START, PLACE
from sim.games.guardians.layout import A_DEST_COL, A_DEST_ROW, A_MINE_ROW, P_COLS
from sim.games.guardians.moves import destinations, shot_value
from strategies.guardians.common import can_reenter, stand_at
from strategies.guardians.examples import Sniper

__all__ = ["Leftmost", "Sniper"]


@njit(cache=True)
def _leftmost_policy(phase, s, p, seat, sp, rng, a, scratch):
    """Place in the first free bottom cell, then shoot from the reachable cell worth most,
    preferring cells further left (parameter `bias`: how much a column further left counts)."""
    if phase == PLACE:  # the first free bottom cell
        for c in range(p[P_COLS]):
            if s[c] == 0:
                a[A_DEST_COL] = c
                return
    if phase == MINE_START:
        a[A_MINE_ROW] = 1
        return
    if a[A_DEST_COL] < 0:
        if not can_reenter(s, p, seat):
            return
        for c in range(p[P_COLS]):
            if s[c] == 0:
                stand_at(s, seat, a, c, 0)
                break
    n = destinations(s, p, a[A_DEST_COL], a[A_DEST_ROW], scratch)
    best, best_k = -1.0, 0
    for k in range(n):
        points, hit = shot_value(s, p, scratch[2 * k], scratch[2 * k + 1], seat)
        value = points + (0.5 if hit else 0.0) - sp[0] * scratch[2 * k]
        if value > best:
            best, best_k = value, k
    a[A_DEST_COL] = scratch[2 * best_k]
    a[A_DEST_ROW] = scratch[2 * best_k + 1]


class Leftmost:
    """A compiled user strategy: runs inside the compiled game loop."""

    PARAMS = {"bias": 0.1}
    policy = _leftmost_policy
