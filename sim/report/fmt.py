"""Number formatting shared by the HTML page, report.md and the findings' sentences."""

from __future__ import annotations

import math
from typing import Any

DASH = "\u2013"  # en dash, for ranges
MINUS = "\u2212"


def is_missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def num(x: Any, digits: int = 1) -> str:
    if is_missing(x):
        return "\u2014"
    if isinstance(x, float) and math.isinf(x):
        return "\u221e" if x > 0 else f"{MINUS}\u221e"
    text = f"{x:,.{digits}f}"
    return text.replace("-", MINUS)


def signed(x: Any, digits: int = 1) -> str:
    if is_missing(x):
        return "\u2014"
    text = num(x, digits)
    return text if text.startswith(MINUS) or float(x) == 0 else "+" + text


def integer(x: Any) -> str:
    return "\u2014" if is_missing(x) else f"{int(x):,}"


def pct(x: Any, digits: int = 1) -> str:
    return "\u2014" if is_missing(x) else num(100.0 * x, digits) + "%"


def pp(x: Any, digits: int = 1) -> str:
    """A difference of rates, in percentage points, signed."""
    return "\u2014" if is_missing(x) else signed(100.0 * x, digits) + " pp"


def ci(low: Any, high: Any, scale: float = 1.0, digits: int = 1, suffix: str = "") -> str:
    if is_missing(low) or is_missing(high):
        return ""
    return f"{num(low * scale, digits)}{suffix} to {num(high * scale, digits)}{suffix}"


def _with_interval(x: Any, low: Any, high: Any, show, bound, sep: str = " to ") -> str:
    """show(x) followed by its interval (bound(low) sep bound(high)) when there is one."""
    if is_missing(x):
        return "\u2014"
    if is_missing(low):
        return show(x)
    return f"{show(x)} ({bound(low)}{sep}{bound(high)})"


def pct_ci(x: Any, low: Any, high: Any, digits: int = 1) -> str:
    return _with_interval(x, low, high, lambda v: pct(v, digits),
                          lambda v: num(100 * v, digits), DASH)  # fmt: skip


def num_ci(x: Any, low: Any, high: Any, digits: int = 1) -> str:
    def show(v: Any) -> str:
        return num(v, digits)

    return _with_interval(x, low, high, show, show)


def pp_ci(x: Any, low: Any, high: Any, digits: int = 1) -> str:
    return _with_interval(x, low, high, lambda v: pp(v, digits),
                          lambda v: signed(100 * v, digits))  # fmt: skip


def signed_ci(x: Any, low: Any, high: Any, digits: int = 1) -> str:
    def show(v: Any) -> str:
        return signed(v, digits)

    return _with_interval(x, low, high, show, show)


def pvalue(p: Any) -> str:
    if is_missing(p):
        return "\u2014"
    if p < 0.001:
        return "<0.001"
    if p < 0.01:
        return f"{p:.3f}"
    return f"{p:.2f}"


def value(x: Any, digits: int = 2) -> str:
    """A parameter value as a designer would write it."""
    if isinstance(x, bool):
        return "on" if x else "off"
    if isinstance(x, float):
        return str(int(x)) if x.is_integer() else f"{x:.{digits}g}"
    return "\u2014" if x is None else str(x)
