"""Are games close, does the lead change, how does a game flow: the per-level questions, each
a handful of the registry's measures over the level's arms (design.views)."""

from __future__ import annotations

import math

from sim.measures.registry import Registry
from sim.measures.spec import GameMeasures
from sim.report.answers import Answer, Label, Part, Row, sentence
from sim.report.data_quality import Quality, mde
from sim.report.game_quality.common import (
    Found,
    capitalised,
    estimate,
    key,
    measure_at,
    term,
    unasked,
)
from sim.report.game_quality.design import Design, has_columns
from sim.results import Settings

CLOSE, LEAD, FLOW = "Are games close?", "Does the lead change?", "How does a game flow?"
FRACTIONS = ("third", "half", "two_thirds")


def measured(design: Design, results, registry: Registry, names: list[str]) -> list[Found]:
    """Each named measure at each level (those whose columns the results hold)."""
    out = []
    for level in design.levels:
        arms = [results.stored(a) for a in design.views[level]]
        for name in names:
            m = registry.find(name)
            if m is not None and has_columns(arms, m.games_columns, m.seats_columns):
                out.append(measure_at(m, level, arms))
    return out


def _find(found: list[Found], name: str, level: str) -> Found | None:
    return next((f for f in found if f.measure.name == name and f.level == level), None)


def _said(f: Found | None, q: str, digits: int = 1, label: str = "") -> list[Part]:
    if f is None or not f.value.n:
        return []
    return [estimate(key(q, f.measure.name, f.level), f, label, digits=digits)]


def _quality(found: list[Found], basis: str, name: str) -> Quality | None:
    those = [f for f in found if f.measure.name == name and f.value.n]
    if not those:
        return None
    worst = max(those, key=lambda f: (f.value.high - f.value.low) if f.value.n else 0)
    note = "per level " + ", ".join(f"{f.value.n:,}" for f in those) if len(those) > 1 else ""
    return Quality(
        games=sum(f.value.n for f in those),
        basis=basis,
        mde=mde(worst.value.low, worst.value.high),
        mde_of=worst.measure.label,
        mde_unit="pp" if worst.measure.unit == "share" else "num",
        note=note,
    )


def spread(found: list[Found], name: str, q: str, digits: int = 1) -> list[Part]:
    """A measure over the levels in a few words: '35.2% (33.0 to 37.4)' at one level, 'from
    31.0% (...) at casual to 38.2% (...) at strong' at several ([] when unmeasured)."""
    those = [f for f in found if f.measure.name == name and f.value.n
             and not math.isnan(f.value.value)]  # fmt: skip
    if not those:
        return []
    if len(those) == 1:
        return _said(those[0], q, digits)
    low = min(those, key=lambda f: f.value.value)
    high = max(those, key=lambda f: f.value.value)
    if low is high or low.value.value == high.value.value:
        return sentence(_said(low, q, digits), " at every level")
    return sentence("from ", _said(low, q, digits), " at ", Label(low.level), " to ",
                    _said(high, q, digits), " at ", Label(high.level))  # fmt: skip


def rows(found: list[Found], q: str, names: list[str], digits: dict[str, int] | None = None
         ) -> list[Row]:  # fmt: skip
    """Every measure at every level, for the answer's small table."""
    out = []
    for name in names:
        for f in found:
            if f.measure.name == name and f.value.n:
                figure = estimate(key(q, name, f.level), f, digits=(digits or {}).get(name, 1))
                out.append(Row(f.level or "all games", figure, key=name, what=f.measure.label))
    return out


def close_competitive(design, results, registry, spec: GameMeasures) -> tuple[Answer, list[Found]]:
    names = ["close_rate", "median_margin", "decided_last_round"]
    found = measured(design, results, registry, names)
    close = next((f for f in found if f.measure.name == "close_rate"), None)
    lead = spread(found, "close_rate", "close")
    if close is not None and lead:
        last = spread(found, "decided_last_round", "close")
        parts = capitalised(sentence(lead, " of games end within ",
                                     term(close.measure, "one scoring event"),
                                     _event_points(design, close.level, spec), " of the winner",
                                     *(["; ", last, " are decided in the last round"] if last
                                       else []), "."))  # fmt: skip
    else:
        parts = []
    return _answer("quality.close", CLOSE, parts, found, "close_rate", "games with a winner",
                   rows(found, "close", names, {"median_margin": 0})), found  # fmt: skip


