"""Simulating a run's chunks: on local worker processes (or here, without a pool) or on a Dask
cluster. Either way the results come back one chunk at a time, in the order they finish."""

from __future__ import annotations

import contextlib
import gc
import logging
import time
from collections.abc import Iterator
from concurrent.futures import CancelledError
from itertools import islice
from typing import Any

from sim.errors import SimError
from sim.faults import ClusterLost
from sim.runner.pool import WorkerPool
from sim.runner.tasks import ChunkResult, Task, simulate_task

DASK_CONNECT_TIMEOUT = "10s"
POLL_SECONDS = 2.0  # how often a run waiting on its chunks looks at the cluster's workers
NO_WORKERS_SECONDS = 60.0  # a cluster without workers this long is lost
CLOSE_SECONDS = 5


def played(tasks: Iterator[Task], *, backend: str, jobs: int, address: str | None,
           pool: WorkerPool | None) -> Iterator[ChunkResult]:  # fmt: skip
    """The chunks of `tasks`, played by the backend (`local` or `dask`)."""
    return _local(tasks, pool) if backend == "local" else _dask(tasks, jobs, address)


def _local(tasks: Iterator[Task], pool: WorkerPool | None) -> Iterator[ChunkResult]:
    """The chunks played on the pool's workers, or here without one."""
    if pool is None:
        for task in tasks:
            yield simulate_task(task)
        return
    yield from pool.imap_unordered(simulate_task, tasks)


def _dask(tasks: Iterator[Task], jobs: int, address: str | None) -> Iterator[ChunkResult]:
    """The chunks played on a Dask cluster (a local one of `jobs` processes without an
    `address`). A worker lost mid-chunk has its chunk played again by another (the games
    are the same); a cluster that goes away (its scheduler, every worker for
    NO_WORKERS_SECONDS, a chunk that killed several workers) stops the run with a
    ClusterLost: the chunks stored are kept and the same command resumes, on any cluster."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - dask[distributed] is a dependency
        raise SimError("the dask backend needs dask[distributed] installed") from None
    cluster = None
    with _quiet("distributed", "tornado", "asyncio"):  # of a lost cluster: tracebacks
        try:
            if address:
                client = Client(address, timeout=DASK_CONNECT_TIMEOUT, set_as_default=False)
            else:
                # no dashboard: nothing shows its address, and a second local run at once
                # would warn that port 8787 is taken
                cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                       silence_logs=logging.CRITICAL,
                                       dashboard_address=None)  # fmt: skip
                client = Client(cluster, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise SimError(
                f"cannot reach the Dask scheduler at {address}: {exc}",
                key="--address",
                hint="Give the scheduler's address, e.g. tcp://10.0.0.5:8786.",
            ) from None
        try:
            yield from _on_cluster(client, tasks, address or "(local)")
        finally:
            with contextlib.suppress(Exception):  # a scheduler gone: nothing to say goodbye to
                client.close(timeout=CLOSE_SECONDS)
            if cluster is not None:
                with contextlib.suppress(Exception):
                    cluster.close(timeout=CLOSE_SECONDS)


@contextlib.contextmanager
def _quiet(*names: str) -> Iterator[None]:
    """The loggers `names` (and their children) say nothing below CRITICAL meanwhile: what
    they would say of a lost cluster (a traceback per connection) is said in one line by the
    ClusterLost raised here."""
    found = [logging.getLogger(n) for n in names]
    found += [logging.getLogger(n) for n in list(logging.root.manager.loggerDict)
              if n.startswith(tuple(f"{name}." for name in names))]  # fmt: skip
    levels = [logger.level for logger in found]
    for logger in found:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        gc.collect()  # the client's tasks that ended on an error, said while still quiet
        for logger, level in zip(found, levels, strict=True):
            logger.setLevel(level)


def _on_cluster(client: Any, tasks: Iterator[Task], address: str) -> Iterator[ChunkResult]:
    """Keep about two chunks per worker submitted; yield each as it finishes."""
    from distributed import KilledWorker, wait

    pending = iter(tasks)
    try:
        window = {client.submit(simulate_task, t, pure=False)
                  for t in islice(pending, 2 * max(1, len(client.nthreads())))}  # fmt: skip
        alone_since = None
        while window:
            try:
                with client.as_current():  # `wait` asks for the client this way
                    done, window = wait(window, timeout=POLL_SECONDS,
                                        return_when="FIRST_COMPLETED")  # fmt: skip
            except TimeoutError:
                alone_since = _check_workers(client, address, alone_since)
                continue
            # the finished chunks first: stored before an erred one stops the run
            for future in sorted(done, key=lambda f: f.status == "error"):
                try:
                    if future.status in ("lost", "pending"):
                        raise TimeoutError
                    result = future.result(timeout=POLL_SECONDS)
                except TimeoutError:  # lost with its worker since: played again by another
                    window.add(future)
                    continue
                future.release()
                window |= {client.submit(simulate_task, t, pure=False) for t in islice(pending, 1)}
                yield result
    except KilledWorker as exc:
        first = str(exc).split(". ")[0]  # "Attempted to run task ... on 4 different workers"
        raise _lost(address, f"every worker that played a chunk died ({first})",
                    "Give the workers more memory, or play smaller chunks (--chunk-size)"
                    ) from None  # fmt: skip
    except (CancelledError, OSError, TimeoutError) as exc:
        how = "stopped answering" if isinstance(exc, TimeoutError) else "went away"
        raise _lost(address, f"the scheduler {how}", RESTART) from None


def _check_workers(client: Any, address: str, alone_since: float | None) -> float | None:
    """While chunks wait: when the cluster has had no worker for NO_WORKERS_SECONDS, it is
    lost (nothing would ever play them); the time it has had none since, or None."""
    if client.nthreads():
        return None
    now = time.monotonic()
    if alone_since is not None and now - alone_since >= NO_WORKERS_SECONDS:
        raise _lost(address, f"it has had no workers for {NO_WORKERS_SECONDS:.0f} s", RESTART)
    return now if alone_since is None else alone_since


RESTART = "Start a cluster again (or leave out --backend dask to play here)"


def _lost(address: str, why: str, remedy: str) -> ClusterLost:
    return ClusterLost(f"lost the Dask cluster at {address}: {why}", remedy=remedy)
