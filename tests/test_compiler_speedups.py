"""numba's compiler, where it repeats work, does it once (sim.compiler_speedups): the inliner's
copies share one copy of the scope, an inlinee's untyped IR is worked out once, the flags'
values are built in one step; the machine code is the same."""

import copy
import os
import re
import subprocess
import sys
import textwrap

import numba
import pytest
from numba.core import inline_closurecall, ir, targetconfig
from numba.core.compiler import Flags, run_frontend

from sim import compiler_speedups

pytestmark = pytest.mark.without_engines  # compiles its own functions only

# A caller with an inlined callee of many blocks and variables, pasted twice, which pastes a
# callee of its own; prints its answer (and plain Python's), the patches in force and its
# assembly, with the compiler patched or not (argv[1]), in a fresh process and cache.
PROGRAM = textwrap.dedent(
    """
    import sys
    import numpy as np
    import sim.compiler_speedups
    if sys.argv[1] == "plain":
        sim.compiler_speedups._patch = lambda: None
    from sim.jit import jit, jit_inline

    @jit_inline
    def bump(total, d):
        if d > 2:
            return total + 2 * d
        return total + d

    @jit_inline
    def score(a, i):
        total = 0
        for k in range(a.shape[0]):
            if a[k] > i:
                total = bump(total, a[k] - i)
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
    from numba.core import inline_closurecall, targetconfig
    print(type(inline_closurecall.copy).__name__,
          getattr(inline_closurecall.InlineWorker.run_untyped_passes, "patched", False),
          targetconfig.TargetConfig.values.__name__)
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


def test_the_machine_code_is_the_same_with_the_compiler_patched(tmp_path):
    patched, plain = _compiled("patched", tmp_path), _compiled("plain", tmp_path)
    # the patches were (not) in force
    assert patched[1] == "_SharedCopies True _flag_values" and plain[1] == "module False values"
    answer, slow = patched[0].split()
    assert answer == slow and plain[0] == patched[0]
    # the caller's assembly, byte for byte but for the serial numbers in its symbols' names
    # (numba's "v<number>" tag, one number a function identity: fewer are made when an inlinee
    # is run through the untyped passes once)
    assert _unnumbered(patched[2]) == _unnumbered(plain[2])
    assert _unnumbered("_ZN8__main__5scoreB2v7B38c8tE") == "_ZN8__main__5scoreB?v?B38c8tE"


def _unnumbered(assembly: str) -> str:
    """`assembly` with each mangled name's serial-number tag (B<length>v<number>) as B?v?."""

    def tag(found: re.Match) -> str:
        length, number = found.groups()
        return "B?v?" if int(length) == len(number) + 1 else found.group(0)

    return re.sub(r"B(\d+)v(\d+)", tag, assembly)


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
    shim = compiler_speedups._SharedCopies()

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
    """sim.jit installs the patches at a process's first compile (a numba built otherwise is
    left alone, and this test names the patch not in force). The function is not cached: it
    compiles every time."""
    import sim.jit  # noqa: F401 - installs the patches

    one = numba.njit(cache=False)(lambda x: x + 1)
    assert one(1) == 2
    assert isinstance(inline_closurecall.copy, compiler_speedups._SharedCopies), (
        "this numba's inliner is not patched (sim/compiler_speedups.py): check it still copies "
        "blocks one by one in InlineWorker.inline_ir's copy_ir"
    )
    assert getattr(inline_closurecall.InlineWorker.run_untyped_passes, "patched", False), (
        "this numba's inliner is not patched to run an inlinee's untyped passes once "
        "(sim/compiler_speedups.py): check InlineWorker.run_untyped_passes is still there"
    )
    assert targetconfig.TargetConfig.values is compiler_speedups._flag_values, (
        "this numba's TargetConfig.values is built otherwise (sim/compiler_speedups.py)"
    )


def _pasted(a):
    return a + 1


class _Worker:
    """What `run_untyped_passes` reads of numba's InlineWorker: the compile's flags."""

    def __init__(self, **options):
        self.flags = Flags()
        for name, value in options.items():
            setattr(self.flags, name, value)


def test_an_inlinee_is_run_through_the_untyped_passes_once_per_flags():
    runs = []

    def run_untyped_passes(worker, func, enable_ssa=False):
        runs.append((func, worker.flags.enable_ssa))
        return run_frontend(func)

    run_once = compiler_speedups._untyped_once(run_untyped_passes)
    worker = _Worker(enable_ssa=True)
    first, second = run_once(worker, _pasted), run_once(worker, _pasted)
    assert runs == [(_pasted, False)] and worker.flags.enable_ssa is False
    # each paste its own identity (its inlined variables' names) and its own blocks dict, the
    # same instructions (inline_ir deep-copies them before it changes any)
    assert first.func_id.unique_name != second.func_id.unique_name
    assert first.blocks is not second.blocks and first.blocks.keys() == second.blocks.keys()
    assert str(first.blocks[0].body) == str(second.blocks[0].body)
    run_once(_Worker(nrt=True), _pasted)  # other flags: run again
    assert len(runs) == 2


def test_the_flags_values_are_every_option_or_its_default():
    flags = Flags()
    flags.nrt = True
    flags.boundscheck = False
    flags.error_model = "numpy"
    by_getters = {name: getattr(flags, name) for name in flags.options}  # numba's own way
    assert compiler_speedups._flag_values(flags) == by_getters
    assert compiler_speedups._flag_values(Flags()) == {
        name: option.default for name, option in Flags.options.items()
    }
    assert compiler_speedups._flag_values(flags) != compiler_speedups._flag_values(Flags())