def _event_points(design: Design, level: str, spec: GameMeasures) -> list[Part]:
    """' (10 points)': one scoring event under the level's rules."""
    if spec.scoring_event is None:
        return []
    arm = design.arms[design.views[level][0]]
    points = spec.scoring_event(Settings(arm.players, arm.strategies, arm.rules))
    return [" (", Label(f"{points:,.0f} {spec.score_unit}"), ")"]


def close_cooperative(design, results, registry, spec) -> tuple[Answer, list[Found]]:
    names = [m.name for m in spec.own]
    found = measured(design, results, registry, names)
    head = next((f for f in found if f.value.n), None)
    parts = []
    if head is not None:
        parts = capitalised(sentence(term(head.measure), ": ",
                                     spread(found, head.measure.name, "close"), "."))  # fmt: skip
    return _answer("quality.close", CLOSE, parts, found, names[0] if names else "",
                   "games that ended that way", rows(found, "close", names)), found  # fmt: skip


def lead(design, results, registry) -> tuple[Answer, list[Found]]:
    names = [
        "leader_wins.half",
        "lead_changes",
        *(f"leader_wins.{f}" for f in FRACTIONS if f != "half"),
        *(f"last_wins.{f}" for f in FRACTIONS),
    ]
    found = measured(design, results, registry, names)
    half = next((f for f in found if f.measure.name == "leader_wins.half"), None)
    parts = []
    if half is not None:
        parts = capitalised(sentence(term(half.measure, "the leader at half time"), " wins ",
                                     spread(found, "leader_wins.half", "lead"), " of games; ",
                                     spread(found, "lead_changes", "lead", 2), " ",
                                     term(_of(found, "lead_changes"), "lead changes")
                                     if _of(found, "lead_changes") else "lead changes",
                                     " per game."))  # fmt: skip
    return _answer("quality.lead", LEAD, parts, found, "leader_wins.half",
                   "games with a winner and a single leader",
                   rows(found, "lead", names, {"lead_changes": 2})), found  # fmt: skip


def _of(found: list[Found], name: str):
    return next((f.measure for f in found if f.measure.name == name), None)


def flow(design, results, registry, spec: GameMeasures, outcomes) -> tuple[Answer, list[Found]]:
    lengths = [f"median_{c}" for c in spec.length]
    ends = [f"{o}_rate" for o in outcomes or ()]
    names = [*lengths, *ends, "no_choice_share"]
    found = measured(design, results, registry, names)
    parts: list[Part] = []
    if lengths and spread(found, lengths[0], "flow", 0):
        unit = lengths[0].removeprefix("median_")
        parts = sentence(f"Median {unit} per game: ", spread(found, lengths[0], "flow", 0))
        if _of(found, "no_choice_share") is not None:
            parts += sentence("; ", spread(found, "no_choice_share", "flow"), " of turns offer ",
                              term(_of(found, "no_choice_share"), "no real choice"))  # fmt: skip
        parts.append(".")
    shown = [n for n in ends if any(f.measure.name == n and f.value.value > 0 for f in found)]
    more = []
    if spec.no_choice is None and spec.no_choice_words:
        more = [f"Turns without a real choice are not counted: {spec.no_choice_words}."]
    answer = _answer("quality.flow", FLOW, parts, found, lengths[0] if lengths else "", "games",
                     rows(found, "flow", [*lengths, *shown, "no_choice_share"],
                          dict.fromkeys(lengths, 0)))  # fmt: skip
    answer.more = more
    return answer, found


def _answer(key_: str, question: str, parts: list[Part], found: list[Found], head_name: str,
            basis: str, table: list[Row]) -> Answer:  # fmt: skip
    head = next((f for f in found if f.measure.name == head_name and f.value.n), None)
    if not found or not parts:
        return unasked(key_, question, "Not measured: the stored games lack the columns these "
                       "measures read (results written before they existed: run the experiment "
                       "again with --fresh).", "not measured")  # fmt: skip
    headline = None
    if head is not None and not math.isnan(head.value.value):
        headline = estimate(key(key_.split(".")[1], head.measure.name, head.level), head)
    return Answer(
        key_,
        question,
        parts,
        "info",
        headline,
        "described",
        _quality(found, basis, head_name),
        "quality",
        rows=table,
        rows_head="level",
    )
