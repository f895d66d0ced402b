"""Game-agnostic configuration helpers.

YAML files are read into nested mappings, flattened to dotted keys (``missile.cost``) and checked
against a ``Schema``: a mapping of dotted keys to ``Field`` descriptions. Command-line overrides
(``key=value``) go through the same checks, so every error names its source, the key and what
was expected. Used by rulesets, experiment files and strategy parameters.
"""

from __future__ import annotations

import difflib
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from sim import safe_yaml
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
    plain: str = ""  # the key's name in a sentence ("the missile's price"); see rulesets.named

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


# --- reading YAML -------------------------------------------------------------------------


class _Loader(safe_yaml.SafeLoader):
    """SafeLoader that refuses duplicate keys (PyYAML silently keeps the last one)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            # Merge keys (<<) may legitimately be overridden; non-scalar keys are unhashable.
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith(":merge"):
                continue
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key '{key}'", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def read_yaml(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a YAML file whose top level is a mapping (an empty file gives {})."""
    data = _load_yaml(_read_text(path), path)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(
            f"expected a mapping of keys to values at the top level, got {_type_name(data)}",
            file=path,
            line=1,
        )
    return data


def _read_text(path: str | os.PathLike[str]) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        hint = "Check the path" + (
            "" if Path(path).is_absolute() else f"; relative paths start from {os.getcwd()}"
        )
        raise ConfigError("file not found", file=path, hint=hint) from None
    except UnicodeDecodeError:
        raise ConfigError("not a UTF-8 text file", file=path) from None
    except OSError as exc:
        raise ConfigError(f"cannot read the file: {exc.strerror}", file=path) from None


def _load_yaml(text: str, path: str | os.PathLike[str]) -> Any:
    safe_yaml.check(text, path)  # size, depth and alias expansion, before anything is built
    try:
        return yaml.load(text, Loader=_Loader)  # safe: _Loader derives from SafeLoader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "syntax error"
        line = mark.line + 1 if mark else None
        column = f" (column {mark.column + 1})" if mark else ""
        raise ConfigError(f"invalid YAML: {problem}{column}", file=path, line=line) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"invalid YAML: {exc}", file=path) from None
    except (ValueError, OverflowError) as exc:  # a value YAML cannot build: "\U0011ffff", a date
        raise ConfigError(f"invalid YAML: {exc}", file=path) from None


def load_value(text: str, *, source: Source = "--set") -> Any:
    """A value given on the command line, read as YAML within the same bounds as a file."""
    safe_yaml.check(text, source)
    return safe_yaml.load(text)


# --- where a key is written ---------------------------------------------------------------


def line_map(text: str) -> dict[tuple[Any, ...], int]:
    """Line (1-based) of every mapping key and list item of a YAML text, by its path of
    segments (a dotted key gives one segment per part; a list item its index)."""
    lines: dict[tuple[Any, ...], int] = {}
    if not text:
        return lines
    try:
        root = yaml.compose(text, Loader=safe_yaml.SafeLoader)
    except yaml.YAMLError:
        return lines

    def walk(node: Any, prefix: tuple[Any, ...]) -> None:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    continue
                path = prefix + tuple(p for p in str(key_node.value).split(".") if p)
                lines.setdefault(path, key_node.start_mark.line + 1)
                walk(value_node, path)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                lines.setdefault((*prefix, i), item.start_mark.line + 1)
                walk(item, (*prefix, i))

    walk(root, ())
    return lines


def key_path(key: str) -> tuple[Any, ...]:
    """'cards[3].speed' -> ('cards', 3, 'speed'): a key as line_map's paths spell it."""
    out: list[Any] = []
    for part in key.split("."):
        name, *indices = part.split("[")
        if name:
            out.append(name)
        out.extend(int(i.rstrip("]")) for i in indices if i.rstrip("]").isdigit())
    return tuple(out)


