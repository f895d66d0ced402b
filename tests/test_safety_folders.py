"""Nothing lost, nothing mixed (issue 13): results folders and report folders.

--fresh deletes only what `sim run` wrote; one run at a time per folder (a lock naming its
holder, taken over from a killed process); every part's rows and checksum are kept and checked
(a damaged part is named and exactly its games are played again); incomplete folders say so
with the counts; SIGTERM stops a run like Ctrl-C; report folders keep files they do not own;
bad output paths, bad manifests and absurd game counts are one error line.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from sim.errors import SimError
from sim.experiment import load_experiment
from sim.results import load
from sim.runner import run
from tests.cli_checks import invoke, one_error_line

ROOT = Path(__file__).resolve().parents[1]
EXP = """
name: safe
players: 2
seats: [greedy, random]
rotate: true
games: 900
seed: 5
sweep:
  mine.step: [1, 2]
"""


@pytest.fixture(scope="module")
def exp_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("exp") / "safe.yaml"
    path.write_text(EXP)
    return path


@pytest.fixture(scope="module")
def reference(exp_file, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ref") / "r"
    run(load_experiment(exp_file), out=out, jobs=1, chunk_size=300, progress=False)
    return out


def frames(out: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    return (
        load(out).collect().sort(["arm", "game"]),
        load(out, "seats").collect().sort(["arm", "game", "seat"]),
    )


def _child(code: str) -> subprocess.Popen:
    """A Python process of this venv that prints 'ready' once `code` ran."""
    return subprocess.Popen(
        [sys.executable, "-c", code + "\nprint('ready', flush=True)\nimport time; time.sleep(120)"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


# --- --fresh deletes only the lab's files ----------------------------------------------------


def test_fresh_refuses_a_folder_the_lab_did_not_write(exp_file, tmp_path):
    """`--out sim --fresh` on a checkout deleted sim/games/ (the engine's source)."""
    checkout = tmp_path / "sim"
    (checkout / "games" / "guardians").mkdir(parents=True)
    engine = checkout / "games" / "guardians" / "engine.py"
    engine.write_text("# the engine\n")
    line = one_error_line(invoke("run", str(exp_file), "--out", str(checkout), "--fresh"))
    assert str(checkout) in line and "no manifest.json" in line and "--out" in line
    assert engine.read_text() == "# the engine\n"
    with pytest.raises(SimError, match="not a results folder written by `sim run`"):
        run(load_experiment(exp_file), out=checkout, fresh=True, jobs=1, progress=False)
    assert engine.is_file()


def test_fresh_deletes_the_runs_files_and_nothing_else(exp_file, tmp_path):
    out = tmp_path / "r"
    run(load_experiment(exp_file, games=300), out=out, jobs=1, progress=False)
    mine = [out / "games" / "notes.txt", out / "games" / "arm-000" / "keep.csv", out / "x.md"]
    for path in mine:
        path.write_text("mine")
    changed = load_experiment(exp_file, ["seed=6"], games=300)
    run(changed, out=out, jobs=1, progress=False, fresh=True)
    assert all(path.read_text() == "mine" for path in mine)
    assert load(out).collect()["seed"].n_unique() == 300  # the new run's games only
    assert json.loads((out / "manifest.json").read_text())["effective"]["seed"] == 6


# --- one run at a time -----------------------------------------------------------------------


def test_a_second_run_is_refused_while_a_process_holds_the_folder(exp_file, tmp_path):
    """Two runs on one folder stored every game twice (different chunk sizes)."""
    out = tmp_path / "busy"
    out.mkdir()
    holder = _child(f"from sim.storage.lock import acquire\nlock = acquire({str(out)!r})")
    try:
        assert holder.stdout.readline().strip() == "ready"
        line = one_error_line(invoke("run", str(exp_file), "--out", str(out), "--jobs", "1"))
        assert f"process {holder.pid}" in line and "in use" in line and "--out" in line
        assert not (out / "games").exists()
    finally:
        holder.kill()
        holder.wait()


def test_a_lock_left_by_a_killed_run_is_taken_over(exp_file, tmp_path):
    out = tmp_path / "stale"
    out.mkdir()
    holder = _child(f"from sim.storage.lock import acquire\nlock = acquire({str(out)!r})")
    assert holder.stdout.readline().strip() == "ready"
    os.kill(holder.pid, signal.SIGKILL)  # kill -9: the lock file stays behind
    holder.wait()
    assert (out / ".lock").is_file()
    summary = run(load_experiment(exp_file, games=300), out=out, jobs=1, progress=False)
    assert summary.games_stored == 600
    assert any(f"process {holder.pid}" in n and "taken over" in n for n in summary.notes)
    assert not (out / ".lock").exists()  # released at the end of the run


def test_games_of_another_version_of_the_game_are_not_mixed(exp_file, tmp_path, monkeypatch):
    """Stored games played by an older version of the rules or strategies (the plug-in's
    `version`) are not resumed into: the run names the change and keeps them."""
    from sim.plugins import get_game

    out = tmp_path / "versions"
    run(load_experiment(exp_file, games=300), out=out, jobs=1, progress=False)
    stored = sorted(p.name for p in (out / "games").rglob("*.parquet"))
    game = get_game("guardians")
    monkeypatch.setattr(type(game), "version", game.version + 1)
    with pytest.raises(SimError, match=f"the game's version {game.version - 1} -> "
                                       f"{game.version}"):  # fmt: skip
        run(load_experiment(exp_file, games=300), out=out, jobs=1, progress=False)
    assert sorted(p.name for p in (out / "games").rglob("*.parquet")) == stored


def test_games_stored_before_versions_were_recorded_are_not_resumed(exp_file, tmp_path):
    out = tmp_path / "unversioned"
    run(load_experiment(exp_file, games=300), out=out, jobs=1, progress=False)
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["effective"]["game_version"]
    manifest["fingerprint"] = "0" * 16  # as an older lab computed it, without the version
    (out / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(SimError, match="written before the game's version was recorded"):
        run(load_experiment(exp_file, games=300), out=out, jobs=1, progress=False)


# --- every part checked against its record -----------------------------------------------------


def test_parts_are_recorded_and_a_damaged_part_is_played_again(exp_file, reference, tmp_path):
    out = tmp_path / "damaged"
    run(load_experiment(exp_file), out=out, jobs=1, chunk_size=300, progress=False)
    manifest = json.loads((out / "manifest.json").read_text())
    for chunk in manifest["chunks"]:
        assert chunk["games"]["rows"] == chunk["stop"] - chunk["start"]
        assert chunk["seats"]["rows"] == 2 * (chunk["stop"] - chunk["start"])
        assert len(chunk["games"]["sha256"]) == 64
    part = out / "games" / "arm-001" / "part-0000000300-0000000600.parquet"
    part.write_bytes(part.read_bytes()[:-100])  # truncated, as by a full disk
    line = one_error_line(invoke("report", str(out), "--out", str(tmp_path / "rep")))
    assert "damaged part games/arm-001/part-0000000300-0000000600.parquet" in line
    assert "sim run" in line
    with pytest.raises(SimError, match="damaged part games/arm-001/part-0000000300"):
        load(out)  # reading the games directly names the part too
    summary = run(load_experiment(exp_file), out=out, jobs=1, chunk_size=500, progress=False)
    assert summary.games_played == 300  # exactly the damaged chunk's games
    assert any("damaged part games/arm-001/part-0000000300-0000000600.parquet" in n
               and "games 300-599" in n for n in summary.notes)  # fmt: skip
    ref_games, ref_seats = frames(reference)
    games, seats = frames(out)
    assert_frame_equal(games, ref_games)
    assert_frame_equal(seats, ref_seats)


# --- incomplete folders say so ---------------------------------------------------------------


def test_a_missing_middle_part_is_reported_with_the_counts(reference, tmp_path):
    import shutil

    out = shutil.copytree(reference, tmp_path / "gap")
    for table in ("games", "seats"):
        (out / table / "arm-000" / "part-0000000300-0000000600.parquet").unlink()
    result = invoke("report", str(out), "--out", str(tmp_path / "rep"))
    assert result.exit_code == 0, result.output
    page = (tmp_path / "rep" / "index.html").read_text()
    assert "The run is incomplete" in page
    assert "1,500 of 1,800 games stored" in page and "games 300-599 missing" in page
    assert "warning: the run is incomplete" in result.output


def test_a_killed_run_is_reported_and_closed_on_resume(exp_file, reference, tmp_path):
    """After kill -9 the manifest said `running` forever and reports did not say partial."""
    import shutil

    out = shutil.copytree(reference, tmp_path / "killed")
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["status"] = "running"  # what kill -9 leaves: the run never closed its entry
    manifest["runs"][-1]["status"] = "running"
    (out / "manifest.json").write_text(json.dumps(manifest))
    for table in ("games", "seats"):  # its last chunk was never written
        (out / table / "arm-001" / "part-0000000600-0000000900.parquet").unlink()
    invoke("report", str(out), "--out", str(tmp_path / "rep"))
    page = (tmp_path / "rep" / "index.html").read_text()
    assert "The run is incomplete" in page and "killed" in page
    assert "arm &#x27;mine.step=2&#x27; 600 of 900 (games 600-899 missing)" in page
    summary = run(load_experiment(exp_file), out=out, jobs=1, progress=False)
    assert summary.games_played == 300
    runs = json.loads((out / "manifest.json").read_text())["runs"]
    assert [r["status"] for r in runs] == ["killed", "complete"]


def test_the_header_counts_arms_without_games(reference, tmp_path):
    import shutil

    out = shutil.copytree(reference, tmp_path / "empty_arm")
    for table in ("games", "seats"):
        shutil.rmtree(out / table / "arm-001")
    result = invoke("report", str(out), "--out", str(tmp_path / "rep"))
    assert result.exit_code == 0, result.output
    page = (tmp_path / "rep" / "index.html").read_text()
    assert "0 to 900 games per arm, 2 arms (900 games); no games in &#x27;mine.step=2&#x27;" in page


# --- SIGTERM is Ctrl-C ------------------------------------------------------------------------


def test_sigterm_with_two_workers_stops_like_ctrl_c(tmp_path):
    exp = tmp_path / "long.yaml"
    exp.write_text("name: long\nplayers: 2\nseats: greedy\ngames: 50000000\n")
    out = tmp_path / "long"
    cmd = [str(Path(sys.executable).with_name("sim")), "run", str(exp), "--jobs", "2",
           "--chunk-size", "2000", "--out", str(out), "--no-report"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not list(out.glob("games/arm-000/*.parquet")):
            time.sleep(0.2)
        workers = _children(proc.pid)
        assert workers, "the run has no worker processes"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM
    assert "terminated (SIGTERM): kept" in err and "Run the same command again" in err
    assert "Traceback" not in err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "interrupted" and manifest["runs"][-1]["status"] == "interrupted"
    time.sleep(1)
    alive = [pid for pid in workers if _alive(pid)]
    assert not alive, f"worker processes left running: {alive}"


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(x) for x in found.stdout.split()]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return not (status.is_file() and "State:\tZ" in status.read_text())


# --- report folders ---------------------------------------------------------------------------


def test_a_report_keeps_files_it_did_not_write(reference, tmp_path):
    rep = tmp_path / "rep"
    assert invoke("report", str(reference), "--out", str(rep)).exit_code == 0
    own = [rep / "tables" / "my_notes.csv", rep / "figures" / "mine.png", rep / "README.txt"]
    for path in own:
        path.write_text("mine")
    stale = rep / "tables" / "old_table.csv"  # a table an earlier build wrote and no longer makes
    stale.write_text("old")
    with open(rep / ".report-files", "a") as f:
        f.write("tables/old_table.csv\n")
    assert invoke("report", str(reference), "--out", str(rep)).exit_code == 0
    assert all(path.read_text() == "mine" for path in own)
    assert not stale.exists()
    assert (rep / "index.html").is_file() and list((rep / "tables").glob("overview*.csv"))


def test_a_folder_that_is_not_a_report_is_refused(reference, tmp_path):
    folder = tmp_path / "documents"
    folder.mkdir()
    (folder / "thesis.tex").write_text("mine")
    line = one_error_line(invoke("report", str(reference), "--out", str(folder)))
    # --out is the older name of --report-dir: the line names the option by its name now
    assert str(folder) in line and "not a report" in line and "--report-dir" in line
    assert sorted(p.name for p in folder.iterdir()) == ["thesis.tex"]


def test_the_default_report_folder_is_beside_the_results(exp_file, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "data" / "run1"
    result = invoke("run", str(exp_file), "--games", "100", "--jobs", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert (out / "report" / "index.html").is_file()
    assert not (tmp_path / "reports").exists()
    assert f"report: {out / 'report' / 'index.html'}" in result.output


# --- bad output paths, manifests and sizes ---------------------------------------------------


def test_an_empty_out_is_refused(exp_file, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = one_error_line(invoke("run", str(exp_file), "--out", ""))
    assert "'--out'" in line and "an empty path" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    line = one_error_line(invoke("report", "results/x", "--out", ""))
    assert "an empty path" in line
    assert "no results folder given" in one_error_line(invoke("report", ""))  # not "."
    line = one_error_line(invoke("tournament", "--strategies", "greedy,random", "--games", "12",
                                 "--out", ""))  # fmt: skip
    assert "'--out'" in line and "an empty path" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_an_out_under_a_file_is_refused(exp_file, tmp_path):
    afile = tmp_path / "afile.txt"
    afile.write_text("x")
    line = one_error_line(invoke("run", str(exp_file), "--out", str(afile / "sub")))
    assert f"{afile} is a file, not a folder" in line and "'--out'" in line


@pytest.mark.skipif(os.access("/sys", os.W_OK) and os.geteuid() != 0 or not Path("/sys").is_dir(),
                    reason="needs a folder this user cannot write (/sys on Linux)")  # fmt: skip
def test_an_unwritable_out_is_refused(exp_file, reference, tmp_path):
    line = one_error_line(invoke("run", str(exp_file), "--out", "/sys/lab-results"))
    assert "/sys/lab-results" in line and "permission denied" in line and "'--out'" in line
    line = one_error_line(invoke("report", str(reference), "--out", "/sys/lab-report"))
    assert "/sys/lab-report" in line and "permission denied" in line
    # checked before any game, also as root, whom the permission bits let write anywhere
    out = tmp_path / "kept"
    result = invoke("run", str(exp_file), "--out", str(out), "--report-dir", "/sys/lab-report")
    assert "/sys/lab-report" in one_error_line(result) and not out.exists()
    result = invoke("play", "--seed", "3", "--html", "/sys/game.html")
    assert "permission denied" in one_error_line(result) and "turn 0" not in result.output


@pytest.mark.parametrize("text", ["[]", "{}"])
def test_a_manifest_that_is_not_the_labs_is_one_error(exp_file, tmp_path, text):
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / "manifest.json").write_text(text)
    for args in (
        ["run", str(exp_file), "--out", str(folder), "--no-report"],
        ["run", str(exp_file), "--out", str(folder), "--no-report", "--fresh"],
        ["play", "--from-results", str(folder), "--index", "1"],
    ):
        line = one_error_line(invoke(*args))
        assert "manifest.json" in line and "not a manifest written by `sim run`" in line
    assert (folder / "manifest.json").read_text() == text  # --fresh deleted nothing
    line = one_error_line(invoke("report", str(folder), "--out", str(tmp_path / "rep")))
    assert str(folder) in line


def test_a_huge_game_count_is_refused_and_chunks_are_planned_lazily(tmp_path):
    exp = tmp_path / "huge.yaml"
    exp.write_text("name: huge\nseats: greedy\ngames: 100000000000000000000\n")
    line = one_error_line(invoke("run", str(exp)))
    assert "huge.yaml:3" in line and "'games'" in line and "1000000000" in line
    line = one_error_line(invoke("run", str(exp), "--games", str(10**12)))
    assert "'--games'" in line and "1,000,000,000" in line
    from sim.runner.plan import iter_chunks

    chunks = iter_chunks([], 10**9, 1)  # a list would be a billion tuples
    assert next(chunks) == (0, 1) and next(chunks) == (1, 2)


def test_jobs_zero_is_refused(exp_file, tmp_path):
    line = one_error_line(invoke("run", str(exp_file), "--jobs", "0", "--out", str(tmp_path / "r")))
    assert "'--jobs'" in line and "got 0" in line
    assert not (tmp_path / "r").exists()
