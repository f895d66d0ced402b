"""The screening report: per target (and skill level), which keys move it and by how much, a
tornado chart first (each key's effect one step down and one step up, with 95% intervals,
largest first), then the table of every key."""

from __future__ import annotations

import html
import math
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from sim.report import plots, write_report
from sim.report.answers import Answer, Count, Estimate, Label, Row, sentence
from sim.report.render import Section
from sim.report.table import Column, Table
from sim.report.verdicts import (
    BEYOND_WORD,
    FINDING,
    OPEN_WORD,
    UNSETTLED,
    WITHIN,
    WITHIN_WORD,
)
from sim.stats.interval_columns import high_key, interval_in, interval_keys, low_key

TOP = 12  # keys drawn per tornado
METHODS = [
    "Each rule key is moved one step down and one step up from the experiment's value; every "
    "side is an arm of one experiment, and every arm plays the same seeds as the unchanged "
    "baseline (common random numbers).",
    "An effect is the paired difference of the target's measure from the baseline over the "
    "same games, with its 95% interval (the delta method; for quantiles a paired bootstrap).",
    "A key moves a target within its tolerance when both sides' intervals lie within plus or "
    "minus the tolerance; beyond it when an interval lies wholly outside it; otherwise it is "
    "not settled at this size (the lab's one verdict vocabulary).",
]


def build_screen_report(root: Path, summary: dict[str, Any], report_dir: Path) -> Path:
    sections = [_section(summary, i, target) for i, target in enumerate(summary["targets"])]
    title = f"Screen: {summary['name']}"
    meta = [html.escape(f"{summary['games']:,} games per arm; {len(summary['keys'])} keys moved "
                        f"by a step each way; results in {root}.")]  # fmt: skip
    meta += [html.escape(f"Left out: {n}") for n in summary["notes"]]
    return write_report(report_dir, title=title, meta=meta, sections=sections, methods=METHODS,
                        footer=html.escape(f"Built from {root}."), key="--report-dir")  # fmt: skip


def _section(summary: dict[str, Any], i: int, target: dict[str, Any]) -> Section:
    rows = [r for r in summary["rows"] if r["target"] == i]
    name = target["name"] or target["measure"]
    section = Section(f"screen_{i}", f"What moves {name}",
                      f"Which keys move {name}, one step each way?")  # fmt: skip
    levels = list(dict.fromkeys(r["level"] for r in rows))
    section.add(_tornado(i, target, {lv: [r for r in rows if r["level"] == lv] for lv in levels}))
    for level in levels:
        mine = [r for r in rows if r["level"] == level]
        section.answers.append(_answer(i, target, level, mine, summary.get("key_names", {})))
    scale = 100.0 if target["unit"] == "share" else 1.0
    shown = [{**r, **{k: scale * r[k] for side in ("down", "up") for k in interval_keys(side)
                      if r.get(k) is not None}} for r in rows]  # fmt: skip
    unit = " (pp)" if scale == 100.0 else ""
    section.add(Table(f"screen_{i}", f"Every key's effect on {name}", pl.DataFrame(shown), [
        Column.text("level", "level"), Column.text("key", "rule key"),
        Column.text("down_to", "down to"), Column.diff("down", f"effect down{unit}", digits=2),
        Column.text("down_verdict", "verdict"),
        Column.text("up_to", "up to"), Column.diff("up", f"effect up{unit}", digits=2),
        Column.text("up_verdict", "verdict"),
        Column.num("size", "larger effect (tolerances)", 2),
    ], note=f"Paired differences from the baseline; tolerance {target['within']}."))  # fmt: skip
    return section