def check_keys(mapping: Any, allowed: Sequence[str], *, file: Source = None, where: str = "",
               error: type[ConfigError] = ConfigError) -> None:  # fmt: skip
    """Refuse a value that is not a mapping, and a key not in `allowed` (named `where` + key,
    with the nearest allowed key as the hint); `error` is the class raised."""
    if not isinstance(mapping, Mapping):
        raise error("must be a mapping", file=file, key=where.rstrip(".") or None)
    for key in mapping:
        if key not in allowed:
            near = nearest(str(key), allowed)
            hint = f"Did you mean '{near}'?" if near else f"Keys: {', '.join(allowed)}."
            raise error("unknown key", file=file, key=f"{where}{key}", hint=hint)


class DataFile:
    """A YAML data file (a game's card catalog, its board's measurements) checked against
    schemas as strictly as a ruleset: every error names the file, the key, its line and a fix."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.data = read_yaml(self.path)
        self.lines = line_map(_read_text(self.path))

    def fail(self, message: str, key: str | None = None, *, hint: str | None = None
             ) -> ConfigError:  # fmt: skip
        path = key_path(key) if key else ()
        line = next((self.lines[path[:n]] for n in range(len(path), 0, -1)
                     if path[:n] in self.lines), None)  # fmt: skip
        return ConfigError(message, file=self.path, key=key, line=line, hint=hint)

    def keys(self, mapping: Any, allowed: Sequence[str], where: str = "") -> None:
        """check_keys, the error located in the file."""
        try:
            check_keys(mapping, allowed, where=where)
        except ConfigError as err:
            raise self.fail(err.message, err.key, hint=err.hint) from None

    def values(
        self, mapping: Any, schema: Schema, where: str = "", *,
        required: Sequence[str] = (), hint: str | None = None,
    ) -> dict[str, Any]:  # fmt: skip
        """The mapping's values checked and converted by `schema` (as `validate`); the
        `required` keys must be there (`hint` says how to give them)."""
        self.keys(mapping, list(schema), where)
        missing = [key for key in required if key not in mapping]
        if missing:
            raise self.fail(f"missing keys: {', '.join(missing)}",
                            where.rstrip(".") or None, hint=hint)  # fmt: skip
        try:
            return validate(dict(mapping), schema)
        except ConfigError as err:
            raise self.fail(err.message, f"{where}{err.key}", hint=err.hint) from None


# --- dotted keys --------------------------------------------------------------------------


def flatten(nested: Mapping[Any, Any], *, file: Source = None) -> dict[str, Any]:
    """{'a': {'b': 1}} -> {'a.b': 1}. Lists and empty mappings are leaves.

    Keys already dotted are kept, so ``missile.cost: 8`` and ``missile: {cost: 8}`` both work;
    giving the same key both ways is an error.
    """
    flat: dict[str, Any] = {}
    for key, value in nested.items():
        if isinstance(value, Mapping) and value:
            items = {f"{key}.{k}": v for k, v in flatten(value, file=file).items()}
        else:
            items = {str(key): value}
        for dotted, leaf in items.items():
            if dotted in flat:
                raise ConfigError("key given twice", file=file, key=dotted)
            flat[dotted] = leaf
    return flat


def unflatten(flat: Mapping[str, Any]) -> dict[str, Any]:
    """{'a.b': 1} -> {'a': {'b': 1}}."""
    nested: dict[str, Any] = {}
    for dotted, value in flat.items():
        *sections, leaf = dotted.split(".")
        node = nested
        for section in sections:
            node = node.setdefault(section, {})
            if not isinstance(node, dict):
                raise ConfigError("is both a value and a section", key=dotted)
        if isinstance(node.get(leaf), dict):
            raise ConfigError("is both a value and a section", key=dotted)
        node[leaf] = value
    return nested


# --- overrides and coercion ---------------------------------------------------------------

Overrides = Mapping[str, Any] | Sequence[str | tuple[str, Any]]


def parse_override(text: str, *, source: Source = "--set") -> tuple[str, str]:
    """'missile.cost=8' -> ('missile.cost', '8'). The value stays a string for coerce()."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise ConfigError(
            f"expected key=value, got '{text}'", file=source, hint="For example missile.cost=8."
        )
    return key.strip(), value.strip()


