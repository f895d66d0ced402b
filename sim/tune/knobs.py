"""The knobs of a tune: the rule keys the search may move, each with its values.

    tune:
      missile.cost: {low: 6, high: 20, step: 1}     # a range (integers: step 1 unless given)
      dexterity.spread_mm: {low: 20, high: 60}      # a float key without a step: continuous
      mine.step: [1, 2, 3]                          # a list of choices (any type)
      chart.deck_2p[1]: {low: 10, high: 30}         # one element of a list key

A knob is written as the rule key it moves; `key[i]` moves element i of a list key (the other
elements keep the experiment's values). Every value a knob can take is checked against the
game's own rules before any game is played (the range's ends, every choice)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from optuna.distributions import (
    BaseDistribution,
    CategoricalDistribution,
    FloatDistribution,
    IntDistribution,
)

_ELEMENT = re.compile(r"^(?P<key>[^\[\]]+)\[(?P<index>\d+)\]$")
RANGE_KEYS = ("low", "high", "step")


class KnobError(ValueError):
    """A knob written wrongly: the message and the fix (spec.py adds the file and line)."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


@dataclass(frozen=True)
class Knob:
    """One rule key (or one element of a list key) and the values the search may give it."""

    name: str  # as written: missile.cost, chart.deck_2p[1]
    key: str  # the rule key
    index: int | None  # the element of a list key, or None
    kind: str  # int | float | choice
    low: float = 0.0
    high: float = 0.0
    step: float | None = None  # None: a continuous float
    choices: tuple[Any, ...] = ()

    def distribution(self) -> BaseDistribution:
        if self.kind == "choice":
            return CategoricalDistribution(self.choices)
        if self.kind == "int":
            return IntDistribution(int(self.low), int(self.high), step=int(self.step or 1))
        return FloatDistribution(self.low, self.high, step=self.step)

    def grid(self) -> list[Any] | None:
        """Every value the knob can take, or None for a continuous one."""
        if self.kind == "choice":
            return list(self.choices)
        if self.step is None:
            return None
        count = int(math.floor((self.high - self.low) / self.step + 1e-9)) + 1
        values = [self.low + i * self.step for i in range(count)]
        return [int(round(v)) for v in values] if self.kind == "int" else values

    @property
    def numeric(self) -> bool:
        return self.kind in ("int", "float")

    def describe(self) -> str:
        if self.kind == "choice":
            return f"{self.name} in {list(self.choices)}"
        step = "" if self.step is None else f" step {self.step:g}"
        return f"{self.name} {self.low:g} to {self.high:g}{step}"


def split_name(name: str) -> tuple[str, int | None]:
    """'chart.deck_2p[1]' -> ('chart.deck_2p', 1); 'missile.cost' -> ('missile.cost', None)."""
    m = _ELEMENT.match(name)
    return (m["key"], int(m["index"])) if m else (name, None)


def parse_knob(name: str, spec: Any, current: Any) -> Knob:
    """A knob from its YAML value and the rule's current value (which says its type)."""
    key, index = split_name(name)
    if index is not None:
        if not isinstance(current, list | tuple):
            raise KnobError(f"{key} is not a list key, so it has no element [{index}]",
                            f"Write the key alone: {key}.")  # fmt: skip
        if index >= len(current):
            raise KnobError(f"{key} has {len(current)} elements (0..{len(current) - 1})")
        current = current[index]
    elif isinstance(current, list | tuple):
        raise KnobError(f"{key} is a list key: a knob moves one element of it",
                        f"For example {key}[0]: {{low: ..., high: ...}}.")  # fmt: skip
    if isinstance(spec, list):
        return _choices(name, key, index, spec)
    if not isinstance(spec, Mapping):
        raise KnobError("expected a range {low, high, step} or a list of choices",
                        "For example missile.cost: {low: 6, high: 20, step: 1} or "
                        "mine.step: [1, 2, 3].")  # fmt: skip
    return _range(name, key, index, spec, current)


