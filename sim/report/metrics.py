"""How a section puts the registry's measures (sim/measures, read through `Context.measure`
and `Context.paired`) in its rows: a Value as a table's columns, a paired difference as a
comparison's, and the metrics a what-if compares. Nothing here computes a number."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sim.measures import Value
from sim.stats.interval_columns import as_columns, part_key


def prefixed(v: Value, key: str) -> dict[str, Any]:
    """{key: value, key_low, key_high, key_se, key_n}: the columns a table reads."""
    return {**as_columns(key, v), part_key(key, "se"): v.se, part_key(key, "n"): v.n}


def diff_cols(v: Value, key: str) -> dict[str, Any]:
    """A difference's columns: value, interval, p-value, whether it excludes zero, n."""
    return {
        **as_columns(key, v),
        part_key(key, "p"): v.pvalue,
        part_key(key, "sig"): v.excludes_zero if not math.isnan(v.pvalue) else None,
        part_key(key, "n"): v.n,
    }


@dataclass(frozen=True)
class Metric:
    key: str  # the registry's measure name
    label: str
    unit: str  # 'pp' (a rate), 'num'
    digits: int = 1
    headline: bool = False
    tolerance: str = ""  # the tolerance its changes are judged against (sim/stats/tolerances.py)
