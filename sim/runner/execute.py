"""Running an experiment: chunks of games on local workers or a Dask cluster, streamed to disk.

Each chunk is a range of game indices of one arm. A worker plays it through the game plugin and
returns the chunk encoded as two Parquet files (games, seats); the parent writes them under
temporary names and renames them into place, so the results folder only ever holds complete
chunks. Nothing else is kept in memory, so memory does not grow with the number of games.

A run on a folder that already holds results of the same experiment (same fingerprint) plays
only the games missing from the stored chunks; any other experiment is refused unless fresh.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.compiling import console_notice, quiet_notice
from sim.console import draws_live
from sim.errors import SimError
from sim.experiment.model import Arm, Experiment, Precision
from sim.experiment.precision import Measure, measure
from sim.games import get_game
from sim.games.base import prepare
from sim.runner.folder import Opened, open_folder, results_root
from sim.runner.illegal import IllegalMoves
from sim.runner.manifest import chunk_list, new_manifest, now, previous_seconds
from sim.runner.options import DEFAULT_CHUNK_SIZE, check_options, default_jobs
from sim.runner.pool import WorkerPool, local_pool
from sim.runner.tasks import ChunkResult, Task, make_task, play_task
from sim.storage import complete_chunks, part_path, read_manifest, write_atomic, write_manifest
from sim.storage.verify import games_done, missing_ranges, record

DASK_CONNECT_TIMEOUT = "10s"
_MAX_ERROR_EXAMPLES = 20


# --- planning ---------------------------------------------------------------------------


def plan_chunks(
    done: Iterable[tuple[int, int]], target: int, chunk_size: int
) -> list[tuple[int, int]]:
    """Chunks of at most chunk_size games filling the gaps below target."""
    return list(iter_chunks(done, target, chunk_size))


def iter_chunks(
    done: Iterable[tuple[int, int]], target: int, chunk_size: int
) -> Iterator[tuple[int, int]]:
    """plan_chunks one chunk at a time: a billion games are never a list of chunks."""
    for a, b in missing_ranges(done, target):
        for s in range(a, b, chunk_size):
            yield s, min(s + chunk_size, b)


def _tasks(exp: Experiment, arms: list[Arm], stored: dict, targets: dict, size: int):
    for arm in arms:
        for a, b in iter_chunks(list(stored.get(arm.index, [])), targets[arm.index], size):
            yield make_task(exp, arm, a, b)


# --- backends ---------------------------------------------------------------------------


def _local(tasks: Iterator[Task], pool: WorkerPool | None) -> Iterator[ChunkResult]:
    """The chunks played on the pool's workers, or here without one."""
    if pool is None:
        for task in tasks:
            yield play_task(task)
        return
    yield from pool.imap_unordered(play_task, tasks)


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
        first = [client.submit(play_task, t, pure=False) for t in _take(pending, 2 * workers)]
        if not first:
            return
        window = as_completed(first, loop=client.loop)
        for future in window:
            result = future.result()
            future.release()
            for task in _take(pending, 1):
                window.add(client.submit(play_task, task, pure=False))
            yield result
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _take(iterator: Iterator[Task], n: int) -> list[Task]:
    out = []
    for _ in range(n):
        try:
            out.append(next(iterator))
        except StopIteration:
            break
    return out


# --- the run ----------------------------------------------------------------------------


class Interrupted(Exception):
    """The run was stopped (Ctrl-C); completed chunks are kept and a rerun resumes."""

    def __init__(self, summary: RunSummary) -> None:
        super().__init__("interrupted")
        self.summary = summary


@dataclass
class RunSummary:
    out: Path
    games_played: int  # in this run
    games_stored: int  # in the folder, all arms
    chunks_played: int
    seconds: float
    arms: dict[str, int]  # games stored per arm
    precision: dict[str, dict[str, Any]] = field(default_factory=dict)
    illegal_moves: int = 0
    resumed: bool = False
    compile_seconds: float = 0.0  # before the first game; not part of `seconds`
    notes: list[str] = field(default_factory=list)  # what opening the folder found and did


