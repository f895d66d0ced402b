"""What the game loop hands a compiled strategy: a fresh action, a scratch buffer, and the one
signature every compiled policy is called with.

A compiled strategy is a function `policy(phase, s, p, w, seat, sp, rng, a, scratch)`: it
reads the state and fills the action `a` for `phase` (layout.PH_*; `a` arrives as
reset_action leaves it). `w` is the work array (the turn's landing points), `sp` the
strategy's parameters (float64; the first is the seat's dexterity factor, spread_scale),
`rng` the game's random streams, `scratch` an int64 buffer of SCRATCH_SIZE the policy may use
freely. The loop calls it through a function pointer of POLICY_SIGNATURE, so each policy is
compiled once, on its own, and a run compiles only the policies its seats use.
"""

from numba import types

from sim.games.space_invaders.layout import A_CALLED, A_RES, A_TAKE, ACTION_SIZE, N_CELLS
from sim.jit import jit_inline

# room for a strategy's predictions: a board copy and a few values per cell
SCRATCH_SIZE = 8 * N_CELLS


def _vector(dtype):
    return types.Array(dtype, 1, "C")


STATE_T = _vector(types.int32)
PARAMS_T = _vector(types.float64)
WORK_T = _vector(types.float64)
ACTION_T = _vector(types.float64)
RNG_T = _vector(types.uint64)
SCRATCH_T = _vector(types.int64)
STRATEGY_PARAMS_T = _vector(types.float64)

# policy(phase, s, p, w, seat, sp, rng, a, scratch)
POLICY_SIGNATURE = types.void(
    types.int64, STATE_T, PARAMS_T, WORK_T, types.int64, STRATEGY_PARAMS_T, RNG_T, ACTION_T,
    SCRATCH_T,
)  # fmt: skip
POLICY_TYPE = types.FunctionType(POLICY_SIGNATURE)


@jit_inline
def reset_action(a):
    """Defaults: no called shot, no three tries, no re-launch of the level-2 power, every other
    optional action taken, default resolution choices."""
    for i in range(ACTION_SIZE):
        a[i] = 0.0
    a[A_CALLED] = -1.0
    a[A_TAKE] = 1.0
    for i in range(A_RES, ACTION_SIZE):
        a[i] = -1.0
