"""Pieces every question of the quality section uses: a measure over a level's arms, its value
as an answer's estimate, sentences told level by level, and the verdicts.

Verdicts: a claim that something holds ("no skill depth", "the deal and the player decide as
often") rests on the lab's three-valued verdict (sim/stats/verdict.py) against the designer's
tolerance (sim/stats/tolerances.py, the experiment's `tolerances` key), never on a difference
merely not detected: `settled` for a claim that a value lies above (or below) a reference,
`alike` for a claim that it equals one.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.measures.core import Measure, Value
from sim.report.answers import Answer, Estimate, Label, Part, Term, joined, sentence
from sim.results import StoredArm
from sim.stats.verdict import Verdict, equivalence, positive


@dataclass(frozen=True)
class Found:
    """A measure's value at one level (over the level's arms, by game index)."""

    measure: Measure
    level: str
    value: Value


def measure_at(measure: Measure, level: str, arms: list[StoredArm]) -> Found:
    return Found(measure, level, measure.pooled(arms))


def unasked(key: str, question: str, why: str, category: str = "not asked") -> Answer:
    """The answer to a question the experiment does not ask ("not asked") or whose games
    cannot tell ("not measured"): `why` says what is missing and how to ask."""
    return Answer(key, question, [why], "info", category=category, section="quality")


def settled(value: Value, against: float, tolerance: float, *, above: bool = True,
            games: int | None = None) -> Verdict:  # fmt: skip
    """Claim: `value` lies above `against` (below it with `above=False`). HOLDS when its
    interval lies wholly on that side; OPPOSITE when it lies within `tolerance` of `against`
    on that side or beyond it on the other (at most negligible); not settled otherwise, with
    the games per arm (`games`: the arm's now, else the value's own count) that would likely
    settle it."""
    sign = 1.0 if above else -1.0
    lo, hi = sorted((sign * (value.low - against), sign * (value.high - against)))
    return positive(sign * (value.value - against), lo, hi, tolerance,
                    games=games or value.n or None)  # fmt: skip


def alike(value: Value, against: float, tolerance: float, *, games: int | None = None) -> Verdict:
    """Claim: `value` equals `against`, give or take `tolerance` (an equivalence); OPPOSITE
    when its interval excludes `against` (the sign of value - against says which way)."""
    return equivalence(value.value - against, value.low - against, value.high - against,
                       tolerance, games=games or value.n or None)  # fmt: skip


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
    first = parts[0] if parts else None
    if isinstance(first, str) and first:
        return [first[:1].upper() + first[1:], *parts[1:]]
    if isinstance(first, Term):
        return [Term(first.text[:1].upper() + first.text[1:], first.definition), *parts[1:]]
    if isinstance(first, Label):
        return [Label(first.text[:1].upper() + first.text[1:]), *parts[1:]]
    return list(parts)


def key(question: str, name: str, level: str) -> str:
    return f"quality.{question}.{name}" + (f"@{level}" if level else "")
