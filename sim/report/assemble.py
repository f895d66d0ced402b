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

import polars as pl

from sim.report import levels as skill_levels
from sim.report import plots
from sim.report.context import Context
from sim.report.data import Results
from sim.report.level_figure import answers_figure, levels_figure
from sim.report.plots import Figure
from sim.report.render import Finding, Group, Section, Text
from sim.report.spec import SectionBuilder
from sim.report.table import Table
from sim.stats.interval_columns import high_key, low_key


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


def pictured(section: Section) -> Section:
    """The section with a picture before its first table: where it draws none of its own
    there, its answers' figures (level_figure.answers_figure), drawn first."""
    blocks = section._flat()
    first_table = next((i for i, b in enumerate(blocks) if isinstance(b, Table)), None)
    first_figure = next((i for i, b in enumerate(blocks) if isinstance(b, Figure)), None)
    if first_table is None or (first_figure is not None and first_figure < first_table):
        return section
    table = blocks[first_table]
    figure = answers_figure(f"{section.id}_answers", section.answers) or table_figure(table)
    if figure is not None:
        section.blocks.insert(0, figure)
    return section


SHOWN = 30  # rows of a table drawn in its picture (the first ones: a section puts those first)


def table_figure(table: Table) -> Figure | None:
    """A table's first figure with an interval (a column `key` beside `key`_low and
    `key`_high), each row named by its text columns before it: the picture of a section whose
    answers give none; None when the table has no such column."""
    data = table.data
    for i, col in enumerate(table.columns):
        low, high = low_key(col.key), high_key(col.key)
        if not col.key or low not in data.columns or high not in data.columns:
            continue
        rows = [r for r in table.rows if isinstance(r.get(col.key), (int, float))][:SHOWN]
        if not rows:
            return None
        names = [c.key for c in table.columns[:i] if c.key in data.columns
                 and data.schema[c.key] == pl.String][:2] or [table.columns[0].key]  # fmt: skip
        share = "%" in col.render(rows[0]).text
        return plots.interval_figure(
            f"{table.name}_figure", table.title,
            f"{col.label} with its 95% interval, from the table below.",
            [", ".join(str(r.get(k, "")) for k in names) for r in rows],
            [r[col.key] for r in rows], [_finite(r.get(low)) for r in rows],
            [_finite(r.get(high)) for r in rows],
            xlabel=f"{col.label} (%)" if share else col.label, scale=100.0 if share else 1.0,
        )  # fmt: skip
    return None


def _finite(x) -> float:
    return float(x) if isinstance(x, (int, float)) else float("nan")
