"""The playtest report's pictures, from the fit's folder alone (never the engine):

- `facts`: each fact of the records beside the lab's players' at the fitted skill: a share per
  category (a seat, an outcome) or per bin of a number, both with their 95% intervals;
- `likelihood`: the adjusted log-likelihood along the knob, the cut-off and the interval, the
  ladder's levels marked;
- `ladder`: the group and each named player on the knob beside the ladder's levels.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from sim.report import plots
from sim.report.plots import Figure
from sim.stats.intervals import wilson

REAL, SIMULATED = plots.COLORS[1], plots.COLORS[0]
BINS = 8


def facts(
    name: str, group: str, shown: Mapping[str, tuple[Any, Any]], words: Mapping[str, str]
) -> Figure:
    """One panel per fact: `shown` fact -> (the records' values, the simulated values), each a
    sequence of per-game values (text: categories; numbers: binned alike)."""
    names = list(shown)
    cols = min(3, len(names)) or 1
    rows = -(-len(names) // cols) or 1
    fig, axes = plots.new(rows, cols, width=min(4.2 * cols, 14), height=3.0 * rows + 0.5)
    for ax in axes.ravel()[len(names) :]:
        ax.set_visible(False)
    for ax, fact in zip(axes.ravel(), names, strict=False):
        real, simulated = shown[fact]
        labels, r_counts, s_counts = _shares(list(real), list(simulated))
        x = np.arange(len(labels))
        for offset, counts, color, label in (
            (-0.2, r_counts, REAL, "records"),
            (0.2, s_counts, SIMULATED, "the lab's players at the fitted skill"),
        ):
            n = max(counts.sum(), 1)
            low, high = wilson(counts, n)
            share = counts / n
            ax.bar(x + offset, 100 * share, width=0.38, color=color, alpha=0.75, label=label)
            ax.errorbar(
                x + offset,
                100 * share,
                yerr=100 * plots._err(share, low, high),
                fmt="none",
                ecolor="#333333",
                capsize=2,
                linewidth=0.8,
            )
        ax.set_xticks(
            x,
            labels,
            rotation=30 if len(labels) > 4 else 0,
            ha="right" if len(labels) > 4 else "center",
            fontsize=8,
        )
        ax.set_title(words.get(fact, fact), fontsize=10)
        ax.set_ylabel("% of games")
    plots.legend_below(fig, ncol=2)
    return plots.finish(
        fig,
        name,
        f"{group}: the records beside the lab's players",
        "Each fact's share of games per category (a number: per bin, the bins "
        "at the simulated values' octiles), with 95% Wilson intervals.",
    )


def _shares(real: list, simulated: list) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Categories and counts of both samples: text as it is, numbers in common bins."""
    r = [v for v in real if v is not None and v == v]
    s = [v for v in simulated if v is not None and v == v]
    if all(isinstance(v, int | float) for v in r + s) and r + s:
        pooled = np.asarray(s or r, float)
        edges = np.unique(np.quantile(pooled, np.linspace(0, 1, BINS + 1)[1:-1]))
        bins = np.concatenate([[-np.inf], edges, [np.inf]])
        labels = [_bin(bins[i], bins[i + 1]) for i in range(len(bins) - 1)]
        return (
            labels,
            np.histogram(r, bins)[0].astype(float),
            np.histogram(s, bins)[0].astype(float),
        )
    labels = sorted({str(v) for v in r + s})
    return (
        labels,
        np.array([sum(str(v) == c for v in r) for c in labels], float),
        np.array([sum(str(v) == c for v in s) for c in labels], float),
    )


def _bin(low: float, high: float) -> str:
    if np.isinf(low):
        return f"< {_short(high)}"
    if np.isinf(high):
        return f">= {_short(low)}"
    return f"{_short(low)}-{_short(high)}"


def _short(x: float) -> str:
    """A bin's edge in three figures: 12.5, 848k, 1.02M."""
    if abs(x) >= 1e6:
        return f"{x / 1e6:.3g}M"
    if abs(x) >= 1e4:
        return f"{x / 1e3:.3g}k"
    return f"{x:.3g}"


def likelihood(
    name: str,
    group: str,
    curve: Mapping[str, Any],
    skill: Mapping[str, float],
    points: Mapping[str, float],
) -> Figure:
    """The adjusted log-likelihood along the knob (0 at its top), the cut-off, the interval."""
    fig, axes = plots.new(1, 1, width=8.0, height=3.6)
    ax = axes[0, 0]
    xs, ys = np.asarray(curve["skill"], float), np.asarray(curve["drop"], float)
    floor = -float(curve["cutoff"])
    ax.plot(xs, ys, color=SIMULATED, label="log-likelihood (adjusted)")
    ax.axhline(floor, color=plots.FAIR, linestyle="--", linewidth=1, label="95% cut-off")
    ax.axvspan(skill["low"], skill["high"], color=SIMULATED, alpha=0.12, label="95% interval")
    ax.axvline(skill["estimate"], color=SIMULATED, linewidth=1.5)
    _levels(ax, points)
    ax.set_ylim(3 * floor, 0.5 * abs(floor))
    ax.set_xlim(0, 1)
    ax.set_xlabel("skill on the knob")
    ax.set_ylabel("log-likelihood - its top")
    plots.legend_below(fig, ncol=3)
    return plots.finish(
        fig,
        name,
        f"{group}: the likelihood along the knob",
        "The records' adjusted composite log-likelihood at each skill (0 at its "
        "top); the interval is every skill above the cut-off.",
    )


def ladder(
    name: str, rows: Sequence[tuple[str, Mapping[str, float]]], points: Mapping[str, float]
) -> Figure:
    """The group and each named player (rows of (label, skill)) on the knob."""
    fig, axes = plots.new(1, 1, width=8.0, height=0.6 * len(rows) + 1.4)
    ax = axes[0, 0]
    y = np.arange(len(rows))[::-1]
    for i, (_, skill) in enumerate(rows):
        color = SIMULATED if i == 0 else plots.COLORS[2]
        err = plots._err([skill["estimate"]], [skill["low"]], [skill["high"]])
        ax.errorbar([skill["estimate"]], [y[i]], xerr=err, fmt="o", color=color, capsize=3)
    ax.set_yticks(y, [label for label, _ in rows])
    _levels(ax, points)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlabel("skill on the knob (95% intervals)")
    ax.grid(False, axis="y")
    return plots.finish(
        fig,
        name,
        "On the ladder",
        "The group's skill and each named player's, with their 95% intervals, "
        "beside the lab's levels on the knob.",
    )


def _levels(ax, points: Mapping[str, float]) -> None:
    """The ladder's levels on the knob: a dotted line and the level's name at the top."""
    for level, at in points.items():
        ax.axvline(at, color="#999999", linestyle=":", linewidth=1)
        ax.annotate(
            level,
            (at, 1.0),
            xycoords=("data", "axes fraction"),
            fontsize=8,
            color="#555555",
            ha="center",
            va="bottom",
        )
