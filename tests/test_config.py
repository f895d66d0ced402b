"""Generic config helpers: YAML reading, dotted keys, coercion, validation, overrides."""

from __future__ import annotations

import pickle

import pytest

from sim.config.fields import Field, coerce, validate
from sim.config.files import read_yaml
from sim.config.keys import apply_overrides, flatten, parse_override, unflatten
from sim.errors import ConfigError, SimError

SCHEMA = {
    "missile.enabled": Field("bool"),
    "missile.cost": Field("int", min=0, max=100),
    "shot.steal": Field("choice", choices=("lowest", "highest")),
    "tokens.monsters": Field("int_list", min=0, max=30, length=5),
    "bias": Field("float", min=-1, max=1),
    "label": Field("str"),
}


def test_error_renders_file_key_message_hint():
    err = ConfigError(
        "unknown key",
        file="experiments/x.yaml",
        key="missile.cots",
        hint="Did you mean 'missile.cost'?",
    )
    assert str(err) == (
        "experiments/x.yaml: key 'missile.cots': unknown key. Did you mean 'missile.cost'?"
    )
    assert str(ConfigError("bad", file="a.yaml", line=3)) == "a.yaml:3: bad"
    assert str(ConfigError("bad", line=3)) == "line 3: bad"
    assert str(ConfigError("bad")) == "bad"
    assert isinstance(err, SimError)


def test_error_survives_pickling():
    err = ConfigError("bad", file="a.yaml", key="k", line=2, hint="fix it")
    copy = pickle.loads(pickle.dumps(err))
    assert type(copy) is ConfigError
    assert str(copy) == str(err)


def test_read_yaml(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text("missile:\n  cost: 8\n")
    assert read_yaml(path) == {"missile": {"cost": 8}}
    (tmp_path / "empty.yaml").write_text("# nothing\n")
    assert read_yaml(tmp_path / "empty.yaml") == {}


def test_read_yaml_syntax_error_names_file_and_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("missile:\n  cost: 8\n  enabled: [true\nshot: x\n")
    with pytest.raises(ConfigError) as info:
        read_yaml(path)
    assert info.value.file == str(path)
    assert info.value.line is not None and info.value.line >= 3
    assert str(info.value).startswith(f"{path}:{info.value.line}: invalid YAML")


def test_read_yaml_duplicate_key_is_an_error(tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text("missile:\n  cost: 8\n  cost: 9\n")
    with pytest.raises(ConfigError, match="duplicate key 'cost'") as info:
        read_yaml(path)
    assert info.value.line == 3


def test_read_yaml_missing_file_and_non_mapping(tmp_path):
    with pytest.raises(ConfigError, match="file not found") as info:
        read_yaml(tmp_path / "nope.yaml")
    assert info.value.hint
    (tmp_path / "list.yaml").write_text("- 1\n- 2\n")
    with pytest.raises(ConfigError, match="mapping"):
        read_yaml(tmp_path / "list.yaml")


def test_flatten_and_unflatten():
    nested = {"board": {"columns": 6, "rows": 10}, "tokens": {"monsters": [1, 2]}, "x": 1}
    flat = flatten(nested)
    assert flat == {"board.columns": 6, "board.rows": 10, "tokens.monsters": [1, 2], "x": 1}
    assert unflatten(flat) == nested
    assert flatten({"missile.cost": 8, "board": {"rows": 5}}) == {
        "missile.cost": 8,
        "board.rows": 5,
    }


def test_flatten_same_key_twice_is_an_error():
    with pytest.raises(ConfigError, match="twice"):
        flatten({"missile.cost": 8, "missile": {"cost": 9}}, file="x.yaml")


def test_parse_override():
    assert parse_override("missile.cost=8") == ("missile.cost", "8")
    assert parse_override(" label = a=b ") == ("label", "a=b")
    with pytest.raises(ConfigError, match="key=value"):
        parse_override("missile.cost")
    with pytest.raises(ConfigError, match="key=value"):
        parse_override("=8")


@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        ("missile.cost", "8", 8),
        ("missile.cost", 8, 8),
        ("missile.enabled", "true", True),
        ("missile.enabled", "no", False),
        ("missile.enabled", False, False),
        ("tokens.monsters", "[1,2,3,4,5]", [1, 2, 3, 4, 5]),
        ("tokens.monsters", "1, 2, 3, 4, 5", [1, 2, 3, 4, 5]),
        ("tokens.monsters", (1, 2, 3, 4, 5), [1, 2, 3, 4, 5]),
        ("shot.steal", "highest", "highest"),
        ("bias", "0.5", 0.5),
        ("bias", 1, 1.0),
        ("label", "off", "off"),  # verbatim: YAML would read it as false
    ],
)
def test_coerce_accepts(key, raw, expected):
    value = coerce(SCHEMA[key], raw, key=key)
    assert value == expected and type(value) is type(expected)


