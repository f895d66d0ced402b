"""How the game loops are compiled: three decorators instead of bare `numba.njit`.

`jit` is for functions that only read and write arrays their caller owns. They are compiled
without numba's reference counting: otherwise every call increments and decrements a counter
on each array argument (an atomic operation and a call apiece), which cost about 40% of a
greedy game's time. `jit_inline` is `jit` whose body numba pastes into each caller: for the
small functions of every turn, since a call passes each array as a 7-word structure (about
25% faster per greedy turn; each caller compiles the body again, so keep it to few callers).
`jit_allocating` is for functions that create arrays (np.zeros and the like); it keeps
reference counting, which such arrays need to be freed.

A call from compiled code compiles its callee for the argument types it passes, and numba
types a constant argument as its value (`f(x, -1)` compiles f for the literal -1, `f(x, 0)` for
0 again) and an item of an int32 array as int32: the alien-raid rules compiled 23 of their 138
functions twice or three times so. So a call from compiled code asks its callee for int64 in
place of any narrower integer or integer constant (`_widened`): one machine code per function,
the caller converting as it calls. numba's arithmetic works in at least 64 bits whatever its
operands, so the results are the same. A True or False constant keeps its own machine code:
numba drops the branch it rules out, and without that alien-raid's rules played 9% slower.

All three set the flag explicitly: numba lets a callee inherit it from its caller otherwise,
and a function that allocates must never inherit "off". All cache their machine code on disk,
stamped by their file and everything it imports (sim.compile_cache, installed here, before any
of them is defined), unless the cache folder cannot be written: then they compile in memory
(sim.compile_cache.problem; the run says so once).
"""

from numba import njit, types
from numba.core import config
from numba.core.dispatcher import Dispatcher

from sim import compile_cache, compiler_speedups

compile_cache.install()
compiler_speedups.install()  # numba's compiler, where it repeats work, does it once
CACHE = compile_cache.problem() is None  # a cache folder that cannot be written: in memory


def _one_per_width(decorator):
    """`decorator`, whose dispatchers compile a call from compiled code for `_widened` types."""

    def decorate(function):
        dispatcher = decorator(function)
        if isinstance(dispatcher, Dispatcher):  # not under NUMBA_DISABLE_JIT
            dispatcher.get_call_template = _WidenedCallTemplate(dispatcher)
        return dispatcher

    return decorate


class _WidenedCallTemplate:
    """A dispatcher's `get_call_template` (how numba types a call from compiled code), asked
    for the `_widened` argument types: numba's typing then converts the caller's arguments."""

    def __init__(self, dispatcher: Dispatcher) -> None:
        self._dispatcher = dispatcher

    def __call__(self, args, kws):
        widened = tuple(_widened(arg) for arg in args)
        return Dispatcher.get_call_template(
            self._dispatcher, widened, {key: _widened(value) for key, value in kws.items()}
        )


def _widened(argument):
    """int64 for a narrower integer, or an integer constant that fits one; else `argument`."""
    kind = types.unliteral(argument)  # a True or False constant is a bool: kept as it is
    if isinstance(kind, types.Integer) and (kind.signed or kind.bitwidth < 64):
        return types.int64
    return argument


jit = _one_per_width(njit(cache=CACHE, _nrt=False))
jit_inline = njit(cache=CACHE, _nrt=False, inline="always")
jit_allocating = _one_per_width(njit(cache=CACHE, _nrt=True))


def compiled(function, signature: tuple):
    """`function` compiled (or loaded from the cache) for `signature`, to call from Python (the
    plain function without the JIT). Unlike the dispatcher, it converts its arguments to the
    signature's types: a compiled function handed in for a FunctionType is a pointer."""
    if config.DISABLE_JIT:
        return function
    function.compile(signature)
    return function.overloads[signature].entry_point
