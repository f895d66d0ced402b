"""The numba types of the plain arrays the game loops hand their compiled policies and rules:
one-dimensional and C-contiguous, named by what they hold. A game's decision.py builds its
POLICY_SIGNATURE from them."""

from numba import types


def vector(dtype):
    """A one-dimensional C-contiguous array of `dtype`."""
    return types.Array(dtype, 1, "C")


STATE_T = vector(types.int32)  # a game's state, or what a seat observes of it
PARAMS_T = vector(types.int64)  # a ruleset as the engine's params array
STRATEGY_PARAMS_T = vector(types.float64)  # a strategy's parameters
RNG_T = vector(types.uint64)  # the random streams
ACTION_T = vector(types.int32)  # a decision
SCRATCH_T = vector(types.int64)  # a policy's integer scratch buffer
FSCRATCH_T = vector(types.float64)  # a policy's float scratch buffer
