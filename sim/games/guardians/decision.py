"""What the game loop hands a compiled strategy: the decision phases, a fresh action, a scratch
buffer, and the one signature every compiled policy is called with.

A compiled strategy is a function `policy(phase, s, p, seat, sp, rng, a, scratch)`:
- phase PLACE: write the bottom-row column of the seat's fighter to a[A_DEST_COL];
- phase MINE_START: write the mine's starting row (0-based) to a[A_MINE_ROW];
- phase TURN: `a` arrives as "stay, shoot, leave the mine"; change what the turn should do.
`sp` holds the strategy's parameters (float64), the seat's random stream is slot seat + 1 of
`rng`, `scratch` is an int64 buffer of SCRATCH_SIZE. The loop calls it through a function
pointer of POLICY_SIGNATURE, so each policy is compiled once, on its own, and a run compiles
only the policies its seats use.
"""

from numba import types

from sim.array_types import ACTION_T, PARAMS_T, RNG_T, SCRATCH_T, STATE_T, STRATEGY_PARAMS_T
from sim.games.guardians import layout as L
from sim.games.guardians.board import pl
from sim.jit import jit_inline

PLACE, MINE_START, TURN = 0, 1, 2
SCRATCH_SIZE = 4 * L.MAX_COLS * L.MAX_ROWS + 64


# policy(phase, s, p, seat, sp, rng, a, scratch)
POLICY_SIGNATURE = types.void(
    types.int64, STATE_T, PARAMS_T, types.int64, STRATEGY_PARAMS_T, RNG_T, ACTION_T, SCRATCH_T
)
POLICY_TYPE = types.FunctionType(POLICY_SIGNATURE)


@jit_inline
def reset_action(s, seat, a):
    """The default turn: stay, shoot, leave the mine, buy nothing."""
    for i in range(L.ACTION_SIZE):
        a[i] = 0
    a[L.A_REENTER_COL] = -1
    a[L.A_BUY] = L.BUY_NONE
    a[L.A_PAY_EXPLICIT] = 0
    for k in range(L.N_KINDS):
        a[L.A_PAY + k] = 0
    a[L.A_DEST_COL] = s[pl(seat, L.PL_COL)]
    a[L.A_DEST_ROW] = s[pl(seat, L.PL_ROW)]
    a[L.A_PU_COL] = -1
    a[L.A_PU_ROW] = -1
    a[L.A_MISSILE] = 0
    a[L.A_MINE] = 0
    a[L.A_MINE_ROW] = -1
