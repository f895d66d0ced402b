"""A configuration key's kind and limits (`Field`), and a value checked and converted against
them: a schema of dotted keys (`Schema`) validates a mapping, naming the source, the key, what
was expected and the nearest known key or choice. Used by rulesets, experiment files, data
files and strategy parameters."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from sim import safe_yaml
from sim.config.words import did_you_mean, nearest, show_value
from sim.errors import ConfigError

KINDS = ("int", "float", "bool", "str", "choice", "int_list", "str_list")

Source = str | os.PathLike[str] | None


@dataclass(frozen=True)
class Field:
    """The type and allowed values of one configuration key; for a ruleset key, also where a
    compiled engine reads it (`slot` in its params array, see sim.rulesets.params_array): a
    choice is 1 there when it equals `flag` (without a flag: its index in `choices`), a number
    or a choice's index is stored plus `shift` (-1 for a rulebook's 1-based coordinate), a
    list of integers fills `length` slots from `slot`."""

    kind: str
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] = ()
    length: int | None = None
    doc: str = ""
    slot: int | None = None
    flag: str = ""
    shift: int = 0
    plain: str = ""  # the key's name in a sentence ("the missile's price"), on its schema line

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown field kind {self.kind!r}; expected one of {KINDS}")
        if self.kind == "choice" and not self.choices:
            raise ValueError("a choice field needs choices")
        if self.flag and self.flag not in self.choices:
            raise ValueError(f"flag {self.flag!r} is not one of the choices {self.choices}")
        object.__setattr__(self, "choices", tuple(self.choices))

    def describe(self) -> str:
        """What a valid value looks like, e.g. 'an integer in 0..100'."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "str":
            return "a string"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "int_list":
            count = f"{self.length} " if self.length is not None else ""
            return f"a list of {count}integers{_range_text(self)}"
        if self.kind == "str_list":
            count = f"{self.length} " if self.length is not None else ""
            return f"a list of {count}strings"
        noun = "an integer" if self.kind == "int" else "a number"
        return noun + _range_text(self)


Schema = dict[str, Field]


def validate(flat: Mapping[str, Any], schema: Schema, *, file: Source = None) -> dict[str, Any]:
    """Check every key against the schema and return the values converted to their types."""
    out = {}
    for key, raw in flat.items():
        field = schema.get(key)
        if field is None:
            raise unknown_key(key, schema, file=file)
        out[key] = coerce(field, raw, file=file, key=key)
    return out


def coerce(field: Field, raw: Any, *, file: Source = None, key: str | None = None) -> Any:
    """Convert a command-line string or a YAML value to the field's type, or raise ConfigError.

    Strings are read as YAML scalars ("8" -> 8, "true" -> True, "[1,2]" -> [1, 2]); bool and int
    never stand in for each other.
    """
    value = _parse_text(field, raw, file, key) if isinstance(raw, str) else raw
    # Errors show the parsed value: 'got 3', not "got '3'", for --set mine.enabled=3.
    return _COERCERS[field.kind](field, value, _Context(value, file, key))


def unknown_key(key: str, schema: Schema, *, file: Source = None) -> ConfigError:
    """The error for a key the schema does not hold, with the most useful suggestion."""
    children = [k for k in schema if k.startswith(key + ".")]
    if children:
        hint = "Set one of its keys: " + ", ".join(children)
        return ConfigError("is a section, not a key", file=file, key=key, hint=hint)
    parent = next((k for k in schema if key.startswith(k + ".")), None)
    if parent is not None:
        hint = f"Write {parent}=<{schema[parent].describe()}>"
        return ConfigError(f"'{parent}' is a value, not a section", file=file, key=key, hint=hint)
    return ConfigError("unknown key", file=file, key=key, hint=_unknown_key_hint(key, list(schema)))


def _unknown_key_hint(key: str, keys: list[str]) -> str:
    """The hint for an unknown dotted rule key: the nearest key of its own section first, then
    the one `did_you_mean` over every key, then the keys with the same last segment."""
    section, _, leaf = key.rpartition(".")
    siblings = {k.rpartition(".")[2]: k for k in keys if k.rpartition(".")[0] == section}
    # A typo in the last segment of a known section is the commonest mistake: 'missile.cots'.
    near = nearest(leaf, list(siblings))
    if near is not None:
        return f"Did you mean '{siblings[near]}'?"
    suggestion = did_you_mean(key, keys)
    if suggestion is not None:
        return suggestion
    # Right leaf, wrong or missing section: 'cost' -> missile.cost, upgrade.cost, ...
    same_leaf = [k for k in keys if k.rpartition(".")[2] == leaf.lower()]
    if same_leaf:
        return "Did you mean one of " + ", ".join(f"'{k}'" for k in same_leaf) + "?"
    sections = list(dict.fromkeys(k.partition(".")[0] for k in keys if "." in k))
    if sections:
        return "Valid sections: " + ", ".join(sections)
    return "Valid keys: " + ", ".join(keys)


