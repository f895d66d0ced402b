"""Answers at the group's level (issue 38): an experiment's `skills:` takes a playtest fit,
`{fit: DIR/fit.yaml}` (or one group of it), and repeats every arm at the group's fitted skill,
named as the reports name it, "your group (fitted from 42 games)"; `seats` take `{fit: FILE,
player: Anna}`. Read from fit.yaml alone; a bad entry is one line naming the experiment's key."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from sim import lab
from sim.errors import SimError

KNOB = {"strategy": "skilled", "parameter": "skill", "params": {"shop": 1}}


def _fit(folder: Path, game: str = "guardians", groups: dict | None = None) -> Path:
    """A fit.yaml as `sim playtest fit` writes it (the keys a level reads)."""
    groups = groups or {"all": {"games": 42, "label": "your group (fitted from 42 games)",
                                "skill": {"estimate": 0.43, "low": 0.3, "high": 0.55},
                                "players": {"Anna": {"games": 12, "skill": {
                                    "estimate": 0.8, "low": 0.6, "high": 1.0}}}}}  # fmt: skip
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "fit.yaml"
    path.write_text(yaml.safe_dump({"game": game, "knob": KNOB, "groups": groups}))
    return path


def _experiment(**keys) -> lab.Experiment:
    return lab.experiment({"ruleset": "guardians", "players": 4, "games": 100, **keys})


def test_a_fit_is_a_level_beside_the_ladders(tmp_path):
    fit = _fit(tmp_path / "fit")
    exp = _experiment(seats=[{"name": "skill", "missile_at": 12}, "skill", "skill", "skill"],
                      skills=["club", {"fit": str(fit)}])  # fmt: skip
    level = "your group (fitted from 42 games)"
    assert exp.arms == ["default@club", f"default@{level}"]
    arm = exp.parsed.arms[1]
    assert arm.skill == level and dict(arm.params)["skill"] == level
    labels = [spec.label for spec in arm.lineup]
    assert labels == ["skilled(missile_at=12,skill=0.43)", "skilled(skill=0.43)"], labels


def test_a_group_of_a_fit_and_its_rules(tmp_path):
    groups = {
        "tuesday": {"games": 40, "label": "your group tuesday (fitted from 40 games)",
                    "skill": {"estimate": 0.6, "low": 0.4, "high": 0.8},
                    "rules": {"dexterity.skill": "child"}},
        "family": {"games": 30, "label": "your group family (fitted from 30 games)",
                   "skill": {"estimate": 0.2, "low": 0.1, "high": 0.3}},
    }  # fmt: skip
    fit = _fit(tmp_path / "fit", "space-invaders", groups)
    exp = lab.experiment({"ruleset": "space-invaders", "players": 2, "seats": "skill",
                          "skills": [{"fit": str(fit), "group": "tuesday"}]})  # fmt: skip
    (arm,) = exp.parsed.arms
    assert [spec.label for spec in arm.lineup] == ["skilled(skill=0.6)"]
    assert dict(arm.params)["skill"] == "your group tuesday (fitted from 40 games)"
    assert dict(arm.overrides)["dexterity.skill"] == "child"  # the team's fitted dexterity
    assert arm.ruleset.values["dexterity.skill"] == "child"
    with pytest.raises(SimError, match="the fit holds 2 groups") as caught:
        lab.experiment({"ruleset": "space-invaders", "players": 2, "seats": "skill",
                        "skills": [{"fit": str(fit)}]})  # fmt: skip
    assert "key 'skills[0]'" in str(caught.value) and "Name one: group:" in str(caught.value)


def test_a_named_player_is_a_seat(tmp_path):
    fit = _fit(tmp_path / "fit")
    exp = _experiment(pool=[{"fit": str(fit), "player": "Anna", "missile_at": 15}, "club",
                            "club", "club"])  # fmt: skip
    labels = [spec.label for spec in exp.parsed.arms[0].lineup]
    assert labels == ["skilled(missile_at=15,skill=0.8)", "club"], labels


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"fit": "nowhere/fit.yaml"}, "no fit to read"),
        ({"fit": "FIT", "group": "friday"}, "the fit holds no group 'friday'"),
        ({"fit": "FIT", "player": "Anna"}, "a level is a group's; a player is a seat"),
        ({"fit": "FIT", "colour": "red"}, "unknown key 'colour'"),
        ({"fit": "OTHER"}, "a fit of 'alien-raid', not of 'guardians'"),
    ],
)
def test_a_bad_fit_level_is_one_line_naming_the_key(tmp_path, entry, words):
    fit, other = _fit(tmp_path / "fit"), _fit(tmp_path / "other", "alien-raid")
    entry = {k: {"FIT": str(fit), "OTHER": str(other)}.get(v, v) for k, v in entry.items()}
    with pytest.raises(SimError, match=words) as caught:
        _experiment(seats="skill", skills=["club", entry])
    assert "key 'skills[1]'" in str(caught.value) and "\n" not in str(caught.value)


def test_an_unknown_player_is_one_line(tmp_path):
    fit = _fit(tmp_path / "fit")
    with pytest.raises(SimError, match="no named player 'Zoe'. Its named players: Anna"):
        _experiment(seats=[{"fit": str(fit), "player": "Zoe"}, "club", "club", "club"])


def test_the_report_names_the_fitted_level(tmp_path):
    fit = _fit(tmp_path / "fit")
    exp = _experiment(name="levels", seats="skill", games=60, report=["guardians_difficulty"],
                      skills=["casual", {"fit": str(fit)}])  # fmt: skip
    results = lab.run(exp, out=tmp_path / "results", jobs=1, progress=False)
    table = results.measures(["raid_rate"])
    assert table.get_column("skill").to_list() == ["casual", "your group (fitted from 42 games)"]
    page = results.report(tmp_path / "report")
    answers = (page.parent / "report.md").read_text()
    # named beside the ladder's levels, in full (not cut at its bracket as a strategy's label):
    # in a sentence and in the difficulty answer's rows
    ends = next(line for line in answers.splitlines()
                if line.startswith("- **How do the games end?**"))  # fmt: skip
    assert "(at casual) to " in ends and "(at your group (fitted from 42 games))" in ends, ends
    assert "\n  | casual | " in answers and "\n  | your group (fitted from 42 games) | " in answers
    assert "(at your group)" not in answers
