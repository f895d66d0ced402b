"""How the game loops are compiled: three decorators instead of bare `numba.njit`.

`jit` is for functions that only read and write arrays their caller owns. They are compiled
without numba's reference counting: otherwise every call increments and decrements a counter
on each array argument (an atomic operation and a call apiece), which cost about 40% of a
greedy game's time. `jit_inline` is `jit` whose body numba pastes into each caller: for the
small functions of every turn, since a call passes each array as a 7-word structure (about
25% faster per greedy turn; each caller compiles the body again, so keep it to few callers).
`jit_allocating` is for functions that create arrays (np.zeros and the like); it keeps
reference counting, which such arrays need to be freed.

All three set the flag explicitly: numba lets a callee inherit it from its caller otherwise,
and a function that allocates must never inherit "off". All cache their machine code on disk,
stamped by their file and everything it imports (sim.compile_cache, installed here, before any
of them is defined), unless the cache folder cannot be written: then they compile in memory
(sim.compile_cache.problem; the run says so once).
"""

from numba import njit
from numba.core import config

from sim import compile_cache, inlining

compile_cache.install()
inlining.install()  # numba's inliner copies a callee's scope once per copy, not once per block
CACHE = compile_cache.problem() is None  # a cache folder that cannot be written: in memory

jit = njit(cache=CACHE, _nrt=False)
jit_inline = njit(cache=CACHE, _nrt=False, inline="always")
jit_allocating = njit(cache=CACHE, _nrt=True)


def compiled(function, signature: tuple):
    """`function` compiled (or loaded from the cache) for `signature`, to call from Python (the
    plain function without the JIT). Unlike the dispatcher, it converts its arguments to the
    signature's types: a compiled function handed in for a FunctionType is a pointer."""
    if config.DISABLE_JIT:
        return function
    function.compile(signature)
    return function.overloads[signature].entry_point
