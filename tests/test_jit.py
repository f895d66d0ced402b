"""A call from compiled code compiles its callee once for int64 (sim.jit): an int32 item, an
int64 and an integer constant share one machine code, a True or False constant keeps its own,
and the answers are those of plain Python."""

import os
import subprocess
import sys
import textwrap

import pytest
from numba import types

pytestmark = pytest.mark.without_engines  # compiles its own functions only

# A callee called with int32 items, int64s, integer constants and bool constants; prints
# the callee's signatures, the caller's answer and plain Python's, in a fresh process and cache.
PROGRAM = textwrap.dedent(
    """
    import numpy as np
    from sim.jit import jit

    @jit
    def scaled(x, k, negate):
        if negate:
            return -x * k
        return x * k + 1

    @jit
    def caller(a):
        return (scaled(a[0], a[1], False) + scaled(a[1], 3, True) + scaled(np.int64(5), -1, False)
                + scaled(a[2], np.int64(a[0]), True))

    a = np.array([2_000_000_000, -3, 7], dtype=np.int32)
    compiled = caller(a)
    print(*sorted(str(signature) for signature in scaled.signatures), sep=";")
    scaled = scaled.py_func  # plain Python from here on, on Python's unbounded ints
    print(compiled, caller.py_func(a.astype(object)))
    """
)


def test_a_callee_compiles_once_for_narrow_integers_and_constants(tmp_path):
    program = tmp_path / "program.py"  # a file: numba caches no `python -c` function
    program.write_text(PROGRAM, encoding="utf-8")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, str(program)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    signatures, answers = done.stdout.splitlines()
    compiled, plain = answers.split()
    assert compiled == plain  # 2e9 * -3 does not fit an int32: the product is worked in int64
    one_per_flag = [
        f"({types.int64}, {types.int64}, {types.BooleanLiteral(flag)})" for flag in (False, True)
    ]  # numba's own spelling of the types
    assert signatures == ";".join(one_per_flag)


def test_only_integers_that_fit_an_int64_are_widened():
    from sim.jit import _widened

    assert _widened(types.int32) is types.int64 and _widened(types.uint8) is types.int64
    assert _widened(types.IntegerLiteral(-1)) is types.int64
    huge = types.IntegerLiteral(2**63 + 1)  # a uint64 constant would not fit: kept
    assert _widened(huge) is huge and _widened(types.uint64) is types.uint64
    assert _widened(types.BooleanLiteral(True)) == types.BooleanLiteral(True)
    assert _widened(types.float32) is types.float32
