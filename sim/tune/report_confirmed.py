"""Whether the tune's own confirmation shows a setting that misses fewer targets than the one
it recommends: the page must not recommend a setting its confirmation shows worse without
saying so, and why the recommendation stands.

"Fewer misses" is read from the confirmation's verdicts, each from a target's 95% interval
(met: inside the band widened by the tolerance; missed: wholly outside it; not settled
otherwise), measured on the same games for every candidate. A candidate shows fewer misses
when no target's verdict is worse than the recommendation's and one is better. A lower
score alone (the sum of squared misses of the point estimates) is no such finding.

A better verdict may only be a wider interval. The other setting is said to differ, with
the better verdict, only where its interval lies apart from the recommendation's at every
place whose verdict differs; else the answer says that the confirmation does not tell the
two apart (on common random numbers two intervals apart are a conservative test of their
difference), and gives no advice to take it."""

from __future__ import annotations

from typing import Any

from sim.report import verdicts as kinds
from sim.report.answers import Answer, Label, Row, joined, sentence
from sim.tune.report_data import TuneData, target_estimate
from sim.tune.verdict import rank

NOT_SHOWN = kinds.OPEN_WORD  # fewer misses, not shown nearer the target: "not settled"
WORD = "another setting misses fewer"  # the scorecard's verdict: a decision to weigh, as "reprice"


def fewer_misses(data: TuneData) -> dict[str, Any] | None:
    """The confirmed candidate with the most verdicts better than the recommendation's and
    none worse (the first in the confirmation's order among equals); None when there is
    none."""
    mine = [rank(v) for v in data.confirmed[0]["verdicts"]]
    best, gain = None, 0
    for c in data.confirmed[1:]:
        theirs = [rank(v) for v in c["verdicts"]]
        better = sum(t > m for t, m in zip(theirs, mine, strict=True))
        if better > gain and all(t >= m for t, m in zip(theirs, mine, strict=True)):
            best, gain = c, better
    return best


def answer(data: TuneData) -> Answer | None:
    """'The missile's price 14, ... misses fewer targets on the same games: missile
    break-even not settled instead of missed.' with whether the intervals show it nearer the
    target and why the recommendation stands; None when the confirmation shows no such
    setting."""
    other = fewer_misses(data)
    if other is None:
        return None
    best = data.confirmed[0]
    changed = [i for i, (v, m) in enumerate(zip(other["verdicts"], best["verdicts"], strict=True))
               if v != m]  # fmt: skip
    said = [[Label(f"{data.target_name(data.targets[i])} {other['verdicts'][i]} instead of "
                   f"{best['verdicts'][i]}")] for i in changed]  # fmt: skip
    rows = [row for i in changed for row in _rows(data, i, best, other)]
    differ = [pair for i in changed for pair in _differing(best, other, i)]
    shown = all(_apart(mine, theirs) for mine, theirs in differ)
    where = ", ".join(dict.fromkeys(data.place(mine["arm"]) for mine, _ in differ))
    parts = sentence("Yes: ", Label(data.candidate_words(other)), " misses fewer targets on "
                     "the same games: ", joined(said, "; ", "; "), ".")  # fmt: skip
    if shown:
        support = (f"Their intervals lie apart where the verdicts differ ({where}): the "
                   "settings differ there, and the other's verdict is the better.")  # fmt: skip
    else:
        support = (f"Their intervals overlap where the verdicts differ ({where}): the "
                   "confirmation does not tell the two apart there.")  # fmt: skip
    return Answer(
        key="tune.fewer_misses",
        question="Does the confirmation show a setting that misses fewer targets?",
        parts=parts,
        more=[f"{support} {_why(data, other, take=shown)}"],
        kind=kinds.FINDING if shown else kinds.UNSETTLED,
        word=WORD if shown else NOT_SHOWN,
        headline=rows[0].figure if rows else None,
        where=_worst(data, changed[0], best) if changed else "",
        rows=rows,
        rows_head="setting, place",
        section="recommendation",
    )


def _differing(best: dict[str, Any], other: dict[str, Any], i: int
               ) -> list[tuple[dict[str, Any], dict[str, Any]]]:  # fmt: skip
    """Target i's places where the other setting's verdict is better: (recommendation's
    place, the other's)."""
    pairs = []
    for mine in (q for q in best["places"] if q["target"] == i):
        theirs = next(q for q in other["places"] if q["target"] == i and q["arm"] == mine["arm"])
        if rank(theirs["verdict"]) > rank(mine["verdict"]):
            pairs.append((mine, theirs))
    return pairs


def _apart(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two places' 95% intervals do not overlap."""
    return a["high"] < b["low"] or b["high"] < a["low"]


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


def _why(data: TuneData, other: dict[str, Any], *, take: bool) -> str:
    """Why the recommendation stands, by the rule that chose it (tune.json's model `by`);
    with `take`, when to take the other setting instead."""
    model = data.summary.get("model") or {}
    advice = (" Where meeting more targets on these games matters more, take the other setting."
              if take else "")  # fmt: skip
    if model.get("fitted") and model.get("by", "model") == "model":
        listed = (model.get("region") or {}).get("listed") or []
        both = ("finds both among the settings that do as well" if other["values"] in listed
                else "puts its optimum there")  # fmt: skip
        return ("The recommendation stands as the model's best: the model, fitted to every "
                f"candidate played, {both}, and the tune keeps its best while it lies in that "
                "region." + advice)  # fmt: skip
    return ("The recommendation stands by its lower score, the sum of the targets' squared "
            "misses in tolerances, which weighs how far each target is missed, not how many "
            "are." + advice)  # fmt: skip
