"""On a real small disk (issue 42): a size-limited tmpfs, mounted where the machine allows it
(root with the right to mount; skipped elsewhere, where tests/test_faults.py injects the same
errors at every write site). A run, a report and a tune that fill the disk stop with one
`error:` line and exit 74, no traceback; once space is freed the same command gives what an
uninterrupted one gives, byte for byte. The coin race, in this process."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from sim.faults import FAULT_EXIT
from sim.storage import complete_chunks
from tests.test_faults import TUNE, _parts, _report, _tuned, coin_race, invoke  # noqa: F401 (a fixture)

# the coin race (registered by test_faults' fixture): no compiled engine
pytestmark = [pytest.mark.without_engines, pytest.mark.usefixtures("coin_race")]

COIN = {"name": "coin", "game": "coin-race", "ruleset": "race", "players": 2,
        "seats": ["steady", "bold"], "rotate": True, "games": 2000, "seed": 3,
        "sweep": {"race.length": [3, 5]}}  # fmt: skip
GAMES = 4000  # 2 arms x 2,000, in chunks of 200: parts of about 5 kB each
PAGE = 4096


@pytest.fixture
def disk(tmp_path):
    """A tmpfs of 96 kB at tmp_path/disk, unmounted afterwards."""
    point = tmp_path / "disk"
    point.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=96k", "tmpfs", str(point)],
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode:
        pytest.skip(f"this machine mounts no tmpfs here: {done.stderr.strip()}")
    try:
        yield point
    finally:
        if subprocess.run(["umount", str(point)], check=False).returncode:
            subprocess.run(["umount", "-l", str(point)], check=False)


def _grow(point: Path) -> None:
    """Space freed: the disk made larger."""
    subprocess.run(["mount", "-o", "remount,size=8m", str(point)], check=True)


def _fill(point: Path, leave: int) -> Path:
    """A file taking all the disk's space but `leave` bytes (whole pages)."""
    stat = os.statvfs(point)
    filler = point / "filler"
    with open(filler, "wb") as f:
        os.posix_fallocate(f.fileno(), 0, stat.f_bavail * stat.f_frsize - leave)
    return filler


def _inputs(base: Path) -> None:
    (base / "coin.yaml").write_text(yaml.safe_dump(COIN))
    (base / "tune.yaml").write_text(yaml.safe_dump(TUNE))


def _run(base: Path, out: Path) -> list[str]:
    return ["run", str(base / "coin.yaml"), "--out", str(out), "-j", "1", "--chunk-size", "200",
            "--no-report"]  # fmt: skip


def _one_line(done, what: str = "") -> str:  # noqa: ANN001
    """The command stopped with exit 74 and one `error:` line saying it could not write
    (`what`, when given) for want of space, no traceback."""
    assert done.exit_code == FAULT_EXIT, done.output
    assert "Traceback" not in done.output
    (line,) = [x for x in done.output.splitlines() if x.startswith("error:")]
    assert f"error: cannot write {what}" in line and ": no space left on the device" in line
    assert "Free space on that disk, then run the same command again" in line, line
    return line


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def test_a_run_that_fills_the_disk_resumes_to_an_uninterrupted_run(disk, tmp_path):
    _inputs(tmp_path)
    assert invoke(*_run(tmp_path, tmp_path / "ref")).exit_code == 0
    assert _size(tmp_path / "ref") > 96 * 1024  # the run does not fit
    line = _one_line(invoke(*_run(tmp_path, disk / "r")))  # a part or the manifest
    stored = sum(b - a for chunks in complete_chunks(disk / "r").values() for a, b in chunks)
    assert 0 < stored < GAMES and f"kept: {stored:,} of {GAMES:,} games stored" in line
    _grow(disk)
    again = invoke(*_run(tmp_path, disk / "r"))
    assert again.exit_code == 0, again.output
    assert "stopped: cannot write " in again.output
    assert "killed" not in again.output
    assert _parts(disk / "r") == _parts(tmp_path / "ref")


def test_a_report_into_a_full_disk_is_built_by_the_same_command(disk, tmp_path):
    _inputs(tmp_path)
    ref = tmp_path / "ref"
    assert invoke(*_run(tmp_path, ref)).exit_code == 0
    mirror = tmp_path / "mirror"  # the reference report, built on the roomy disk
    assert invoke("report", str(ref), "--out", str(mirror / "rep")).exit_code == 0
    filler = _fill(disk, leave=PAGE)
    command = ("report", str(ref), "--out", str(disk / "rep"))
    _one_line(invoke(*command), "the report (")
    filler.unlink()
    assert invoke(*command).exit_code == 0
    assert _report(disk / "rep", disk) == _report(mirror / "rep", mirror)


def test_a_tune_into_a_full_disk_resumes_to_the_same_study(disk, tmp_path):
    _inputs(tmp_path)
    ref = tmp_path / "t"
    tune = ("tune", str(tmp_path / "tune.yaml"), "-j", "1", "--no-report", "--out")
    assert invoke(*tune, str(ref)).exit_code == 0
    filler = _fill(disk, leave=_size(ref) // 2 // PAGE * PAGE)
    _one_line(invoke(*tune, str(disk / "t")))
    filler.unlink()
    _grow(disk)  # the whole tune does not fit in 96 kB
    again = invoke(*tune, str(disk / "t"))
    assert again.exit_code == 0, again.output
    assert _tuned(disk / "t") == _tuned(ref)
