"""Skill levels: an experiment with ``skills: [...]`` repeats every arm at each level. Its arms
are named ``<arm>@<level>``, the games and seats tables carry a ``skill`` column, and each arm's
manifest entry names its ``skill`` and ``base_arm``; the baseline at a level is
``<baseline>@<level>``.

- ``levels(results)``: the levels in the experiment's order ([] without a skill column);
- ``for_level(results, level)``: the results of one level with the arms under their base names,
  so every section runs unchanged on it;
- ``combine(by_level)``: one answer per question from the answers at every level, saying whether
  the conclusion holds at every level ("robust across skill levels") or depends on skill, and
  where it flips.

Two levels agree when their answers' categories are equal and their headline estimates do not
differ significantly: the difference's interval (MOVER, widened for the number of pairs by
Bonferroni) contains zero.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import polars as pl

from sim.report.answers import (
    Answer,
    Label,
    Part,
    difference,
    family_widening,
    joined,
    sentence,
)
from sim.report.data import ArmInfo, Results
from sim.report.quality import Quality

SKILL = "skill"
ROBUST = "robust across skill levels"
DEPENDS = "depends on skill"


def levels(results: Results) -> list[str]:
    """Skill levels in the experiment's order (the arms' order in the manifest)."""
    if SKILL not in results.games.columns:
        return []
    present = set(results.games.get_column(SKILL).drop_nulls().unique().to_list())
    ordered = [arm_level(a) for a in results.arms if arm_level(a) in present]
    ordered += sorted(present - set(ordered))
    return list(dict.fromkeys(ordered))


def arm_level(arm: ArmInfo) -> str:
    """The arm's skill level: its manifest entry's, else the part of its name after '@'."""
    if arm.skill:
        return arm.skill
    return arm.name.rsplit("@", 1)[1] if "@" in arm.name else ""


def base_name(arm: ArmInfo) -> str:
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


def _agree(answers: dict[str, Answer]) -> bool:
    cats = {a.category for a in answers.values()}
    if len(cats) > 1:
        return False
    heads = [a.headline for a in answers.values() if a.headline is not None]
    if len(heads) < 2:
        return True
    widen = family_widening(len(heads) * (len(heads) - 1) // 2)
    return not any(
        difference(a, b, widen=widen).significant for a, b in itertools.combinations(heads, 2)
    )


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


def combine(by_level: dict[str, list[Answer]]) -> list[Answer]:
    """One answer per question over every level (levels in the dict's order)."""
    keys: list[str] = list(dict.fromkeys(a.key for answers in by_level.values() for a in answers))
    out = []
    for key in keys:
        found = {lv: a for lv, answers in by_level.items() for a in answers if a.key == key}
        first = next(iter(found.values()))
        if len(by_level) == 1:
            out.append(first)
            continue
        label = first.headline.label if first.headline is not None else "the answer"
        per_level = joined(_at_levels(found, key))
        if _agree(found):
            names = list(found)
            ref_level = names[len(names) // 2]
            ref = found[ref_level]
            missing = [lv for lv in by_level if lv not in found]
            note = f" (not measured at {', '.join(missing)})" if missing else ""
            tail: list[Part] = ["."]
            if first.headline is not None:
                tail = sentence(": ", Label(label), " ", per_level, ".")
            parts = sentence(
                "At ", Label(ref_level), ": ", _lower(ref.parts), f" This is {ROBUST}{note}", tail
            )
            kind, category = ref.kind, ROBUST
        else:
            cats: dict[str, list[str]] = {}
            for lv, a in found.items():
                cats.setdefault(a.category, []).append(lv)
            said = "; ".join(f"{c} at {', '.join(lvs)}" for c, lvs in cats.items())
            if first.headline is None:  # the categories are the answer
                parts = sentence(DEPENDS[:1].upper() + DEPENDS[1:], ": ", said, ".")
            else:
                why = [" (", said, ")"] if len(cats) > 1 else []
                parts = sentence(
                    Label(label[:1].upper() + label[1:]), ": ", per_level, f": {DEPENDS}", why, "."
                )
            kinds = {a.kind for a in found.values()}
            kind, category = ("finding" if "finding" in kinds else first.kind), DEPENDS
        out.append(
            Answer(
                key=key,
                question=first.question,
                parts=parts,
                kind=kind,
                headline=None,
                category=category,
                quality=_quality(found),
                section=first.section,
            )
        )
    return out


__all__ = ["DEPENDS", "ROBUST", "SKILL", "arm_level", "base_name", "combine", "for_level", "levels"]


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
