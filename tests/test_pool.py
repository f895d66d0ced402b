"""The worker pool: workers forked from one ready server, kept alive across runs by a caller
that holds the pool (a tune holds one for all its trials), errors and dead workers reported, an
early stop leaving it usable."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest
from polars.testing import assert_frame_equal

from sim.errors import SimError
from sim.experiment import load_experiment
from sim.results import load
from sim.runner import Interrupted, run
from sim.runner.options import RunOptions
from sim.runner.pool import WorkerDied, WorkerPool, available
from sim.tune.run import run_tune
from sim.tune.spec import parse_tune
from tests.test_tune import _trials

pytestmark = pytest.mark.skipif(not available(), reason="worker pools need fork")

EXPERIMENT = """
name: pooled
players: 3
seats: [greedy, random, greedy]
games: 900
seed: 5
"""

# every rung after the first and the confirmation has two 100-game chunks left to play: a run
# on its own would start a pool for each
TUNE = {
    "name": "pooled_tune", "game": "guardians", "players": 3, "seed": 3, "games": 500,
    "seats": ["greedy", "greedy", "greedy"],
    "tune": {"board.start_rows": {"low": 3, "high": 5}},
    "targets": [{"measure": "mean_turns", "value": 60, "tolerance": 5}],
    "search": {"trials": 3, "games": [100, 300], "keep": 0.5, "confirm": 2},
}  # fmt: skip


@pytest.fixture(scope="module")
def pool():
    """One pool for the file: starting one costs its server about 0.6 s of CPU."""
    with WorkerPool(2) as shared:
        yield shared


def pid(_: object) -> int:
    return os.getpid()


def square_or_fail(x: int) -> int:
    if x == 3:
        raise SimError("three is refused", key="x", hint="Give another number.")
    return x * x


def stop_if_asked(x: int) -> int:
    if x < 0:
        os.kill(os.getpid(), signal.SIGKILL)
    return x


def test_results_arrive_from_workers_that_stay_alive_between_uses(pool):
    first = set(pool.imap_unordered(pid, range(8)))
    second = set(pool.imap_unordered(pid, range(8)))
    assert sorted(pool.imap_unordered(square_or_fail, [0, 1, 2, 4])) == [0, 1, 4, 16]
    assert len(first) == 2 and first == second and os.getpid() not in first


def library_threads(_: object) -> tuple[int, int, str]:
    """The worker's polars and Arrow thread pools, and its OpenBLAS setting."""
    import polars as pl
    import pyarrow as pa

    return pl.thread_pool_size(), pa.cpu_count(), os.environ["OPENBLAS_NUM_THREADS"]


