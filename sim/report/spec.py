"""What a game gives the report framework: its overview and its wording (a GameReport), and its
sections by name (its plug-in's `report_sections`, imported here: `section_builders`).

A game plug-in's `report()` returns a GameReport. Section builders take a Context (the loaded
results and the report's settings) and return a Section; they compute from the stored tables
only, so a game's report package imports the framework and polars, never the game's engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING

from sim.plugins.base import QUALITY, ReportSection

if TYPE_CHECKING:
    from sim.report.context import Context
    from sim.report.data import Results
    from sim.report.render import Section

Builder = Callable[["Context"], "Section"]
# the framework's own sections, which a plug-in lists by their name alone (QUALITY_SECTION)
FRAMEWORK_SECTIONS = {
    # the levels are read by the section itself (game_quality/design.py), not split by the report
    QUALITY: ReportSection("sim.report.game_quality:build", reads_skill=True),
}


@dataclass(frozen=True)
class SectionBuilder:
    """A section's builder, imported, and how the report builds it: once per skill level and
    merged, unless it `reads_skill` itself (sim.plugins.base.ReportSection)."""

    build: Builder
    reads_skill: bool = False

    def __call__(self, context: Context) -> Section:
        return self.build(context)


def section_builders(refs: Mapping[str, str | ReportSection]) -> dict[str, SectionBuilder]:
    """A game's sections, imported: its plug-in's `report_sections` (an experiment's `report:`
    name -> "module:function", a ReportSection, or the name of one of the framework's own),
    the one list of its section names."""
    builders = {}
    for name, ref in refs.items():
        declared = FRAMEWORK_SECTIONS.get(ref, ref) if isinstance(ref, str) else ref
        section = declared if isinstance(declared, ReportSection) else ReportSection(declared)
        module, _, function = section.builder.partition(":")
        builders[name] = SectionBuilder(getattr(import_module(module), function),
                                        reads_skill=section.reads_skill)  # fmt: skip
    return builders


def _no_sections(results: Results) -> list[str]:
    return []


@dataclass(frozen=True)
class GameReport:
    title: str  # the page's title, before the experiment's name
    overview: Builder  # always the last section: what happened in each arm
    # the experiment's `report:` names -> builders: the plug-in's `report_sections`, imported
    # (sim.report.game_report), or a game's own when its plug-in declares none
    sections: Mapping[str, SectionBuilder] = field(default_factory=dict)
    methods: Sequence[str] = ()  # how the game's sections compute, for the Methods list
    # per-seat columns the sections read besides the base ones ("bought_*": every column so
    # named, for columns that depend on the ruleset, such as one per card)
    seat_columns: Sequence[str] = ()
    infer: Callable[[Results], list[str]] = _no_sections  # sections when `report:` is empty
    words: Mapping[str, str] = field(default_factory=dict)  # term -> definition (footnotes)
