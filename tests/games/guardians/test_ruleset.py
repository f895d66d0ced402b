"""Guardians rulesets: presets, extends, overrides, errors, cross-key checks, YAML round trip."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.config.files import read_yaml
from sim.config.keys import flatten
from sim.errors import ConfigError
from sim.games.guardians.ruleset import (
    PRESETS,
    SCHEMA,
    Ruleset,
    load_ruleset,
    preset_path,
)
from sim.rulesets import METADATA

RULES_MD = Path(__file__).resolve().parents[3] / "docs" / "games" / "guardians" / "rules.md"


def _error(*args, **kwargs) -> str:
    with pytest.raises(ConfigError) as info:
        load_ruleset(*args, **kwargs)
    return str(info.value)


def _diff(name: str) -> dict:
    base, other = load_ruleset("guardians").values, load_ruleset(name).values
    return {key: other[key] for key in SCHEMA if other[key] != base[key]}


def test_schema_matches_guardians_yaml_in_keys_and_order():
    data = read_yaml(preset_path("guardians"))
    body = {k: v for k, v in data.items() if k not in METADATA}
    assert list(flatten(body)) == list(SCHEMA)


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_loads(name):
    ruleset = load_ruleset(name)
    assert ruleset.name == name
    assert ruleset.title
    assert set(ruleset.values) == set(SCHEMA)


def test_advanced_differs_in_upgrades_and_power_up():
    assert _diff("guardians-advanced") == {"upgrade.enabled": True, "power_up.enabled": True}


def test_space_defenders_differs_in_tokens_descent_collision_raid():
    assert _diff("space-defenders") == {
        "tokens.monsters": (12, 12, 12, 12, 12),
        "descent.check": "end_of_turn",
        "descent.on_mine_empty": True,
        "descent.needs_full_row": True,
        "collision.destroyed_fighter": "out",
        "raid.when": "enter_bottom",
    }


def test_space_defenders_upgrades_is_sd_plus_upgrades_and_descent_after_shot():
    expected = {k: v for k, v in _diff("space-defenders").items() if k != "descent.check"}
    expected |= {"upgrade.enabled": True, "power_up.enabled": True, "power_up.permanent": True}
    assert _diff("space-defenders-upgrades") == expected


def test_descent_table_in_rules_md_matches_presets():
    columns = ("guardians", "space-defenders", "space-defenders-upgrades")
    rows = re.findall(
        r"^\| `(descent\.\w+)`.*?\| `?(\w+)`? \| `?(\w+)`? \| `?(\w+)`? \|$",
        RULES_MD.read_text(),
        flags=re.M,
    )
    assert len(rows) == 3
    for key, *cells in rows:
        for preset, cell in zip(columns, cells, strict=True):
            assert str(load_ruleset(preset)[key]).lower() == cell, (key, preset)


def test_values_are_read_only():
    ruleset = load_ruleset("guardians")
    with pytest.raises(TypeError):
        ruleset.values["missile.cost"] = 1  # type: ignore[index]
    assert isinstance(ruleset["tokens.monsters"], tuple)
    with pytest.raises(KeyError, match=r"missile\.cost"):
        ruleset["missile.cots"]


@pytest.mark.parametrize(
    "overrides",
    [["missile.cost=8"], {"missile.cost": 8}, {"missile": {"cost": 8}}, [("missile.cost", "8")]],
)
def test_override_from_strings_and_typed_values(overrides):
    ruleset = load_ruleset("guardians", overrides)
    assert ruleset["missile.cost"] == 8
    assert ruleset.overrides == (("missile.cost", 8),)


def test_with_overrides_keeps_history_and_changes_fingerprint():
    base = load_ruleset("guardians")
    changed = base.with_overrides(["missile.cost=8"]).with_overrides({"upgrade.enabled": True})
    assert changed.overrides == (("missile.cost", 8), ("upgrade.enabled", True))
    assert base["missile.cost"] == 10
    assert changed.fingerprint() != base.fingerprint()
    assert base.with_overrides([]) is base
    assert load_ruleset("guardians").fingerprint() == base.fingerprint()
    assert hash(changed) == hash(load_ruleset("guardians", changed.overrides))


def test_unknown_key_names_source_key_and_nearest():
    text = _error("guardians", ["missile.cots=8"])
    assert text.startswith("--set: key 'missile.cots'")
    assert "missile.cost" in text.split("unknown key")[1]
    text = _error("guardians", {"missile.cots": 8}, source="experiments/x.yaml")
    assert text == (
        "experiments/x.yaml: key 'missile.cots': unknown key. Did you mean 'missile.cost'?"
    )


@pytest.mark.parametrize(
    ("override", "needles"),
    [
        ("missile.cost=abc", ["key 'missile.cost'", "expected an integer in 0..100", "'abc'"]),
        ("mine.enabled=3", ["key 'mine.enabled'", "expected true or false, got 3"]),
        ("missile.cost=true", ["key 'missile.cost'", "got true"]),
        ("board.columns=20", ["key 'board.columns'", "out of range", "3..8"]),
        ("shot.steal=middle", ["key 'shot.steal'", "lowest", "highest"]),
        ("missile=3", ["key 'missile'", "section", "missile.enabled", "missile.cost"]),
        ("descent.check=after-shot", ["Did you mean 'after_shot'?"]),
        ("tokens.monsters=[1,2,3]", ["3 items", "a list of 5 integers in 0..30"]),
    ],
)
def test_bad_overrides(override, needles):
    text = _error("guardians", [override])
    assert text.startswith("--set: ")
    for needle in needles:
        assert needle in text


@pytest.mark.parametrize(
    ("overrides", "key", "needle"),
    [
        (["board.start_rows=9"], "board.start_rows", "at most board.rows - 2 (8)"),
        (["board.rows=5", "board.start_rows=3"], "board.rows", "board.rows - board.start_rows"),
        (["mine.column=7", "board.columns=6"], "mine.column", "at most board.columns (6)"),
        (["mine.first_row=5", "mine.last_row=3"], "mine.first_row", "at most mine.last_row (3)"),
        (["mine.last_row=7"], "mine.last_row", "at most board.rows - board.start_rows (6)"),
        (["tokens.monsters=[4,4,4,4,4]"], "tokens.monsters", "cannot fill the start rows"),
    ],
)
def test_cross_key_checks(overrides, key, needle):
    with pytest.raises(ConfigError) as info:
        load_ruleset("guardians", overrides)
    assert info.value.key == key
    assert info.value.file == "--set"
    assert needle in str(info.value)


def test_mine_checks_skipped_without_the_mine():
    overrides = ["mine.enabled=false", "board.rows=6", "board.start_rows=4"]
    ruleset = load_ruleset("guardians", overrides)
    assert ruleset["board.rows"] == 6


def test_unknown_preset_suggests_nearest():
    text = _error("space-defender")
    assert "unknown preset 'space-defender'" in text
    assert "Did you mean 'space-defenders'?" in text
    assert all(name in text for name in PRESETS)


def test_yaml_syntax_error_names_file_and_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("extends: guardians\nmissile:\n  cost: 8\n   enabled: true\n")
    with pytest.raises(ConfigError) as info:
        load_ruleset(str(path))
    assert info.value.file == str(path)
    assert info.value.line in (3, 4)
    assert str(info.value).startswith(f"{path}:{info.value.line}: ")


def test_user_file_extends_preset_and_names_itself_in_errors(tmp_path):
    path = tmp_path / "cheap.yaml"
    path.write_text("extends: space-defenders\nmissile:\n  cost: 5\n")
    ruleset = load_ruleset(path)
    assert ruleset.name == "cheap" and ruleset["missile.cost"] == 5
    assert ruleset["raid.when"] == "enter_bottom"
    path.write_text("extends: space-defenders\nmissile:\n  cots: 5\n")
    assert _error(path).startswith(f"{path}: key 'missile.cots': unknown key")


def test_preset_file_errors_name_the_preset_file(tmp_path):
    path = tmp_path / "tall.yaml"
    path.write_text("extends: guardians\nboard:\n  start_rows: 9\n")
    text = _error(path)
    assert text.startswith(f"{path}: key 'board.start_rows'")


def test_extends_relative_path_chain(tmp_path):
    (tmp_path / "base.yaml").write_text("extends: guardians\nmissile:\n  cost: 5\n")
    (tmp_path / "sub").mkdir()
    child = tmp_path / "sub" / "child.yaml"
    child.write_text("extends: ../base.yaml\nname: child\nupgrade:\n  enabled: true\n")
    ruleset = load_ruleset(child)
    assert (ruleset["missile.cost"], ruleset["upgrade.enabled"]) == (5, True)


def test_extends_cycle(tmp_path):
    (tmp_path / "a.yaml").write_text("extends: b.yaml\n")
    (tmp_path / "b.yaml").write_text("extends: a.yaml\n")
    text = _error(tmp_path / "a.yaml")
    assert "extends cycle" in text and "a.yaml" in text and "b.yaml" in text


def test_extends_unknown_parent(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("extends: guardians-advance\n")
    text = _error(path)
    assert text.startswith(f"{path}: key 'extends': unknown preset 'guardians-advance'")
    assert "Did you mean 'guardians-advanced'?" in text
    path.write_text("extends: missing.yaml\n")
    assert "parent file not found" in _error(path)


def test_root_file_must_hold_every_key(tmp_path):
    path = tmp_path / "partial.yaml"
    path.write_text("missile:\n  cost: 5\n")
    text = _error(path)
    assert "missing keys: board.columns" in text and "extends: guardians" in text


def test_metadata_must_be_strings(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("extends: guardians\nname: 5\n")
    assert _error(path).startswith(f"{path}: key 'name': expected a string")


@pytest.mark.parametrize("name", PRESETS)
def test_to_yaml_round_trips(tmp_path, name):
    ruleset = load_ruleset(name, ["missile.cost=8", "tokens.monsters=[1,20,20,20,20]"])
    path = tmp_path / "effective.yaml"
    path.write_text(ruleset.to_yaml())
    again = load_ruleset(path)
    assert (again.name, again.title) == (ruleset.name, ruleset.title)
    assert again.values == ruleset.values
    assert again.fingerprint() == ruleset.fingerprint()


def test_to_yaml_layout():
    text = load_ruleset("guardians", ["missile.cost=8"]).to_yaml()
    lines = text.splitlines()
    assert lines[:3] == [
        "# override: missile.cost=8",
        "name: guardians",
        "title: Guardians of Space, base game",
    ]
    assert "  monsters: [11, 11, 11, 11, 12]" in lines
    sections = [line[:-1] for line in lines if re.fullmatch(r"[a-z_]+:", line)]
    assert sections == list(dict.fromkeys(key.split(".")[0] for key in SCHEMA))


def test_nested_gives_plain_lists():
    nested = load_ruleset("guardians").nested()
    assert nested["tokens"]["monsters"] == [11, 11, 11, 11, 12]
    assert nested["missile"] == {"enabled": True, "cost": 10}


def test_ruleset_direct_construction_freezes_values():
    values = {"tokens.monsters": [1, 2]}
    ruleset = Ruleset("x", "X", values)
    values["tokens.monsters"].append(3)
    assert ruleset["tokens.monsters"] == (1, 2)


@given(st.integers(min_value=0, max_value=100), st.booleans())
def test_missile_cost_in_range_is_accepted(cost, as_text):
    value = str(cost) if as_text else cost
    assert load_ruleset("guardians", {"missile.cost": value})["missile.cost"] == cost


@given(st.one_of(st.integers(max_value=-1), st.integers(min_value=101)), st.booleans())
def test_missile_cost_out_of_range_is_refused(cost, as_text):
    value = str(cost) if as_text else cost
    with pytest.raises(ConfigError, match="out of range"):
        load_ruleset("guardians", {"missile.cost": value})


def test_every_params_slot_is_filled_by_exactly_one_key():
    """The schema is the one place a key meets the engine's params slot (layout.P_*)."""
    from sim.games.guardians import layout as L
    from sim.games.guardians.ruleset import to_params

    used = [f.slot + k for f in SCHEMA.values() if f.slot is not None
            for k in range(f.length or 1)]  # fmt: skip
    assert sorted(used) == list(range(L.N_PARAMS))
    p = to_params(load_ruleset("space-defenders").values)
    assert p.shape == (L.N_PARAMS,)
    assert p[L.P_MINE_COL] == 0  # the rulebook's column 1, 0-based for the engine
    assert p[L.P_RAID_ENTER_BOTTOM] == 1 and p[L.P_STEAL_HIGHEST] == 0
