"""Local worker processes that play chunks, started once and kept alive: across the chunks of
a run, and across runs when the caller holds the pool (a tuning study runs many trials).

A new Python process needs about a second of CPU time before it can play (numpy, numba, the
runner's code): a short run on two cores lost most of its second core to that. Here one server
process (`python -m sim.runner.preload`) does it once and forks every worker from itself: a
worker starts ready, with only its game's code left to load. The server
is a plain child process fed over a socket, so nothing of the caller's main script runs again
(multiprocessing's spawn and forkserver import it in every worker). A run starts its pool
before it checks the compile cache, so the server gets ready meanwhile.

    with WorkerPool(2) as pool:
        for trial in trials:
            run(trial, pool=pool)

Each worker takes tasks one at a time from its own socket; the pool keeps two in flight per
worker so that none waits for the parent. A run that stops early (an error, Ctrl-C) ends the
workers still busy with its tasks; the pool forks new ones when it is next used. Workers exit
when the pool closes or the parent is gone (their socket reaches its end).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

from sim.errors import SimError

IN_FLIGHT = 2  # tasks sent ahead to each worker
# the workers are the parallelism: each library's own pool of threads (polars, Arrow,
# OpenBLAS), as large as the machine in each worker, would only wake threads that fight the
# other workers for the cores (a 300,000-game greedy run on 2 workers: about 2% less wall time
# with one thread each, docs/performance.md); a value the user set is kept
ONE_THREAD = {"POLARS_MAX_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}


class WorkerDied(SimError):
    """A worker process ended without answering (killed, out of memory, a crash)."""


def available() -> bool:
    """Whether this platform can fork workers from the server (not on Windows)."""
    return hasattr(os, "fork") and hasattr(socket, "send_fds")


def local_pool(jobs: int, *, backend: str, games: Iterable[str]) -> WorkerPool | None:
    """A started pool of `jobs` workers for runs played here (`backend` local) on more than
    one worker where the platform can fork them; else None (the runs play in this process,
    or on Dask). The caller closes it."""
    if backend != "local" or jobs < 2 or not available():
        return None
    return WorkerPool(jobs, games=games).start()


class WorkerPool:
    """`jobs` worker processes; `imap_unordered(fn, items)` plays fn(item) on them. `games`:
    the games whose engines the server imports once for every worker (others are imported
    by each worker that plays them)."""

    def __init__(self, jobs: int, *, games: Iterable[str] = ()) -> None:
        if jobs < 1:
            raise ValueError(f"a pool needs at least one worker, got {jobs}")
        self.jobs = jobs
        self.games = tuple(games)
        self._workers: list[_Worker] = []
        self._server: subprocess.Popen | None = None
        self._control: socket.socket | None = None

    def start(self) -> WorkerPool:
        """Ask for the worker processes that are missing and return at once: they get ready
        while the caller goes on."""
        if self._server is None or self._server.poll() is not None:
            self._start_server()
        self._workers = [w for w in self._workers if not w.ended]
        while len(self._workers) < self.jobs:
            self._workers.append(self._fork())
        return self

    def imap_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        """fn(item) for every item, on the workers, in the order they finish. fn and the items
        must pickle (a module-level function). An error raised by fn is raised here; the
        workers still busy are then ended."""
        self.start()
        pending = iter(items)
        workers = {worker.conn: worker for worker in self._workers}
        finished = False
        try:
            for worker in workers.values():
                worker.feed(fn, pending)
            while any(worker.in_flight for worker in workers.values()):
                for conn in wait([c for c, w in workers.items() if w.in_flight]):
                    worker = workers[conn]
                    ok, value, trace = worker.receive()
                    if not ok:
                        raise value from _Remote(trace)
                    worker.feed(fn, pending)
                    yield value
            finished = True
        finally:
            if not finished:  # stopped early: nobody will read what is still being played
                for worker in workers.values():
                    if worker.in_flight:
                        worker.end()

    def close(self) -> None:
        """Let the workers finish what they hold and exit; stop the server."""
        for worker in self._workers:
            worker.end(wait_for=True)
        self._workers = []
        if self._control is not None:
            self._control.close()  # the server's end of its socket: it exits
            self._control = None
        if self._server is not None:
            self._server.wait()
            self._server = None

    def __enter__(self) -> WorkerPool:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start_server(self) -> None:
        self._control, theirs = socket.socketpair()
        # this process's import path, and not the current folder (-P): a folder there named
        # like a package of the lab would hide it (sim.plugin_path)
        env = {**ONE_THREAD, **os.environ,
               "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}  # fmt: skip
        command = [sys.executable, "-P", "-m", "sim.runner.preload", str(theirs.fileno())]
        self._server = subprocess.Popen(
            [*command, *self.games],
            pass_fds=(theirs.fileno(),),
            stdin=subprocess.DEVNULL,
            env=env,
        )
        theirs.close()
        self._workers = []  # forked by a server that is gone: they end with their sockets

    def _fork(self) -> _Worker:
        mine, theirs = socket.socketpair()
        socket.send_fds(self._control, [b"w"], [theirs.fileno()])
        theirs.close()
        return _Worker(Connection(mine.detach()))


class _Worker:
    """The parent's end of one worker's socket."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.pid: int | None = None  # the worker's first message
        self.in_flight = 0
        self.ended = False

    def feed(self, fn: Callable[[Any], Any], pending: Iterator[Any]) -> None:
        """Send tasks until IN_FLIGHT are waiting or none are left."""
        while self.in_flight < IN_FLIGHT:
            try:
                item = next(pending)
            except StopIteration:
                return
            self.conn.send((fn, item))
            self.in_flight += 1

    def receive(self) -> tuple[bool, Any, str]:
        """The next answer: (True, result, "") or (False, error, its traceback)."""
        try:
            if self.pid is None:
                self.pid = self.conn.recv()
            answer = self.conn.recv()
        except (EOFError, OSError):
            self.ended = True
            raise WorkerDied(
                "a worker process ended without finishing its chunk",
                hint="It may have run out of memory; run again with fewer --jobs (stored "
                "chunks are kept).",
            ) from None
        self.in_flight -= 1
        return answer

    def end(self, *, wait_for: bool = False) -> None:
        """Stop the worker: once it has played what it holds (wait_for), else at once."""
        self.ended = True
        with contextlib.suppress(OSError, EOFError):  # the process is gone already
            if wait_for:
                self.conn.send(None)
            else:
                if self.pid is None and self.conn.poll():
                    self.pid = self.conn.recv()
                if self.pid is not None:
                    os.kill(self.pid, signal.SIGKILL)
        self.conn.close()


