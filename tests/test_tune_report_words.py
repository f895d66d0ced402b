"""The tune report's words (sim/tune/report*.py, its figures): sentences, headings, captions
and the scorecard name a knob by its plain name ("the missile's price 13"), a target by the
designer's name, and a place by its skill level ("club") or its arm and level ("missile
(club)"); the rule keys and the stored arm names ("missile.cost=13", "default@club") stay in
the tables. Built from a planted tune folder's summary, without playing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sim.tune import report as tune_report
from sim.tune.report_data import TrialRow, TuneData
from tests.answer_checks import places_not_plain, scorecard_places

pytestmark = pytest.mark.without_engines

ROOT = Path(__file__).resolve().parents[1]

KNOBS = {"missile.cost": "the missile's price", "upgrade.cost": "an upgrade's price"}
# a rule key, a key at a value, a stored arm name, a strategy label with its parameters
RAW = re.compile(r"missile\.cost|upgrade\.cost|\w=\w|@|\(\w+_at=")


def _place(target: int, arm: str, value: float, verdict: str) -> dict:
    return {"target": target, "measure": f"m{target}", "arm": arm, "level": arm.partition("@")[2],
            "value": value, "low": value - 0.004, "high": value + 0.004, "se": 0.002,
            "n": 20000, "miss": abs(value) * 100, "verdict": verdict,
            "games_to_settle": None}  # fmt: skip


def _candidate(trial: int, missile: int, upgrade: int, arms: list[str], score: float) -> dict:
    values = {"missile.cost": missile, "upgrade.cost": upgrade}
    places = [_place(0, a, 0.005 * (i + 1), "met") for i, a in enumerate(arms)]
    places += [_place(1, a, 0.3, "met") for a in arms]
    return {"trial": trial, "values": values, "score": score, "objectives": [score, 0.0],
            "label": ", ".join(f"{k}={v}" for k, v in values.items()),
            "places": places, "verdicts": ["met", "met"]}  # fmt: skip


def summary(arms: list[str]) -> dict:
    """A finished tune of two knobs and two targets (one named, one by its measure's label,
    a strategy label with its parameter), its model fitted."""
    confirmed = [_candidate(5, 13, 31, arms, 0.5), _candidate(7, 14, 30, arms, 0.7)]
    label = "missile.cost=13, upgrade.cost=31"
    return {
        "tune": {"name": "planted", "file": "planted.yaml", "game": "guardians",
                 "fingerprint": "0"},
        "knobs": list(KNOBS), "knob_names": KNOBS, "arms": arms, "games_per_arm": 20000,
        "targets": [
            {"measure": "uplift.skill(missile_at=16)", "low": 0.0, "high": 0.0,
             "tolerance": 0.01, "unit": "share", "label": "win-share uplift of "
             "club(missile_at=16)", "combine": "worst", "name": "the buyer's uplift",
             "wanted": "0 pp", "within": "1 pp", "signed": True, "safe": False},
            {"measure": "raid_rate", "low": 0.2, "high": 0.4, "tolerance": 0.01,
             "unit": "share", "label": "raid rate", "combine": "worst", "name": None,
             "wanted": "20% to 40%", "within": "1 pp", "signed": False, "safe": False},
        ],
        "objectives": ["the buyer's uplift", "raid rate"],
        "search": {"trials": 2, "states": {"complete": 2}, "sampler": "tpe",
                   "rungs": [1000, 4000], "keep": 0.25, "ended": ""},
        "confirmed": confirmed,
        "recommended": {"values": confirmed[0]["values"], "rules": confirmed[0]["values"]},
        "crossings": [], "games_stored": 80000, "overlay": "recommended.yaml",
        "sessions": [{"wall_seconds": 10.0}],
        "model": {
            "fitted": True, "by": "model", "printed": {"missile.cost": 10, "upgrade.cost": 10},
            "best": confirmed[0]["values"], "best_label": label,
            "first_best": confirmed[0]["values"], "score": 0.4,
            "refitted_best": confirmed[0]["values"], "alternatives": 1,
            "intervals": {"missile.cost": [13.0, 14.0], "upgrade.cost": [30.0, 31.0]},
            "optimum": {"missile.cost": [13.4, 13.0, 13.9]}, "optimum_digits": {},
            "region": {"settings": 2, "met": 2, "evaluated": 9,
                       "ranges": {"missile.cost": [13, 14], "upgrade.cost": [30, 31]},
                       "listed": [c["values"] for c in confirmed]},
            "checks": [{"values": c["values"], "target": 0, "place": arms[0],
                        "predicted": 0.005, "measured": 0.005, "low": -0.001, "high": 0.001,
                        "agrees": False} for c in confirmed],
            "agrees": False,
        },
    }  # fmt: skip


def trials(arms: list[str]) -> list[TrialRow]:
    rows = []
    for n, (missile, upgrade) in enumerate([(13, 31), (14, 30), (9, 20)]):
        measured = [{"target": t, "arm": a, "value": {"value": 0.01 * t}}
                    for t in (0, 1) for a in arms]  # fmt: skip
        rows.append(TrialRow(n, {"missile.cost": missile, "upgrade.cost": upgrade}, "complete",
                             {1000: {"score": 1.0 + n, "objectives": [1.0 + n, 0.0],
                                     "measured": measured}}))  # fmt: skip
    return rows


def page(tmp_path: Path, monkeypatch, arms: list[str]) -> tuple[str, str]:
    data = TuneData(tmp_path, summary(arms), trials(arms))
    monkeypatch.setattr(tune_report, "load_tune_data", lambda root: data)
    index = tune_report.build_tune_report(tmp_path, tmp_path / "report")
    return index.read_text(), (tmp_path / "report" / "report.md").read_text()


def words(markdown: str) -> list[str]:
    """The page's lines outside its data tables (the answers' own rows are words too)."""
    return [line for line in markdown.splitlines() if line and not line.startswith("|")]


@pytest.mark.parametrize(
    ("arms", "where"),
    [
        (["default"], "every game"),  # one arm at no level ("default" is its stored name)
        (["default@club"], "club"),  # one arm: its level alone
        (["missile@club", "missile@strong"], "strong"),
        (["missile@club", "upgrade@club"], "upgrade (club)"),  # the arm and its level
    ],
)
def test_sentences_headings_and_captions_say_knobs_targets_and_places_plainly(
    tmp_path, monkeypatch, arms, where
):
    html, md = page(tmp_path, monkeypatch, arms)
    raw = [line for line in words(md) if RAW.search(line) and "recommended.yaml" not in line]
    assert raw == [], raw
    text = "\n".join(words(md))
    assert "Recommended: the missile's price 13, an upgrade's price 31" in text
    assert "The model's best is the missile's price 13, an upgrade's price 31" in text
    assert "Alternative 1: the missile's price 14, an upgrade's price 30" in text
    assert "the model misses the confirmation at the missile's price 13" in text
    assert "_The buyer's uplift, a row per place it is measured." in text
    assert "Knobs: the missile's price, an upgrade's price." in text
    assert "default" not in text
    # the scorecard: the target's name on its figure, where it holds in plain words
    assert "| the buyer's uplift +1.0 pp (+0.6 to +1.4) |" in md or len(arms) == 1
    assert places_not_plain(html) == []
    assert scorecard_places(html)[0] == where  # the buyer's uplift
    # the keys stay in the tables
    tables = "\n".join(line for line in md.splitlines() if line.startswith("|"))
    assert "| missile.cost | 13 |" in tables and f"| {arms[0]} |" in tables


def _verdicts(s: dict, mine: list[str], other: list[str], apart: bool) -> dict:
    """The recommendation's and the other confirmed candidate's target verdicts (the buyer's
    uplift at its worst place carries the verdict, its interval moved to fit it: the
    recommendation's miss +1.6 pp (+1.1 to +2.1); the other's +0.8 pp (+0.4 to +1.05), apart
    from it and not settled against the 1 pp tolerance, or +1.0 pp (+0.6 to +1.4), which
    overlaps it)."""
    for c, verdicts in zip(s["confirmed"], (mine, other), strict=True):
        c["verdicts"] = verdicts
        worst = max((p for p in c["places"] if p["target"] == 0), key=lambda p: p["miss"])
        worst["verdict"] = verdicts[0]
        if verdicts[0] == "missed":
            worst.update(value=0.016, low=0.011, high=0.021, miss=1.6)
    if apart:
        worst.update(value=0.008, low=0.004, high=0.0105, miss=0.8)
    return s


def fewer_misses_page(tmp_path, monkeypatch, mine, other, by="model", apart=True) -> str:
    arms = ["missile@club", "missile@strong"]
    s = _verdicts(summary(arms), mine, other, apart)
    s["model"]["by"] = by
    data = TuneData(tmp_path, s, trials(arms))
    monkeypatch.setattr(tune_report, "load_tune_data", lambda root: data)
    tune_report.build_tune_report(tmp_path, tmp_path / "report")
    return (tmp_path / "report" / "report.md").read_text()


QUESTION = "Does the confirmation show a setting that misses fewer targets?"


@pytest.mark.parametrize(("by", "apart"), [("model", True), ("confirmation", True),
                                           ("model", False)])  # fmt: skip
def test_a_confirmed_setting_that_misses_fewer_targets_is_named_with_why_the_choice_stands(
    tmp_path, monkeypatch, by, apart
):
    md = fewer_misses_page(tmp_path, monkeypatch, ["missed", "met"], ["not settled", "met"], by,
                           apart)  # fmt: skip
    answer = next(line for line in md.splitlines() if QUESTION in line and line.startswith("-"))
    assert (
        "Yes: the missile's price 14, an upgrade's price 30 misses fewer targets on the "
        "same games: the buyer's uplift not settled instead of missed."
    ) in answer
    why = {"model": "stands as the model's best", "confirmation": "stands by its lower score"}
    assert why[by] in answer
    # a better verdict is a difference only where the intervals lie apart
    if apart:
        assert "Their intervals lie apart where the verdicts differ (strong)" in answer
        assert "take the other setting" in answer
        assert "| another setting misses fewer |" in md  # the scorecard
    else:
        assert "Their intervals overlap where the verdicts differ (strong)" in answer
        assert "does not tell the two apart" in answer and "take the other" not in answer
        assert (
            "| Does the confirmation show a setting that misses fewer targets? | not settled |"
            in md
        )
    # both settings' intervals and verdicts at every place, the recommendation's worst first
    rows = md.split(answer, 1)[1].split("\n\n", 2)[1].splitlines()[2:]
    other = "+0.8 pp | (+0.4 to +1.1)" if apart else "+1.0 pp | (+0.6 to +1.4)"
    assert rows[0] == f"  | the other, strong | {other} | not settled |"
    assert rows[1] == "  | recommended, strong | +1.6 pp | (+1.1 to +2.1) | missed |"
    assert len(rows) == 4  # two places, two settings


@pytest.mark.parametrize(
    ("mine", "other"),
    [
        (["missed", "met"], ["missed", "met"]),  # the same verdicts (a lower score alone)
        (["met", "missed"], ["not settled", "met"]),  # one better, one worse
        (["not settled", "met"], ["missed", "met"]),  # worse
    ],
)
def test_no_setting_is_said_to_miss_fewer_targets_without_better_verdicts(
    tmp_path, monkeypatch, mine, other
):
    assert QUESTION not in fewer_misses_page(tmp_path, monkeypatch, mine, other)


def test_a_data_files_knob_has_a_plain_name_and_values_are_written_in_full():
    """The alien raid's catalog prices are knobs without a schema line: named as the report
    names them elsewhere ("the scout-saucer's price", sim.report.plain), not by their key;
    a whole price is written out, not as 6.5e+04."""
    from sim.tune.knobs import plain_names
    from sim.tune.report_data import number
    from sim.tune.spec import load_tune

    tune = load_tune(ROOT / "experiments" / "tune_alien_raid_prices.yaml")
    names = plain_names(tune.experiment.arms[0].ruleset, [k.name for k in tune.knobs])
    assert names["catalog.ships.scout-saucer.price"] == "the scout-saucer's price"
    assert set(names) == {k.name for k in tune.knobs}
    assert (number(65000.0), number(12.5), number(31), number(0.123456)) == (
        "65000", "12.5", "31", "0.1235")  # fmt: skip
