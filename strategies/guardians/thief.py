"""`thief`: greedy, but it would rather rob the leader.

The leader is the other player with the largest reserve. If a reachable cell has the leader's
fighter as the first object up its column, and the tokens the shots there would steal are worth
at least the best greedy volley less `steal_bias` points (a point taken from the one to beat
counts twice), it flies there and shoots the leader; otherwise it plays like greedy.
"""

from sim.games.guardians import layout as L
from sim.games.guardians.board import at, first_object_row, pl
from sim.games.guardians.moves import destinations, leader_seat, steal_points, volley_value
from sim.jit import jit
from strategies.guardians.common import better, opening, random_mine_row
from strategies.guardians.greedy import best_bottom_column

PARAMS: dict[str, float] = {
    "steal_bias": 2.0,  # points a steal from the leader may fall short of the best shot
}
STEAL_BIAS = 0


@jit
def policy(phase, s, p, seat, sp, rng, a, scratch):
    if opening(phase, s, p, seat, sp, rng, a, scratch,
               best_bottom_column, random_mine_row, best_bottom_column):  # fmt: skip
        return
    level = s[pl(seat, L.PL_LEVEL)]
    leader = leader_seat(s, p, seat)
    target = L.FIGHTER + leader if leader >= 0 else -1
    loot = steal_points(s, p, leader) if leader >= 0 else 0
    if leader >= 0 and s[pl(leader, L.PL_STATUS)] != L.ACTIVE:
        loot = 0
    n = destinations(s, p, a[L.A_DEST_COL], a[L.A_DEST_ROW], scratch)
    best, best_k, ties = -1, 0, 0
    steal, steal_k = -1, -1
    for k in range(n):
        c, r = scratch[2 * k], scratch[2 * k + 1]
        v = volley_value(s, p, c, r, seat, level)
        take, best, ties = better(v, best, ties, rng, seat + 1)
        if take:
            best_k = k
        if loot > 0:
            tr = first_object_row(s, p, c, r)
            if tr >= 0 and s[at(c, tr)] == target and v > steal:
                steal, steal_k = v, k
    # volley scores are 2 per point (+1 per hit): steal_bias points are worth 2 * steal_bias
    if steal_k >= 0 and steal + 2.0 * sp[STEAL_BIAS] >= best:
        best_k = steal_k
    a[L.A_DEST_COL] = scratch[2 * best_k]
    a[L.A_DEST_ROW] = scratch[2 * best_k + 1]
