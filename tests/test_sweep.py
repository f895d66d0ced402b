"""The sweep's grammar beyond one grid: a list of grids (a main grid and smaller ones beside
it), `rules` values that set several rule keys together, the parameter columns every arm then
holds, the errors that name a grid's key, the command line dropping a key from every grid,
the `skills` key over a list of grids; and every shipped experiment parses, the Space Invaders
chart test among them as the short sweep it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.errors import ConfigError
from sim.experiment import load_experiment, parse_experiment

pytestmark = pytest.mark.without_engines  # runs while the engines compile

ROOT = Path(__file__).resolve().parents[1]
GRIDS = {
    "seats": ["greedy"],
    "games": 10,
    "sweep": [
        {"players": [2, 3], "missile.cost": [5, 8]},
        {"players": [4], "rules": [{"shot.steal": "highest"},
                                   {"mine.step": 2, "missile.cost": 12}]},
    ],
}  # fmt: skip


def test_a_list_of_grids_gives_each_grids_arms_in_turn():
    exp = parse_experiment(GRIDS)
    assert [a.name for a in exp.arms] == [
        "players=2, missile.cost=5",
        "players=2, missile.cost=8",
        "players=3, missile.cost=5",
        "players=3, missile.cost=8",
        "players=4, shot.steal=highest",
        "players=4, mine.step=2, missile.cost=12",
    ]
    last = exp.arms[-1]
    assert last.players == 4
    assert last.ruleset["mine.step"] == 2 and last.ruleset["missile.cost"] == 12
    # every arm holds every column: the value it plays of a key its grid does not sweep
    assert [c for c, _ in exp.param_columns] == ["missile.cost", "shot.steal", "mine.step"]
    assert dict(exp.arms[0].params) == {"missile.cost": 5, "shot.steal": "lowest", "mine.step": 1}
    assert dict(exp.arms[4].params)["missile.cost"] == 10  # the preset's


def test_a_seat_key_one_grid_does_not_sweep_holds_the_seats_played():
    exp = parse_experiment({
        "seats": ["economist", "cautious"], "players": 2,
        "sweep": [{"seats.all": ["greedy", "random"]}, {"seats.0.missile_at": [10]}],
    })  # fmt: skip
    params = [dict(a.params) for a in exp.arms]
    assert [p["seats.all"] for p in params] == [
        "greedy", "random", "economist(missile_at=10),cautious"
    ]  # fmt: skip
    assert [p["seats.0.missile_at"] for p in params] == ["", "", "10"]


def test_errors_name_the_grid_and_the_key(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("seats: greedy\nsweep:\n  - {missile.cost: [5, 8]}\n  - {missile.cots: [5]}\n")
    with pytest.raises(ConfigError) as err:
        load_experiment(bad)
    assert "bad.yaml:4" in str(err.value) and "sweep[1].missile.cots" in str(err.value)
    twice = {"seats": "greedy", "sweep": [{"missile.cost": [5]}, {"missile.cost": [5]}]}
    with pytest.raises(ConfigError, match="two arms of the sweep are named 'missile.cost=5'"):
        parse_experiment(twice)
    with pytest.raises(ConfigError, match="expected a mapping of rule keys"):
        parse_experiment({"seats": "greedy", "sweep": {"rules": [{"missile.cost": 5}, 7]}})
    with pytest.raises(ConfigError, match="expected a mapping of keys to lists"):
        parse_experiment({"seats": "greedy", "sweep": [{"missile.cost": [5]}, []]})


def test_a_key_set_on_the_command_line_leaves_every_grid():
    exp = parse_experiment(GRIDS, overrides=[("players", 4), ("missile.cost", 9)])
    assert [a.name for a in exp.arms] == ["shot.steal=highest", "mine.step=2, missile.cost=12"]
    assert {a.players for a in exp.arms} == {4}
    assert exp.arms[0].ruleset["missile.cost"] == 9  # the command line wins over the sweep
    assert exp.arms[1].ruleset["missile.cost"] == 9


def test_the_skills_key_over_a_list_of_grids():
    exp = parse_experiment({
        "seats": "skill", "players": 2, "skills": ["casual", "club"],
        "sweep": [{"missile.cost": [5, 8]}, {"mine.step": [2]}],
    })  # fmt: skip
    assert [a.name for a in exp.arms] == [
        "missile.cost=5@casual", "missile.cost=8@casual", "mine.step=2@casual",
        "missile.cost=5@club", "missile.cost=8@club", "mine.step=2@club",
    ]  # fmt: skip


def test_every_shipped_experiment_parses():
    """Every file in experiments/: an experiment for `sim run`, or a tune for `sim tune` (it
    has targets), which is an experiment plus its knobs and targets."""
    from sim.config.files import read_yaml
    from sim.tune.spec import load_tune

    files = sorted((ROOT / "experiments").glob("*.yaml"))
    assert len(files) > 10
    for path in files:
        if "targets" in read_yaml(path):
            assert load_tune(path).experiment.arms, path.name
        else:
            assert load_experiment(path).arms, path.name


def test_the_invaders_chart_test_is_a_main_grid_and_two_reference_tables():
    exp = load_experiment(ROOT / "experiments" / "invaders_difficulty.yaml")
    assert len(exp.arms) == 180 and exp.game == "space-invaders"
    cells = {(a.players, a.ruleset["setup.level"], a.ruleset["dexterity.skill"],
              a.lineup[0].name) for a in exp.arms if a.ruleset["powers.plain"] == "none"
             and a.ruleset["catalog.file"] == "default" and a.ruleset["geometry.file"] == "default"
             and a.ruleset["geometry.token_diameter_mm"] == 20}  # fmt: skip
    assert len(cells) == 4 * 4 * 3 * 3  # every table of the main grid, once
    variants = [a for a in exp.arms if a not in exp.arms[:144]]
    assert {(a.players, a.ruleset["setup.level"]) for a in variants} == {
        (2, "standard"),
        (4, "expert"),
    }
    assert all(a.ruleset["dexterity.skill"] == "casual" for a in variants)
    assert all([s.name for s in a.lineup] == ["tactical"] for a in variants)
    plain = [a for a in variants if a.ruleset["powers.plain"] != "none"]
    assert len(plain) == 2 * 11 and len(variants) - len(plain) == 2 * 7
