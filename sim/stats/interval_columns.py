"""How a number with its 95% interval sits in a row of a table: the number under its `key`, its
interval's ends beside it as `key_low` and `key_high` (and, where a table keeps them, its
standard error, games, p-value and significance as `key_se`, `key_n`, `key_p`, `key_sig`).

Every section, tune, screen, sensitivity page, lab table and playtest page writes its rows with
these names, and the report tables read them back (sim/report/table.py draws a column `key`
with its interval, sim/report/assemble.py pictures it): the convention lives here, on the floor
all of them stand on. An interval is any object with `value`, `low` and `high` (a measure's
Value, an answer's Estimate)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Interval(Protocol):
    value: float
    low: float
    high: float


def part_key(key: str, part: str) -> str:
    """The column of `key`'s `part` ('low', 'high', 'se', 'n', 'p', 'sig')."""
    return f"{key}_{part}"


def low_key(key: str) -> str:
    return part_key(key, "low")


def high_key(key: str) -> str:
    return part_key(key, "high")


def interval_keys(key: str) -> tuple[str, str, str]:
    """The names of `key`'s value, low end and high end."""
    return key, low_key(key), high_key(key)


def columns(key: str, value: Any, low: Any, high: Any) -> dict[str, Any]:
    """{key: value, key_low: low, key_high: high}."""
    return dict(zip(interval_keys(key), (value, low, high), strict=True))


def as_columns(key: str, interval: Interval) -> dict[str, Any]:
    """An interval's value and ends as the columns of `key`."""
    return columns(key, interval.value, interval.low, interval.high)


def interval_in(row: Mapping[str, Any], key: str) -> tuple[Any, Any, Any]:
    """(value, low, high) of `key` in a row that holds them."""
    return row[key], row[low_key(key)], row[high_key(key)]
