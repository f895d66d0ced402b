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
only when some pair's difference lies wholly beyond the tolerance; a real difference smaller
than that is said as such. A difference that is merely not detected settles nothing.

The combined answer says each level's own conclusion first ("the printed 10 is too cheap at
every level"), then the headline across levels in the verdict vocabulary; each level's
headline goes into its rows.
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
    Row,
    difference,
    family_widening,
    joined,
    sentence,
)
from sim.report.data import Results
from sim.report.data_quality import Quality
from sim.results import Settings
from sim.stats.verdict import Outcome, Verdict, all_of, equivalence

SKILL = "skill"
ROBUST = SAME = words.SAME_WORD
DEPENDS = words.DEPENDS_WORD
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


# --- the verdict ---------------------------------------------------------------------------


def _pair(a: Estimate, b: Estimate, tol: float, widen: float, games: int | None) -> Verdict:
    """Whether two levels' headlines are the same within the tolerance: the MOVER difference
    (widened by `widen`) read as an equivalence. An open-ended interval (a break-even beyond
    the range tried) shows a difference only when the two intervals lie more than the
    tolerance apart."""
    d = difference(a, b, widen=widen)
    if math.isfinite(d.low) and math.isfinite(d.high):
        return equivalence(d.value, d.low, d.high, tol, games=games)
    apart = a.high + tol < b.low or b.high + tol < a.low
    return Verdict(Outcome.OPPOSITE if apart else Outcome.UNSETTLED, tol, d.value, d.low, d.high)


