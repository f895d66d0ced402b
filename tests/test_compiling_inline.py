"""numba's inliner copies a callee's blocks with one shared copy of its scope (sim.inlining):
the copies are the ones one deep copy of the blocks makes, and the machine code is the same."""

import copy
import os
import subprocess
import sys
import textwrap

import numba
import pytest
from numba.core import inline_closurecall, ir

from sim import inlining

pytestmark = pytest.mark.without_engines  # compiles its own functions only

# A caller with an inlined callee of many blocks and variables; prints its answer (and plain
# Python's) and its assembly, with the inliner patched or not (argv[1]), in a fresh process
# and cache.
PROGRAM = textwrap.dedent(
    """
    import sys
    import numpy as np
    import sim.inlining
    if sys.argv[1] == "plain":
        sim.inlining._patch = lambda: None
    from sim.jit import jit, jit_inline

    @jit_inline
    def score(a, i):
        total = 0
        for k in range(a.shape[0]):
            if a[k] > i:
                total += a[k] - i
            elif a[k] == i:
                total += 1
            else:
                total -= 1
        return total

    @jit
    def caller(a):
        best = 0
        for i in range(a.shape[0]):
            best = max(best, score(a, i) + score(a, a[i]))
        return best

    a = np.arange(7, dtype=np.int64)[::-1].copy()
    print(caller(a), caller.py_func(a))  # compiled, and as plain Python
    print(type(__import__("numba.core.inline_closurecall").core.inline_closurecall.copy).__name__)
    print(caller.inspect_asm(caller.signatures[0]))
    """
)


def _compiled(mode: str, tmp_path) -> list[str]:
    program = tmp_path / mode / "program.py"  # a file: numba caches no `python -c` function
    program.parent.mkdir()
    program.write_text(PROGRAM, encoding="utf-8")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / mode / "cache")}
    done = subprocess.run([sys.executable, str(program), mode], capture_output=True, text=True,
                          env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.split("\n", 2)


def test_inlined_code_is_the_same_with_shared_scope_copies(tmp_path):
    patched, plain = _compiled("patched", tmp_path), _compiled("plain", tmp_path)
    assert patched[1] == "_SharedCopies" and plain[1] == "module"  # the patch was (not) in force
    answer, slow = patched[0].split()
    assert answer == slow and plain[0] == patched[0]
    assert patched[2] == plain[2]  # the caller's assembly, byte for byte


def _two_blocks():
    scope = ir.Scope(None, ir.Loc("f", 1))
    var = scope.define("x", ir.Loc("f", 1))
    blocks = {}
    for label in (0, 1):
        block = ir.Block(scope, ir.Loc("f", label))
        block.append(ir.Del(var.name, ir.Loc("f", label)))
        block.append(ir.Return(var, ir.Loc("f", label)))
        blocks[label] = block
    return blocks


def test_one_copy_run_shares_the_scope_and_two_runs_do_not():
    shim = inlining._SharedCopies()

    def copy_ir(blocks):  # named, and looping, as numba's inliner does
        copies = {}
        for label, block in blocks.items():
            copies[label] = shim.deepcopy(block)
        return copies

    blocks = _two_blocks()
    first, second = copy_ir(blocks), copy_ir(blocks)
    assert first[0].scope is first[1].scope is not blocks[0].scope  # one copy per run
    assert first[0].scope is not second[0].scope  # each run copies anew
    assert first[0].body[1].value is first[1].body[1].value  # as one deepcopy of both blocks
    assert copy.deepcopy(blocks)[0].scope.localvars.get("x").name == "x"
    # any other caller gets the plain deepcopy: a copy per call
    assert shim.deepcopy(blocks[0]).scope is not shim.deepcopy(blocks[0]).scope


def test_the_patch_is_in_force_after_a_compile():
    """sim.jit installs it at a process's first compile (a numba with another inliner is left
    alone, and this test names it). The function is not cached: it compiles every time."""
    import sim.jit  # noqa: F401 - installs the patch

    one = numba.njit(cache=False)(lambda x: x + 1)
    assert one(1) == 2
    assert isinstance(inline_closurecall.copy, inlining._SharedCopies), (
        "this numba's inliner is not patched (sim/inlining.py): check it still copies blocks "
        "one by one in InlineWorker.inline_ir's copy_ir"
    )
