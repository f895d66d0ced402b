"""Rulesets as data: a game's key schema, its preset files, and the immutable Ruleset.

A ruleset file is a YAML mapping of sections (``missile: {cost: 10}``) plus the metadata keys
``name``, ``title`` and ``extends`` (a preset name or a path relative to the file). A game
declares a `RulesetFamily` (its schema, its presets' folder, its checks across keys) and loads
every ruleset through it; every error names the file (or `--set`), the key and a fix.

Some keys may be filled from data the ruleset names rather than written in it (a game's card
catalog, its board's measurements): the family's `fill` completes them after the files and
overrides are merged, and fills them again when an override changes what they come from.
Where the data itself says which keys exist (every field of every card of a catalog), the
family names their prefix (`open`): such keys pass the schema as given and `fill` checks
them against the data, so any field can be set like a rule key.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import yaml

from sim.config.fields import Field, Schema, unknown_key, validate
from sim.config.files import read_yaml
from sim.config.keys import Overrides, flatten, override_pairs, unflatten
from sim.config.words import did_you_mean
from sim.errors import ConfigError

METADATA = ("name", "title", "extends")

# values -> ((keys involved, message), ...): rules broken by a combination of keys
CrossChecks = Callable[[Mapping[str, Any]], Iterator[tuple[tuple[str, ...], str]]]


# (values set by files and overrides, origin) -> every value: the keys a family fills from
# the data its values name; origin maps a key to (rank, the file or --set that set it)
Fill = Callable[[Mapping[str, Any], Mapping[str, tuple[int, str]]], dict[str, Any]]


def _no_cross_checks(values: Mapping[str, Any]) -> Iterator[tuple[tuple[str, ...], str]]:
    return iter(())


def switch(slot: int, doc: str, choices: tuple[str, ...] = (), flag: str = "", *,
           plain: str) -> Field:  # fmt: skip
    """A rule key the engine reads as 1 or 0 at `slot` of its params array: a bool, or a
    choice that is 1 when it equals `flag`; `plain` is how a sentence says it."""
    if choices:
        return Field("choice", choices=choices, flag=flag, slot=slot, doc=doc, plain=plain)
    return Field("bool", slot=slot, doc=doc, plain=plain)


@dataclass(frozen=True)
class RulesetFamily:
    """The rulesets of one game: every key (in the order of the base preset's file), the
    presets (files `<name>.yaml` in `folder`; the first holds every key but the `filled`
    ones), the checks across keys, and `fill`, which completes the `filled` keys (from the
    data files the values name) before the checks run."""

    schema: Schema
    presets: tuple[str, ...]
    folder: Path
    cross_checks: CrossChecks = _no_cross_checks
    fill: Fill | None = None
    filled: tuple[str, ...] = ()
    open: tuple[str, ...] = ()  # prefixes of keys the data files define (checked by `fill`)

    def load(
        self, name_or_path: str | os.PathLike[str], overrides: Overrides = (), *,
        source: str = "--set",
    ) -> Ruleset:  # fmt: skip
        """Load a preset name or a YAML path, resolve ``extends`` and apply overrides. Every
        file is validated with that file named in errors; overrides name ``source``."""
        chain = self._chain(os.fspath(name_or_path))
        given, origin = self._merge(chain)
        values = self.complete(given, origin)
        top_file, top = chain[-1]
        name = top.get("name", Path(top_file).stem)
        ruleset = Ruleset(name, top.get("title", name), values, family=self, given=frozenset(given))
        return ruleset.with_overrides(overrides, source=source)

    def complete(self, given: Mapping[str, Any], origin: Mapping[str, tuple[int, str]]
                 ) -> dict[str, Any]:  # fmt: skip
        """Every value: the given ones, the filled keys added (`fill`), checked across keys."""
        values = self.fill(given, origin) if self.fill is not None else dict(given)
        self.check(values, origin)
        return values

    def preset_path(self, name: str) -> Path:
        """The YAML file of a preset."""
        if name not in self.presets:
            raise self._unknown_preset(name, file=None)
        return self.folder / f"{name}.yaml"

    def check(self, values: Mapping[str, Any], origin: Mapping[str, tuple[int, str]]) -> None:
        """Raise ConfigError for the first rule broken by a combination of keys, naming the
        most recently set key among those involved (the one the user just changed); `origin`
        maps a key to (rank, source), a higher rank applied later."""
        for keys, message in self.cross_checks(values):
            blamed = max(keys, key=lambda k: origin.get(k, (-1, ""))[0])
            file = origin.get(blamed, (-1, None))[1]
            raise ConfigError(message, file=file, key=blamed)

    def validate(self, flat: Mapping[str, Any], *, file: Any) -> dict[str, Any]:
        """The values checked by the schema; a key under an `open` prefix that the schema does
        not name is kept as given, for `fill` to check against the data."""
        given = {key: value for key, value in flat.items() if not self._is_open(key)}
        checked = validate(given, self.schema, file=file)
        return {key: checked.get(key, value) for key, value in flat.items()}

    def _is_open(self, key: str) -> bool:
        return key not in self.schema and key.startswith(self.open)  # never with no prefixes

    def order(self, key: str) -> int:
        keys = list(self.schema)
        return keys.index(key) if key in self.schema else len(keys)

    def _chain(self, ref: str) -> list[tuple[str, dict[str, Any]]]:
        """[(file, data), ...] from the root (no ``extends``) to ``ref``."""
        chain: list[tuple[str, dict[str, Any]]] = []
        seen: list[Path] = []
        path, referrer = self._locate(ref, referrer=None), None
        while path is not None:
            if path.resolve() in seen:
                cycle = " -> ".join(str(f) for f, _ in chain) + f" -> {path}"
                raise ConfigError(f"extends cycle: {cycle}", file=referrer, key="extends")
            seen.append(path.resolve())
            data = read_yaml(path)
            for key in METADATA:
                if key in data and not isinstance(data[key], str):
                    raise ConfigError("expected a string", file=path, key=key)
            chain.append((str(path), data))
            parent, referrer = data.get("extends"), str(path)
            path = self._locate(parent, referrer=path) if parent is not None else None
        return chain[::-1]

    def _locate(self, ref: str, *, referrer: Path | None) -> Path:
        """A preset name or a path (relative to the referring file's folder)."""
        if ref in self.presets:
            return self.folder / f"{ref}.yaml"
        base = referrer.parent if referrer is not None else Path()
        path = base / ref
        if ref.endswith((".yaml", ".yml")) or "/" in ref or os.sep in ref or _is_file(path):
            if referrer is not None and not _is_file(path):
                raise ConfigError(f"parent file not found: {path}", file=referrer, key="extends")
            return path
        raise self._unknown_preset(ref, file=referrer)

    def _unknown_preset(self, ref: str, *, file: Path | None) -> ConfigError:
        presets = f"Presets: {', '.join(self.presets)}; or give a path to a .yaml file"
        hint = did_you_mean(ref, self.presets, then=presets)
        key = "extends" if file is not None else None
        return ConfigError(f"unknown preset '{ref}'", file=file, key=key, hint=hint)

    def _merge(self, chain: list[tuple[str, dict[str, Any]]]) -> tuple[dict, dict]:
        """Overlay the files root first; origin maps each key to (rank, file that set it)."""
        values: dict[str, Any] = {}
        origin: dict[str, tuple[int, str]] = {}
        for rank, (file, data) in enumerate(chain):
            body = {k: v for k, v in data.items() if k not in METADATA}
            checked = self.validate(flatten(body, file=file), file=file)
            values.update(checked)
            origin.update(dict.fromkeys(checked, (rank, file)))
        missing = [key for key in self.schema if key not in values and key not in self.filled]
        if missing:
            more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
            hint = (f"Start from a preset, e.g. 'extends: {self.presets[0]}', to inherit every "
                    "other key")  # fmt: skip
            raise ConfigError(f"missing keys: {', '.join(missing[:5])}{more}",
                              file=chain[0][0], hint=hint)  # fmt: skip
        return values, origin


@dataclass(frozen=True)
class Ruleset:
    """An effective, validated ruleset. ``values`` maps dotted keys to values (read-only)."""

    name: str
    title: str
    values: Mapping[str, Any]
    overrides: tuple[tuple[str, Any], ...] = ()
    family: RulesetFamily | None = field(default=None, compare=False, repr=False)
    # keys set by a file or an override (the others were filled from data they name)
    given: frozenset[str] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Lists become tuples so that nothing reachable from a Ruleset can be mutated.
        frozen = {key: _freeze(value) for key, value in self.values.items()}
        object.__setattr__(self, "values", MappingProxyType(frozen))
        overrides = tuple((key, _freeze(value)) for key, value in self.overrides)
        object.__setattr__(self, "overrides", overrides)

    def __reduce__(self):  # a read-only mapping does not pickle; the values do
        fields = (self.name, self.title, dict(self.values), self.overrides, self.family)
        return (Ruleset, (*fields, self.given))

    def __getitem__(self, key: str) -> Any:
        try:
            return self.values[key]
        except KeyError:
            schema = self.family.schema if self.family else {}
            raise KeyError(str(unknown_key(key, schema, file=f"ruleset {self.name}"))) from None

    def __hash__(self) -> int:
        return hash((self.name, self.title, self.fingerprint(), self.overrides))

    def nested(self) -> dict[str, Any]:
        """The values as sections ({'missile': {'cost': 10}, ...}), lists as lists."""
        order = self.family.order if self.family else (lambda key: 0)
        ordered = sorted(self.values, key=order)
        return unflatten({key: _thaw(self.values[key]) for key in ordered})

    def to_yaml(self, *, comments: bool = False) -> str:
        """The effective ruleset as a YAML file that loads back to the same values; with
        `comments`, each key's line ends with what its schema says of it (`sim rules show`)."""
        head = "".join(f"# override: {k}={json.dumps(_thaw(v))}\n" for k, v in self.overrides)
        body = {"name": self.name, "title": self.title, **self.nested()}
        text = yaml.dump(body, Dumper=_Dumper, sort_keys=False, allow_unicode=True)
        if comments and self.family is not None:
            text = _commented(text, self.family.schema)
        return head + text

    def fingerprint(self) -> str:
        """A short hash of the values, equal for rulesets that play the same game."""
        canonical = json.dumps(dict(self.values), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]

    def with_overrides(self, overrides: Overrides, *, source: str = "--set") -> Ruleset:
        """A new Ruleset with the overrides validated (errors name ``source``) and applied."""
        assert self.family is not None, "a ruleset made by hand takes no overrides"
        pairs = dict(override_pairs(overrides, source=source))
        checked = self.family.validate(pairs, file=source)
        if not checked:
            return self
        given = {k: v for k, v in self.values.items() if self.given is None or k in self.given}
        origin = dict.fromkeys(given, (0, f"ruleset {self.name}"))
        origin.update(dict.fromkeys(checked, (1, source)))
        given.update(checked)  # a changed data file fills its keys again
        values = self.family.complete(given, origin)
        applied = self.overrides + tuple(checked.items())
        return Ruleset(self.name, self.title, values, applied, self.family, frozenset(given))


def params_array(
    values: Mapping[str, Any], schema: Mapping[str, Field], *, out: np.ndarray | None = None
) -> np.ndarray:
    """The params array a compiled engine reads: each key with a `slot` stored there as its
    Field says (a flag, a choice's shifted index, a shifted number, or a list over
    consecutive slots). A new int64 array just long enough, or `out` (of the engine's size
    and dtype, or a view of one, such as a card's block) filled in place."""
    if out is None:
        slots = [(f.slot, f.length or 1) for f in schema.values() if f.slot is not None]
        out = np.zeros(max((slot + width for slot, width in slots), default=0), np.int64)
    for key, f in schema.items():
        if f.slot is None:
            continue
        value = values[key]
        if f.kind == "int_list":
            out[f.slot : f.slot + len(value)] = value
        elif f.kind == "choice":
            out[f.slot] = value == f.flag if f.flag else f.choices.index(value) + f.shift
        else:
            out[f.slot] = value + f.shift
    return out


_KEY_LINE = re.compile(r"^(?P<indent> *)(?P<key>[^\s:#'\"][^:]*):(?P<value>.*)$")
COMMENT_COLUMN = 36  # where a key's comment starts, as in the preset files


def _commented(text: str, schema: Schema) -> str:
    """`text` (YAML as to_yaml dumps it: two spaces per level, lists inline) with each key's
    line followed by its schema's doc as a comment."""
    out, path = [], []
    for line in text.splitlines():
        m = _KEY_LINE.match(line)
        if m is None:
            out.append(line)
            continue
        depth = len(m["indent"]) // 2
        path[depth:] = [m["key"]]
        field = schema.get(".".join(path))
        if m["value"].strip() and field is not None and field.doc:
            line = f"{line.ljust(COMMENT_COLUMN - 1)} # {field.doc}"
        out.append(line)
    return "\n".join(out) + "\n"


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """Writes lists inline ([11, 11, 11, 11, 12]) and mappings as blocks. Emitted by libyaml
    where PyYAML has it (its wheels do): the same text as PyYAML's own emitter for every
    ruleset (only a quoted text longer than a line may break elsewhere) in a quarter of the
    time; a run writes every arm's ruleset into its manifest."""


_Dumper.add_representer(
    list, lambda dumper, data: dumper.represent_sequence("tag:yaml.org,2002:seq", data, True)
)


def _freeze(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _thaw(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _is_file(path: Path) -> bool:
    """Whether `path` is a file; a name the system cannot even look up (too long) is not."""
    try:
        return path.is_file()
    except OSError:
        return False
