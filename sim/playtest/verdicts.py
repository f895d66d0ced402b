"""Where the lab's players are, and are not, people: each fact's figure in the records against
the lab's players' at the fitted skill, with a verdict and a plain sentence, the verdict
first.

A figure is a measure of the lab's registry (sim/measures: a seat's win share, an outcome's
rate, the mean score per seat, the mean margin, a column's mean) over the group's records and
over the lab's games at the fitted skill, at each table the records hold, weighted by the
records' games at each table. The difference, records minus simulated, with its 95% interval
(the two samples are independent), is read as the lab reads every "the same?" question
(sim/stats/verdict.py, equivalence):

- `fits`: the interval lies within the tolerance: 5 pp for a share (`playtest_share`), a
  quarter of a simulated game's standard deviation for a mean (`playtest_quantity`);
- `differs`: the records differ from the lab's players at every skill of the fitted interval:
  even at the grid's skill inside it that comes closest, the difference's interval lies
  wholly beyond the tolerance (at 95% over the group's figures together: Bonferroni). A
  difference no skill in the interval explains; a figure beyond the lab's players' at every
  skill of the knob is said so;
- `not settled`: neither, with the records' games that would likely settle it (the closest
  skill's question, or the fitted skill's when that one is settled).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from sim.measures.core import Value
from sim.playtest.facts import Fact
from sim.stats.intervals import Z95
from sim.stats.tolerances import DEFAULTS
from sim.stats.verdict import Outcome, Verdict, all_of, equivalence
from sim.stored_arm import StoredArm

FITS, DIFFERS, OPEN = "fits", "differs", "not settled"


@dataclass(frozen=True)
class Figure:
    """One measure: the records' value, the simulated one at the fitted skill, and the
    verdict on their difference."""

    measure: str
    label: str
    unit: str  # 'share' or 'num'
    real: Value
    simulated: Value
    verdict: Verdict
    beyond: bool  # the records lie beyond the lab's players at every skill of the knob


@dataclass(frozen=True)
class FactVerdict:
    fact: Fact
    verdict: str  # FITS, DIFFERS or OPEN
    figures: tuple[Figure, ...]
    games: int
    games_to_settle: int | None
    sentence: str


def mixture(values: Sequence[Value], weights: Sequence[float]) -> Value:
    """The weighted mean of independent estimates (the lab's players at each table, weighted
    by the records' games there)."""
    total = sum(weights)
    if not values or total <= 0 or any(math.isnan(v.value) for v in values):
        return Value.missing()
    if len(values) == 1:  # one table: the measure's own interval (Wilson's for a rate)
        return values[0]
    w = [x / total for x in weights]
    value = sum(wi * v.value for wi, v in zip(w, values, strict=True))
    se = math.sqrt(
        sum(
            (wi * (0.0 if math.isnan(v.se) else v.se)) ** 2 for wi, v in zip(w, values, strict=True)
        )
    )
    return Value.normal(value, se, sum(v.n for v in values))


def difference(real: Value, simulated: Value, z: float = Z95) -> tuple[float, float, float]:
    """records - simulated, and its interval (independent samples)."""
    se = math.sqrt(_se(real) ** 2 + _se(simulated) ** 2)
    d = real.value - simulated.value
    return d, d - z * se, d + z * se


def _se(v: Value) -> float:
    """The standard error the interval implies (Wilson's near 0 and 1 is wider than the
    plain one), else the measure's own."""
    if math.isfinite(v.low) and math.isfinite(v.high):
        return max((v.high - v.low) / (2 * Z95), 0.0 if math.isnan(v.se) else v.se)
    return v.se


def figure(
    measure: Any,
    real: StoredArm,
    fitted: Mapping[Any, StoredArm],
    interval: Sequence[Mapping[Any, StoredArm]],
    knob: Sequence[Mapping[Any, StoredArm]],
    weights: Mapping[Any, float],
    *,
    spread: float,
    tests: int,
) -> Figure:
    """One measure of a fact, judged: `fitted` the lab's games at the fitted skill per table,
    `interval` the same at each skill of the grid inside the fitted interval, `knob` at every
    skill of the grid; `spread` a simulated game's standard deviation (a mean's tolerance);
    `tests` the group's figures judged together (the Bonferroni of `differs`)."""
    level = 1 - 0.05 / max(tests, 1)
    z_all = NormalDist().inv_cdf(0.5 + level / 2)
    tables = list(weights)
    w = [weights[t] for t in tables]

    def at(arms: Mapping[Any, StoredArm]) -> Value:
        return mixture([measure.estimate(arms[t]) for t in tables], w)

    r, s = measure.estimate(real), at(fitted)
    tol = tolerance(measure, spread)
    games = r.n or None
    d, low, high = difference(r, s)
    verdict = equivalence(d, low, high, tol, games=games)
    if not verdict.holds:  # differs: even the skill of the interval that comes closest
        shown = [difference(r, at(arms), z_all) for arms in interval] or [difference(r, s, z_all)]
        closest = min(shown, key=lambda x: abs(x[0]))
        apart = equivalence(*closest, tol, games=games, level=level)
        outcome = Outcome.OPPOSITE if apart.opposite else Outcome.UNSETTLED
        settle = None if apart.opposite else (apart.games_to_settle or verdict.games_to_settle)
        verdict = Verdict(outcome, tol, d, low, high, settle)
    sweep = [difference(r, at(arms), z_all) for arms in knob]
    beyond = bool(sweep) and (
        all(lo > 0 for _, lo, _ in sweep) or all(hi < 0 for _, _, hi in sweep)
    )
    return Figure(measure.name, measure.label, measure.unit, r, s, verdict, beyond)


def tolerance(measure: Any, spread: float) -> float:
    if measure.unit == "share":
        return DEFAULTS["playtest_share"].value
    return DEFAULTS["playtest_quantity"].value * spread if spread > 0 else 0.0


def verdict_of(fact: Fact, figures: Sequence[Figure], games: int) -> FactVerdict:
    """The fact's verdict: every figure fits, any differs, or not settled."""
    joint = all_of([f.verdict for f in figures])
    word = FITS if joint.holds else DIFFERS if joint.opposite else OPEN
    return FactVerdict(
        fact,
        word,
        tuple(figures),
        games,
        joint.games_to_settle,
        sentence(fact, word, figures, joint.games_to_settle),
    )


def sentence(fact: Fact, word: str, figures: Sequence[Figure], to_settle: int | None) -> str:
    """'game length (turns) fits (real mean 84.2, simulated 87.0)'; the verdict first."""
    shown = [f for f in figures if f.verdict.opposite] or list(figures)
    numbers = "; ".join(_figure_words(f) for f in shown)
    if word == FITS:
        return f"{_cap(fact.words)} fits ({numbers})."
    if word == DIFFERS:
        f = shown[0]
        more = "higher" if f.real.value > f.simulated.value else "lower"
        reach = "at any skill" if f.beyond else "at every skill of the fitted interval"
        return (
            f"{_cap(fact.words)} differs: the group's {f.label} is {more} than the lab's "
            f"players' {reach} ({numbers}): here the lab's players differ from people."
        )
    settle = (
        f"about {to_settle:,} games would settle it"
        if to_settle
        else "more games alone may not settle it"
    )
    return f"{_cap(fact.words)} is not settled ({numbers}); {settle}."


def _figure_words(f: Figure) -> str:
    if f.unit == "share":
        return (
            f"{f.label}: real {100 * f.real.value:.0f}%, simulated {100 * f.simulated.value:.0f}%"
        )
    return f"{f.label}: real {_num(f.real.value)}, simulated {_num(f.simulated.value)}"


def _num(x: float) -> str:
    if math.isnan(x):
        return "n/a"
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.1f}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
