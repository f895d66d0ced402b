"""Planning a run: the chunks of games each arm still needs, as tasks for the workers.

A chunk is a range of game indices of one arm; the stored chunks are kept and only the gaps
below an arm's target are planned, in chunks of at most `chunk_size` games, one at a time (a
billion games are never a list of chunks)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import islice
from pathlib import Path

from sim.experiment.model import Arm, Experiment
from sim.runner.tasks import Task, make_task
from sim.storage import complete_chunks
from sim.storage.verify import missing_ranges

Stored = Mapping[int, Sequence[tuple[int, int]]]  # arm index -> its stored (start, stop)


def plan_chunks(
    done: Iterable[tuple[int, int]], target: int, chunk_size: int
) -> list[tuple[int, int]]:
    """Chunks of at most chunk_size games filling the gaps below target."""
    return list(iter_chunks(done, target, chunk_size))


def iter_chunks(
    done: Iterable[tuple[int, int]], target: int, chunk_size: int
) -> Iterator[tuple[int, int]]:
    """plan_chunks one chunk at a time."""
    for a, b in missing_ranges(done, target):
        for s in range(a, b, chunk_size):
            yield s, min(s + chunk_size, b)


def chunk_tasks(exp: Experiment, arms: Sequence[Arm], stored: Stored,
                targets: Mapping[int, int], chunk_size: int) -> Iterator[Task]:  # fmt: skip
    """The tasks that bring each of `arms` to its target, arm by arm."""
    for arm in arms:
        for a, b in iter_chunks(list(stored.get(arm.index, [])), targets[arm.index], chunk_size):
            yield make_task(exp, arm, a, b)


def several_chunks(exp: Experiment, root: Path, chunk_size: int, *, open_ended: bool) -> bool:
    """Whether the run has more than one chunk to play (an `open_ended` run, whose stop rule
    may add games, always may)."""
    if open_ended:
        return True
    targets = {arm.index: exp.games for arm in exp.arms}
    tasks = chunk_tasks(exp, exp.arms, complete_chunks(root), targets, chunk_size)
    return len(list(islice(tasks, 2))) > 1
