"""Pieces every question of the quality section uses: a measure over a level's arms, its value
as an answer's estimate, sentences told level by level, and the verdict's one plug-in point.

Verdicts: a claim that something holds ("no skill depth", "luck decides") must rest on an
equivalence verdict against a designer's tolerance, not on a difference merely not detected.
Until the lab's verdict module exists, `settled` says only what the interval shows: `holds`
when the interval lies wholly on the claim's side of `against`, `opposite` when wholly on the
other side, and `not settled at this size` otherwise; that is where the three-valued verdict
plugs in.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.measures.core import Frames, Measure, Value
from sim.report.answers import Estimate, Label, Part, Term, joined, sentence

HOLDS, OPPOSITE, UNSETTLED = "holds", "opposite holds", "not settled at this size"


@dataclass(frozen=True)
class Found:
    """A measure's value at one level (over the level's arms, by game index)."""

    measure: Measure
    level: str
    value: Value


def measure_at(measure: Measure, level: str, frames: list[Frames]) -> Found:
    return Found(measure, level, measure.pooled(frames))


def settled(value: Value, against: float, above: bool = True) -> str:
    """Whether `value` lies above (`above`) or below `against`: holds, opposite holds, or not
    settled at this size (the verdict's plug-in point, see the module's docstring)."""
    if not value.n or value.low != value.low or value.high != value.high:
        return UNSETTLED
    if (value.low > against) if above else (value.high < against):
        return HOLDS
    if (value.high < against) if above else (value.low > against):
        return OPPOSITE
    return UNSETTLED


def estimate(
    key: str,
    found: Found | Value,
    label: str = "",
    unit: str = "",
    digits: int = 1,
    signed: bool | None = None,
) -> Estimate:
    """An answer's estimate: a share in % (unit 'pct', the default for a bare Value), a
    difference of shares in pp, or a number ('num'; a Found's unit follows its measure)."""
    if isinstance(found, Found):
        v, m = found.value, found.measure
        label = label or m.label
        unit = unit or ("pct" if m.unit == "share" else "num")
    else:
        v = found
    sign = unit == "pp" if signed is None else signed
    return Estimate(
        key, label, v.value, v.low, v.high, unit=unit or "pct", digits=digits, signed=sign
    )


def term(measure: Measure, text: str = "") -> Term:
    return Term(text or measure.label, measure.definition)


def by_level(levels: list[str], parts_of) -> list[Part]:
    """'at casual <parts>; at club <parts>' (just the parts for the one unnamed level)."""
    items = []
    for level in levels:
        parts = parts_of(level)
        if not parts:
            continue
        items.append(sentence("at ", Label(level), ": ", parts) if level else parts)
    return joined(items, sep="; ", last="; ")


def capitalised(parts: list[Part]) -> list[Part]:
    """The sentence with its first letter in upper case."""
    if parts and isinstance(parts[0], str) and parts[0]:
        return [parts[0][:1].upper() + parts[0][1:], *parts[1:]]
    return list(parts)


def key(question: str, name: str, level: str) -> str:
    return f"quality.{question}.{name}" + (f"@{level}" if level else "")
