"""How a section puts the registry's measures (sim/measures, read through `Context.measure`
and `Context.paired`) in its rows: a Value as a table's columns, a paired difference as a
comparison's, and the metrics a what-if compares. Nothing here computes a number."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sim.measures import Value


def prefixed(v: Value, key: str) -> dict[str, Any]:
    """{key: value, key_low, key_high, key_se, key_n}: the columns a table reads."""
    return {(key if k == "value" else f"{key}_{k}"): x for k, x in v.as_dict().items()}


def diff_cols(v: Value, key: str) -> dict[str, Any]:
    """A difference's columns: value, interval, p-value, whether it excludes zero, n."""
    return {
        key: v.value,
        f"{key}_low": v.low,
        f"{key}_high": v.high,
        f"{key}_p": v.pvalue,
        f"{key}_sig": v.excludes_zero if not math.isnan(v.pvalue) else None,
        f"{key}_n": v.n,
    }


@dataclass(frozen=True)
class Metric:
    key: str  # the registry's measure name
    label: str
    unit: str  # 'pp' (a rate), 'num'
    digits: int = 1
    headline: bool = False
    tolerance: str = ""  # the tolerance its changes are judged against (sim/stats/tolerances.py)
