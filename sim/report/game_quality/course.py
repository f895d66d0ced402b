"""Are games close, does the lead change, how does a game flow: the per-level questions, each
a handful of the registry's measures over the level's arms (design.views)."""

from __future__ import annotations

import math

from sim.measures.registry import Registry
from sim.measures.spec import GameMeasures
from sim.report.answers import Answer, Label, Part, sentence
from sim.report.data_quality import Quality, mde
from sim.report.game_quality.common import (
    Found,
    by_level,
    capitalised,
    estimate,
    key,
    measure_at,
    term,
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


def close_competitive(design, results, registry, spec: GameMeasures) -> tuple[Answer, list[Found]]:
    found = measured(
        design, results, registry, ["median_margin", "close_rate", "decided_last_round"]
    )

    def at(level: str) -> list[Part]:
        margin, close, last = (
            _find(found, n, level) for n in ("median_margin", "close_rate", "decided_last_round")
        )
        if margin is None or close is None or last is None:
            return []
        return sentence(
            "first and second end ",
            _said(margin, "close", 0),
            f" {spec.score_unit} apart (median), ",
            _said(close, "close"),
            " of games within ",
            term(close.measure, "one scoring event"),
            _event_points(design, level, spec),
            ", ",
            _said(last, "close"),
            " ",
            term(last.measure, "decided in the last round"),
        )

    parts = capitalised(sentence(by_level(design.levels, at), "."))
    return _answer("quality.close", CLOSE, parts, found, "close_rate", "games with a winner"), found


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

    def at(level: str) -> list[Part]:
        items = []
        for f in (f for f in found if f.level == level and f.value.n):
            items += sentence("; " if items else "", term(f.measure), " ", _said(f, "close"))
        return items

    parts = capitalised(sentence(by_level(design.levels, at), "."))
    return _answer(
        "quality.close", CLOSE, parts, found, names[0] if names else "", "games that ended that way"
    ), found


def lead(design, results, registry) -> tuple[Answer, list[Found]]:
    names = [
        "lead_changes",
        *(f"leader_wins.{f}" for f in FRACTIONS),
        *(f"last_wins.{f}" for f in FRACTIONS),
    ]
    found = measured(design, results, registry, names)

    def at(level: str) -> list[Part]:
        changes = _find(found, "lead_changes", level)
        leaders = [_find(found, f"leader_wins.{f}", level) for f in FRACTIONS]
        last = _find(found, "last_wins.half", level)
        if changes is None or None in leaders or last is None:
            return []
        return sentence(
            _said(changes, "lead", 2),
            " ",
            term(changes.measure, "lead changes per game"),
            "; the leader wins ",
            _said(leaders[0], "lead"),
            " of games from a third, ",
            _said(leaders[1], "lead"),
            " from half time, ",
            _said(leaders[2], "lead"),
            " from two thirds; ",
            term(last.measure, "the last at half time wins"),
            " ",
            _said(last, "lead"),
        )

    parts = capitalised(sentence(by_level(design.levels, at), "."))
    return _answer(
        "quality.lead",
        LEAD,
        parts,
        found,
        "leader_wins.half",
        "games with a winner and a single leader",
    ), found


def flow(design, results, registry, spec: GameMeasures, outcomes) -> tuple[Answer, list[Found]]:
    lengths = [f"median_{c}" for c in spec.length]
    ends = [f"{o}_rate" for o in outcomes or ()]
    names = [*lengths, *ends, "no_choice_share"]
    found = measured(design, results, registry, names)

    def at(level: str) -> list[Part]:
        parts: list[Part] = []
        for i, name in enumerate(lengths):
            f = _find(found, name, level)
            if f is not None:
                unit = name.removeprefix("median_")
                parts += sentence(", " if i else "median ", _said(f, "flow", 0), f" {unit}")
        shown = [f for n in ends if (f := _find(found, n, level)) and f.value.value > 0]
        for i, f in enumerate(shown):
            name = f.measure.name.removesuffix("_rate")
            parts += sentence("; ends " if i == 0 else ", ", Label(name), " ", _said(f, "flow"))
        choice = _find(found, "no_choice_share", level)
        if choice is not None:
            parts += sentence(
                "; ",
                _said(choice, "flow"),
                " of turns ",
                term(choice.measure, "without a real choice"),
            )
        return parts

    parts = capitalised(sentence(by_level(design.levels, at), "."))
    if spec.no_choice is None and spec.no_choice_words:
        parts.append(f" Turns without a real choice are not counted: {spec.no_choice_words}.")
    return _answer(
        "quality.flow", FLOW, parts, found, lengths[0] if lengths else "", "games"
    ), found


def _answer(
    key_: str, question: str, parts: list[Part], found: list[Found], head_name: str, basis: str
) -> Answer:
    head = next((f for f in found if f.measure.name == head_name and f.value.n), None)
    if not found or len(parts) <= 1:
        parts = [
            "Not measured: the stored games lack the columns these measures read (results "
            "written before they existed: run the experiment again with --fresh)."
        ]
        return Answer(key_, question, parts, "info", category="not measured", section="quality")
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
    )
