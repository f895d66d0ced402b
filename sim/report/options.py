"""What an optional action is worth: arms that differ from the baseline arm only in how some
seats decide (a strategy parameter that takes or declines the action), compared with it on
the same games (game i of every arm plays the same seed, so a game without a different
decision plays out identically). A cooperative game compares the team's results per game; a
competitive one compares each seat that plays differently with the same seat of the same
game in the baseline. Nothing here knows a game: the sections say which columns to compare.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from sim.report import fmt
from sim.report import verdicts as words
from sim.report.answers import Answer, Part, Row
from sim.report.context import Context
from sim.report.data_quality import Quality
from sim.report.render import Finding
from sim.report.table import Column, Table
from sim.stats.interval_columns import high_key, interval_in, low_key
from sim.stats.verdict import Verdict, all_of


def reference(ctx: Context) -> str:
    """The arm an option is compared with when no arm plays its strategies' defaults: the
    baseline, else the first arm."""
    return ctx.results.baseline if ctx.results.baseline in ctx.arm_names else ctx.arm_names[0]


def option_pairs(ctx: Context, base: str) -> list[tuple[str, str]]:
    """(arm, its reference) for every arm that plays the same strategies as another arm with
    some parameters changed: the reference is the arm of the same players and rules whose
    seats play those strategies with their defaults (the baseline arm if none does). An arm
    whose reference would be itself is left out."""
    pairs = []
    for name in ctx.arm_names:
        info = ctx.results.arm(name)
        plain = tuple(label.split("(")[0] for label in info.lineup)
        same = [
            other
            for other in ctx.arm_names
            if ctx.results.arm(other).players == info.players
            and ctx.results.arm(other).rules == info.rules
        ]
        reference = next((o for o in same if ctx.results.arm(o).lineup == plain), None)
        if reference is None and base in same:
            reference = base
        if reference is not None and reference != name:
            pairs.append((name, reference))
    return pairs


def deviating(ctx: Context, arm: str, base: str) -> list[str]:
    """The strategies (labels, parameters included) of the arm's seats that differ from the
    baseline's seat of the same game: the registry's per-seat measures of these labels,
    paired, compare them with the same seats in the baseline (sim.measures.seats.SeatRatio)."""
    a = ctx.results.arm_seats(arm).select("game", "seat", "strategy")
    b = ctx.results.arm_seats(base).select("game", "seat", pl.col("strategy").alias("was"))
    moved = a.join(b, on=["game", "seat"]).filter(pl.col("strategy") != pl.col("was"))
    return sorted(moved.get_column("strategy").unique().to_list())


def options_table(name: str, title: str, rows: list[dict[str, Any]], who: str,
                  compared: Sequence[Column], *, note: str) -> Table:  # fmt: skip
    """An options section's table, a row per arm that decides otherwise: the arm, the seats
    that decide otherwise (`lineup`, headed `who`), the arm it is compared with (`against`),
    what is `compared`, and the paired games it rests on (`games`)."""
    arms = [
        Column.text("arm", "arm"),
        Column.text("lineup", who),
        Column.text("against", "against"),
    ]
    columns = [*arms, *compared, Column.count("games", "paired games")]
    return Table.of_rows(name, title, rows, columns, note=note)


def changes(rows: list[dict[str, Any]], key: str, who: str, what: str) -> list[Finding]:
    """A finding for each row whose change (`key`, with `key`_low and `key`_high) is shown:
    "<the row's `who`>: <what> changes by <the change> against <the row's `against`>."."""
    return [Finding(f"{r[who]}: {what} changes by "
                    f"{fmt.pp_ci(*interval_in(r, key))} against "
                    f"{r['against']}.", "finding")
            for r in rows if r[low_key(key)] > 0 or r[high_key(key)] < 0]  # fmt: skip


def options_answer(section: str, question: str, verdicts: list[Verdict], parts: list[Part], *,
                   said_all: tuple[str, str], quality: Quality, rows: list[Row],
                   rows_head: str, **more: Any) -> Answer:  # fmt: skip
    """An options section's answer "what is each option worth?" (`<section>.worth`): each
    option's verdict in the rows, the family's (no option changes anything, in the words
    `said_all`: holds, opposite) in the category and the word, and how to settle the open
    ones; `more`: the Answer's other fields (a tolerance)."""
    verdict, kind = words.each(verdicts)
    family = all_of(verdicts)
    return Answer(key=f"{section}.worth", question=question, parts=parts, kind=kind,
                  category=words.said(family, *said_all), quality=quality, section=section,
                  verdict=verdict, more=words.settle_sentence(words.open_ones(verdicts), "them"),
                  rows=rows, word=words.said(family, "no change", "changes"),
                  rows_head=rows_head, **more)  # fmt: skip
