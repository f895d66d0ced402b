"""The faults of single commands the shared fault suite (tests/test_faults.py) does not
play through its scenarios: the playtest fit and its template, the bench's figures and `sim
sensitivity`'s summary, each refused by the disk in turn: one `error:` line naming what was
being written, what is kept and the fix, exit code 74, and the same command, the fault mended,
writing what an uninterrupted command writes."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
import yaml

from sim.faults import FAULT_EXIT
from tests.cli_checks import invoke
from tests.coin_race import TUNE, registered
from tests.fault_injection import Injector, injected

pytestmark = pytest.mark.without_engines  # the coin race and the command lines: no engine


@pytest.fixture(scope="module")
def coin_race():
    """The toy game registered in this process (the tests play it in-process)."""
    with registered() as game:
        yield game


def _one_fault_line(done) -> str:
    assert done.exit_code == FAULT_EXIT and "Traceback" not in done.output, done.output
    (line,) = [x for x in done.output.splitlines() if x.startswith("error:")]
    return line


def test_a_playtest_fit_the_disk_refuses_its_answers(coin_race, tmp_path):
    """fit.yaml refused after the lab's games are played: one line naming it, exit 74; the
    same command, space freed, writes the answers an uninterrupted fit writes."""
    from sim.playtest.synthetic import lab_records

    records = tmp_path / "records.csv"
    records.write_text(lab_records("coin-race", skills="steady", games=20, players=2, seed=5))
    base = tmp_path / "fault"
    base.mkdir()

    def fit(root: Path):
        return invoke("playtest", "fit", str(records), "--game", "coin-race", "--out",
                      str(root / "p"), "-j", "1", "--games", "100", "--no-report",
                      "--no-players")  # fmt: skip

    with injected(Injector(str(tmp_path / "ref"))) as seen:
        assert fit(tmp_path / "ref").exit_code == 0
    at = next(i for i, op in enumerate(seen.ops) if op.path.endswith("fit.yaml.partial"))
    with injected(Injector(str(base), fail_at=at, code=errno.ENOSPC)) as injector:
        line = _one_fault_line(fit(base))
    assert injector.failed is not None and injector.failed.path.endswith("fit.yaml.partial")
    assert line == (f"error: cannot write the playtest fit's answers ({base / 'p'}): no space "
                    "left on the device. Free space on that disk, then run the same command "
                    "again.")  # fmt: skip
    again = fit(base)
    assert again.exit_code == 0, again.output
    answers = yaml.safe_load((base / "p" / "fit.yaml").read_text())
    assert answers == yaml.safe_load((tmp_path / "ref" / "p" / "fit.yaml").read_text())


def test_a_playtest_template_the_disk_refuses(tmp_path):
    for folder in ("ref", "fault"):
        (tmp_path / folder).mkdir()
    with injected(Injector(str(tmp_path / "ref"))) as seen:
        invoke("playtest", "template", "--game", "guardians", "--out",
               str(tmp_path / "ref" / "template.csv"))  # fmt: skip
    at = next(i for i, op in enumerate(seen.ops) if "template.csv" in op.path)
    out = tmp_path / "fault" / "template.csv"
    command = ("playtest", "template", "--game", "guardians", "--out", str(out))
    with injected(Injector(str(tmp_path / "fault"), fail_at=at, code=errno.EROFS)):
        line = _one_fault_line(invoke(*command))
    assert line.startswith(f"error: cannot write the playtest template ({out}): the file system "
                           "is read-only. Make its file system writable again")  # fmt: skip
    assert list(out.parent.iterdir()) == []  # no template, no temporary file
    assert invoke(*command).exit_code == 0 and out.read_text().startswith("game,seat,player")


def test_the_bench_figures_a_full_disk_refuses(coin_race, monkeypatch, tmp_path):
    """The bench's one write, its figures, after minutes of measuring (a small result stands in
    for the measuring here): one line, the figures printed above kept, exit 74; the same
    command writes them once space is freed."""
    import sim.bench

    figures = {"game": "coin-race", "games_per_second": 1234}
    result = type("Result", (), {"as_dict": lambda self: figures})()
    monkeypatch.setattr(sim.bench, "run_bench", lambda game, **kwargs: result)
    monkeypatch.setattr(sim.bench, "table", lambda result: "the bench's table")
    out = tmp_path / "bench" / "results-coin-race.json"
    command = ("bench", "--game", "coin-race", "--out", str(out))
    with injected(Injector(str(tmp_path), fail_at=1, code=errno.ENOSPC)) as injector:
        done = invoke(*command)
    assert (injector.failed.kind, injector.failed.path) == ("open", str(out))
    assert done.exit_code == FAULT_EXIT and "Traceback" not in done.output, done.output
    assert "the bench's table" in done.output
    (line,) = [x for x in done.output.splitlines() if x.startswith("error:")]
    assert line == (f"error: cannot write the bench's figures ({out}): no space left on the "
                    "device; kept: the figures, printed above. Free space on that disk, then "
                    "run the same command again.")  # fmt: skip
    again = invoke(*command)
    assert again.exit_code == 0 and json.loads(out.read_text()) == figures


def test_the_sensitivity_summary_faults(coin_race, monkeypatch, tmp_path):
    """`sim sensitivity`'s summary, written after its points are played (a small analysis
    stands in for the playing here): a full disk gives one line naming it, what is kept, exit
    74, and the same command writes it once space is freed; --fresh refused its deletion says
    so in one line."""
    import sim.commands.sensitivity as command

    found = {"name": "tuned", "games": 60, "targets": [], "outputs": []}
    monkeypatch.setattr(command, "analyse", lambda *args, **kwargs: found)
    (tmp_path / "tune.yaml").write_text(yaml.safe_dump(TUNE))
    out = tmp_path / "v"
    args = ("sensitivity", str(tmp_path / "tune.yaml"), "--out", str(out), "-j", "1",
            "--no-report")  # fmt: skip
    with injected(Injector(str(tmp_path), fail_at=1, code=errno.ENOSPC)) as injector:
        done = invoke(*args)
    assert injector.failed is not None and injector.failed.path.startswith(str(out))
    assert done.exit_code == FAULT_EXIT and "Traceback" not in done.output, done.output
    (line,) = [x for x in done.output.splitlines() if x.startswith("error:")]
    assert line.startswith("error: cannot write the sensitivity summary (")
    assert "no space left on the device; kept: the games of 0 points" in line
    assert line.endswith("Free space on that disk, then run the same command again to resume.")
    again = invoke(*args)
    assert again.exit_code == 0 and json.loads((out / "sensitivity.json").read_text()) == found
    with injected(Injector(str(tmp_path), fail_at=0, code=errno.EACCES)) as injector:
        done = invoke(*args, "--fresh")
    assert (injector.failed.kind, injector.failed.path) == ("unlink", str(out / "sensitivity.json"))
    assert done.exit_code == FAULT_EXIT and "Traceback" not in done.output, done.output
    (line,) = [x for x in done.output.splitlines() if x.startswith("error:")]
    assert line.startswith("error: cannot delete the stored sensitivity analysis (--fresh) (")
