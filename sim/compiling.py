"""Compiling a game's machine code before a run: only what it needs, once per machine, in parallel.

A game describes what a run needs as jobs: each a sequence of `Unit`s (a compiled function and
the signature to compile it for) that one process compiles in order, a unit after the ones it
calls. `ensure_compiled` skips every unit whose cached machine code is fresh; if any is left,
it says so on one line with the elapsed time and compiles the jobs in parallel (numba compiles
on one core), longest first: this process and worker processes, one job each at a time; then
it loads what the workers compiled: the caller and every worker process started afterwards
load the machine code instead of compiling it again.

numba compiles a callee into the process of each caller that is compiled before the callee is
cached. So a job names a callee other jobs call too as a unit of its own, before its caller:
the first job that names it compiles it, and a later one waits until that job is done, then
loads it (a game lists such a callee as a short job of its own, early).

The compiling workers are plain `python -m sim.compiling` processes fed units through a pipe:
unlike multiprocessing's spawn, they never import the caller's main script.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import subprocess
import sys
import threading
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
    todo, waits = _plan(jobs)
    if not todo:
        return 0.0
    began = time.perf_counter()
    with (notice or plain_notice)(what):
        n = min(processes or _cores(), len(todo))
        if compile_cache.problem() is not None:  # workers hand their code over on disk
            n = 1
        _compile_jobs(todo, waits, n)
        for job in todo:
            for unit in job:
                unit.compile()  # loads what a worker compiled; compiles what none could
    return time.perf_counter() - began


def _plan(jobs: Sequence[Job]) -> tuple[list[Job], list[set[int]]]:
    """The jobs' units that are not cached, each unit in the first job that lists it; and for
    each job, the jobs it waits for: those that compile a unit it lists again. A callee that
    several jobs call (numba compiles a callee into each caller's process) is compiled by one
    process and loaded by the others, which start after it is saved."""
    units = dict.fromkeys(unit for job in jobs for unit in job)
    cached = {unit: unit.is_cached() for unit in units}
    compiled_by: dict[Unit, int] = {}  # unit -> the job of `todo` that compiles it
    todo: list[Job] = []
    waits: list[set[int]] = []
    for job in jobs:
        needed = [unit for unit in dict.fromkeys(job) if not cached[unit]]
        if left := [unit for unit in needed if unit not in compiled_by]:
            waits.append({compiled_by[unit] for unit in needed if unit in compiled_by})
            compiled_by.update(dict.fromkeys(left, len(todo)))
            todo.append(left)
    return todo, waits


class _Queue:
    """Jobs handed out in order, each once the jobs it waits for are done (or failed: then it
    compiles what they could not itself)."""

    def __init__(self, jobs: list[Job], waits: list[set[int]]) -> None:
        self._jobs, self._waits = jobs, waits
        self._left = list(range(len(jobs)))
        self._done: set[int] = set()
        self._changed = threading.Condition()

    def take(self) -> int | None:
        """The first job ready to compile (waiting while the ones left wait for others), or
        None when none is left."""
        with self._changed:
            while self._left:
                ready = next((i for i in self._left if self._waits[i] <= self._done), None)
                if ready is not None:
                    self._left.remove(ready)
                    return ready
                self._changed.wait()
            return None

    def job(self, i: int) -> Job:
        return self._jobs[i]

    def finish(self, i: int) -> None:
        with self._changed:
            self._done.add(i)
            self._changed.notify_all()

    def clear(self) -> None:
        """Hand out no more jobs (interrupted: the workers stop after their job)."""
        with self._changed:
            self._left.clear()
            self._changed.notify_all()


def _compile_jobs(jobs: list[Job], waits: list[set[int]], n: int) -> None:
    """Compile the jobs on n cores: this process takes them one at a time, in order (the
    longest first), while n - 1 worker processes take the others; so the longest job waits for
    no worker process to start, and this process need not load what it compiled itself."""
    queue = _Queue(jobs, waits)
    feeders = [threading.Thread(target=_feed_worker, args=(queue,), daemon=True)
               for _ in range(n - 1)]  # fmt: skip
    for feeder in feeders:
        feeder.start()
    try:
        while (i := queue.take()) is not None:
            for unit in queue.job(i):
                with contextlib.suppress(Exception):  # ensure_compiled compiles it again: raises
                    unit.compile()
            queue.finish(i)
    finally:
        queue.clear()
        for feeder in feeders:
            feeder.join()


def _feed_worker(queue: _Queue) -> None:
    """Start a worker process and hand it jobs from `queue`, one at a time, until none is left
    or the worker dies (what it did not compile, the caller compiles)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    try:
        worker = subprocess.Popen(
            [sys.executable, "-P", "-m", "sim.compiling"],  # -P: as sim.runner.pool
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )  # fmt: skip
    except OSError:
        return  # no worker: the others take its jobs
    try:
        while (i := queue.take()) is not None:
            answered = b""
            try:
                _send(worker, queue.job(i))
                answered = worker.stdout.readline()
            except OSError:
                pass  # the worker died
            finally:
                queue.finish(i)  # done or not: the jobs waiting for it go on
            if not answered:
                break
    finally:
        with contextlib.suppress(OSError):
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
