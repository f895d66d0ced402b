"""The quality section on planted data: pure luck leaves skill depth open at a small size and
shows none within a tolerance wide enough for its games, and the deal deciding; pure skill the
ladder, a runaway leader and a comeback game their curves; and on a real run of pure luck
(every seat `random`)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from sim.report import build_report
from tests import quality_fixtures as Q
from tests.report_fixtures import answer_rows, answers


def _report(root: Path) -> Path:
    return build_report(results_dir=root, report_dir=root.parent / f"{root.name}-report").parent


def _measures(report: Path) -> dict[tuple[str, str], float]:
    with open(report / "tables" / "quality_measures.csv", encoding="utf-8") as f:
        return {(r["level"], r["measure"]): float(r["value"]) for r in csv.DictReader(f)}


@pytest.fixture(scope="module")
def luck(tmp_path_factory) -> Path:
    return _report(Q.pure_luck(tmp_path_factory.mktemp("luck") / "results"))


@pytest.fixture(scope="module")
def skill(tmp_path_factory) -> Path:
    return _report(Q.pure_skill(tmp_path_factory.mktemp("skill") / "results"))


def test_pure_luck_leaves_skill_depth_open_and_shows_the_deal_deciding(luck):
    found = answers(luck)
    kind, text, _ = found["quality.skill"]
    # a coin decides, but 1,500 games do not show the top within 2 pp of a coin's 50%
    assert kind == "unsettled" and text.startswith("Not settled whether skill decides: "), text
    assert "finishes ahead" not in text and "\u00b12 pp" in text
    assert "games per arm would likely settle it" in text
    steps = answer_rows(luck)["quality.skill"]  # four steps, then top over bottom
    assert len(steps) == 5 and not any(r[-1] == "ahead beyond the tolerance" for r in steps)
    kind, text, _ = found["quality.luck"]
    # every replay of a deal is the same game: the deal decides all of them, the players none
    rows = {r[0]: r for r in answer_rows(luck)["quality.luck"]}
    assert rows["the deal decides"][1] == "100.0%" and rows["the player decides"][1] == "0.0%"
    assert "the deal decides more often than the player, beyond the \u00b12 pp tolerance" in text
    assert kind == "finding" and text.startswith("More luck than skill: ")


def test_pure_luck_shows_no_skill_depth_within_a_tolerance_its_games_can_settle(tmp_path):
    root = Q.pure_luck(tmp_path / "results", tolerances={"skill_depth": 0.05})
    kind, text, _ = answers(_report(root))["quality.skill"]
    assert kind == "within" and text.startswith("No skill depth beyond the tolerance: "), text
    assert "within \u00b15 pp of a coin's 50%" in text


def test_a_replay_groups_seat_figure_counts_each_deal_once(luck):
    # every seat random and each replay the same game: a deal's four seatings end alike, so
    # they are worth one game, not four: the interval with each deal one unit is twice as wide
    # as the games' one by one (sqrt 4), which would claim a precision the games do not have
    row = {r[0]: r for r in answer_rows(luck)["quality.luck"]}["seat 1 wins, over every seating"]
    low, high = map(float, re.fullmatch(r"\(([\d.]+) to ([\d.]+)\)", row[2]).groups())
    alone = float(re.search(r"±([\d.]+) pp with each game one unit", row[3])[1])
    assert (high - low) / 2 == pytest.approx(2 * alone, rel=0.1)


def test_pure_luck_upsets_are_what_the_seats_would_give(luck):
    # players two or more levels below the best hold about half the seats and, by luck, win
    # about half the games: the two shares' intervals overlap
    row = {r[0]: r for r in answer_rows(luck)["quality.luck"]}[
        "won by a player two levels below the best"
    ]
    win_lo, win_hi = map(float, re.fullmatch(r"\(([\d.]+) to ([\d.]+)\)", row[2]).groups())
    fair_lo, fair_hi = map(float, re.fullmatch(
        r"they hold [\d.]+% \(([\d.]+) to ([\d.]+)\) of the seats", row[3]).groups())  # fmt: skip
    assert win_lo <= fair_hi and fair_lo <= win_hi


def test_pure_skill_shows_the_ladder(skill):
    kind, text, _ = answers(skill)["quality.skill"]
    assert kind == "finding" and text.startswith("Skill decides: master finishes ahead of novice")
    steps = {r[0]: r for r in answer_rows(skill)["quality.skill"]}
    assert len(steps) == 5 and all(r[-1] == "ahead beyond the tolerance" for r in steps.values())
    assert steps["master over novice"][1] == "100.0%"
    rows = {r[0]: r for r in answer_rows(skill)["quality.luck"]}
    assert rows["won by a player two levels below the best"][1] == "0.0%"  # nobody ever


@pytest.fixture(scope="module")
def curves(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("curves") / "results"
    arms = [Q.Arm("runaway", Q.runaway, ["club"] * 4),
            Q.Arm("comeback", Q.comeback_of("strong"), ["strong"] * 4)]  # fmt: skip
    return _report(Q.write(root, "curves", arms, games=600))


def test_a_runaway_leader_and_a_comeback_give_their_curves(curves):
    m = _measures(curves)  # the runaway game is played at club, the comeback game at strong
    for fraction in ("third", "half", "two_thirds"):
        assert m[("club", f"leader_wins.{fraction}")] == 1.0
        assert m[("club", f"last_wins.{fraction}")] == 0.0
        assert m[("strong", f"leader_wins.{fraction}")] == 0.0
    assert m[("strong", "last_wins.half")] == 1.0
    assert m[("strong", "decided_last_round")] == 1.0
    assert m[("club", "decided_last_round")] == 0.0
    _, text, _ = answers(curves)["quality.lead"]
    assert "0.0% (0.0 to 0.6) at strong to 100.0% (99.4 to 100.0) at club" in text, text
    rows = {(r[0], r[1]): r[2] for r in answer_rows(curves)["quality.lead"]}  # level, measure
    assert rows[("strong", "the last at half time wins")] == "100.0%", rows


def test_the_section_draws_a_picture_per_question(luck):
    figures = {p.stem for p in (luck / "figures").glob("quality_*.png")}
    assert {"quality_skill", "quality_luck", "quality_close", "quality_lead",
            "quality_flow"} <= figures  # fmt: skip
    page = (luck / "index.html").read_text()
    section = page.split('<section id="quality">', 1)[1]
    assert section.index("<figure") < section.index("<table")  # pictures first


def test_a_real_game_of_pure_luck(tmp_path):
    """Every seat `random`: each deal replayed with the seats rotated is the same game, so the
    deal decides every one; and two labels of one player (`club` is `skilled` at 0.5) show no
    skill depth."""
    from sim.experiment import parse_experiment
    from sim.runner import run

    seats = ["random"] * 4
    twins = ["club", {"name": "skilled", "skill": 0.5}]
    exp = parse_experiment({
        "name": "pure_luck", "ruleset": "guardians", "players": 4, "games": 300, "seed": 3,
        "arms": [*({"name": f"seat {r + 1}", "seats": seats} for r in range(4)),
                 {"name": "twins", "players": 2, "pool": twins, "rotate": True}],
        "report": ["quality"],
    })  # fmt: skip
    run(exp, out=tmp_path / "results", jobs=1, progress=False)
    report = build_report(results_dir=tmp_path / "results", report_dir=tmp_path / "report")
    found = answers(report.parent)
    rows = {r[0]: r for r in answer_rows(report.parent)["quality.luck"]}
    assert rows["the deal decides"][1] == "100.0%" and rows["the player decides"][1] == "0.0%"
    kind, text, _ = found["quality.skill"]
    assert kind == "unsettled" and text.startswith("Not settled whether skill decides"), text


def test_a_what_if_arm_changes_the_game_leaves_it_alone_or_is_not_settled(tmp_path):
    """Against the baseline on the same deals: the same game again changes nothing within the
    tolerances (every paired difference is 0); a comeback game instead of a runaway one changes
    it; the same kind of game on other deals is not settled at 600 games (a difference not
    detected is no verdict)."""
    import numpy as np

    def reshuffled(g: int, rng: np.random.Generator) -> Q.Game:
        return Q.runaway(g, np.random.default_rng([99, g]))  # other deals, the same game

    arms = [Q.Arm("base", Q.runaway, ["club"] * 4),
            Q.Arm("same", Q.runaway, ["club"] * 4, rules={"missile.cost": 9}),
            Q.Arm("flip", Q.comeback_of("club"), ["club"] * 4, rules={"missile.cost": 11}),
            Q.Arm("other", reshuffled, ["club"] * 4, rules={"missile.cost": 13})]  # fmt: skip
    found = answers(_report(Q.write(tmp_path / "results", "whatif", arms, games=600,
                                    baseline="base")))  # fmt: skip
    kind, text, _ = found["quality.whatif.same"]
    assert kind == "within" and "Nothing changes beyond its tolerance (shares \u00b12 pp" in text
    kind, text, _ = found["quality.whatif.flip"]
    assert kind == "finding" and "It changes how the game plays" in text
    kind, text, _ = found["quality.whatif.other"]
    assert kind == "unsettled", text
    assert text.startswith("Not settled whether anything changes beyond its tolerance"), text
    assert re.search(r"games per arm would likely settle it|more games alone would hardly", text)


def test_the_luck_answer_places_the_game_beside_the_reference_games(luck, skill):
    from sim.report.game_quality import references

    refs = references.others("guardians")  # the planted games are Guardians': every reference
    assert {r.game for r in refs} == {"pig", "coin-race"}
    for report, place in ((luck, "sits above"), (skill, "sits below")):
        _, text, _ = answers(report)["quality.luck"]
        # a coin decides every planted game of luck (100%) and none of pure skill (0%)
        assert "On the scale from pure skill (0%) to a coin flip (100%), this game " in text
        for ref in refs:
            shown = ref.estimate()
            said = f"{place} {ref.title}'s {shown.text()} {shown.ci_text()} ({ref.pairing})"
            assert said in text, (said, text)
        rows = {r[0]: r for r in answer_rows(report)["quality.luck"]}
        assert rows["Pig: optimal against careless"][-1] == "reference"


def test_a_game_whose_interval_overlaps_a_reference_is_not_placed_above_or_below_it():
    from sim.measures.core import Value
    from sim.report.answers import plain_text
    from sim.report.game_quality import luck as L
    from sim.report.game_quality import references

    pig = next(r for r in references.REFERENCES if r.game == "pig")
    near = Value(pig.share, pig.low - 0.05, pig.low + 0.01, 0.02, 500)  # overlaps Pig's
    said = plain_text(L._beside("coin-race-like", near))
    assert "cannot be told apart from Pig's" in said and "sits" not in said.split("Pig's")[0]
    assert L._beside("pig", near) != L._beside("coin-race-like", near)  # its own is left out


def test_the_coin_race_has_a_quality_section_with_its_luck_beside_pig(tmp_path):
    """The toy race's quality experiment (examples/coin_race/experiments/quality.yaml), small:
    its two strategies make a ladder of one step, shown once, and its coin-flip share is
    placed beside Pig's (its own reference left out)."""
    from typer.testing import CliRunner

    from sim.cli import app
    from tests.coin_race import FOLDER, registered

    with registered():
        done = CliRunner().invoke(app, ["run", str(FOLDER / "experiments" / "quality.yaml"),
                                        "--games", "300", "-j", "1", "--out",
                                        str(tmp_path / "results")])  # fmt: skip
    assert done.exit_code == 0, done.output
    report = tmp_path / "results" / "report"
    assert [r[0] for r in answer_rows(report)["quality.skill"]] == ["bold over steady"]
    kind, text, _ = answers(report)["quality.luck"]
    assert "as if a coin decided " in text and " of games between bold and steady" in text
    assert "Pig's" in text and "the coin race's" not in text, text
    rows = {r[0]: r[-1] for r in answer_rows(report)["quality.luck"]}
    assert rows == {"bold against steady": "this game", "Pig: optimal against careless":
                    "reference"}, rows  # fmt: skip