@pytest.mark.parametrize(
    ("key", "raw", "needle"),
    [
        ("missile.cost", "abc", "expected an integer in 0..100, got 'abc'"),
        ("missile.cost", True, "got true"),
        ("missile.cost", "true", "got true"),
        ("missile.cost", 8.5, "expected an integer"),
        ("missile.cost", "101", "out of range"),
        ("missile.cost", -1, "out of range"),
        ("missile.enabled", 3, "expected true or false, got 3"),
        ("missile.enabled", "1", "expected true or false"),
        ("shot.steal", "middle", "expected one of lowest, highest, got 'middle'"),
        ("tokens.monsters", "[1,2]", "2 items"),
        ("tokens.monsters", [1, 2, 3, 4, True], "item 5"),
        ("tokens.monsters", [1, 2, 3, 4, 31], "item 5 (31) out of range"),
        ("tokens.monsters", "[1,", "expected a list"),
        ("bias", "nan", "expected a number"),
        ("bias", "2.0", "out of range"),
        ("label", 5, "expected a string"),
    ],
)
def test_coerce_refuses(key, raw, needle):
    with pytest.raises(ConfigError) as info:
        coerce(SCHEMA[key], raw, file="f.yaml", key=key)
    assert needle in str(info.value)
    assert str(info.value).startswith(f"f.yaml: key '{key}': ")


def test_bad_choice_suggests_nearest():
    with pytest.raises(ConfigError, match="Did you mean 'lowest'"):
        coerce(SCHEMA["shot.steal"], "lowst", key="shot.steal")


def test_validate_returns_coerced_values():
    flat = {"missile.cost": "8", "shot.steal": "lowest"}
    assert validate(flat, SCHEMA, file="x") == {"missile.cost": 8, "shot.steal": "lowest"}


@pytest.mark.parametrize(
    ("key", "needle"),
    [
        ("missile.cots", "unknown key. Did you mean 'missile.cost'?"),
        ("misile.cost", "Did you mean 'missile.cost'?"),
        ("missile", "is a section, not a key. Set one of its keys: missile.enabled, missile.cost"),
        ("missile.cost.max", "'missile.cost' is a value, not a section"),
        ("enabled", "Did you mean 'missile.enabled'?"),
        ("zzz.qqq", "Valid sections: missile, shot, tokens"),
    ],
)
def test_unknown_key_suggestions(key, needle):
    with pytest.raises(ConfigError) as info:
        validate({key: 1}, SCHEMA, file="experiments/x.yaml")
    text = str(info.value)
    assert text.startswith(f"experiments/x.yaml: key '{key}': ")
    assert needle in text


def test_apply_overrides_from_strings_pairs_and_mappings():
    base = {"missile.cost": 10, "missile.enabled": True}
    assert apply_overrides(base, ["missile.cost=8"], SCHEMA) == {
        "missile.cost": 8,
        "missile.enabled": True,
    }
    assert apply_overrides(base, [("missile.cost", 8)], SCHEMA)["missile.cost"] == 8
    assert apply_overrides(base, {"missile": {"cost": 7}}, SCHEMA)["missile.cost"] == 7
    assert apply_overrides(base, "missile.cost=6", SCHEMA)["missile.cost"] == 6
    # A later override of the same key wins, as on a command line.
    assert apply_overrides(base, ["missile.cost=1", "missile.cost=2"], SCHEMA)["missile.cost"] == 2
    assert base["missile.cost"] == 10  # the input is not modified


def test_apply_overrides_names_the_source():
    with pytest.raises(ConfigError) as info:
        apply_overrides({}, ["missile.cots=8"], SCHEMA, source="experiments/e.yaml")
    assert str(info.value).startswith("experiments/e.yaml: key 'missile.cots'")


def test_field_rejects_bad_definitions():
    with pytest.raises(ValueError):
        Field("number")
    with pytest.raises(ValueError):
        Field("choice")