def _answer(i: int, target: dict[str, Any], level: str, rows: list[dict],
            names: dict[str, str]) -> Answer:  # fmt: skip
    """'2 keys move the raid rate beyond the ±2 pp tolerance; the most, the missile's price one
    step up: +3.10 pp (...).' The keys, largest first, in the rows."""
    sides = ("down_verdict", "up_verdict")
    big = [r for r in rows if BEYOND_WORD in (r.get(k) for k in sides)]
    small = [r for r in rows if all(r.get(k, WITHIN_WORD) == WITHIN_WORD for k in sides)]
    unit = "pp" if target["unit"] == "share" else "num"
    name = target.get("name") or target.get("label") or target["measure"]
    tol = Label(str(target["within"]))

    def larger(r: dict) -> tuple[str, Estimate]:
        side = "up" if abs(r.get("up", 0) or 0) >= abs(r.get("down", 0) or 0) else "down"
        return side, Estimate(f"screen.{i}.{level}.{r['key']}.{side}", f"effect on {name}",
                              *interval_in(r, side), unit=unit,
                              digits=2)  # fmt: skip

    if big:
        side, est = larger(big[0])
        parts = sentence(Count(len(big), "key" if len(big) == 1 else "keys"), " move ", name,
                         " beyond the ", tol, " tolerance; the most, ",
                         Label(names.get(big[0]["key"], big[0]["key"])), f" one step {side}: ",
                         est, ".")  # fmt: skip
        kind, word = FINDING, BEYOND_WORD
    elif len(small) == len(rows):
        parts = sentence("No key moves ", name, " beyond the ", tol, " tolerance, one step "
                         "each way.")  # fmt: skip
        kind, word = WITHIN, WITHIN_WORD
    else:
        parts = sentence(
            "No key is shown to move ",
            name,
            " beyond the ",
            tol,
            " tolerance; ",
            Count(len(rows) - len(small), "keys"),
            " not settled at this size.",
        )
        kind, word = UNSETTLED, OPEN_WORD
    table = []
    for r in rows[:8]:
        side, est = larger(r)
        table.append(Row(f"{names.get(r['key'], r['key'])}, one step {side}", est,
                         r.get(f"{side}_verdict", ""), r["key"]))  # fmt: skip
    question = f"What moves {name}" + (f" ({level})?" if level else "?")
    return Answer(key=f"screen.{i}.{level}", question=question, parts=parts, kind=kind,
                  section=f"screen_{i}", rows=table, word=word, where=level,
                  rows_head="key")  # fmt: skip


def _tornado(i: int, target: dict[str, Any], by_level: dict[str, list[dict]]):
    scale = 100.0 if target["unit"] == "share" else 1.0
    levels = list(by_level)
    height = 0.9 + 0.32 * max(min(len(r), TOP) for r in by_level.values())
    fig, axes = plots.new(1, len(levels), width=min(5.5 * len(levels) + 1, 15), height=height)
    for level, ax in zip(levels, axes[0], strict=True):
        rows = by_level[level][:TOP]
        y = np.arange(len(rows))[::-1]
        for side, color in (("down", plots.COLORS[0]), ("up", plots.COLORS[1])):
            v = np.array([scale * (r.get(side) or 0.0) for r in rows])
            lo = np.array([scale * _or(r.get(low_key(side)), r.get(side)) for r in rows])
            hi = np.array([scale * _or(r.get(high_key(side)), r.get(side)) for r in rows])
            ax.barh(y, v, color=color, alpha=0.75, label=f"one step {side}")
            ax.errorbar(v, y, xerr=np.vstack([np.clip(v - lo, 0, None), np.clip(hi - v, 0, None)]),
                        fmt="none", ecolor="black", elinewidth=1, capsize=2)  # fmt: skip
        tol = scale * target["tolerance"]
        ax.axvspan(-tol, tol, color=plots.FAIR, alpha=0.08, linewidth=0, label="within tolerance")
        ax.axvline(0, color=plots.FAIR, linewidth=1)
        ax.set_yticks(y, [r["key"] for r in rows])
        ax.set_xlabel(f"change in {target['label']}" + (" (pp)" if scale == 100.0 else ""))
        if level:
            ax.set_title(level)
    plots.legend_below(fig, ncol=3)
    return plots.finish(
        fig, f"screen_tornado_{i}", f"Tornado: what moves {target['name'] or target['measure']}",
        f"Each key's effect one step down (blue) and up (red) from the experiment's value, "
        f"with 95% intervals, largest first (at most {TOP} keys); grey band: within the "
        "tolerance.",
    )  # fmt: skip


def _or(x: Any, fallback: Any) -> float:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return float(fallback or 0.0)
    return float(x)
