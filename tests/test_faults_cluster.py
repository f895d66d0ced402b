"""A Dask cluster lost mid-run (issue 42): a scheduler that goes away, or a cluster left
without workers, stops the run with one ClusterLost (`error:` line, exit 74 on the command
line) naming the cluster and what is kept; the chunks stored are kept, and the same run
resumes locally or on a new cluster to the games an uninterrupted run gives. A worker lost
while another remains is no fault. The clusters run in this process (threads), on the coin
race."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from sim.experiment import parse_experiment
from sim.faults import FAULT_EXIT, ClusterLost
from sim.results import load
from sim.runner import backends, run
from sim.storage import complete_chunks

pytestmark = pytest.mark.without_engines  # the coin race: no compiled engine

ROOT = Path(__file__).resolve().parents[1]
COIN = {"name": "coin", "game": "coin-race", "ruleset": "race", "players": 2,
        "seats": ["steady", "bold"], "rotate": True, "games": 60, "seed": 3,
        "sweep": {"race.length": [3, 5]}}  # fmt: skip


@pytest.fixture(scope="module")
def coin_race():
    import sim.plugins as games

    sys.path.insert(0, str(ROOT / "examples" / "coin_race"))
    from coin_race.plugin import GAME

    games.register(GAME)
    yield GAME
    games._GAMES.pop(GAME.name, None)
    sys.path.remove(str(ROOT / "examples" / "coin_race"))


@pytest.fixture(scope="module")
def reference(coin_race, tmp_path_factory) -> pl.DataFrame:
    out = tmp_path_factory.mktemp("reference")
    run(parse_experiment(COIN), out=out, jobs=1, chunk_size=10, progress=False)
    return _games(out)


def _games(out: Path) -> pl.DataFrame:
    return load(out).collect().sort(["arm", "game"])


def _cluster(workers: int = 1):
    from distributed import LocalCluster

    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                        dashboard_address=":0")  # fmt: skip


def _lost(out: Path, cluster, when) -> ClusterLost:  # noqa: ANN001
    """Run on `cluster`, calling `when(cluster)` once two chunks are stored."""
    stored = []

    def after(result) -> None:  # noqa: ANN001
        stored.append(result)
        if len(stored) == 2:
            when(cluster)

    with pytest.raises(ClusterLost) as caught:
        run(parse_experiment(COIN), out=out, chunk_size=10, backend="dask", progress=False,
            address=cluster.scheduler_address, on_chunk=after)  # fmt: skip
    return caught.value


RESTART = "Start a cluster again (or leave out --backend dask to play here)"


def _kept_and_recorded(fault: ClusterLost, out: Path, why: str, remedy: str = RESTART) -> None:
    """The fault says what is kept (what the folder holds) and the manifest why it stopped."""
    stored = sum(b - a for chunks in complete_chunks(out).values() for a, b in chunks)
    assert stored >= 20 and f"kept: {stored} of 120 games stored" in str(fault)
    assert fault.exit_code == FAULT_EXIT and why in str(fault)
    assert f"{remedy}, then run the same command again to resume." in str(fault)
    last = json.loads((out / "manifest.json").read_text())["runs"][-1]
    assert last["status"] == "failed" and "lost the Dask cluster" in last["error"]


def test_a_scheduler_that_goes_away_stops_the_run_and_it_resumes_here(reference, tmp_path):
    cluster = _cluster()
    try:
        fault = _lost(tmp_path, cluster, lambda c: c.close())
    finally:
        cluster.close()
    _kept_and_recorded(fault, tmp_path, "the scheduler went away")
    notes = run(parse_experiment(COIN), out=tmp_path, jobs=1, chunk_size=10, progress=False).notes
    assert any("stopped: lost the Dask cluster" in note for note in notes)
    assert_frame_equal(_games(tmp_path), reference)


def test_a_cluster_left_without_workers_stops_the_run_and_it_resumes_on_another(
    reference, tmp_path, monkeypatch
):
    monkeypatch.setattr(backends, "NO_WORKERS_SECONDS", 1.0)
    monkeypatch.setattr(backends, "POLL_SECONDS", 0.2)
    cluster = _cluster()
    try:
        fault = _lost(tmp_path, cluster, lambda c: c.scale(0))
    finally:
        cluster.close()
    _kept_and_recorded(fault, tmp_path, "it has had no workers for 1 s")
    with _cluster() as another:
        run(parse_experiment(COIN), out=tmp_path, chunk_size=10, backend="dask",
            address=another.scheduler_address, progress=False)  # fmt: skip
    assert_frame_equal(_games(tmp_path), reference)


def test_a_chunk_whose_workers_all_died_stops_the_run_and_it_resumes_here(
    reference, tmp_path, monkeypatch
):
    """Dask's KilledWorker (every worker that ran the chunk died: out of memory, killed) is
    the same one line. Dask decides when it gives up on a chunk; here the third chunk (games
    20-30 of the first arm, after two stored) raises it as Dask does."""
    from types import SimpleNamespace

    from distributed import KilledWorker

    simulate = backends.simulate_task

    def dies(task):  # noqa: ANN001, ANN202
        if (task.arm_index, task.start) == (0, 20):
            last = SimpleNamespace(address="tcp://127.0.0.1:40001")
            raise KilledWorker("simulate_task-7", last, 3)
        return simulate(task)

    monkeypatch.setattr(backends, "simulate_task", dies)
    cluster = _cluster()
    try:
        fault = _lost(tmp_path, cluster, lambda c: None)
    finally:
        cluster.close()
    died = ("every worker that played a chunk died (Attempted to run task 'simulate_task-7' "
            "on 4 different workers, but all those workers died while running it)")  # fmt: skip
    remedy = "Give the workers more memory, or play smaller chunks (--chunk-size)"
    _kept_and_recorded(fault, tmp_path, died, remedy)
    monkeypatch.setattr(backends, "simulate_task", simulate)
    run(parse_experiment(COIN), out=tmp_path, jobs=1, chunk_size=10, progress=False)
    assert_frame_equal(_games(tmp_path), reference)


def test_a_worker_lost_while_others_remain_is_no_fault(reference, tmp_path):
    """One of two workers closed mid-run: Dask plays its chunks on the other, and the run
    finishes with the games of an uninterrupted one."""
    with _cluster(workers=2) as cluster:
        stored = []

        def after(result) -> None:  # noqa: ANN001
            stored.append(result)
            if len(stored) == 2:
                cluster.sync(next(iter(cluster.workers.values())).close)

        run(parse_experiment(COIN), out=tmp_path, chunk_size=10, backend="dask",
            address=cluster.scheduler_address, progress=False, on_chunk=after)  # fmt: skip
        assert len(cluster.scheduler.workers) == 1
    assert_frame_equal(_games(tmp_path), reference)
