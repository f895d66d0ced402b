"""Alien-raid rulesets: presets, overrides, the YAML round trip, the other readings."""

import pytest

from sim.errors import ConfigError
from sim.games.alien_raid.ruleset import PRESETS, SCHEMA, load_ruleset


@pytest.mark.parametrize("preset", PRESETS)
def test_presets_load_with_every_key(preset):
    r = load_ruleset(preset)
    assert all(key in r.values for key in SCHEMA)


def test_the_other_readings_change_only_the_ruled_keys():
    ruled, other = load_ruleset("alien-raid"), load_ruleset("alien-raid-other-readings")
    changed = {k for k in ruled.values if ruled[k] != other[k]}
    assert changed == {
        "game.tasks_per_players",
        "fuel.max",
        "credit.condition",
        "credit.cards",
        "credit.repay_when",
        "compensation.keep",
        "compensation.bonus_humans",
        "tasks.first_tie",
        "battle.losers_order",
        "battle.first_of_equals",
        "fight.stations_to",
        "fight.jam",
        "reward.lost_catch_card",
    }


def test_to_yaml_loads_back_to_the_same_game(tmp_path):
    r = load_ruleset("alien-raid", ["fuel.max=13", "catalog.ships.cruiser.price=40000"])
    path = tmp_path / "effective.yaml"
    path.write_text(r.to_yaml())
    again = load_ruleset(str(path))
    assert again.fingerprint() == r.fingerprint()
    assert "# override: fuel.max=13" in r.to_yaml()


def test_overrides_are_validated():
    with pytest.raises(ConfigError, match="Did you mean 'fuel.max'"):
        load_ruleset("alien-raid", ["fuel.maks=3"])
    with pytest.raises(ConfigError, match="fuel.max"):
        load_ruleset("alien-raid", ["fuel.max=3"])  # below fuel.start
    with pytest.raises(ConfigError, match="unknown preset"):
        load_ruleset("alien-raidd")


def test_a_ruleset_file_extends_a_preset(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(
        "extends: alien-raid\nname: house\ncredit: {repay: 70000}\n"
        "catalog: {ships: {cruiser: {attack: 10}}}\n"
    )
    r = load_ruleset(str(path))
    assert r["credit.repay"] == 70000
    assert r["catalog.ships.cruiser.attack"] == 10
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: alien-raid\ncatalog: {ships: {cruiser: {atack: 10}}}\n")
    with pytest.raises(ConfigError, match="unknown card field") as err:
        load_ruleset(str(bad))
    assert str(bad) in str(err.value)
