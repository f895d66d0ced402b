"""What a game gives the report framework: its sections, its overview and its wording.

A game plug-in's `report()` returns a GameReport. Section builders take a Context (the loaded
results and the report's settings) and return a Section; they compute from the stored tables
only, so a game's report package imports the framework and polars, never the game's engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sim.report.context import Context
    from sim.report.data import Results
    from sim.report.render import Section

Builder = Callable[["Context"], "Section"]


def section_builders(refs: Mapping[str, str]) -> dict[str, Builder]:
    """A game's sections, imported: its plug-in's `report_sections` (an experiment's `report:`
    name -> "module:function"), the one list of its section names."""
    builders = {}
    for name, ref in refs.items():
        module, _, function = ref.partition(":")
        builders[name] = getattr(import_module(module), function)
    return builders


def _no_sections(results: Results) -> list[str]:
    return []


@dataclass(frozen=True)
class GameReport:
    title: str  # the page's title, before the experiment's name
    sections: Mapping[str, Builder]  # the experiment's `report:` names -> builders
    overview: Builder  # always the last section: what happened in each arm
    methods: Sequence[str] = ()  # how the game's sections compute, for the Methods list
    # per-seat columns the sections read besides the base ones ("bought_*": every column so
    # named, for columns that depend on the ruleset, such as one per card)
    seat_columns: Sequence[str] = ()
    infer: Callable[[Results], list[str]] = _no_sections  # sections when `report:` is empty
    words: Mapping[str, str] = field(default_factory=dict)  # term -> definition (footnotes)