def override_pairs(overrides: Overrides, *, source: Source = "--set") -> list[tuple[str, Any]]:
    """Normalise overrides given as a mapping, 'key=value' strings or (key, value) pairs."""
    if isinstance(overrides, Mapping):
        return list(flatten(overrides, file=source).items())
    if isinstance(overrides, str):  # a lone string is one override, not a list of characters
        overrides = [overrides]
    if not isinstance(overrides, Sequence):
        raise ConfigError(f"expected rule keys and values, got {overrides!r}", file=source)
    pairs = []
    for item in overrides:
        if isinstance(item, str):
            pairs.append(parse_override(item, source=source))
        elif isinstance(item, Sequence) and len(item) == 2:
            pairs.append((str(item[0]), item[1]))
        else:
            raise ConfigError(
                f"an override must be 'key=value' or (key, value), got {item!r}", file=source
            )
    return pairs


def apply_overrides(
    flat: Mapping[str, Any], overrides: Overrides, schema: Schema, *, source: Source = "--set"
) -> dict[str, Any]:
    """A copy of ``flat`` with the validated overrides applied (a later override wins)."""
    checked = validate(dict(override_pairs(overrides, source=source)), schema, file=source)
    return {**flat, **checked}


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
        near = nearest(str(value), field.choices)
        raise ctx.fail(field, hint=f"Did you mean '{near}'?" if near else None)
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


# --- suggestions --------------------------------------------------------------------------


def nearest(word: str, candidates: Sequence[str]) -> str | None:
    """The candidate closest to ``word`` (case-insensitive), or None if nothing is close.

    Of the close ones (difflib), the fewest edits wins, then the same length: a mistyped
    letter ('gamez') is likelier than a missing one, so it suggests 'games', not 'game'.
    """
    lowered = {c.lower(): c for c in candidates}
    found = difflib.get_close_matches(word.lower(), list(lowered), n=3)
    if not found:
        return None
    w = word.lower()
    return lowered[min(found, key=lambda c: (_edits(w, c), abs(len(c) - len(w))))]


def _edits(a: str, b: str) -> int:
    """Insertions, deletions, substitutions and swaps of neighbours turning a into b."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, prev2[j - 2] + 1)
            row.append(cost)
        prev2, prev = prev, row
    return prev[-1]


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
    return ConfigError("unknown key", file=file, key=key, hint=_did_you_mean(key, list(schema)))


def _did_you_mean(key: str, keys: list[str]) -> str:
    section, _, leaf = key.rpartition(".")
    siblings = {k.rpartition(".")[2]: k for k in keys if k.rpartition(".")[0] == section}
    # A typo in the last segment of a known section is the commonest mistake: 'missile.cots'.
    near = nearest(leaf, list(siblings))
    if near is not None:
        return f"Did you mean '{siblings[near]}'?"
    near = nearest(key, keys)
    if near is not None:
        return f"Did you mean '{near}'?"
    # Right leaf, wrong or missing section: 'cost' -> missile.cost, upgrade.cost, ...
    same_leaf = [k for k in keys if k.rpartition(".")[2] == leaf.lower()]
    if same_leaf:
        return "Did you mean one of " + ", ".join(f"'{k}'" for k in same_leaf) + "?"
    sections = list(dict.fromkeys(k.partition(".")[0] for k in keys if "." in k))
    if sections:
        return "Valid sections: " + ", ".join(sections)
    return "Valid keys: " + ", ".join(keys)


# --- rendering ----------------------------------------------------------------------------


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


def show_value(value: Any) -> str:
    """A value as the user would have written it (in an error message)."""
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    return repr(value)


def _type_name(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    return f"a {type(value).__name__}"
