"""What the alien-raid report sections share: each arm's card catalog as the manifest keeps
it, how an arm is named (its skill level), the warning that the numbers rest on the assumed
catalog, and the comparisons of two groups of seats.

Computed from the stored tables only (polars); nothing here imports the engine, the plug-in
or the strategies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.games.alien_raid.catalog import PREFIX
from sim.report.context import Context
from sim.report.render import Finding, Section, Text
from sim.report.table import Column

# a card's verdict at a level: its fair price against its printed price (cards.py)
TOO_FEW, RIGHT, OPEN = "too few probes", "priced right", "not settled"
BELOW, ABOVE = "priced below its worth", "priced above its worth"

# the columns the tables share: an arm as its skill level, the player count
SKILL = Column.text("skill", "skill level")
PLAYERS = Column.count("players", "players")


def catalog(ctx: Context, arm: str) -> dict[str, Any]:
    """The arm's catalog keys (catalog.<section>.<card>.<field>) as the manifest keeps them."""
    values = ctx.results.arm(arm).rules
    return {k: v for k, v in values.items() if k.startswith(PREFIX)}


def skill(ctx: Context, arm: str) -> str:
    """The arm as a reader names it: its strategies without their parameters (one name when
    every seat plays the same), with the settings that tell it apart in plain words ('planner
    (the cruiser's price 40,000)'; else its name) when other arms play the same."""

    def bases(name: str) -> str:
        labels = dict.fromkeys(label.split("(")[0] for label in ctx.results.arm(name).lineup)
        return ", ".join(labels) or name

    mine = bases(arm)
    shared = sum(bases(other) == mine for other in ctx.arm_names) > 1
    if not shared or mine == arm:
        return mine
    values = ctx.arm_values(arm)  # the settings that tell it apart, but its strategy again
    said = ctx.plain.settings({k: values.get(k) for k in ctx.label_columns() if k != "seats.all"})
    return f"{mine} ({said or arm})"


ASSUMED = (
    "These numbers rest on the ASSUMED card catalog (sim/games/alien_raid/rulesets/"
    "catalog-assumed.yaml), not the published cards: prices, attacks, city values and most "
    "traits are assumptions. Replace it with the designer's list (catalog.file) and run again."
)


def assumed(ctx: Context) -> bool:
    """Whether any arm played the assumed card catalog."""
    return any(catalog(ctx, a).get(f"{PREFIX}assumed") for a in ctx.arm_names)


@dataclass(frozen=True)
class Heading:
    """A section's id, title and the question it answers, declared at the top of its module."""

    ident: str
    title: str
    question: str


def section(heading: Heading, ctx: Context) -> Section:
    """A section that says first when its numbers rest on the assumed card catalog."""
    out = Section(heading.ident, heading.title, heading.question)
    if assumed(ctx):
        out.findings.append(Finding(ASSUMED, "info"))
    return out


def section_rows(ctx: Context, heading: Heading, rows_of: Any,
                 empty: str) -> tuple[Section, list[dict[str, Any]]]:  # fmt: skip
    """A `section` and the rows `rows_of(ctx, arm)` gives for every arm, in arm order; with
    no rows the section says `empty` and nothing more."""
    out = section(heading, ctx)
    rows = [row for arm in ctx.arm_names for row in rows_of(ctx, arm)]
    if not rows:
        out.add(Text(empty))
    return out, rows


def bucket(values: np.ndarray, edges: list[int]) -> list[str]:
    """Labels such as '<=4', '5-8', '>=17' for values cut at `edges` (upper bounds)."""
    labels = []
    for v in values:
        low = None
        for e in edges:
            if v <= e:
                labels.append(f"<={e}" if low is None else f"{low + 1}-{e}")
                break
            low = e
        else:
            labels.append(f">={edges[-1] + 1}")
    return labels
