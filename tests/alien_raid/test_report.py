"""`sim run` of an alien-raid experiment writes the card-pricing report; the report is built
from the stored games without importing the engine, the strategies or numba."""

import subprocess
import sys
from pathlib import Path

import pytest

from sim.runner.commands import run_command

ROOT = Path(__file__).resolve().parents[2]
EXPERIMENT = """\
name: tiny_cards
game: alien-raid
players: 4
seats: {name: value, probe_buy: 1, probe_reward: 1, probe_credit: 1}
games: 120
seed: 3
sweep:
  seats.all: [naive, value]
report: [alien_raid_cards, alien_raid_credit_tasks, alien_raid_raid_catch, alien_raid_fairness]
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("alien_raid_report")
    path = folder / "tiny_cards.yaml"
    path.write_text(EXPERIMENT)
    results, reports = folder / "results", folder / "reports"
    run_command(file=str(path), overrides=[], games=None, jobs=1, chunk_size=60,
                out=str(results), fresh=True, backend="local", address=None, seed=None,
                report=True, report_dir=str(reports), progress=False)  # fmt: skip
    return results, reports


def test_the_report_answers_every_question(run):
    _, reports = run
    text = (reports / "report.md").read_text()
    for title in ("Card prices", "Credit terms and task rewards", "Raid or catch?", "Fairness"):
        assert title in text
    assert "ASSUMED card catalog" in text
    for table in ("alien_raid_card_prices", "alien_raid_credit", "alien_raid_tasks",
                  "alien_raid_raid_catch", "alien_raid_seats", "alien_raid_length"):  # fmt: skip
        assert (reports / "tables" / f"{table}.csv").is_file(), table
    prices = (reports / "tables" / "alien_raid_card_prices.csv").read_text()
    assert "cruiser" in prices and "booster" in prices and "training-saucer" not in prices


def test_the_report_never_imports_the_engine(run, tmp_path):
    results, _ = run
    code = (
        "import sys\n"
        "from sim.report import build_report\n"
        f"build_report(results_dir={str(results)!r}, report_dir={str(tmp_path / 'r')!r})\n"
        "bad = [m for m in sys.modules if m.startswith(('numba', 'strategies', 'sim.runner'))"
        " or m in ('sim.games.alien_raid.kernel', 'sim.games.alien_raid.plugin')]\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
