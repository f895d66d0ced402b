"""Dotted keys and overrides: a nested mapping flattened to dotted keys (`missile.cost`) and
back, and the command line's `key=value` overrides read, normalised and applied through a
schema."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sim.config.fields import Schema, Source, validate
from sim.errors import ConfigError


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
