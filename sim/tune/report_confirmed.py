"""Whether the tune's own confirmation shows a setting that misses fewer targets than the one
it recommends: the page must not recommend a setting its confirmation shows worse without
saying so, and why the recommendation stands.

"Fewer misses" is read from the confirmation's verdicts, each from a target's 95% interval
(met: inside the band widened by the tolerance; missed: wholly outside it; not settled
otherwise), measured on the same games for every candidate. A candidate shows fewer misses
when no target's verdict is worse than the recommendation's and one is better. A lower
score alone (the sum of squared misses of the point estimates) is no such finding."""

from __future__ import annotations

from typing import Any

from sim.report import verdicts as kinds
from sim.report.answers import Answer, Label, Row, joined, sentence
from sim.tune.report_data import TuneData, target_estimate
from sim.tune.verdict import MET, MISSED, UNSETTLED

_ORDER = {MISSED: 0, UNSETTLED: 1, MET: 2}  # worse to better
WORD = "another setting misses fewer"  # the scorecard's verdict: a decision to weigh, as "reprice"


def fewer_misses(data: TuneData) -> dict[str, Any] | None:
    """The confirmed candidate with the most verdicts better than the recommendation's and
    none worse (the first in the confirmation's order among equals); None when there is
    none."""
    mine = [_ORDER.get(v, 1) for v in data.confirmed[0]["verdicts"]]
    best, gain = None, 0
    for c in data.confirmed[1:]:
        theirs = [_ORDER.get(v, 1) for v in c["verdicts"]]
        better = sum(t > m for t, m in zip(theirs, mine, strict=True))
        if better > gain and all(t >= m for t, m in zip(theirs, mine, strict=True)):
            best, gain = c, better
    return best


def answer(data: TuneData) -> Answer | None:
    """'The missile's price 14, ... misses fewer targets on the same games: missile
    break-even not settled instead of missed.' with why the recommendation stands; None when
    the confirmation shows no such setting."""
    other = fewer_misses(data)
    if other is None:
        return None
    best = data.confirmed[0]
    changed = [i for i, (v, m) in enumerate(zip(other["verdicts"], best["verdicts"], strict=True))
               if v != m]  # fmt: skip
    said = [[Label(f"{data.target_name(data.targets[i])} {other['verdicts'][i]} instead of "
                   f"{best['verdicts'][i]}")] for i in changed]  # fmt: skip
    rows = [row for i in changed for row in _rows(data, i, best, other)]
    parts = sentence("Yes: ", Label(data.candidate_words(other)), " misses fewer targets on "
                     "the same games: ", joined(said, "; ", "; "), ".")  # fmt: skip
    return Answer(
        key="tune.fewer_misses",
        question="Does the confirmation show a setting that misses fewer targets?",
        parts=parts,
        more=[_why(data, other)],
        kind=kinds.FINDING,
        word=WORD,
        headline=rows[0].figure if rows else None,
        where=_worst(data, changed[0], best) if changed else "",
        rows=rows,
        rows_head="setting, place",
        section="recommendation",
    )


def _rows(data: TuneData, i: int, best: dict[str, Any], other: dict[str, Any]) -> list[Row]:
    """Target i at each place, the other setting then the recommendation, each with its
    interval and verdict; the place where the recommendation misses most first."""
    target, name = data.targets[i], data.target_name(data.targets[i])
    rows = []
    for mine in _by_miss(best, i):
        p = next(q for q in other["places"] if q["target"] == i and q["arm"] == mine["arm"])
        where = data.place(p["arm"])
        for who, place in (("the other", p), ("recommended", mine)):
            key = f"tune.fewer_misses.{i}.{p['arm']}.{who.split()[-1]}"
            rows.append(Row(f"{who}, {where}", target_estimate(key, target, place, name),
                            place["verdict"]))  # fmt: skip
    return rows


def _by_miss(candidate: dict[str, Any], i: int) -> list[dict[str, Any]]:
    """Target i's places of a candidate, the largest miss first."""
    places = [q for q in candidate["places"] if q["target"] == i]
    return sorted(places, key=lambda q: -(q.get("miss") or 0.0))


def _worst(data: TuneData, i: int, best: dict[str, Any]) -> str:
    """Where the recommendation misses target i most, in words (the scorecard's place)."""
    return data.place(_by_miss(best, i)[0]["arm"])


def _why(data: TuneData, other: dict[str, Any]) -> str:
    """Why the recommendation stands, by the rule that chose it (tune.json's model `by`)."""
    model = data.summary.get("model") or {}
    take = " Where meeting more targets on these games matters more, take the other setting."
    if model.get("fitted") and model.get("by", "model") == "model":
        listed = (model.get("region") or {}).get("listed") or []
        both = ("finds both among the settings that do as well" if other["values"] in listed
                else "puts its optimum there")  # fmt: skip
        return ("The recommendation stands as the model's best: the model, fitted to every "
                f"candidate played, {both}, and the tune keeps its best while it lies in that "
                "region." + take)  # fmt: skip
    return ("The recommendation stands by its lower score, the sum of the targets' squared "
            "misses in tolerances, which weighs how far each target is missed, not how many "
            "are." + take)  # fmt: skip
