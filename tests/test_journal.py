"""The manifest's journal (sim.storage.journal): a run killed at any moment resumes with no
game lost and none counted twice, a line cut short is skipped, and a finished run leaves the
manifest it always left (every chunk with its records), with no journal beside it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.storage import complete_chunks, part_path, read_manifest
from sim.storage.journal import JOURNAL, MAX_ERROR_EXAMPLES, add_illegal, fold
from sim.storage.verify import record
from tests.coin_race import registered

pytestmark = pytest.mark.without_engines  # the coin race: no compiled engine

ROOT = Path(__file__).resolve().parents[1]
COIN = {"name": "coin", "game": "coin-race", "ruleset": "race", "players": 2,
        "seats": ["steady", "bold"], "rotate": True, "games": 60, "seed": 3,
        "sweep": {"race.length": [3, 5]}}  # fmt: skip
CHUNKS = 12  # 2 arms x 60 games in chunks of 10
KILLED_AFTER = 5

# A run in its own process that kills itself (kill -9: no `finally`, no manifest written at
# its end) once `KILLED_AFTER` chunks are stored.
KILL = """
import os, signal, sys
sys.path.insert(0, {root!r})
from tests.coin_race import registered
from sim.experiment import parse_experiment
from sim.runner import run
done = []
def after(result):
    done.append(result)
    if len(done) == {after}:
        os.kill(os.getpid(), signal.SIGKILL)
with registered():
    run(parse_experiment({coin!r}), out={out!r}, jobs=1, chunk_size=10, progress=False,
        on_chunk=after)
"""


@pytest.fixture(scope="module")
def coin_race():
    with registered() as game:
        yield game


def _run(out: Path, **options) -> object:
    from sim.experiment import parse_experiment
    from sim.runner import run

    return run(parse_experiment(COIN), out=out, jobs=1, chunk_size=10, progress=False,
               **options)  # fmt: skip


@pytest.fixture(scope="module")
def reference(coin_race, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("journal") / "ref"
    _run(out)
    return out


def _killed(out: Path) -> None:
    script = KILL.format(root=str(ROOT), after=KILLED_AFTER, coin=COIN, out=str(out))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == -9, done.stderr


def _parts(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.parquet"))}


def _without_times(manifest: dict) -> dict:
    """The manifest without what differs between two plays of one run: the times and the
    seconds, the run's history and the folder it names."""
    kept = {k: v for k, v in manifest.items() if k not in ("created", "runs", "git_commit")}
    kept["chunks"] = [{k: v for k, v in c.items() if k != "seconds"} for c in kept["chunks"]]
    return kept


def test_a_finished_run_leaves_its_whole_manifest_and_no_journal(reference):
    manifest = read_manifest(reference)
    assert not (reference / JOURNAL).exists()
    assert len(manifest["chunks"]) == CHUNKS and manifest["status"] == "complete"
    for chunk in manifest["chunks"]:
        for table in ("games", "seats"):
            path = part_path(reference, table, chunk["arm"], chunk["start"], chunk["stop"])
            assert chunk[table] == record(path.read_bytes())


def test_a_run_killed_mid_way_is_read_from_its_journal_and_resumes_to_the_same_games(
    coin_race, reference, tmp_path
):
    out = tmp_path / "r"
    _killed(out)
    on_disk = json.loads((out / "manifest.json").read_text())
    assert on_disk["status"] == "running" and on_disk["chunks"] == []  # written at the start
    lines = (out / JOURNAL).read_text().splitlines()
    assert len(lines) == KILLED_AFTER
    read = read_manifest(out)  # the journal folded in: every stored chunk with its records
    stored = sorted((a, s, e) for a, chunks in complete_chunks(out).items() for s, e in chunks)
    assert [(c["arm"], c["start"], c["stop"]) for c in read["chunks"]] == stored
    assert all(c["games"]["sha256"] for c in read["chunks"])
    summary = _run(out)
    assert summary.resumed and summary.games_played == (CHUNKS - KILLED_AFTER) * 10
    assert _parts(out) == _parts(reference)
    assert not (out / JOURNAL).exists()
    assert _without_times(read_manifest(out)) == _without_times(read_manifest(reference))
    assert [r["status"] for r in read_manifest(out)["runs"]] == ["killed", "complete"]


def test_a_line_cut_short_is_skipped_and_its_chunk_checked_from_its_parts(
    coin_race, reference, tmp_path
):
    out = tmp_path / "r"
    _killed(out)
    journal = out / JOURNAL
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])  # cut mid-line
    read = read_manifest(out)
    assert len(read["chunks"]) == KILLED_AFTER - 1  # the cut line's chunk has no record yet
    summary = _run(out)  # its parts pass the footer check: kept, not played again
    assert summary.games_played == (CHUNKS - KILLED_AFTER) * 10
    assert _parts(out) == _parts(reference)
    assert _without_times(read_manifest(out)) == _without_times(read_manifest(reference))


def test_a_journal_the_manifest_already_holds_adds_nothing(tmp_path):
    """A run whose last manifest was written but whose journal could not be removed: folding
    it again counts no chunk and no illegal move twice (nor a line written twice)."""
    entry = {"arm": 0, "start": 0, "stop": 10, "seconds": 0.5, "illegal": 2,
             "examples": ["arm 'a', game 3: x in seat 0"],
             "games": {"rows": 10, "bytes": 1, "sha256": "ab"}}  # fmt: skip
    (tmp_path / JOURNAL).write_text(json.dumps(entry) + "\n" + json.dumps(entry) + "\n")
    once = fold(tmp_path, {"chunks": [], "illegal_moves": {"count": 0, "examples": []}})
    assert once["illegal_moves"] == {"count": 2, "examples": entry["examples"]}
    assert once["chunks"] == [{"arm": 0, "start": 0, "stop": 10, "seconds": 0.5,
                               "games": entry["games"]}]  # fmt: skip
    assert fold(tmp_path, json.loads(json.dumps(once))) == once


def test_illegal_examples_are_quoted_while_there_is_room():
    illegal = {"count": 0, "examples": [f"e{i}" for i in range(MAX_ERROR_EXAMPLES - 1)]}
    assert add_illegal(illegal, 3, ["x", "y", "z"]) == ["x"]
    assert illegal["count"] == 3 and len(illegal["examples"]) == MAX_ERROR_EXAMPLES
    assert add_illegal(illegal, 1, ["w"]) == [] and illegal["count"] == 4
