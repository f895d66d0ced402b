"""Skill levels: an experiment with ``skills: [...]`` repeats every arm at each level. Its arms
are named ``<arm>@<level>``, the games and seats tables carry a ``skill`` column, and each arm's
manifest entry names its ``skill`` and ``base_arm``; the baseline at a level is
``<baseline>@<level>``.

- ``levels(results)``: the levels in the experiment's order ([] without a skill column);
- ``for_level(results, level)``: the results of one level with the arms under their base names,
  so every section runs unchanged on it;
- ``combine(by_level)``: one answer per question from the answers at every level, with a
  three-valued verdict (sim/stats/verdict.py): the answer is the same at every skill level, it
  depends on skill, or this size does not settle it (and the games per arm that likely would).

The answer is the same at every level only when it is shown to be: for every pair of levels,
the difference of their headline estimates (MOVER, widened for the number of pairs by
Bonferroni) lies inside the headline's tolerance (an equivalence test). It depends on skill
when some pair's difference excludes zero. A difference that is merely not detected settles
nothing.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import polars as pl

from sim.report import verdicts as words
from sim.report.answers import (
    Answer,
    Estimate,
    Label,
    Part,
    difference,
    family_widening,
    joined,
    sentence,
)
from sim.report.data import Results
from sim.report.quality import Quality
from sim.results import Settings
from sim.stats.verdict import Outcome, Verdict, all_of, equivalence

SKILL = "skill"
ROBUST = "the same at every skill level"
DEPENDS = "depends on skill"
UNSETTLED = "not settled across skill levels"


def levels(results: Results) -> list[str]:
    """Skill levels in the experiment's order (the arms' order in the manifest)."""
    if SKILL not in results.games.columns:
        return []
    present = set(results.games.get_column(SKILL).drop_nulls().unique().to_list())
    ordered = [arm_level(a) for a in results.arms if arm_level(a) in present]
    ordered += sorted(present - set(ordered))
    return list(dict.fromkeys(ordered))


def arm_level(arm: Settings) -> str:
    """The arm's skill level: its manifest entry's, else the part of its name after '@'."""
    if arm.skill:
        return arm.skill
    return arm.name.rsplit("@", 1)[1] if "@" in arm.name else ""


def base_name(arm: Settings) -> str:
    """The arm it repeats: its manifest entry's base_arm, else its name without '@<level>'."""
    if arm.base_arm:
        return arm.base_arm
    level = arm_level(arm)
    return arm.name[: -len(level) - 1] if level and arm.name.endswith(f"@{level}") else arm.name


def for_level(results: Results, level: str) -> Results:
    """The games of one skill level, arms renamed to their base arms."""
    arms = [a for a in results.arms if arm_level(a) == level]
    rename = {a.name: base_name(a) for a in arms}

    def narrow(frame: pl.DataFrame) -> pl.DataFrame:
        f = frame.filter(pl.col(SKILL) == level) if SKILL in frame.columns else frame.clear()
        return f.with_columns(pl.col("arm").replace_strict(rename, default=pl.col("arm")))

    manifest = dict(results.manifest)
    baseline = results.baseline
    if baseline:
        manifest["baseline"] = baseline.rsplit("@", 1)[0] if "@" in baseline else baseline
    manifest["arms"] = [
        {**e, "name": rename.get(str(e.get("name")), e.get("name"))}
        for e in results.manifest.get("arms", [])
        if isinstance(e, dict) and str(e.get("name")) in rename
    ]
    return Results(
        root=results.root,
        manifest=manifest,
        games=narrow(results.games),
        seats=narrow(results.seats),
        arms=[replace(a, name=rename[a.name]) for a in arms],
        excluded={rename[k]: v for k, v in results.excluded.items() if k in rename},
    )


# --- the verdict -----------------------------------------------------------------------------


def _pair(a: Estimate, b: Estimate, tol: float, widen: float, games: int | None) -> Verdict:
    """Whether two levels' headlines are the same within the tolerance: the MOVER difference
    (widened by `widen`) read as an equivalence. An open-ended interval (a break-even beyond
    the range tried) shows a difference only when the two intervals do not overlap."""
    d = difference(a, b, widen=widen)
    if math.isfinite(d.low) and math.isfinite(d.high):
        return equivalence(d.value, d.low, d.high, tol, games=games)
    apart = a.high < b.low or b.high < a.low
    return Verdict(Outcome.OPPOSITE if apart else Outcome.UNSETTLED, tol, d.value, d.low, d.high)