class _Remote(Exception):
    """The traceback of an error raised in a worker, shown as the cause of the error."""

    def __str__(self) -> str:
        return "\n" + "".join(self.args)


# --- the server and its workers -----------------------------------------------------------


def serve_forks(control: socket.socket) -> None:
    """The server (sim.runner.preload, once ready): fork a worker for each socket received,
    until the parent closes its end. Ctrl-C is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # finished workers need no waiting for
    while True:
        _, fds, _, _ = socket.recv_fds(control, 1, 1)
        if not fds:
            return
        if os.fork() == 0:
            control.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            try:
                _serve(Connection(fds[0]))
            finally:
                os._exit(0)
        os.close(fds[0])


def _serve(conn: Connection) -> None:
    """A worker: say its pid, then play each (fn, item) received and answer (True, result,
    "") or (False, error, traceback), until told to stop (None) or the parent is gone."""
    conn.send(os.getpid())
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        fn, item = job
        try:
            answer = (True, fn(item), "")
        except BaseException as error:  # noqa: BLE001  (sent to the parent, raised there)
            answer = (False, error, traceback.format_exc())
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
        except Exception as error:  # noqa: BLE001  (an answer that does not pickle)
            conn.send((False, RuntimeError(f"{type(error).__name__}: {error}"), answer[2]))