def test_the_workers_run_each_library_on_one_thread_unless_the_user_says_otherwise(monkeypatch):
    """The workers are the parallelism: polars, Arrow and OpenBLAS get one thread each in them
    (sim.runner.pool.ONE_THREAD); a value set in the caller's environment is kept."""
    for name in ("POLARS_MAX_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)
    with WorkerPool(2) as fresh:
        assert set(fresh.imap_unordered(library_threads, range(4))) == {(1, 1, "1")}
    monkeypatch.setenv("POLARS_MAX_THREADS", "2")
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    with WorkerPool(2) as told:
        assert set(told.imap_unordered(library_threads, range(4))) == {(2, 2, "1")}


def test_an_error_in_a_worker_is_raised_intact_and_the_pool_goes_on(pool):
    with pytest.raises(SimError) as raised:
        list(pool.imap_unordered(square_or_fail, range(6)))
    assert raised.value.key == "x" and raised.value.hint == "Give another number."
    assert "square_or_fail" in str(raised.value.__cause__)  # the worker's traceback
    assert sorted(pool.imap_unordered(square_or_fail, [5, 6])) == [25, 36]


def test_a_worker_that_dies_is_reported_and_replaced(pool):
    with pytest.raises(WorkerDied):
        list(pool.imap_unordered(stop_if_asked, [1, -1, 2, 3]))
    assert len(set(pool.imap_unordered(pid, range(8)))) == 2
    assert sorted(pool.imap_unordered(stop_if_asked, [1, 2])) == [1, 2]


def test_runs_on_a_held_pool_match_a_run_in_one_process(pool, tmp_path: Path):
    file = tmp_path / "exp.yaml"
    file.write_text(EXPERIMENT)
    exp = load_experiment(file)
    run(exp, out=tmp_path / "one", jobs=1, progress=False)
    with pytest.raises(Interrupted):  # stopped early: the workers busy then are ended
        run(exp, out=tmp_path / "two", chunk_size=100, progress=False, stop_after=2, pool=pool)
    summary = run(exp, out=tmp_path / "two", chunk_size=100, progress=False, pool=pool)
    assert summary.resumed and summary.games_played == 700
    run(exp, out=tmp_path / "three", chunk_size=300, progress=False, pool=pool)
    for out in ("two", "three"):
        for table, order in (("games", ["game"]), ("seats", ["game", "seat"])):
            assert_frame_equal(
                load(tmp_path / out, table).collect().sort(order),
                load(tmp_path / "one", table).collect().sort(order),
            )


def test_a_tune_plays_on_one_pool_a_session_and_matches_one_worker(tmp_path, monkeypatch):
    servers: list[WorkerPool] = []
    start_server = WorkerPool._start_server

    def counted(pool: WorkerPool) -> None:
        servers.append(pool)
        start_server(pool)

    monkeypatch.setattr(WorkerPool, "_start_server", counted)
    tune = parse_tune(TUNE)
    one = run_tune(tune, root=tmp_path / "one", options=RunOptions(jobs=1), show=False)
    assert servers == []  # one worker: every trial played in this process
    with pytest.raises(Interrupted):  # stopped part-way, as by Ctrl-C, then run again
        run_tune(tune, root=tmp_path / "two", options=RunOptions(jobs=2), show=False,
                 stop_after_chunks=3)  # fmt: skip
    two = run_tune(tune, root=tmp_path / "two", options=RunOptions(jobs=2), show=False)
    assert len(servers) == 2  # one pool for each session of the tune, whatever it plays
    assert all(pool._server is None for pool in servers)  # closed when the session ends
    assert _trials(tmp_path / "two", tune) == _trials(tmp_path / "one", tune)
    assert two["confirmed"] == one["confirmed"] and len(one["confirmed"]) == 2
    assert [s["finished"] for s in two["sessions"]] == [False, True]


def test_a_run_whose_games_option_needs_several_chunks_starts_its_pool_first(tmp_path, monkeypatch):
    """`sim run --games N` above one chunk on two workers starts the pool before reading the
    experiment (its server gets ready meanwhile), plays on it, closes it, and stores the same
    games as one worker."""
    import sim.commands.run as commands
    from sim.commands.run import run_command

    file = tmp_path / "exp.yaml"
    file.write_text(EXPERIMENT)
    started = []

    def local_pool(jobs, **options):
        made = real(jobs, **options)
        started.extend([made] if made is not None else [])
        return made

    real = commands.local_pool
    monkeypatch.setattr(commands, "local_pool", local_pool)
    for jobs, out in ((1, "one"), (2, "two")):
        run_command(file=str(file), overrides=[], games=300, seed=None, report=False,
                    report_dir=None, options=RunOptions(jobs=jobs, chunk_size=100,
                                                     out=str(tmp_path / out)))  # fmt: skip
    assert len(started) == 1 and started[0].jobs == 2  # one worker: no pool
    assert started[0]._server is None  # closed
    assert manifest_jobs(tmp_path / "two") == 2
    for table, order in (("games", ["game"]), ("seats", ["game", "seat"])):
        assert_frame_equal(load(tmp_path / "two", table).collect().sort(order),
                           load(tmp_path / "one", table).collect().sort(order))  # fmt: skip


def manifest_jobs(out: Path) -> int:
    return json.loads((out / "manifest.json").read_text())["runs"][-1]["jobs"]