def _across(found: dict[str, Answer], games: int | None) -> Verdict | None:
    """The verdict on "the answer is the same at every level": every pair of headlines the same
    within the headline's tolerance (Bonferroni-widened for the pairs). Without comparable
    headlines, the levels' own verdicts: the same when every level settles on the same
    conclusion; otherwise None (no claim across levels: each level's answer is told, its open
    verdicts kept), for conclusions that read differently do not show that they differ."""
    answers = list(found.values())
    if len(answers) < 2:
        return None  # asked at one level only: nothing to compare
    tol = answers[0].tolerance
    heads = [a.headline for a in answers]
    alike = len({(h.label, h.unit) if h is not None else None for h in heads}) == 1
    if tol is not None and heads[0] is not None and alike:
        widen = family_widening(len(heads) * (len(heads) - 1) // 2)
        return all_of(_pair(a, b, tol.value, widen, games)
                      for a, b in itertools.combinations(heads, 2))  # fmt: skip
    verdicts = [a.verdict for a in answers]
    if any(v is None for v in verdicts):
        return None
    first = verdicts[0]
    same = len({(v.outcome, a.category) for v, a in zip(verdicts, answers, strict=True)}) == 1
    if same and all(v.settled for v in verdicts):
        return Verdict(Outcome.HOLDS, first.tolerance, first.estimate, first.low, first.high)
    return None  # open, or reading differently (which does not show they differ): level by level


def _still_open(across: Verdict, found: dict[str, Answer]) -> Verdict:
    """The answer's verdict: whether it depends on skill when that is shown; else open while
    the question or any level's own claim is open (the games that would settle them all)."""
    if across.opposite:
        return across
    own = [a.verdict for a in found.values() if a.verdict is not None and not a.verdict.settled]
    return all_of([across, *own])


def _at_levels(answers: dict[str, Answer], key: str) -> list[list[Part]]:
    items = []
    for level, a in answers.items():
        h = a.headline
        if h is None:
            items.append([a.category, " at ", Label(level)])
            continue
        items.append([replace(h, key=f"{key}@{level}"), " at ", Label(level)])
    return items


def _lower(parts: list[Part]) -> list[Part]:
    """The parts with the first word in lower case (it follows 'At <level>: ')."""
    if parts and isinstance(parts[0], str) and parts[0][:1].isupper():
        word = parts[0].split(" ", 1)[0]
        if len(word) == 1 or word[1:].islower():  # not an acronym
            return [parts[0][:1].lower() + parts[0][1:], *parts[1:]]
    return list(parts)


def _quality(answers: dict[str, Answer]) -> Quality | None:
    qs = {lv: a.quality for lv, a in answers.items() if a.quality is not None}
    if not qs:
        return None
    games = [q.games for q in qs.values()]
    mdes = [q.mde for q in qs.values() if q.mde == q.mde]
    first = next(iter(qs.values()))
    warnings = _level_warnings({lv: q.warnings for lv, q in qs.items()})
    note = f"per level {min(games):,} to {max(games):,}" if min(games) != max(games) else ""
    return Quality(
        games=sum(games),
        basis=first.basis + " over all levels",
        mde=max(mdes) if mdes else float("nan"),
        mde_unit=first.mde_unit,
        mde_of=first.mde_of + " (at the least precise level)",
        warnings=warnings,
        note=note,
    )


def combine(by_level: dict[str, list[Answer]], *, games: int | None = None) -> list[Answer]:
    """One answer per question over every level (levels in the dict's order); `games`: games
    per arm, for the games that would settle an open question."""
    keys: list[str] = list(dict.fromkeys(a.key for answers in by_level.values() for a in answers))
    out = []
    for key in keys:
        found = {lv: a for lv, answers in by_level.items() for a in answers if a.key == key}
        first = next(iter(found.values()))
        if len(by_level) == 1:
            out.append(first)
            continue
        missing = [lv for lv in by_level if lv not in found]
        across = _across(found, games)
        if across is None:
            answer = _side_by_side(found)
        else:
            answer = _verdict_answer(key, found, across, missing)
        answer.quality = _quality(found)
        answer.levels = _headlines(found)
        answer.reference = first.reference
        out.append(answer)
    return out


def _headlines(found: dict[str, Answer]) -> dict[str, Estimate]:
    """Each level's headline, when every level gives one of the same kind (else none)."""
    heads = {lv: a.headline for lv, a in found.items()}
    kinds = {(h.label, h.unit) if h is not None else None for h in heads.values()}
    return heads if len(kinds) == 1 and None not in kinds else {}  # type: ignore[return-value]


def _verdict_answer(key: str, found: dict[str, Answer], across: Verdict, missing: list[str]):
    first = next(iter(found.values()))
    tol = words.tolerance(first.tolerance) if first.tolerance is not None else []
    label = first.headline.label if first.headline is not None else "the answer"
    per_level = joined(_at_levels(found, key)) if first.headline is not None else None
    cats: dict[str, list[str]] = {}
    for lv, a in found.items():
        cats.setdefault(a.category, []).append(lv)
    said = "; ".join(f"{c} at {', '.join(lvs)}" for c, lvs in cats.items())
    lead = (
        [Label(label[:1].upper() + label[1:]), ": ", per_level]
        if per_level
        else [said[:1].upper() + said[1:]]
    )
    if across.holds:
        names = list(found)
        ref_level = names[len(names) // 2]
        ref = found[ref_level]
        note = f" (not measured at {', '.join(missing)})" if missing else ""
        tail = sentence(": ", Label(label), " ", per_level, ".") if per_level else ["."]
        parts = sentence("At ", Label(ref_level), ": ", _lower(ref.parts),
                         " The same holds at every skill level", tol, note, tail)  # fmt: skip
        kind, category = ref.kind, ROBUST
    elif across.opposite:
        why = [" (", said, ")"] if len(cats) > 1 and per_level else []
        parts = sentence(*lead, f": {DEPENDS}", why, ".")
        kinds = {a.kind for a in found.values()}
        kind, category = ("finding" if "finding" in kinds else first.kind), DEPENDS
    else:
        parts = sentence(*lead, f": not settled at this size whether it {DEPENDS}", tol, "; ",
                         words.to_settle(across), ".")  # fmt: skip
        kind, category = words.UNSETTLED, UNSETTLED
    return Answer(
        key=key,
        question=first.question,
        parts=parts,
        kind=kind,
        headline=None,
        category=category,
        section=first.section,
        verdict=_still_open(across, found),
        tolerance=first.tolerance,
    )


def _side_by_side(found: dict[str, Answer]) -> Answer:
    """Answers that claim nothing comparable: each level's answer in turn."""
    first = next(iter(found.values()))
    parts: list[Part] = []
    for lv, a in found.items():
        parts += sentence(" " if parts else "", "At ", Label(lv), ": ", _lower(a.parts))
    kinds = {a.kind for a in found.values()}
    own = [a.verdict for a in found.values() if a.verdict is not None and not a.verdict.settled]
    return Answer(
        key=first.key,
        question=first.question,
        parts=parts,
        kind=next((k for k in (words.FINDING, words.UNSETTLED) if k in kinds), first.kind),
        category="; ".join(dict.fromkeys(a.category for a in found.values() if a.category)),
        section=first.section,
        verdict=all_of(own) if own else None,
    )


__all__ = [
    "DEPENDS", "ROBUST", "SKILL", "UNSETTLED", "arm_level", "base_name", "combine", "for_level",
    "levels",
]  # fmt: skip


def _level_warnings(by_level: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """Each warning once, prefixed by the levels that give it (none when every level does)."""
    levels: dict[str, list[str]] = {}
    for level, warnings in by_level.items():
        for warning in warnings:
            levels.setdefault(warning, []).append(level)
    return tuple(
        w if len(where) == len(by_level) else f"at {', '.join(where)}: {w}"
        for w, where in levels.items()
    )
