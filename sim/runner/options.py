"""How a run is played and stored: workers, games per part file, the results folder, a fresh
start, the backend; checked before any game is played."""

from __future__ import annotations

import os
from dataclasses import dataclass

from sim.errors import SimError

DEFAULT_CHUNK_SIZE = 20_000
BACKENDS = ("local", "dask")


@dataclass(frozen=True)
class RunOptions:
    """How a run is played and stored (`sim run`, `sim tournament`, the runs of `sim tune`),
    checked before any game: workers, games per part file, the results folder, a fresh start,
    the backend."""

    jobs: int | None = None
    chunk_size: int = DEFAULT_CHUNK_SIZE
    out: str | None = None
    fresh: bool = False
    backend: str = "local"
    address: str | None = None
    progress: bool = True

    def check(self) -> None:
        check_options(chunk_size=self.chunk_size, backend=self.backend, address=self.address,
                      jobs=self.jobs)  # fmt: skip


def default_jobs() -> int:
    """All cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def check_options(*, chunk_size: int, backend: str, address: str | None, jobs: int | None) -> None:
    """Refuse bad run options before anything starts."""
    if chunk_size < 1:
        raise SimError(f"expected a positive chunk size, got {chunk_size}", key="--chunk-size")
    if backend not in BACKENDS:
        raise SimError(f"unknown backend '{backend}'", key="--backend", hint="Use local or dask.")
    if address and backend != "dask":
        raise SimError("--address needs --backend dask", key="--address")
    if jobs is not None and jobs < 1:
        raise SimError(f"expected a number of workers >= 1, got {jobs}", key="--jobs",
                       hint="Leave it out to use all cores.")  # fmt: skip
