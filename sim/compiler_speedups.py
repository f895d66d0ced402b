"""Where numba's compiler repeats work, done once: three patches, the machine code the same.

Each is installed at a process's first compile (`install()`, from sim.jit); a numba built
otherwise than the patch expects is left alone (tests/test_compiler_speedups.py names the patch
that is not in force).

- **The inliner's copies** (`_SharedCopies`). A `jit_inline` function (sim.jit) is pasted into
  each caller through numba's `InlineWorker.inline_ir`, which deep-copies the callee twice
  (`copy_ir`), one block at a time. Every block's variables point to the function's scope,
  which holds every variable, so each block's copy copied all of them again: a fifth of the
  CPU of compiling a greedy Guardians run (5.1 of 27.9 s). Here the blocks of one copy share
  one copy of the scope, as if the function's blocks were copied in one `copy.deepcopy`.
- **The inlinee's IR** (`_untyped_once`). Before each paste the inliner runs numba's untyped
  pipeline (bytecode to IR, rewrites, and the inlining of the inlinee's own `jit_inline`
  callees) on the callee's Python function again: 2,353 runs for 466 compiles of the
  built-ins. Its answer depends on the function and the compile's flags alone (the arguments
  are typed later), so it is worked out once per process and each paste gets a copy under a
  fresh identity (the inlined variables' names stay unique, as numba makes them).
- **The flags' values** (`_flag_values`). numba's typing looks each call's implementation up
  under the compile's flags, and compares two flags by building the dict of their 40-odd
  options (`TargetConfig.values`, one property call an option): 290,000 such dicts in
  compiling Guardians' built-ins. Here the dict is the options' defaults updated with the
  options set, the same dict built in one step.
"""

from __future__ import annotations

import copy
import sys
import types
from typing import Any

from numba.core import event

_COPIER = "copy_ir"  # the inliner's local function that copies a callee's IR block by block


class _SharedCopies(types.ModuleType):
    """Stands in for the `copy` module inside numba's inliner: a `deepcopy` called from one
    run of `copy_ir` shares one memo over that run's blocks; every other call is the plain
    `copy.deepcopy`."""

    def __init__(self) -> None:
        super().__init__("copy")
        self._frame: Any = None  # the copy_ir run whose blocks share `_memo`
        self._memo: dict = {}

    def deepcopy(self, value: Any, memo: dict | None = None) -> Any:
        if memo is None:
            caller = sys._getframe(1)
            if caller.f_code.co_name == _COPIER:
                if caller is not self._frame:  # a new run (the old frame is held: no reuse)
                    self._frame, self._memo = caller, {}
                memo = self._memo
        return copy.deepcopy(value, memo)

    def __getattr__(self, name: str) -> Any:
        return getattr(copy, name)


def _untyped_once(run_untyped_passes: Any) -> Any:
    """`InlineWorker.run_untyped_passes`, run once per function and flags: later calls get a
    copy of the first answer (its blocks are copied again by `inline_ir` before any change)
    with a fresh function identity, as a run of their own would have."""
    from numba.core.bytecode import FunctionIdentity

    answers: dict[tuple, Any] = {}

    def run_once(self: Any, func: Any, enable_ssa: bool = False) -> Any:
        self.flags.enable_ssa = enable_ssa  # as numba's own run sets it on the caller's flags
        key = (func, repr(self.flags))
        first = answers.get(key)
        if first is None:
            first = answers[key] = run_untyped_passes(self, func, enable_ssa)
        answer = first.copy()
        answer.func_id = FunctionIdentity.from_function(func)
        return answer

    run_once.patched = True
    return run_once


def _flag_values(self: Any) -> dict:
    """`TargetConfig.values`: every option's value, its default where it is not set."""
    return {**_defaults(type(self)), **self._values}


_DEFAULTS: dict[type, dict] = {}


def _defaults(kind: type) -> dict:
    found = _DEFAULTS.get(kind)
    if found is None:
        found = _DEFAULTS[kind] = {name: option.default for name, option in kind.options.items()}
    return found


def install() -> None:
    """Patch numba's compiler at the first compile (a process that only loads machine code
    never imports the inliner)."""
    event.register("numba:compile", _OnFirstCompile())


class _OnFirstCompile(event.Listener):
    """Patches the compiler when the process starts its first compile."""

    done = False

    def on_start(self, happened: Any) -> None:
        if not self.done:
            self.done = True
            _patch()

    def on_end(self, happened: Any) -> None:
        pass


def _patch() -> None:
    from numba.core import inline_closurecall, targetconfig

    worker = inline_closurecall.InlineWorker
    code = worker.inline_ir.__code__
    nested = {const.co_name for const in code.co_consts if isinstance(const, types.CodeType)}
    if inline_closurecall.copy is copy and _COPIER in nested:
        inline_closurecall.copy = _SharedCopies()
    runs = getattr(worker, "run_untyped_passes", None)
    if runs is not None and not getattr(runs, "patched", False):
        worker.run_untyped_passes = _untyped_once(runs)
    config = targetconfig.TargetConfig
    if _owns_values(config):
        config.values = _flag_values


def _owns_values(config: type) -> bool:
    """numba's `TargetConfig.values` is the dict of its options' getters, which read `_values`
    or the option's default (the dict `_flag_values` builds in one step)."""
    from numba.core.compiler import Flags

    probe = Flags()
    probe.nrt = True
    by_getters = {name: getattr(probe, name) for name in probe.options}
    return (
        config.values is not _flag_values
        and isinstance(getattr(probe, "_values", None), dict)
        and config.values(probe) == by_getters == _flag_values(probe)
    )
