"""RunOptions a run's chunks: on local worker processes (or here, without a pool) or on a Dask
cluster. Either way the results come back one chunk at a time, in the order they finish."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from sim.errors import SimError
from sim.runner.pool import WorkerPool
from sim.runner.tasks import ChunkResult, Task, simulate_task

DASK_CONNECT_TIMEOUT = "10s"


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
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:  # pragma: no cover - dask[distributed] is a dependency
        raise SimError("the dask backend needs dask[distributed] installed") from None
    cluster = None
    try:
        if address:
            client = Client(address, timeout=DASK_CONNECT_TIMEOUT, set_as_default=False)
        else:
            cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True)
            client = Client(cluster, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise SimError(
            f"cannot reach the Dask scheduler at {address}: {exc}",
            key="--address",
            hint="Give the scheduler's address, e.g. tcp://10.0.0.5:8786.",
        ) from None
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        pending = iter(tasks)
        first = [client.submit(simulate_task, t, pure=False) for t in islice(pending, 2 * workers)]
        if not first:
            return
        window = as_completed(first, loop=client.loop)
        for future in window:
            result = future.result()
            future.release()
            for task in islice(pending, 1):
                window.add(client.submit(simulate_task, task, pure=False))
            yield result
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
