"""Compiling a game's machine code before a run: only what it needs, once per machine, in parallel.

A game describes what a run needs as stages of `Unit`s (a compiled function and the signature
to compile it for). `ensure_compiled` skips every unit whose cached machine code is fresh;
if any is left, it says so on one line with the elapsed time and compiles each stage's units
in parallel worker processes (numba compiles on one core; the units of a stage do not depend
on each other), then loads them here, so that the caller and every worker process started
afterwards load the machine code from the cache instead of compiling it again.

The compiling workers are plain `python -m sim.compiling` processes fed units through a pipe:
unlike multiprocessing's spawn, they never import the caller's main script.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import selectors
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from sim import compile_cache


@dataclass(frozen=True)
class Unit:
    """`module.name` compiled for `signature` (a tuple of numba types)."""

    module: str
    name: str
    signature: tuple

    def dispatcher(self) -> Any:
        target: Any = import_module(self.module)
        for part in self.name.split("."):
            target = getattr(target, part)
        return target

    def is_cached(self) -> bool:
        return compile_cache.index_is_fresh(self.dispatcher())

    def compile(self) -> float:
        began = time.perf_counter()
        self.dispatcher().compile(self.signature)
        return time.perf_counter() - began


Notice = Callable[[str], Any]  # what="greedy, economist" -> a context manager around the work


def ensure_compiled(stages: Sequence[Sequence[Unit]], *, what: str, notice: Notice | None = None,
                    jobs: int | None = None) -> float:  # fmt: skip
    """Compile the units that are not cached; returns the seconds it took (0.0 if none)."""
    from numba.core.config import DISABLE_JIT

    if DISABLE_JIT:  # plain Python: nothing to compile
        return 0.0
    todo = [[u for u in stage if not u.is_cached()] for stage in stages]
    if not any(todo):
        return 0.0
    began = time.perf_counter()
    with (notice or plain_notice)(what):
        for stage in todo:
            _compile_stage(stage, jobs or _cores())
    return time.perf_counter() - began


def _compile_stage(units: list[Unit], jobs: int) -> None:
    if len(units) > 1 and jobs > 1:
        _compile_in_workers(units, min(jobs, len(units)))
    for unit in units:
        unit.compile()  # loads what a worker compiled; compiles what none could


def _compile_in_workers(units: list[Unit], n: int) -> None:
    """Hand the units, one at a time, to n worker processes until all are done."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "sim.compiling"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )  # fmt: skip
        for _ in range(n)
    ]
    todo = list(units)
    selector = selectors.DefaultSelector()
    try:
        for worker in workers:
            _send(worker, todo.pop(0))
            selector.register(worker.stdout, selectors.EVENT_READ, worker)
        busy = len(workers)
        while busy:
            for key, _ in selector.select():
                worker = key.data
                if not worker.stdout.readline():  # the worker died; its unit compiles here
                    selector.unregister(worker.stdout)
                    busy -= 1
                elif todo:
                    _send(worker, todo.pop(0))
                else:
                    busy -= 1
    finally:
        selector.close()
        for worker in workers:
            worker.stdin.close()
            worker.wait()


def _send(worker: subprocess.Popen, unit: Unit) -> None:
    data = pickle.dumps(unit)
    worker.stdin.write(len(data).to_bytes(8, "little") + data)
    worker.stdin.flush()


def _serve() -> None:
    """A compiling worker: compile each unit read from stdin, answer one line per unit."""
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    while header := source.read(8):
        unit = pickle.loads(source.read(int.from_bytes(header, "little")))
        with contextlib.suppress(Exception):  # the parent compiles it again and reports it
            unit.compile()
        sink.write(b"done\n")
        sink.flush()


def _cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


# --- telling the user -----------------------------------------------------------------------


@contextmanager
def plain_notice(what: str, *, stream: Any = None):
    """One line on stderr: 'compiling the game engine for WHAT (first run only) ... 12 s'."""
    stream = stream or sys.stderr
    began = time.perf_counter()
    stream.write(f"compiling the game engine for {what} (first run only) ...")
    stream.flush()
    try:
        yield
    finally:
        stream.write(f" {time.perf_counter() - began:.0f} s\n")
        stream.flush()


def console_notice(console: Any) -> Notice:
    """The same line on a rich console; on a terminal its elapsed time counts up."""

    @contextmanager
    def notice(what: str):
        text = f"compiling the game engine for {what} (first run only) ..."
        if not console.is_terminal:
            with plain_notice(what, stream=console.file):
                yield
            return
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        with Progress(TextColumn(text), SpinnerColumn(), TimeElapsedColumn(), console=console,
                      transient=False) as progress:  # fmt: skip
            progress.add_task("compile", total=None)
            yield

    return notice


if __name__ == "__main__":
    _serve()
