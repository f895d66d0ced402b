"""numba's inliner copies a callee's IR block by block, each block with a copy of the whole
function's scope: the copy costs blocks x variables. Here the blocks of one copy share one
copy of the scope, as if the function's blocks were copied in one `copy.deepcopy`.

A `jit_inline` function (sim.jit) is pasted into each caller through numba's
`InlineWorker.inline_ir`, which deep-copies the callee twice (`copy_ir`), one block at a time.
Every block's variables point to the function's scope, which holds every variable, so each
block's copy copied all of them again: a fifth of the CPU of compiling a greedy Guardians run
(5.1 of 27.9 s; 0.8 s shared). The machine code is the same (its assembly compared, unit by
unit): only the copies' scope objects differ, one shared copy instead of one per block,
equal in content.

Installed by `install()` (sim.jit) at the first compile of a process; a numba whose inliner
is not built this way is left alone.
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


def install() -> None:
    """Share the scope's copy between the blocks numba's inliner copies, from the first compile
    on (a process that only loads machine code never imports the inliner)."""
    event.register("numba:compile", _OnFirstCompile())


class _OnFirstCompile(event.Listener):
    """Patches the inliner when the process starts its first compile."""

    done = False

    def on_start(self, happened: Any) -> None:
        if not self.done:
            self.done = True
            _patch()

    def on_end(self, happened: Any) -> None:
        pass


def _patch() -> None:
    from numba.core import inline_closurecall

    code = inline_closurecall.InlineWorker.inline_ir.__code__
    nested = {const.co_name for const in code.co_consts if isinstance(const, types.CodeType)}
    if inline_closurecall.copy is copy and _COPIER in nested:  # else: built otherwise, left
        inline_closurecall.copy = _SharedCopies()
