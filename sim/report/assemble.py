"""The sections of a report, computed (not yet written): each named section built on the
results, or, when the games carry a skill column, built once per skill level and merged into one
section whose answers say whether they hold at every level (see sim.report.levels).

A builder that reads the skill column itself is declared so (`reads_skill`, sim.report.spec
.SectionBuilder) and is given the whole results. Nothing here knows a game: the builders come
from the caller."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

from sim.report import levels as skill_levels
from sim.report.context import Context
from sim.report.data import Results
from sim.report.level_figure import levels_figure
from sim.report.render import Finding, Group, Section, Text
from sim.report.spec import SectionBuilder
from sim.report.table import Table


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "x"


def _renamed(blocks: list, level: str) -> list:
    """The blocks with table and figure names (files, page ids) made unique to the level."""
    out = []
    for b in blocks:
        if isinstance(b, Table):
            b.name = f"{b.name}__{slug(level)}"
            b.title = f"{b.title} ({level})"
            out.append(b)
        elif isinstance(b, Group):
            b.blocks = _renamed(b.blocks, level)
            out.append(b)
        elif isinstance(b, Text):
            out.append(b)
        else:  # a figure (frozen)
            out.append(
                dataclasses.replace(
                    b, name=f"{b.name}__{slug(level)}", title=f"{b.title} ({level})"
                )
            )
    return out


def merge_levels(per_level: dict[str, Section], *, games: int | None = None) -> Section:
    """One section from the same section built at every level (`games` per arm)."""
    first = next(iter(per_level.values()))
    merged = Section(first.id, first.title, first.question)
    merged.answers = skill_levels.combine(
        {lv: s.answers for lv, s in per_level.items()}, games=games
    )
    figure = levels_figure(f"{first.id}_levels", merged.answers)
    if figure is not None:
        merged.add(figure)
    for s in per_level.values():
        for k, v in s.glossary.items():
            merged.glossary.setdefault(k, v)
    merged.add(
        Text(
            f"The experiment plays every arm at {len(per_level)} skill levels "
            f"({', '.join(per_level)}); each level's details follow, the first one open."
        )
    )
    for i, (level, s) in enumerate(per_level.items()):
        findings = [Finding(f"At {level}: {f.text}", f.kind) for f in s.findings]
        merged.add(Group(f"At {level}", _renamed(s.blocks, level), open=i == 0, findings=findings))
    return merged


def build_sections(
    results: Results, names: list[str], builders: Mapping[str, SectionBuilder], *, n_boot: int
) -> list[Section]:
    """The named sections, in order; per skill level when the games have a skill column."""
    levels = skill_levels.levels(results)
    views = {lv: skill_levels.for_level(results, lv) for lv in levels}
    out = []
    for name in names:
        builder = builders[name]
        if len(levels) > 1 and not builder.reads_skill:
            contexts = {lv: Context(views[lv], n_boot=n_boot) for lv in levels}
            per = {lv: builder(c) for lv, c in contexts.items()}
            games = max(c.games_per_arm for c in contexts.values())
            out.append(merge_levels(per, games=games))
        else:
            out.append(builder(Context(results, n_boot=n_boot)))
    return out
