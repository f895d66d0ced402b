"""The experiment key `tolerances`: the designer's tolerances for the report's verdicts, each a
positive number in its question's units (shares as fractions: 0.01 is 1 percentage point; a
share of the baseline's value too: 0.05 is 5%).

    tolerances: {price: 2, seat_advantage: 0.02}

The names and their defaults are sim/stats/tolerances.py's; a name not given keeps its default.
"""

from __future__ import annotations

import math
from typing import Any

from sim.experiment.checks import mapping, show
from sim.experiment.reading import KeyPath, Reading
from sim.stats.tolerances import DEFAULTS


def tolerances(p: Reading) -> tuple[tuple[str, float], ...]:
    value = p.data.get("tolerances")
    if value is None:
        return ()
    path: KeyPath = ("tolerances",)
    mapping(p, value, path, "a mapping of question names to tolerances",
            "For example tolerances: {price: 2, seat_advantage: 0.02}.")  # fmt: skip
    out = []
    for name, tol in value.items():
        if name not in DEFAULTS:
            raise p.unknown(name, list(DEFAULTS), path)
        out.append((str(name), _tolerance(p, str(name), tol, (*path, str(name)))))
    return tuple(out)


def _tolerance(p: Reading, name: str, value: Any, path: KeyPath) -> float:
    default = DEFAULTS[name]
    example = f"The default is {default.value:g} ({default.text()}): {default.about}."
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if not number or not math.isfinite(value) or value <= 0:
        raise p.fail(f"expected a positive number, got {show(value)}", path, example)
    if default.fraction and value >= 1:
        one = "1 percentage point" if default.unit == "pp" else "1%"
        raise p.fail(
            f"expected a share as a fraction (0.01 is {one}), got {show(value)}",
            path,
            example,
        )
    return float(value)
