"""The options section (`alien_raid_options`): the captain whose strategy has a parameter
changed against the same seat of the same game where every captain plays it as it comes,
from a tiny `sim run`; its figures are the paired differences of the stored seats."""

import polars as pl
import pytest

from sim.games.alien_raid.report.options import answer
from sim.report.answers import plain_text
from sim.results import load
from sim.stats.tolerances import DEFAULTS
from tests.cli_checks import run_experiment
from tests.report_fixtures import answers as page_answers

EXPERIMENT = """\
name: tiny_options
game: alien-raid
players: 3
rotate: true
games: 30
seed: 5
report: [alien_raid_options]
baseline: value
arms:
  - {name: value, seats: [value, value, value]}
  - {name: repays early, seats: [{name: value, repay_early: 1}, value, value]}
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return run_experiment(tmp_path_factory.mktemp("options_report"), EXPERIMENT)


def test_the_deviating_captain_against_the_same_seat(run):
    table = pl.read_csv(run / "report" / "tables" / "alien_raid_options_table.csv")
    row = table.row(0, named=True)
    assert (row["arm"], row["against"], row["lineup"]) == (
        "repays early", "value", "value(repay_early=1)")  # fmt: skip
    seats = load(run / "results", "seats").collect()
    mine = seats.filter(pl.col("strategy") == "value(repay_early=1)").select(
        "game", "seat", "score"
    )
    base = seats.filter(pl.col("arm") == "value").select("game", "seat", "score")
    both = mine.join(base, on=["game", "seat"], suffix="_base")
    assert both.height == 30  # one deviating captain a game, rotating through the seats
    assert set(both["seat"]) == {0, 1, 2}
    assert row["humans"] == pytest.approx((both["score"] - both["score_base"]).mean())
    assert row["games"] == 30


def test_the_answer_names_the_captain(run):
    _, text, quality = page_answers(run / "report")["alien_raid_options.worth"]
    assert "repays early" in text and "final humans" in text  # the arm's name, not
    assert "value(repay_early=1)" not in text  # the captain's label with its parameter
    assert "30 paired games" in quality
    # the verdict first; the tolerances it is judged against beside the games it rests on
    verdicts = ("No step changes what the captain wins beyond the tolerances",
                "repays early changes what the captain wins",
                "Not settled whether any step changes what the captain wins")  # fmt: skip
    assert text.startswith(verdicts)
    assert "tolerances: win share \u00b11 pp, final humans \u00b12,000 humans" in quality


SHARE, HUMANS = DEFAULTS["win_share"], DEFAULTS["humans"]  # ±1 pp, ±2,000 humans


def _row(lineup: str, win: tuple[float, float, float], humans: tuple[float, float, float],
         games: int) -> dict:  # fmt: skip
    return {"arm": lineup, "lineup": lineup, "win": win[0], "win_low": win[1],
            "win_high": win[2], "humans": humans[0], "humans_low": humans[1],
            "humans_high": humans[2], "games": games}  # fmt: skip


def test_planted_steps_that_change_nothing_hold_within_both_tolerances():
    found = answer([_row("value(repay_early=1)", (0.001, -0.004, 0.006), (100, -900, 1100),
                         50_000)], SHARE, HUMANS)  # fmt: skip
    text = plain_text(found.parts)
    assert found.kind == "within" and found.verdict.holds
    assert text.startswith("No step changes what the captain wins beyond the tolerances")
    assert "value(repay_early=1)" in text and "settle" not in text and found.more == []
    assert found.category == "no step changes what the captain wins beyond the tolerances"


def test_planted_step_whose_humans_change_changes_what_it_wins():
    # the win share within its tolerance, the final humans shown to change: it changes
    found = answer([_row("value(repay_early=1)", (0.001, -0.004, 0.006), (-6000, -8000, -4000),
                         50_000)], SHARE, HUMANS)  # fmt: skip
    assert found.kind == "finding" and found.verdict.opposite
    text = plain_text(found.parts)
    assert text.startswith("value(repay_early=1) changes what the captain wins")
    # only the figure shown beyond its tolerance is said to be beyond it
    assert "final humans \u22126,000 (\u22128,000 to \u22124,000), beyond its \u00b12,000 humans " \
           "tolerance" in text and "win share" not in text  # fmt: skip
    assert found.category == "some step changes what the captain wins"


def test_the_step_said_to_change_is_one_shown_to_change():
    # the larger estimate is not settled; the smaller is shown beyond the tolerance: the
    # sentence names the smaller, the one its verdict supports
    found = answer([_row("value(repay_early=1)", (0.05, -0.03, 0.13), (300, -3000, 3600), 300),
                    _row("value(keep_bonus=1)", (0.02, 0.015, 0.025), (-100, -500, 300), 300)],
                   SHARE, HUMANS)  # fmt: skip
    text = plain_text(found.parts)
    assert found.kind == "finding" and found.category == "some step changes what the captain wins"
    said = ("value(keep_bonus=1) changes what the captain wins most: win share +2.0 pp (+1.5 to "
            "+2.5), beyond its \u00b11 pp tolerance.")  # fmt: skip
    assert text == said


def test_planted_step_on_few_games_is_not_settled_with_the_games_to_settle():
    # the win share near 0 against its ±1 pp (an estimate on the tolerance's edge would need
    # more than a hundred times the games: then no count is said)
    found = answer([_row("value(repay_early=1)", (0.0, -0.03, 0.03), (300, -3000, 3600), 300)],
                   SHARE, HUMANS)  # fmt: skip
    text = plain_text(found.parts)
    assert found.kind == "unsettled" and found.category == "not settled"
    assert text.startswith("Not settled whether any step changes what the captain wins")
    assert found.verdict.games_to_settle > 300
    settle = f"About {found.verdict.games_to_settle:,} games per arm would likely settle them."
    assert plain_text(found.more) == settle
