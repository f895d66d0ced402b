"""How the game loops are compiled: two decorators instead of bare `numba.njit`.

`jit` is for functions that only read and write arrays their caller owns. They are compiled
without numba's reference counting: otherwise every call increments and decrements a counter
on each array argument (an atomic operation and a call apiece), which cost about 40% of a
greedy game's time. `jit_allocating` is for functions that create arrays (np.zeros and the
like); it keeps reference counting, which such arrays need to be freed.

Both set the flag explicitly: numba lets a callee inherit it from its caller otherwise, and a
function that allocates must never inherit "off". Both cache their machine code on disk
(sim.compile_cache keys the cache by the compiled sources).
"""

from numba import njit

jit = njit(cache=True, _nrt=False)
jit_allocating = njit(cache=True, _nrt=True)
