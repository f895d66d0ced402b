"""Command-line overrides of an experiment: ``--games``, ``--seed`` and ``--set KEY=VALUE``.

A `--set` key is an experiment key (`games`, `players`, ...), a seat (`seats.1=greedy`,
`seats.0.missile_at=15`), a key of `sweep`, `precision` or `tolerances`
(`sweep.missile.cost=[5,8]`, `precision.width=0.01`, `tolerances.price=2`), or a rule key
(`missile.cost=8`, also written `rules.missile.cost`).
A rule key, `players` or `ruleset` set on the command line leaves the sweep: the value holds
for every arm. Applying them is a pure step on the raw mapping: nothing is checked here but
the form of a `--set` key; each value is checked once, with the file's own (checks.py), and
an error about a value set here names its option rather than the file.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import yaml

from sim.config.files import load_value
from sim.config.keys import flatten, override_pairs
from sim.errors import ConfigError
from sim.experiment.checks import strip_rules
from sim.experiment.model import TOP_KEYS
from sim.experiment.reading import KeyPath, Reading
from sim.experiment.sweep import SWEEP_SPECIAL

# an override: the key it sets, its value, and the option that gave it
Override = tuple[str, Any, str]


def pairs(
    overrides: Sequence[str] | Mapping[str, Any], *, games: int | None, seed: int | None
) -> list[Override]:
    """`--set` pairs in order, then `--games` and `--seed` as the keys they set."""
    out = [(key, value, "--set") for key, value in override_pairs(overrides, source="--set")]
    if games is not None:
        out.append(("games", games, "--games"))
    if seed is not None:
        out.append(("seed", seed, "--seed"))
    return out


def apply(reading: Reading, overrides: Sequence[Override]) -> Reading:
    """The reading with the overrides written into a copy of its data: each key they set
    remembers its option, and the rule keys they set go to `cli_rules`."""
    d = copy.deepcopy(dict(reading.data))
    origin: dict[KeyPath, str] = {}
    rules: list[tuple[str, Any]] = []
    for key, raw, option in overrides:
        value = _parse_value(raw)
        head, _, rest = key.partition(".")
        path: KeyPath
        if head == "rules" and rest:
            rules.append((rest, value))
            _drop_from_sweep(d, rest, reading.file)
            continue
        if head in ("seats", "strategies", "pool") and rest:
            path = _set_seat(d, head, rest, value, key)
        elif head in ("sweep", "precision", "tolerances") and rest:
            section = d.get(head)
            if section is None:
                section = {}
            if not isinstance(section, Mapping):
                raise reading.fail(f"expected a mapping: --set {key} sets a key of one grid",
                                   (head,), "Edit the file to change a list of grids.")  # fmt: skip
            section = dict(flatten(section, file=reading.file) if head == "sweep" else section)
            section[rest] = value
            d[head] = section
            path = (head, rest)
        elif head in TOP_KEYS and not rest:
            d[head] = value
            path = (head,)
            if head in SWEEP_SPECIAL:
                _drop_from_sweep(d, head, reading.file)
        elif head in TOP_KEYS:
            raise ConfigError(
                "cannot be set from the command line",
                file="--set",
                key=key,
                hint="Edit the experiment file, or set a rule key (e.g. missile.cost=8).",
            )
        else:
            rules.append((key, value))
            _drop_from_sweep(d, key, reading.file)
            continue
        origin[path] = option
    return replace(reading, data=d, origin=origin, cli_rules=tuple(rules))


def _set_seat(d: dict[str, Any], head: str, rest: str, value: Any, key: str) -> KeyPath:
    index_text, _, param = rest.partition(".")
    if head not in d and head == "seats" and "strategies" in d:
        head = "strategies"
    entries = d.get(head)
    if isinstance(entries, str | Mapping):
        entries = [entries]
    if not isinstance(entries, list) or not index_text.isdigit():
        raise ConfigError(
            "expected seats.<index>[.<parameter>]=VALUE for a list of seats",
            file="--set",
            key=key,
            hint="For example seats.0=greedy or seats.0.missile_at=15.",
        )
    index = int(index_text)
    if index >= len(entries):
        raise ConfigError(
            f"there are {len(entries)} seat entries (0..{len(entries) - 1})",
            file="--set",
            key=key,
        )
    entries = list(entries)
    if param:
        entry = entries[index]
        entry = dict(entry) if isinstance(entry, Mapping) else {"name": entry}
        entry[param] = value
        entries[index] = entry
    else:
        entries[index] = value
    d[head] = entries
    return (head, index)


def _drop_from_sweep(d: dict[str, Any], key: str, file: str | None) -> None:
    """`key` set for every arm leaves the sweep (each grid of a list of grids)."""
    sweep = d.get("sweep")
    grids = sweep if isinstance(sweep, list) else [sweep]
    if not all(isinstance(grid, Mapping) for grid in grids):
        return  # the sweep's check explains
    kept = [_without(grid, key, file) for grid in grids]
    kept = [grid for grid in kept if grid]
    if not kept:
        del d["sweep"]
    else:
        d["sweep"] = kept if isinstance(sweep, list) else kept[0]


def _without(grid: Mapping[str, Any], key: str, file: str | None) -> dict[str, Any]:
    flat = flatten(grid, file=file)
    if all(strip_rules(k) != key for k in flat):
        return dict(grid)
    return {k: v for k, v in flat.items() if strip_rules(k) != key}


def _parse_value(raw: Any) -> Any:
    if not isinstance(raw, str):
        return raw
    try:
        return load_value(raw, source="--set") if raw.strip() else raw
    except yaml.YAMLError:
        return raw
