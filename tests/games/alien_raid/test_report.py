"""`sim run` of an alien-raid experiment writes the card-pricing report; the report is built
from the stored games without importing the engine, the strategies or numba."""

import re

import pytest

from sim.commands.run import run_command
from sim.runner.options import RunOptions
from tests.modules import loaded_after

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
    options = RunOptions(jobs=1, chunk_size=60, out=str(results), fresh=True, progress=False)
    run_command(file=str(path), overrides=[], games=None, seed=None, report=True,
                report_dir=str(reports), options=options)  # fmt: skip
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


def test_every_question_is_answered_in_one_sentence_over_the_levels(run):
    """One answer per question (cards, seats, raid or catch, credit, tasks), each naming every
    level; every number an estimate with its interval, a count or a setting's name."""
    from tests.answer_checks import answer_htmls, numbers_without_interval
    from tests.report_fixtures import answer_rows

    _, reports = run
    found = dict(answer_htmls(reports))
    body = found["alien_raid_cards.off"]
    assert re.search(r"Reprice \d+ of \d+ cards|Every card is priced right|Not settled whether "
                     r"any card is priced away", body), body  # fmt: skip
    rows = answer_rows(reports)
    # each card to reprice at the level it is off at; each seat's figure at every level
    assert all(re.search(r" at (naive|value)", r[0]) for r in rows["alien_raid_cards.off"]), rows
    seats = [r[0] for r in rows["alien_raid_fairness.seats"]]
    for level in ("naive", "value"):
        assert any(level in s and "seat " in s for s in seats), seats
    for key in ("alien_raid_raid_catch.better", "alien_raid_credit_tasks.credit",
                "alien_raid_credit_tasks.tasks"):  # fmt: skip
        assert key in found, key
    for key, answer in found.items():
        assert not numbers_without_interval(answer), (key, answer)


def test_the_report_never_imports_the_engine(run, tmp_path):
    """The report reads the game's plug-in object and its report sections, never its engine,
    its strategies, numba or another game."""
    results, _ = run
    loaded = loaded_after(
        "from sim.report import build_report\n"
        f"build_report(results_dir={str(results)!r}, report_dir={str(tmp_path / 'r')!r})\n"
    )
    heavy = ("numba", "sim.jit", "sim.compiling", "strategies", "sim.runner",
             "sim.random_streams", "sim.games.guardians", "sim.games.space_invaders")  # fmt: skip
    engine = ("kernel", "flow", "decide", "decision", "chunks", "state", "watch", "scenario",
              "params", "observe")  # fmt: skip
    own = [m.rsplit(".", 1)[1] for m in loaded if m.startswith("sim.games.alien_raid.")]
    assert [m for m in loaded if m.startswith(heavy)] == []
    assert [m for m in own if m in engine] == []


def test_the_fairness_section_lists_deals_a_seat_never_won_with_their_seeds(run):
    """The two levels play the same deals (the same players and rules, game i one seed): the
    deals table's first deals a seat never won are games whose seat won in neither arm, and
    the picture of per-deal wins opens the section's blocks."""
    import polars as pl

    from sim.report.data import load_results

    results, reports = run
    table = pl.read_csv(reports / "tables" / "alien_raid_deals.csv")
    stored = load_results(results)
    seats = stored.seats.select("arm", "game", "seat", "win_share")
    checked = 0
    for row in table.iter_rows(named=True):
        for game, seed in re.findall(r"game (\d+) \(seed (\d+)\)", row["seeds"]):
            mine = seats.filter((pl.col("game") == int(game)) & (pl.col("seat") == row["seat"] - 1))
            assert mine.height == 2 and mine["win_share"].sum() == 0, (row, game)
            seeds = stored.games.filter(pl.col("game") == int(game))["seed"].unique().to_list()
            assert seeds == [int(seed)]
            checked += 1
    assert checked > 0
    body = (reports / "report.md").read_text().split("Fairness", 1)[1]
    assert body.index("Deals that decide: each seat's wins") < body.index("Win share by seat")
