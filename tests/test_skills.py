"""The experiment key `skills` (every arm at each level, common random numbers across
levels, the contract the reports read) and `sim calibrate` (recovers a planted skill)."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.errors import ConfigError
from sim.experiment import parse_experiment
from sim.results import load
from sim.runner import run
from tests.conftest import slow_scale

EXPERIMENT = {
    "name": "skills_test",
    "players": 2,
    "seats": [{"name": "skill", "missile_at": 12}, "skill"],
    "rotate": True,
    "games": 40,
    "seed": 9,
    "skills": ["novice", "club"],
    "sweep": {"missile.cost": [8, 10]},
}


def test_every_arm_is_repeated_at_each_level_with_the_skill_seats_rewritten():
    exp = parse_experiment(EXPERIMENT)
    names = [arm.name for arm in exp.arms]
    assert names == [
        "missile.cost=8@novice",
        "missile.cost=10@novice",
        "missile.cost=8@club",
        "missile.cost=10@club",
    ]
    assert [arm.index for arm in exp.arms] == [0, 1, 2, 3]
    arm = exp.arm("missile.cost=10@club")
    assert arm.skill == "club" and arm.base_arm == "missile.cost=10"
    assert dict(arm.params) == {"missile.cost": 10, "skill": "club"}
    assert [spec.label for spec in arm.lineup] == ["club(missile_at=12)", "club"]
    assert ("skill", "str") in exp.param_columns


def test_named_arms_get_their_baseline_at_each_level():
    data = {
        **EXPERIMENT,
        "arms": [{"name": "base"}, {"name": "dear", "rules": {"missile.cost": 15}}],
        "baseline": "base",
    }
    del data["sweep"]
    exp = parse_experiment(data)
    assert [a.name for a in exp.arms] == ["base@novice", "dear@novice", "base@club", "dear@club"]
    assert exp.baseline == "base@novice"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seats": ["greedy", "greedy"]}, "no seat is named 'skill'"),
        ({"skills": 5}, "expected a list of skill levels"),
        ({"skills": ["club", "club"]}, "listed twice"),
        ({"skills": ["clubb"]}, "unknown strategy"),
    ],
)
def test_a_wrong_skills_key_is_refused_with_its_key(change, message):
    with pytest.raises(ConfigError) as info:
        parse_experiment({**EXPERIMENT, **change}, file="exp.yaml")
    assert message in str(info.value) and "exp.yaml" in str(info.value)


def test_levels_play_the_same_seeds_and_the_results_carry_the_level(tmp_path):
    exp = parse_experiment(EXPERIMENT)
    summary = run(exp, out=tmp_path / "r", jobs=1, progress=False)
    games = load(summary.out).collect()
    assert games.schema["skill"] == pl.Utf8
    seeds = {
        level: games.filter(pl.col("skill") == level).sort("arm", "game")["seed"].to_list()
        for level in ("novice", "club")
    }
    assert seeds["novice"] == seeds["club"]  # common random numbers across levels
    per_game = games.filter(pl.col("missile.cost") == 10).sort("game")
    novice = per_game.filter(pl.col("skill") == "novice")["turns"].to_numpy()
    club = per_game.filter(pl.col("skill") == "club")["turns"].to_numpy()
    assert not np.array_equal(novice, club)  # the levels did play differently
    seats = load(summary.out, "seats").collect()
    assert seats.schema["skill"] == pl.Utf8
    assert set(seats.filter(pl.col("skill") == "club")["strategy"]) == {
        "club",
        "club(missile_at=12)",
    }
    manifest = json.loads((summary.out / "manifest.json").read_text())
    entry = manifest["arms"][3]
    assert entry["name"] == "missile.cost=10@club"
    assert entry["skill"] == "club" and entry["base_arm"] == "missile.cost=10"


@pytest.mark.slow
def test_calibrate_recovers_a_planted_skill():
    """Plant skill 0.4, measure its raid rate on other games, and calibrate back to it."""
    from sim.lab.calibrate import calibrate
    from sim.plugins import get_game
    from sim.plugins.base import StrategySpec
    from sim.seeds import game_seeds, root_keys

    game = get_game("guardians")
    games = max(1000, int(4000 * slow_scale()))
    planted = 0.4
    chunk = game.simulate_chunk(
        game.load_ruleset("guardians"),
        3,
        [StrategySpec("skilled", (("skill", planted),))],
        np.zeros((games, 3), np.int64),
        game_seeds(root_keys(1234), 0, games),
    )
    observed = float(np.mean(chunk.games["outcome"] == "raid"))
    cal = calibrate(players=3, target=f"raid={observed}", games=games, seed=1, observed_games=games)
    assert cal.low <= planted <= cal.high, cal
    assert abs(cal.skill - planted) < 0.1 and cal.high - cal.low < 0.3, cal


def test_calibrate_command_prints_the_skill_and_refuses_an_unreachable_target():
    result = CliRunner().invoke(
        app, ["calibrate", "--players", "2", "--target", "raid=0.5", "--games", "60"]
    )
    assert result.exit_code == 0, result.output
    assert "skill" in result.output and "interval" in result.output
    assert "on the ladder" in result.output
    result = CliRunner().invoke(app, ["calibrate", "--target", "raid=0.9999", "--games", "60"])
    assert result.exit_code == 2 and "no skill gives" in result.output
    result = CliRunner().invoke(app, ["calibrate", "--target", "raids=0.2", "--games", "60"])
    assert result.exit_code == 2 and "raid" in result.output