def _choices(name: str, key: str, index: int | None, spec: list) -> Knob:
    if len(spec) < 2:
        raise KnobError("a knob needs at least two choices", "List every value to try.")
    if len({repr(v) for v in spec}) != len(spec):
        raise KnobError("a choice is listed twice")
    if not all(isinstance(v, bool | int | float | str) for v in spec):
        raise KnobError("choices must be numbers, words or true/false")
    return Knob(name, key, index, "choice", choices=tuple(spec))


def _range(name: str, key: str, index: int | None, spec: Mapping, current: Any) -> Knob:
    unknown = [k for k in spec if k not in RANGE_KEYS]
    if unknown:
        raise KnobError(f"unknown key {unknown[0]!r} in a range", "A range has low, high, step.")
    if "low" not in spec or "high" not in spec:
        raise KnobError("a range needs low and high", "For example {low: 6, high: 20}.")
    if isinstance(current, bool) or not isinstance(current, int | float):
        raise KnobError(f"{key} is not a number (it is {current!r}): give a list of choices",
                        f"For example {name}: [{current!r}, ...].")  # fmt: skip
    low, high, step = spec["low"], spec["high"], spec.get("step")
    for what, v in (("low", low), ("high", high), ("step", step)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int | float)):
            raise KnobError(f"{what} must be a number, got {v!r}")
    if not low < high:
        raise KnobError(f"low ({low}) must be below high ({high})")
    if step is not None and step <= 0:
        raise KnobError(f"step must be positive, got {step}")
    if isinstance(current, int):
        if not all(float(v).is_integer() for v in (low, high, step or 1)):
            raise KnobError(f"{key} is a whole number: low, high and step must be too")
        step = int(step or 1)
        if (high - low) % step:
            raise KnobError(f"high - low ({high - low}) is not a multiple of step ({step})",
                            f"For example high: {low + (high - low) // step * step}.")  # fmt: skip
        return Knob(name, key, index, "int", int(low), int(high), step)
    return Knob(name, key, index, "float", float(low), float(high),
                None if step is None else float(step))  # fmt: skip


def rule_values(knobs: Sequence[Knob], values: Mapping[str, Any],
                base: Mapping[str, Any]) -> dict[str, Any]:  # fmt: skip
    """The rule overrides that give every knob its value: plain keys as they are, the elements
    of a list key written into a copy of its `base` list (one override per list key)."""
    out: dict[str, Any] = {}
    for knob in knobs:
        value = values[knob.name]
        if knob.index is None:
            out[knob.key] = value
            continue
        items = out.get(knob.key)
        if items is None:
            items = list(base[knob.key])
        items[knob.index] = value
        out[knob.key] = items
    return out


def space_size(knobs: Sequence[Knob]) -> float:
    """How many candidates the knobs allow (inf with a continuous knob)."""
    size = 1.0
    for knob in knobs:
        grid = knob.grid()
        size *= math.inf if grid is None else len(grid)
    return size


def plain_names(ruleset: Any, keys: Sequence[str]) -> dict[str, str]:
    """key -> its plain name (sim.report.plain: the ruleset schema's `Field.plain`, a data
    file's "the scout-saucer's price"; the key itself when it has none), for the report's
    sentences."""
    from sim.report.plain import of_ruleset

    plain = of_ruleset(ruleset)
    return {k: plain.name(k) for k in keys}


def show_values(knobs: Sequence[Knob], values: Mapping[str, Any]) -> str:
    """'missile.cost=13, mine.step=2'."""
    return ", ".join(f"{k.name}={_show(values[k.name])}" for k in knobs)


def span(low: Any, high: Any, show: Any = str) -> str:
    """'13 to 14', or '11' when both ends are one value (an interval of one setting)."""
    return show(low) if low == high else f"{show(low)} to {show(high)}"


def _show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)
