"""Command-line overrides of an experiment: ``--games``, ``--seed`` and ``--set KEY=VALUE``.

A `--set` key is an experiment key (`games`, `players`, ...), a seat (`seats.1=greedy`,
`seats.0.missile_at=15`), a key of `sweep`, `precision` or `tolerances`
(`sweep.missile.cost=[5,8]`, `precision.width=0.01`, `tolerances.price=2`), or a rule key
(`missile.cost=8`, also written `rules.missile.cost`).
A rule key, `players` or `ruleset` set on the command line leaves the sweep: the value holds
for every arm. Errors about a value set here name ``--set`` rather than the file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import yaml

from sim.config import flatten, load_value, override_pairs
from sim.errors import ConfigError
from sim.runner.checks import KeyPath, strip_rules
from sim.runner.experiment import TOP_KEYS
from sim.runner.sweep import SWEEP_SPECIAL
from sim.storage.parts import MAX_GAMES

if TYPE_CHECKING:
    from sim.runner.parsing import Parser

SEED_MAX = 2**63 - 1


def pairs(
    overrides: Sequence[str] | Mapping[str, Any], *, games: int | None, seed: int | None
) -> list[tuple[str, Any]]:
    """`--set` pairs in order, then `--games` and `--seed` as the keys they set."""
    out = override_pairs(overrides, source="--set")
    if games is not None:
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
            raise ConfigError(
                f"expected a positive number of games, at most {MAX_GAMES:,}, got {games:,}",
                key="--games",
            )
        out.append(("games", games))
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
            raise ConfigError(f"expected a seed in 0..2**63-1, got {seed}", key="--seed")
        out.append(("seed", seed))
    return out


def apply(p: Parser, overrides: list[tuple[str, Any]]) -> None:
    """Write the overrides into the parser's data; rule keys go to ``p.cli_rules``."""
    p.overrides = overrides
    d = p.data
    for key, raw in overrides:
        value = _parse_value(raw)
        head, _, rest = key.partition(".")
        path: KeyPath
        if head == "rules" and rest:
            p.cli_rules.append((rest, value))
            _drop_from_sweep(p, rest)
            continue
        if head in ("seats", "strategies", "pool") and rest:
            path = _set_seat(p, head, rest, value, key)
        elif head in ("sweep", "precision", "tolerances") and rest:
            section = d.get(head)
            if section is None:
                section = {}
            if not isinstance(section, Mapping):
                raise p.fail("expected a mapping", (head,))
            section = dict(flatten(section, file=p.file)) if head == "sweep" else dict(section)
            section[rest] = value
            d[head] = section
            path = (head, rest)
        elif head in TOP_KEYS and not rest:
            d[head] = value
            path = (head,)
            if head in SWEEP_SPECIAL:
                _drop_from_sweep(p, head)
        elif head in TOP_KEYS:
            raise ConfigError(
                "cannot be set from the command line",
                file="--set",
                key=key,
                hint="Edit the experiment file, or set a rule key (e.g. missile.cost=8).",
            )
        else:
            p.cli_rules.append((key, value))
            _drop_from_sweep(p, key)
            continue
        p.cli_paths.add(path)


def _set_seat(p: Parser, head: str, rest: str, value: Any, key: str) -> KeyPath:
    index_text, _, param = rest.partition(".")
    if head not in p.data and head == "seats" and "strategies" in p.data:
        head = "strategies"
    entries = p.data.get(head)
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
    p.data[head] = entries
    return (head, index)


def _drop_from_sweep(p: Parser, key: str) -> None:
    sweep = p.data.get("sweep")
    if not isinstance(sweep, Mapping):
        return
    flat = flatten(sweep, file=p.file)
    kept = {k: v for k, v in flat.items() if strip_rules(k) != key}
    if len(kept) != len(flat):
        if kept:
            p.data["sweep"] = kept
        else:
            del p.data["sweep"]


def _parse_value(raw: Any) -> Any:
    if not isinstance(raw, str):
        return raw
    try:
        return load_value(raw, source="--set") if raw.strip() else raw
    except yaml.YAMLError:
        return raw
