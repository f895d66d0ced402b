"""The picture of a section's answers across skill levels: one panel per question, each level's
headline with its 95% interval, and the reference it is read against where the question has
one (the printed price, with its tolerance around it). A level whose interval lies wholly
beyond the tolerance of the reference is red, one wholly within it blue, the others grey (the
lab's three verdicts, sim/stats/verdict.py). Nothing here knows a game: the answers carry
their headlines by level (``Answer.levels``) and their reference (``Answer.reference``)."""

from __future__ import annotations

import math
import textwrap
from dataclasses import replace

import numpy as np

from sim.report import plots
from sim.report.answers import Answer, Estimate

SHOWN = "#1d2430"  # a headline read against no reference
BEYOND, WITHIN, OPEN = plots.COLORS[1], plots.COLORS[0], "#8a8f98"
COLUMNS = 3  # panels per row


def _scale(e: Estimate) -> float:
    return 100.0 if e.unit in ("pp", "pct") else 1.0


def _unit(e: Estimate) -> str:
    return {"pp": " (pp)", "pct": " (%)"}.get(e.unit, "")


def _colour(e: Estimate, answer: Answer) -> str:
    if answer.reference is None:
        return SHOWN
    ref, tol = answer.reference[1], answer.tolerance.value if answer.tolerance else 0.0
    if not (math.isfinite(e.low) and math.isfinite(e.high)):
        beyond = (e.low > ref + tol) or (e.high < ref - tol)
        return BEYOND if beyond else OPEN
    if e.low > ref + tol or e.high < ref - tol:
        return BEYOND
    if ref - tol <= e.low and e.high <= ref + tol:
        return WITHIN
    return OPEN


def drawable(answer: Answer) -> bool:
    """An answer with a headline at two levels or more, some of them finite."""
    return len(answer.levels) > 1 and any(math.isfinite(e.value) for e in answer.levels.values())


def _panel(ax, answer: Answer) -> None:
    levels = list(answer.levels)
    y = np.arange(len(levels))[::-1]
    first = next(iter(answer.levels.values()))
    scale = _scale(first)
    finite = [v for e in answer.levels.values() for v in (e.value, e.low, e.high)
              if math.isfinite(v)]  # fmt: skip
    if answer.reference is not None:
        name, ref = answer.reference
        tol = answer.tolerance.value if answer.tolerance is not None else 0.0
        ax.axvspan((ref - tol) * scale, (ref + tol) * scale, color=WITHIN, alpha=0.12, lw=0,
                   label=f"{name} \u00b1 the tolerance")  # fmt: skip
        ax.axvline(ref * scale, color=plots.FAIR, linestyle="--", linewidth=1.2, label=name)
        finite += [ref - tol, ref + tol]
    lo_x, hi_x = min(finite) * scale, max(finite) * scale
    pad = 0.08 * (hi_x - lo_x or 1.0)
    for yi, level in zip(y, levels, strict=True):
        e = answer.levels[level]
        colour = _colour(e, answer)
        v, lo, hi = e.value * scale, e.low * scale, e.high * scale
        if math.isfinite(v):
            err = [[max(v - lo, 0) if math.isfinite(lo) else 0],
                   [max(hi - v, 0) if math.isfinite(hi) else 0]]  # fmt: skip
            ax.errorbar(v, yi, xerr=err, fmt="o", color=colour, ecolor=colour, capsize=4,
                        markersize=6)  # fmt: skip
            for end, side in ((lo, -1), (hi, 1)):
                if not math.isfinite(end):  # an interval open beyond the range tried
                    ax.annotate("", (hi_x + pad if side > 0 else lo_x - pad, yi), (v, yi),
                                arrowprops={"arrowstyle": "->", "color": colour})  # fmt: skip
        else:
            x = hi_x + pad if v > 0 else lo_x - pad
            ax.annotate(e.text(), (x, yi), ha="right" if v > 0 else "left", va="center",
                        color=colour, fontsize=9)  # fmt: skip
    ax.set_xlim(lo_x - 2 * pad, hi_x + 2 * pad)
    ax.set_ylim(-0.6, len(levels) - 0.4)
    ax.set_yticks(y, levels)
    ax.grid(False, axis="y")
    ax.set_xlabel(first.label + _unit(first))
    ax.set_title("\n".join(textwrap.wrap(answer.question, 40)), fontsize=10, loc="left")


def _panels(shown: list[Answer], ncols: int, *, column: float, row: float, pad: float) -> tuple:
    """A figure of one panel per answer (_panel), ncols wide: `column` inches a column, `row`
    inches a row of the longest answer, `pad` inches below; the cells left over hidden."""
    nrows = math.ceil(len(shown) / ncols)
    most = max(len(a.levels) for a in shown)
    fig, axes = plots.new(nrows, ncols, width=max(7.0, column * ncols + 0.8),
                          height=nrows * (row * most + 1.6) + pad)  # fmt: skip
    for i, ax in enumerate(axes.ravel()):
        if i < len(shown):
            _panel(ax, shown[i])
        else:
            ax.set_visible(False)
    return fig, axes


def levels_figure(name: str, answers: list[Answer]) -> plots.Figure | None:
    """One panel per answer told across skill levels (None when no answer has levels)."""
    shown = [a for a in answers if drawable(a)]
    if not shown:
        return None
    fig, axes = _panels(shown, min(COLUMNS, len(shown)), column=3.8, row=0.45, pad=0.4)
    used = {_colour(e, a) for a in shown for e in a.levels.values()}
    ax0 = axes.ravel()[0]
    for colour, said in ((BEYOND, "beyond the tolerance"), (WITHIN, "within the tolerance"),
                         (OPEN, "not settled")):  # fmt: skip
        if colour in used:
            ax0.plot([], [], "o", color=colour, label=said)
    plots.legend_below(fig, ncol=3)
    caption = (
        "Each skill level's answer with its 95% interval; where the question has a reference "
        "(a printed price), the dashed line marks it and the band its tolerance: red, the "
        "interval lies wholly beyond the band; blue, wholly within it; grey, not settled. "
        "An arrow marks an interval open beyond the range tried."
    )
    return plots.finish(fig, name, "The answers at each skill level", caption)


ROWS_SHOWN = 30  # rows of an answer's small table drawn in its panel (the first ones)


def _rows_as_levels(answer: Answer) -> Answer | None:
    """The answer with its small table's figures (those of its first row's kind and unit) as
    the levels of a panel, each under the row's place; None without such rows."""
    if not answer.rows:
        return None
    first = answer.rows[0].figure
    shown: dict[str, Estimate] = {}
    for row in answer.rows:
        e = row.figure
        if (e.label, e.unit) != (first.label, first.unit) or len(shown) >= ROWS_SHOWN:
            continue
        where, n = row.where or "all", 2
        while where in shown:
            where, n = f"{row.where or 'all'} ({n})", n + 1
        shown[where] = e
    if not any(math.isfinite(e.value) for e in shown.values()):
        return None
    return replace(answer, levels=shown, reference=None)


def answers_figure(name: str, answers: list[Answer]) -> plots.Figure | None:
    """One panel per answer that has figures in its small table: each row's figure with its
    95% interval (a section's picture where it draws none of its own); None when no answer
    has rows."""
    shown = [a for a in map(_rows_as_levels, answers) if a is not None]
    if not shown:
        return None
    fig, axes = _panels(shown, min(2, len(shown)), column=5.2, row=0.32, pad=0.2)
    caption = "Each answer's figures, from the small table under it, with their 95% intervals."
    return plots.finish(fig, name, "The answers' figures", caption)