@dataclass
class _Progress:
    """Progress reporting; a callable per finished chunk plus start/stop."""

    show: bool
    console: Any = None
    _progress: Any = None
    _task: Any = None

    def start(self, total: int, done: int) -> None:
        if not self.show:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        console = self.console or Console(stderr=True)
        if not draws_live(console):
            return
        self._progress = Progress(
            TextColumn("[bold]games"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("elapsed,"),
            TimeRemainingColumn(),
            TextColumn("left"),
            console=console,
            transient=False,
        )
        self._progress.start()
        self._task = self._progress.add_task("games", total=total, completed=done, rate="")
        self._began = time.perf_counter()
        self._base = done

    def advance(self, games: int, total: int) -> None:
        if self._progress is None:
            return
        task = self._progress.tasks[0]
        played = task.completed + games - self._base
        rate = played / max(time.perf_counter() - self._began, 1e-9)
        self._progress.update(self._task, advance=games, total=total, rate=f"{rate:,.0f} games/s")

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


def run(
    exp: Experiment,
    *,
    out: str | Path | None = None,
    jobs: int | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    backend: str = "local",
    address: str | None = None,
    fresh: bool = False,
    progress: bool = True,
    console: Any = None,
    stop_after: int | None = None,
    on_chunk: Callable[[ChunkResult], None] | None = None,
    on_note: Callable[[str], None] | None = None,
    pool: WorkerPool | None = None,
) -> RunSummary:
    """Play the experiment into `out` (default results/<name>), resuming stored chunks.

    The folder is locked for the run (sim.storage.lock); what opening it found (a damaged
    part played again, a killed run, a stale lock) goes to ``on_note`` and the summary.
    ``stop_after`` (tests) stops as if interrupted after that many chunks were written.
    ``pool``: local workers the caller keeps for many runs (its size is the run's jobs);
    without one, a run with more than one chunk to play starts its own for `jobs` > 1.
    Raises Interrupted on Ctrl-C (completed chunks are kept) and SimError on bad input.
    """
    check_options(chunk_size=chunk_size, backend=backend, address=address, jobs=jobs)
    jobs = pool.jobs if pool is not None else default_jobs() if jobs is None else jobs
    opened = open_folder(results_root(out, exp.name), exp, fresh)
    own = None
    try:
        for note in opened.notes:
            if on_note is not None:
                on_note(note)
        if pool is None and jobs > 1 and _several_chunks(exp, opened.root, chunk_size):
            own = pool = local_pool(jobs, backend=backend, games=[exp.game])  # ready meanwhile
        compile_seconds = _compile(exp, show=progress, console=console)
        return _play(exp, opened, jobs=jobs, chunk_size=chunk_size, backend=backend,
                     address=address, reporter=_Progress(progress, console),
                     stop_after=stop_after, on_chunk=on_chunk,
                     compile_seconds=compile_seconds, pool=pool)  # fmt: skip
    finally:
        if own is not None:
            own.close()
        opened.lock.release()


def _several_chunks(exp: Experiment, root: Path, chunk_size: int) -> bool:
    """Whether the run has more than one chunk to play (a precision stop may add more)."""
    if exp.precision is not None:
        return True
    targets = {arm.index: exp.games for arm in exp.arms}
    return len(_take(_tasks(exp, exp.arms, complete_chunks(root), targets, chunk_size), 2)) > 1


def _play(
    exp: Experiment,
    opened: Opened,
    *,
    jobs: int,
    chunk_size: int,
    backend: str,
    address: str | None,
    reporter: _Progress,
    stop_after: int | None,
    on_chunk: Callable[[ChunkResult], None] | None,
    compile_seconds: float,
    pool: WorkerPool | None,
) -> RunSummary:
    root, resumed, records = opened.root, opened.resumed, dict(opened.records)
    chunk_seconds = previous_seconds(read_manifest(root))
    manifest = new_manifest(exp, root)
    began = time.perf_counter()
    run_entry = {
        "started": now(),
        "jobs": jobs,
        "backend": backend,
        "address": address,
        "chunk_size": chunk_size,
        "status": "running",
    }
    manifest["runs"].append(run_entry)
    stored = complete_chunks(root)
    manifest["chunks"] = chunk_list(stored, chunk_seconds, records)
    write_manifest(root, manifest)

    targets = {arm.index: exp.games for arm in exp.arms}
    finished: set[int] = set()
    results_precision: dict[str, dict[str, Any]] = {}
    state = {"played": 0, "chunks": 0, "errors": 0}
    illegal = IllegalMoves(exp.arms)
    status = "complete"
    try:
        while True:
            active = [arm for arm in exp.arms if arm.index not in finished]
            tasks = _tasks(exp, active, stored, targets, chunk_size)
            first = _take(tasks, 1)
            if first:
                tasks = itertools.chain(first, tasks)
                total = sum(targets.values())
                done_now = sum(min(games_done(stored.get(i, [])), targets[i]) for i in targets)
                if reporter._progress is None:
                    reporter.start(total, done_now)
                results = _local(tasks, pool) if backend == "local" else _dask(tasks, jobs, address)
                try:
                    for result in results:
                        records[(result.arm_index, result.start, result.stop)] = _store(
                            root, result
                        )
                        stored.setdefault(result.arm_index, []).append((result.start, result.stop))
                        chunk_seconds[(result.arm_index, result.start, result.stop)] = (
                            result.seconds
                        )
                        state["played"] += result.stop - result.start
                        state["chunks"] += 1
                        if result.errors:
                            state["errors"] += len(result.errors)
                            _note_errors(manifest, result.errors, exp.arms[result.arm_index].name)
                        manifest["chunks"] = chunk_list(stored, chunk_seconds, records)
                        write_manifest(root, manifest)
                        illegal.add(result.arm_index, result.start, result.stop,
                                    result.illegal, result.errors)  # fmt: skip
                        illegal.check(root)
                        reporter.advance(result.stop - result.start, total)
                        if on_chunk is not None:
                            on_chunk(result)
                        if stop_after is not None and state["chunks"] >= stop_after:
                            raise KeyboardInterrupt
                finally:
                    close = getattr(results, "close", None)
                    if close is not None:
                        close()
            if exp.precision is None:
                break
            prec = exp.precision
            if prec.settle:
                entry, target = _settle_step(root, max(targets.values()), prec)
                results_precision[SETTLE] = entry
                manifest["precision_result"] = results_precision
                if entry["reached"] or target == entry["games"]:
                    break
                targets = dict.fromkeys(targets, target)
                continue
            for arm in active:
                m = measure(root, arm.index, targets[arm.index], prec.metric)
                reached = m.width <= prec.width
                results_precision[arm.name] = _measure_entry(m, reached, prec.width)
                if reached or targets[arm.index] >= prec.max_games:
                    finished.add(arm.index)
                else:
                    targets[arm.index] = min(targets[arm.index] + prec.step, prec.max_games)
            manifest["precision_result"] = results_precision
            if len(finished) == len(exp.arms):
                break
        illegal.check(root, final=True)
    except KeyboardInterrupt:
        status = "interrupted"
    finally:
        reporter.stop()
        run_entry["status"] = status if status == "interrupted" else "failed"
        run_entry["finished"] = now()
        run_entry["wall_seconds"] = round(time.perf_counter() - began, 3)
        run_entry["games_played"] = state["played"]
        for entry in manifest["arms"]:
            entry["games"] = games_done(stored.get(entry["index"], []))
            entry["target"] = targets[entry["index"]]
        manifest["status"] = run_entry["status"]
        manifest["chunks"] = chunk_list(stored, chunk_seconds, records)
        write_manifest(root, manifest)
    if status == "complete":
        run_entry["status"] = manifest["status"] = status
        write_manifest(root, manifest)
    summary = RunSummary(
        out=root,
        games_played=state["played"],
        games_stored=sum(b - a for chunks in stored.values() for a, b in chunks),
        chunks_played=state["chunks"],
        seconds=time.perf_counter() - began,
        arms={e["name"]: e["games"] for e in manifest["arms"]},
        precision=results_precision,
        illegal_moves=manifest["illegal_moves"]["count"],
        resumed=resumed,
        compile_seconds=compile_seconds,
        notes=list(opened.notes),
    )
    if status == "interrupted":
        raise Interrupted(summary)
    return summary


def _compile(exp: Experiment, *, show: bool, console: Any) -> float:
    """Compile (or load from the cache) what every arm's lineup needs, once, here, before any
    worker starts: workers then load the machine code instead of each compiling it."""
    lineup = list(dict.fromkeys(spec for arm in exp.arms for spec in arm.lineup))
    notice = console_notice(console) if show else quiet_notice
    return prepare(get_game(exp.game), lineup, notice=notice)


def _store(root: Path, result: ChunkResult) -> dict[str, Any]:
    """Write the chunk's parts; their records (rows, bytes, sha256) for the manifest."""
    # seats first: a chunk counts as done once its games part exists (and seats too)
    seats = part_path(root, "seats", result.arm_index, result.start, result.stop)
    write_atomic(seats, result.seats)
    write_atomic(
        part_path(root, "games", result.arm_index, result.start, result.stop), result.games
    )
    return {"games": record(result.games), "seats": record(result.seats)}


def _measure_entry(m: Measure, reached: bool, target: float) -> dict[str, Any]:
    return {
        "metric": m.metric,
        "games": m.games,
        "estimate": m.estimate,
        "low": m.low,
        "high": m.high,
        "width": m.width,
        "target_width": target,
        "reached": reached,
    }


SETTLE = "all arms"  # the precision result's key when every answer must be settled


def _settle_step(root: Path, games: int, prec: Precision) -> tuple[dict[str, Any], int]:
    """The report's open answers after `games` per arm, and the next checkpoint: the games per
    arm the open answers say would likely settle them, at least `step` more, at most
    `max_games` (the same as `games` when there is nowhere further to go)."""
    from sim.report.settled import open_questions

    found = open_questions(root, games=games)
    needed = max((q.games_to_settle or 0 for q in found), default=0)
    target = min(prec.max_games, max(games + prec.step, needed)) if found else games
    entry = {
        "settle": True,
        "games": games,
        "open": [{"question": q.question, "games_to_settle": q.games_to_settle} for q in found],
        "reached": not found,
    }
    return entry, target


def _note_errors(manifest: dict[str, Any], errors: list[str], arm: str) -> None:
    entry = manifest["illegal_moves"]
    entry["count"] += len(errors)
    room = _MAX_ERROR_EXAMPLES - len(entry["examples"])
    entry["examples"].extend(f"arm '{arm}', {e}" for e in errors[: max(room, 0)])