def _across(found: dict[str, Answer], games: int | None) -> tuple[Verdict | None, tuple[str, str]]:
    """The verdict on "the answer is the same at every level" and the pair of levels it rests
    on: every pair of headlines the same within the headline's tolerance (Bonferroni-widened
    for the pairs). Without comparable headlines, the levels' own verdicts: the same when every
    level settles on the same conclusion; otherwise None (no claim across levels: each level's
    answer is told, its open verdicts kept), for conclusions that read differently do not show
    that they differ."""
    answers = list(found.values())
    levels = list(found)
    if len(answers) < 2:
        return None, ("", "")  # asked at one level only: nothing to compare
    tol = answers[0].tolerance
    heads = [a.headline for a in answers]
    alike = len({(h.label, h.unit) if h is not None else None for h in heads}) == 1
    if tol is not None and heads[0] is not None and alike:
        widen = family_widening(len(heads) * (len(heads) - 1) // 2)
        pairs = {(x, y): _pair(found[x].headline, found[y].headline, tol.value, widen, games)
                 for x, y in itertools.combinations(levels, 2)}  # fmt: skip
        verdict = all_of(pairs.values())
        pair = next(
            (
                p
                for p, v in pairs.items()
                if (v.estimate, v.low, v.high) == (verdict.estimate, verdict.low, verdict.high)
            ),
            (levels[0], levels[-1]),
        )
        return verdict, pair  # fmt: skip
    verdicts = [a.verdict for a in answers]
    if any(v is None for v in verdicts):
        return None, ("", "")
    first = verdicts[0]
    same = len({(v.outcome, a.category) for v, a in zip(verdicts, answers, strict=True)}) == 1
    if same and all(v.settled for v in verdicts):
        held = Verdict(Outcome.HOLDS, first.tolerance, first.estimate, first.low, first.high)
        return held, ("", "")
    return None, ("", "")  # open, or reading differently: level by level


def _still_open(across: Verdict, found: dict[str, Answer]) -> Verdict:
    """The answer's verdict: whether it depends on skill when that is shown; else open while
    the question or any level's own claim is open (the games that would settle them all)."""
    if across.opposite:
        return across
    own = [a.verdict for a in found.values() if a.verdict is not None and not a.verdict.settled]
    return all_of([across, *own])


def _lower(parts: list[Part]) -> list[Part]:
    """The parts with the first word in lower case (it follows 'At <level>: ')."""
    if parts and isinstance(parts[0], str) and parts[0][:1].isupper():
        word = parts[0].split(" ", 1)[0]
        if len(word) == 1 or word[1:].islower():  # not an acronym
            return [parts[0][:1].lower() + parts[0][1:], *parts[1:]]
    return list(parts)


def _upper(parts: list[Part]) -> list[Part]:
    if parts and isinstance(parts[0], str) and parts[0]:
        return [parts[0][:1].upper() + parts[0][1:], *parts[1:]]
    if parts and isinstance(parts[0], Label):
        return [Label(parts[0].text[:1].upper() + parts[0].text[1:]), *parts[1:]]
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
        across, pair = _across(found, games)
        if across is None:
            answer = _side_by_side(found)
        else:
            answer = _verdict_answer(key, found, across, pair, missing)
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


def _own(found: dict[str, Answer]) -> list[Part]:
    """Each level's own conclusion: 'the printed 10 is too cheap at every level' or 'skill
    decides at strong; not settled at club' (its category, grouped by level; a category may
    name a setting, "the printed 10", so it is said as a label)."""
    cats: dict[str, list[str]] = {}
    for lv, a in found.items():
        cats.setdefault(a.category, []).append(lv)
    if len(cats) == 1:
        return [Label(next(iter(cats))), " at every level"]
    return joined([[Label(c), " at ", Label(", ".join(lvs))] for c, lvs in cats.items()], "; ",
                  "; ")  # fmt: skip


def _apart(across: Verdict, pair: tuple[str, str], head: Estimate, key: str) -> Estimate:
    """The deciding pair's difference, the larger minus the smaller."""
    sign = -1.0 if across.estimate < 0 else 1.0
    low, high = sorted((sign * across.low, sign * across.high))
    unit = "pp" if head.unit == "pct" else ("num" if head.unit == "price" else head.unit)
    return Estimate(f"{key}.levels", f"{pair[0]} against {pair[1]}", sign * across.estimate,
                    low, high, unit=unit, digits=head.digits, signed=False)  # fmt: skip


def _across_words(across: Verdict, pair: tuple[str, str], head: Estimate | None, tol, key: str
                  ) -> list[Part]:  # fmt: skip
    """The headline across levels in the vocabulary: 'the break-even price depends on skill:
    club and strong differ by 2.4 (1.5 to 3.3), beyond the ±1 point tolerance'."""
    label = Label(f"the {head.label if head is not None else 'answer'}")
    if head is None or tol is None or not math.isfinite(across.low * 0 + across.high * 0):
        if across.holds:
            return [label, f" is {SAME}"]
        if across.opposite:
            return [label, f" {DEPENDS}"]
        return ["not settled whether ", label, f" {DEPENDS}"]
    apart = _apart(across, pair, head, key)
    levels = Label(f"{pair[0]} and {pair[1]}")
    if across.holds:
        return sentence(label, f" is {SAME}: ", levels, " differ by ", apart,
                        words.versus(across, tol))  # fmt: skip
    if across.opposite:
        return sentence(label, f" {DEPENDS}: ", levels, " differ by ", apart,
                        words.versus(across, tol))  # fmt: skip
    if across.real:
        return sentence(levels, " differ in ", Label(label.text.removeprefix("the ")), " by ",
                        apart, words.versus(across, tol))  # fmt: skip
    return sentence("not settled whether ", label, f" {DEPENDS}", words.tolerance(tol))


def _rows(found: dict[str, Answer], key: str) -> list[Row]:
    return [Row(lv, replace(a.headline, key=f"{key}@{lv}"), a.word or a.category)
            for lv, a in found.items() if a.headline is not None]  # fmt: skip


def _verdict_answer(key: str, found: dict[str, Answer], across: Verdict, pair: tuple[str, str],
                    missing: list[str]) -> Answer:  # fmt: skip
    first = next(iter(found.values()))
    own = [a for a in found.values() if a.verdict is not None]
    head = first.headline
    across_parts = _across_words(across, pair, head, first.tolerance, key)
    note = [f" (not measured at {', '.join(missing)})"] if missing else []
    if own:
        parts = sentence(_upper(_own(found)), note, "; ", across_parts, ".")
    else:
        parts = sentence(_upper(across_parts), note, ".")
    verdict = _still_open(across, found)
    kinds = {a.kind for a in found.values()}
    if across.opposite or words.FINDING in kinds:
        kind = words.FINDING
    elif words.UNSETTLED in kinds or not verdict.settled:
        kind = words.UNSETTLED
    else:
        kind = first.kind if own else words.kind(across)
    uniform = len({a.category for a in found.values()}) == 1
    if own and uniform and all(a.verdict.settled for a in own):
        word = first.word or first.category
    else:
        word = DEPENDS if across.opposite else (SAME if across.holds else words.OPEN_WORD)
    category = DEPENDS if across.opposite else ROBUST if across.holds else UNSETTLED
    return Answer(
        key=key,
        question=first.question,
        parts=parts,
        kind=kind,
        headline=None,
        category=category,
        section=first.section,
        verdict=verdict,
        tolerance=first.tolerance,
        more=words.settle_sentence(verdict),
        rows=_rows(found, key),
        word=word,
        where="every level" if uniform and not missing else ", ".join(found),
        rows_head="level",
    )


def _side_by_side(found: dict[str, Answer]) -> Answer:
    """Answers that claim nothing comparable: each level's conclusion in turn, their figures
    in the rows."""
    first = next(iter(found.values()))
    if all(a.category for a in found.values()):
        parts = sentence(_upper(_own(found)), ".")
    else:
        parts = []
        for lv, a in found.items():
            parts += sentence(" " if parts else "", "At ", Label(lv), ": ", _lower(a.parts))
    kinds = {a.kind for a in found.values()}
    own = [a.verdict for a in found.values() if a.verdict is not None and not a.verdict.settled]
    verdict = all_of(own) if own else None
    return Answer(
        key=first.key,
        question=first.question,
        parts=parts,
        kind=next((k for k in (words.FINDING, words.UNSETTLED) if k in kinds), first.kind),
        category="; ".join(dict.fromkeys(a.category for a in found.values() if a.category)),
        section=first.section,
        verdict=verdict,
        more=words.settle_sentence(verdict),
        rows=_rows(found, first.key),
        word="by level" if len({a.category for a in found.values()}) > 1 else first.word,
        where=", ".join(found),
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
