"""Running an experiment: chunks of games on local workers or a Dask cluster, streamed to disk.

A run reads top-down: open the results folder (sim.runner.folder), plan the chunks each arm
still needs (plan.py), play them (backends.py: a worker plays a chunk through the game's
plug-in and returns it encoded as two Parquet files, tasks.py), store them and account for
them in the manifest (ledger.py), and ask the caller's stop rule, if any, whether some arms
play on (stopping.py). The parent writes every chunk under a temporary name and renames it
into place, so the results folder only ever holds complete chunks, and nothing else is kept
in memory: memory does not grow with the number of games.

A run on a folder that already holds results of the same experiment (same fingerprint) plays
only the games missing from the stored chunks; any other experiment is refused unless fresh.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import chain, islice
from pathlib import Path
from typing import Any

from sim.compiling import console_notice, quiet_notice
from sim.experiment.model import Experiment
from sim.faults import RESUME, keeping, stop_reason
from sim.plugins import get_game
from sim.plugins.base import prepare
from sim.runner.backends import played
from sim.runner.folder import Opened, open_folder, results_root
from sim.runner.ledger import Ledger, kept_games
from sim.runner.options import DEFAULT_CHUNK_SIZE, check_options, default_jobs
from sim.runner.plan import chunk_tasks, several_chunks
from sim.runner.pool import WorkerPool, local_pool
from sim.runner.progress import ProgressBar
from sim.runner.stopping import StopRule
from sim.runner.tasks import ChunkResult, Task


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
    precision: dict[str, dict[str, Any]] = field(default_factory=dict)  # the stop rule's
    illegal_moves: int = 0
    resumed: bool = False
    compile_seconds: float = 0.0  # before the first game; not part of `seconds`
    notes: list[str] = field(default_factory=list)  # what opening the folder found and did


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
    stop: StopRule | None = None,
    stop_after: int | None = None,
    on_chunk: Callable[[ChunkResult], None] | None = None,
    on_note: Callable[[str], None] | None = None,
    pool: WorkerPool | None = None,
) -> RunSummary:
    """Play the experiment into `out` (default results/<name>), resuming stored chunks.

    Each arm plays `exp.games` games; with a `stop` rule (sim.runner.stopping), as many more
    as the rule asks for. The folder is locked for the run (sim.storage.lock); what opening it
    found (a damaged part played again, a killed run, a stale lock) goes to ``on_note`` and
    the summary. ``stop_after`` (tests) stops as if interrupted after that many chunks were
    written. ``pool``: local workers the caller keeps for many runs (its size is the run's
    jobs); without one, a run with more than one chunk to play starts its own for `jobs` > 1.
    Raises Interrupted on Ctrl-C (completed chunks are kept) and SimError on bad input.
    """
    check_options(chunk_size=chunk_size, backend=backend, address=address, jobs=jobs)
    jobs = pool.jobs if pool is not None else default_jobs() if jobs is None else jobs
    root = results_root(out, exp.name)
    targets = {arm.index: exp.games for arm in exp.arms}  # raised by the stop rule
    with keeping(lambda: kept_games(root, targets), then=RESUME):
        opened = open_folder(root, exp, fresh)
        own = None
        try:
            for note in opened.notes:
                if on_note is not None:
                    on_note(note)
            open_ended = stop is not None
            if pool is None and jobs > 1 and several_chunks(exp, opened.root, chunk_size,
                                                            open_ended=open_ended):  # fmt: skip
                own = pool = local_pool(jobs, backend=backend, games=[exp.game])  # ready meanwhile
            compile_seconds = _compile(exp, show=progress, console=console)
            ledger = Ledger(exp, opened, jobs=jobs, backend=backend, address=address,
                            chunk_size=chunk_size)  # fmt: skip

            def play(tasks: Iterator[Task]) -> Iterator[ChunkResult]:
                return played(tasks, backend=backend, jobs=jobs, address=address, pool=pool)

            status = _rounds(exp, ledger, play, targets, chunk_size=chunk_size, stop=stop,
                             bar=ProgressBar(progress, console), stop_after=stop_after,
                             on_chunk=on_chunk)  # fmt: skip
            return _summary(ledger, opened, status, stop, compile_seconds)
        finally:
            if own is not None:
                own.close()
            opened.lock.release()


def _compile(exp: Experiment, *, show: bool, console: Any) -> float:
    """Compile (or load from the cache) what every arm's lineup needs, once, here, before any
    worker starts: workers then load the machine code instead of each compiling it."""
    lineup = list(dict.fromkeys(spec for arm in exp.arms for spec in arm.lineup))
    notice = console_notice(console) if show else quiet_notice
    return prepare(get_game(exp.game), lineup, notice=notice)


Play = Callable[[Iterator[Task]], Iterator[ChunkResult]]


def _rounds(exp: Experiment, ledger: Ledger, play: Play, targets: dict[int, int], *,
            chunk_size: int, stop: StopRule | None, bar: ProgressBar, stop_after: int | None,
            on_chunk: Callable[[ChunkResult], None] | None) -> str:  # fmt: skip
    """Play every arm up to its target (`targets`, raised here as the stop rule asks for
    more): the run's status, `complete` or `interrupted` (Ctrl-C); the ledger is closed either
    way (`failed` when an error stops the run, with why)."""
    status, error = "complete", None
    try:
        arms = list(exp.arms)
        while arms:
            tasks = chunk_tasks(exp, arms, ledger.stored, targets, chunk_size)
            _round(tasks, targets, ledger, play, bar=bar, stop_after=stop_after,
                   on_chunk=on_chunk)  # fmt: skip
            if stop is None:
                break
            more = stop.more(ledger.root, {arm.index: targets[arm.index] for arm in arms})
            ledger.note_stop(stop.found)
            targets.update(more)
            arms = [arm for arm in exp.arms if arm.index in more]
        ledger.illegal.check(ledger.root, final=True)
    except KeyboardInterrupt:
        status = "interrupted"
    except BaseException as exc:
        error = stop_reason(exc)
        raise
    finally:
        bar.stop()
        ledger.close(status, targets, error)
    if status == "complete":
        ledger.completed()
    return status


def _round(tasks: Iterator[Task], targets: dict[int, int], ledger: Ledger, play: Play, *,
           bar: ProgressBar, stop_after: int | None,
           on_chunk: Callable[[ChunkResult], None] | None) -> None:  # fmt: skip
    """Play the planned chunks, storing each as it comes back."""
    first = list(islice(tasks, 1))
    if not first:
        return
    total = sum(targets.values())
    bar.start(total, sum(min(ledger.done(i), targets[i]) for i in targets))
    results = play(chain(first, tasks))
    try:
        for result in results:
            ledger.add(result)
            bar.advance(result.stop - result.start, total)
            if on_chunk is not None:
                on_chunk(result)
            if stop_after is not None and ledger.chunks >= stop_after:
                raise KeyboardInterrupt
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()


def _summary(ledger: Ledger, opened: Opened, status: str, stop: StopRule | None,
             compile_seconds: float) -> RunSummary:  # fmt: skip
    """What the run did; raised inside Interrupted when it was stopped."""
    summary = RunSummary(
        out=ledger.root,
        games_played=ledger.played,
        games_stored=ledger.games_stored,
        chunks_played=ledger.chunks,
        seconds=time.perf_counter() - ledger.began,
        arms={e["name"]: e["games"] for e in ledger.manifest["arms"]},
        precision=stop.found if stop is not None else {},
        illegal_moves=ledger.manifest["illegal_moves"]["count"],
        resumed=opened.resumed,
        compile_seconds=compile_seconds,
        notes=list(opened.notes),
    )
    if status == "interrupted":
        raise Interrupted(summary)
    return summary
