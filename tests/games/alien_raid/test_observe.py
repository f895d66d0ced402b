"""Hidden information is real: a captain's observation holds his own hand and offered cards,
the others' ships only once revealed in an attack, and never a deck."""

import numpy as np

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.layout import STREAMS
from sim.games.alien_raid.observe import observe, op
from sim.games.alien_raid.params import names, to_params
from sim.games.alien_raid.planning import reveal
from sim.games.alien_raid.ruleset import load_ruleset
from sim.games.alien_raid.state import new_game, pl
from sim.random_streams import seed_streams


def test_what_a_captain_sees():
    r = load_ruleset("alien-raid")
    p, n = to_params(r.values), names(r.values)
    s = np.zeros(L.STATE_SIZE, np.int32)
    rng = np.zeros(STREAMS, np.uint64)
    seed_streams(rng, 5)
    new_game(s, p, 3, rng)
    cruiser, tripod = n.model("cruiser"), n.model("tripod")
    s[pl(1, L.PL_HAND + 1)] = cruiser  # bought, not yet seen
    s[pl(1, L.PL_HAND + 2)] = tripod
    s[pl(1, L.PL_DRAWN)] = tripod
    obs = np.zeros(L.OBS_SIZE, np.int32)
    buf, slots, decided = (np.zeros(L.MAX_HAND, np.int64), np.zeros(L.MAX_HAND, np.int64),
                           np.zeros(L.MAX_PLAYERS, np.int64))  # fmt: skip
    observe(s, p, 0, L.PH_BUY, -1, decided, obs, buf, slots)
    assert obs[op(1, L.OP_N_SHIPS)] == 3
    assert obs[op(1, L.OP_HAND + 1)] == -1 and obs[op(1, L.OP_HAND + 2)] == -1
    assert obs[op(1, L.OP_SLOT_USED + 1)] == 1
    assert obs[L.O_DRAWN] == s[pl(0, L.PL_DRAWN)]  # its own offer, not seat 1's
    observe(s, p, 1, L.PH_BUY, -1, decided, obs, buf, slots)
    assert obs[op(1, L.OP_HAND + 1)] == cruiser  # a captain sees his own hand
    # the cruiser attacks: from the reveal on, everybody sees it; the tripod stays hidden
    s[L.S_BOARD] = 0
    s[L.S_N_BOARD] = 3
    s[pl(1, L.PL_TARGET + 1)] = 0
    reveal(s, p, np.zeros((1, L.EV_SIZE), np.int32), buf, slots)
    observe(s, p, 2, L.PH_FIGHT, 0, decided, obs, buf, slots)
    assert obs[op(1, L.OP_HAND + 1)] == cruiser
    assert obs[op(1, L.OP_HAND + 2)] == -1
    assert obs[op(1, L.OP_TARGET + 1)] == 0