@dataclass(frozen=True)
class _Context:
    raw: Any
    file: Source
    key: str | None

    def fail(self, field: Field, problem: str = "", hint: str | None = None) -> ConfigError:
        message = f"expected {field.describe()}, got {show_value(self.raw)}"
        if problem:
            message = f"{problem}: {message}"
        return ConfigError(message, file=self.file, key=self.key, hint=hint)


def _parse_text(field: Field, text: str, file: Source, key: str | None) -> Any:
    if field.kind in ("str", "choice"):
        return text  # taken verbatim: YAML would turn 'off' or 'no' into false
    try:
        safe_yaml.check(text, file)
        value = safe_yaml.load(text)
        if field.kind in ("int_list", "str_list") and isinstance(value, str):
            value = safe_yaml.load(f"[{text}]")  # also accept 1,2,3 without brackets
    except yaml.YAMLError:
        raise _Context(text, file, key).fail(field) from None
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _in_range(field: Field, value: float) -> bool:
    low = field.min if field.min is not None else -math.inf
    high = field.max if field.max is not None else math.inf
    return low <= value <= high


def _coerce_int(field: Field, value: Any, ctx: _Context) -> int:
    if not _is_int(value):
        raise ctx.fail(field)
    if not _in_range(field, value):
        raise ctx.fail(field, "out of range")
    return value


def _coerce_float(field: Field, value: Any, ctx: _Context) -> float:
    if not (_is_int(value) or isinstance(value, float)) or not math.isfinite(value):
        raise ctx.fail(field)
    if not _in_range(field, value):
        raise ctx.fail(field, "out of range")
    return float(value)


def _coerce_bool(field: Field, value: Any, ctx: _Context) -> bool:
    if not isinstance(value, bool):
        raise ctx.fail(field)
    return value


def _coerce_str(field: Field, value: Any, ctx: _Context) -> str:
    if not isinstance(value, str):
        raise ctx.fail(field)
    return value


def _coerce_choice(field: Field, value: Any, ctx: _Context) -> str:
    if not isinstance(value, str) or value not in field.choices:
        raise ctx.fail(field, hint=did_you_mean(str(value), field.choices))
    return value


def _list_items(field: Field, value: Any, ctx: _Context) -> list[tuple[int, Any]]:
    """A list field's items numbered from 1, once the value is a list of the right length."""
    if not isinstance(value, list | tuple):
        raise ctx.fail(field)
    if field.length is not None and len(value) != field.length:
        raise ctx.fail(field, f"{len(value)} items")
    return list(enumerate(value, start=1))


def _coerce_int_list(field: Field, value: Any, ctx: _Context) -> list[int]:
    for index, item in _list_items(field, value, ctx):
        if not _is_int(item):
            raise ctx.fail(field, f"item {index} is {show_value(item)}")
        if not _in_range(field, item):
            raise ctx.fail(field, f"item {index} ({item}) out of range")
    return list(value)


def _coerce_str_list(field: Field, value: Any, ctx: _Context) -> list[str]:
    for index, item in _list_items(field, value, ctx):
        if not isinstance(item, str):
            raise ctx.fail(field, f"item {index} is {show_value(item)}")
    return list(value)


_COERCERS: dict[str, Callable[[Field, Any, _Context], Any]] = {
    "int": _coerce_int,
    "float": _coerce_float,
    "bool": _coerce_bool,
    "str": _coerce_str,
    "choice": _coerce_choice,
    "int_list": _coerce_int_list,
    "str_list": _coerce_str_list,
}


def _range_text(field: Field) -> str:
    if field.min is not None and field.max is not None:
        return f" in {_num(field.min)}..{_num(field.max)}"
    if field.min is not None:
        return f" >= {_num(field.min)}"
    if field.max is not None:
        return f" <= {_num(field.max)}"
    return ""


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
