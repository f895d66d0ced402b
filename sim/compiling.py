"""Compiling a game's machine code before a run: only what it needs, once per machine, in parallel.

A game describes what a run needs as jobs: each a sequence of `Unit`s (a compiled function and
the signature to compile it for) that one process compiles in order, a unit after the ones it
calls. `ensure_compiled` skips every unit whose cached machine code is fresh; if any is left,
it says so on one line with the elapsed time and compiles the jobs in parallel worker
processes (numba compiles on one core), longest first, then loads them here: the caller and
every worker process started afterwards load the machine code instead of compiling it again.

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
import warnings
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from sim import compile_cache
from sim.console import draws_live


@dataclass(frozen=True)
class Unit:
    """`module.name` compiled for `signature`: a tuple of argument types, or a full signature
    for a function reached through a function pointer (numba caches the two apart)."""

    module: str
    name: str
    signature: Any

    def dispatcher(self) -> Any:
        target: Any = import_module(self.module)
        for part in self.name.split("."):
            target = getattr(target, part)
        return target

    def is_cached(self) -> bool:
        return compile_cache.index_is_fresh(self.dispatcher(), self.signature)

    def compile(self) -> float:
        began = time.perf_counter()
        dispatcher = self.dispatcher()
        dispatcher.compile(self.signature)
        args = getattr(self.signature, "args", None)
        if args is not None:  # a full signature: save it for direct calls as well
            _save_for_arguments(dispatcher, tuple(args))
        return time.perf_counter() - began


def _save_for_arguments(dispatcher: Any, args: tuple) -> None:
    """Cache the code compiled for a full signature under its argument types too: a direct
    call (a strategy calling another's policy, the engine's turn called from Python) asks
    numba's cache for those, which numba keys apart, and would compile it all again."""
    if not compile_cache.index_is_fresh(dispatcher, args) and args in dispatcher.overloads:
        dispatcher._cache.save_overload(args, dispatcher.overloads[args])


Notice = Callable[[str], Any]  # what="greedy, economist" -> a context manager around the work


Job = Sequence[Unit]


def ensure_compiled(jobs: Sequence[Job], *, what: str, notice: Notice | None = None,
                    processes: int | None = None) -> float:  # fmt: skip
    """Compile the units that are not cached; returns the seconds it took (0.0 if none)."""
    from numba.core.config import DISABLE_JIT

    if DISABLE_JIT:  # plain Python: nothing to compile
        return 0.0
    compile_cache.warn_if_off()
    listed: set[Unit] = set()  # a unit in several jobs (lineups prepared together): once
    todo = []
    for job in jobs:
        new = [u for u in job if u not in listed]
        listed.update(new)
        if left := [u for u in new if not u.is_cached()]:
            todo.append(left)
    if not todo:
        return 0.0
    began = time.perf_counter()
    with (notice or plain_notice)(what):
        n = min(processes or _cores(), len(todo))
        if n > 1 and compile_cache.problem() is None:  # workers hand their code over on disk
            _compile_in_workers(todo, n)
        for job in todo:
            for unit in job:
                unit.compile()  # loads what a worker compiled; compiles what none could
    return time.perf_counter() - began


def _compile_in_workers(jobs: list[Job], n: int) -> None:
    """Hand the jobs, one at a time, to n worker processes until all are done."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    workers = [
        subprocess.Popen(
            [sys.executable, "-P", "-m", "sim.compiling"],  # -P: as sim.runner.pool
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )  # fmt: skip
        for _ in range(n)
    ]
    todo = list(jobs)
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


def _send(worker: subprocess.Popen, job: Job) -> None:
    data = pickle.dumps(list(job))
    worker.stdin.write(len(data).to_bytes(8, "little") + data)
    worker.stdin.flush()


def _serve() -> None:
    """A compiling worker: compile each job read from stdin, answer one line per job."""
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    warnings.simplefilter("ignore", compile_cache.CompileCacheWarning)  # the parent says it
    while header := source.read(8):
        for unit in pickle.loads(source.read(int.from_bytes(header, "little"))):
            with contextlib.suppress(Exception):  # the parent compiles it again and reports it
                unit.compile()
        sink.write(b"done\n")
        sink.flush()


def _cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


# --- telling the user -----------------------------------------------------------------------


def _compiling(what: str) -> str:
    """The notice's words: once per machine, or every run when the cache cannot be kept."""
    when = "first run only" if compile_cache.problem() is None else "in memory, every run"
    return f"compiling the game engine for {what} ({when}) ..."


@contextmanager
def plain_notice(what: str, *, stream: Any = None):
    """One line on stderr: 'compiling the game engine for WHAT (first run only) ... 12 s'."""
    stream = stream or sys.stderr
    began = time.perf_counter()
    stream.write(_compiling(what))
    stream.flush()
    try:
        yield
    finally:
        stream.write(f" {time.perf_counter() - began:.0f} s\n")
        stream.flush()


@contextmanager
def quiet_notice(what: str):
    """Say nothing (tests, and runs without a progress display)."""
    yield


def console_notice(console: Any = None) -> Notice:
    """The same line on a rich console; on a terminal its elapsed time counts up."""

    if console is None:
        from rich.console import Console

        console = Console(stderr=True)

    @contextmanager
    def notice(what: str):
        text = _compiling(what)
        if not draws_live(console):
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
