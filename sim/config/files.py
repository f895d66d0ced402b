"""Configuration files: YAML read within bounds (a mapping at the top, no duplicate key, a
clear error for bad syntax), a value given on the command line read the same way, where each
key of a text was written (its line), and a data file checked as strictly as a ruleset."""

from __future__ import annotations

import copy
import functools
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from sim import safe_yaml
from sim.config.fields import Schema, Source, validate
from sim.config.words import did_you_mean, type_name
from sim.errors import ConfigError

KEPT_TEXT = 65_536  # the longest file text whose document is kept (a ruleset is a few KB)


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
    """Read a YAML file whose top level is a mapping (an empty file gives {}). The same text
    is built once (`_built`): a run loads its presets for every arm, a tune for every
    candidate; each caller gets a copy of its own to change."""
    text = _read_text(path)
    built = _built(text, os.fspath(path)) if len(text) <= KEPT_TEXT else _load_yaml(text, path)
    data = copy.deepcopy(built)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(
            f"expected a mapping of keys to values at the top level, got {type_name(data)}",
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


@functools.lru_cache(maxsize=256)
def _built(text: str, path: str) -> Any:
    """The document of `text` (read from `path`), built once per text and path: an error
    is raised again each time, as nothing is kept of it."""
    return _load_yaml(text, path)


def _load_yaml(text: str, path: str | os.PathLike[str]) -> Any:
    safe_yaml.check(text, path)  # size, depth and alias expansion, before anything is built
    try:
        return yaml.load(text, Loader=_Loader)  # safe: _Loader derives from SafeLoader
    except yaml.MarkedYAMLError as exc:
        raise safe_yaml.syntax_error(exc, text, path) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"invalid YAML: {exc}", file=path) from None
    except (ValueError, OverflowError) as exc:  # a value YAML cannot build: "\U0011ffff", a date
        raise ConfigError(f"invalid YAML: {exc}", file=path) from None


def load_value(text: str, *, source: Source = "--set") -> Any:
    """A value given on the command line, read as YAML within the same bounds as a file."""
    safe_yaml.check(text, source)
    return safe_yaml.load(text)


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
            hint = did_you_mean(str(key), allowed, otherwise=f"Keys: {', '.join(allowed)}.")
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
