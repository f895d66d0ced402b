"""Charts with matplotlib: every chart shows its intervals, a chart becomes PNG bytes that the
page embeds as a data URI and report.md links as figures/<name>.png.

Figures are made without pyplot (a Figure on an Agg canvas): a report changes no global
matplotlib state, whatever backend the session uses. Within ``kept()`` (the Python API's
figures, sim.lab) they are made through pyplot instead, which lets go of them once drawn, and
kept as `Figure.drawn`: a notebook shows them as it shows its own, and they can be changed.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure as MplFigure
from matplotlib.layout_engine import TightLayoutEngine
from matplotlib.transforms import Bbox

COLORS = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#7f7f7f",
    "#bcbd22",
)
FAIR = "#444444"
DPI = 110
PAD = 0.15  # inches of margin around what a saved figure shows

STYLE = {
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.fontsize": 9,
    "legend.frameon": False,
}


@dataclass(frozen=True)
class Figure:
    name: str  # file stem (figures/<name>.png)
    title: str
    png: bytes
    caption: str = ""
    legend_overlaps: int = 0  # legends drawn over a plotting area (checked by the tests: 0)
    # the matplotlib figure itself when drawn within kept() (else None: the PNG only)
    drawn: MplFigure | None = field(default=None, compare=False, repr=False)


_KEEP: ContextVar[bool] = ContextVar("keep_drawn_figures", default=False)


@contextmanager
def kept() -> Iterator[None]:
    """Within: figures are made through pyplot and kept (`Figure.drawn`)."""
    token = _KEEP.set(True)
    try:
        yield
    finally:
        _KEEP.reset(token)


def _blank(width: float, height: float) -> MplFigure:
    if _KEEP.get():  # made as the session makes its own, so that a notebook shows it
        import matplotlib.pyplot as plt

        return plt.figure(figsize=(width, height))
    fig = MplFigure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def new(nrows: int = 1, ncols: int = 1, *, width: float = 9.0, height: float = 4.2):
    with matplotlib.rc_context(STYLE):
        fig = _blank(width, height)
        axes = fig.subplots(nrows, ncols, squeeze=False)
    for ax in axes.ravel():
        _style(ax)
    return fig, axes


def grid(row_keys: Sequence, col_keys: Sequence, *, cell_width: float, cell_height: float):
    """A figure of one panel per (row key, column key), at most 15 in wide. Returns the figure
    and, row by row, (row key, column key, axes) of each panel."""
    fig, axes = new(len(row_keys), len(col_keys), width=min(cell_width * len(col_keys) + 1, 15),
                    height=cell_height * len(row_keys) + 0.6)  # fmt: skip
    panels = [(r, c, axes[i, j]) for i, r in enumerate(row_keys) for j, c in enumerate(col_keys)]
    return fig, panels


def _style(ax) -> None:
    for key, value in (("top", False), ("right", False)):
        ax.spines[key].set_visible(value)
    ax.grid(True, alpha=0.3)
    ax.set_axisbelow(True)


def legend_below(fig: MplFigure, *, ncol: int | None = None, title: str | None = None) -> None:
    """One legend for the whole figure, under it (outside every plotting area, so it never
    covers data); entries are gathered from every axes, each label once."""
    handles, labels = [], []
    for ax in fig.axes:
        for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
            if lab and not lab.startswith("_") and lab not in labels:
                handles.append(h)
                labels.append(lab)
    if not handles:
        return
    ncol = ncol or min(len(labels), 4)
    fig.legend(
        handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=ncol, title=title,
        frameon=False,
    )  # fmt: skip


def legend_overlaps(fig: MplFigure) -> int:
    """How many legends overlap a plotting area (an axes' data region), as laid out now."""
    renderer = fig.canvas.get_renderer()
    legends = [ax.get_legend() for ax in fig.axes] + list(fig.legends)
    areas = [ax.get_window_extent(renderer) for ax in fig.axes if ax.axison]
    count = 0
    for legend in legends:
        if legend is None:
            continue
        box = legend.get_window_extent(renderer)
        if any(box.overlaps(area) for area in areas):
            count += 1
    return count


def finish(fig: MplFigure, name: str, title: str, caption: str = "") -> Figure:
    """Lay the figure out and render it (legends outside the axes are kept: the tight
    bounding box is what is saved)."""
    with matplotlib.rc_context(STYLE):
        # as fig.tight_layout() (one pass: no rect), but leaving no layout engine on the
        # figure: savefig would lay the whole figure out once more before drawing it
        TightLayoutEngine(rect=None).execute(fig)
        overlaps = legend_overlaps(fig)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=DPI, bbox_inches=_saved_area(fig))
    if _KEEP.get():
        import matplotlib.pyplot as plt

        plt.close(fig)  # pyplot forgets it: it shows where it is returned, not at a cell's end
    return Figure(name=name, title=title, png=buffer.getvalue(), caption=caption,
                  legend_overlaps=overlaps, drawn=fig if _KEEP.get() else None)  # fmt: skip


def _saved_area(fig: MplFigure) -> Bbox:
    """The area savefig(dpi=DPI, bbox_inches="tight", pad_inches=PAD) saves, measured from the
    layout as it stands: given it, savefig draws the figure once, where "tight" lays it all
    out (ticks, labels, legends) once more first only to measure it."""
    shown = fig.dpi
    fig.dpi = DPI  # measured at the saved resolution, as savefig measures it
    try:
        return fig.get_tightbbox(fig.canvas.get_renderer()).padded(PAD)
    finally:
        fig.dpi = shown


def spans(estimates: Sequence) -> tuple[list[float], list[float], list[float]]:
    """The values, lows and highs of estimates with intervals (anything with .value, .low and
    .high), as the figures below take them."""
    return ([e.value for e in estimates], [e.low for e in estimates],
            [e.high for e in estimates])  # fmt: skip


def _err(values, low, high) -> np.ndarray:
    v, lo, hi = (np.asarray(a, dtype=float) for a in (values, low, high))
    return np.vstack([np.clip(v - lo, 0, None), np.clip(hi - v, 0, None)])


def _slot(x: np.ndarray, width: float, g: int) -> np.ndarray:
    """Where group g's mark stands in each category: the groups side by side, centred on x."""
    return x - 0.4 + width * (g + 0.5)


def _category_axes(ax, x: np.ndarray, categories: Sequence[str], *, ylabel: str,
                   xlabel: str) -> None:  # fmt: skip
    ax.set_xticks(x, categories)
    ax.set_ylabel(ylabel)
    if xlabel:
        ax.set_xlabel(xlabel)


def _row_axes(ax, y: np.ndarray, labels: Sequence[str], *, xlabel: str) -> None:
    """The axes of one labelled row per estimate: the rows' names down the side, a grid across."""
    ax.set_ylim(-0.6, len(labels) - 0.4)
    ax.set_yticks(y, labels)
    ax.set_xlabel(xlabel)
    ax.grid(True, axis="x", alpha=0.3)
    ax.grid(False, axis="y")


def grouped_bars(
    ax,
    categories: Sequence[str],
    groups: Sequence[str],
    values: np.ndarray,
    low: np.ndarray,
    high: np.ndarray,
    *,
    ylabel: str,
    xlabel: str = "",
    scale: float = 1.0,
    fair: float | Sequence[float] | None = None,
    fair_label: str = "fair share",
) -> None:
    """Bars for values[g, c] (group g, category c) with interval whiskers; a dashed fair line
    (one value, or one per group drawn over that group's bars). The groups' labels go to the
    figure's legend (`legend_below`)."""
    n_groups = len(groups)
    x, width = np.arange(len(categories)), 0.8 / max(n_groups, 1)
    for g in range(n_groups):
        pos = _slot(x, width, g)
        ax.bar(
            pos,
            values[g] * scale,
            width * 0.92,
            color=COLORS[g % len(COLORS)],
            alpha=0.85,
            label=groups[g] if n_groups > 1 else None,
        )
        ax.errorbar(
            pos,
            values[g] * scale,
            yerr=_err(values[g], low[g], high[g]) * scale,
            fmt="none",
            ecolor="black",
            elinewidth=1.2,
            capsize=3,
        )
        if fair is not None and not np.isscalar(fair):
            f = float(fair[g]) * scale
            ax.hlines(
                f,
                pos[0] - width / 2,
                pos[-1] + width / 2,
                colors=FAIR,
                linestyles="--",
                linewidth=1.2,
                label=fair_label if g == 0 else None,
            )
    if fair is not None and np.isscalar(fair):
        ax.axhline(float(fair) * scale, color=FAIR, linestyle="--", linewidth=1.2, label=fair_label)
    _category_axes(ax, x, categories, ylabel=ylabel, xlabel=xlabel)


def curve(
    ax,
    x: Sequence[float],
    y: Sequence[float],
    low: Sequence[float] | None,
    high: Sequence[float] | None,
    *,
    label: str | None = None,
    color: str | None = None,
    scale: float = 1.0,
) -> None:
    """A line with markers and a shaded interval band."""
    xs = np.asarray(x, dtype=float)
    ys = np.asarray(y, dtype=float) * scale
    line = ax.plot(xs, ys, marker="o", markersize=4, label=label, color=color)[0]
    if low is not None and high is not None:
        lo = np.asarray(low, dtype=float) * scale
        hi = np.asarray(high, dtype=float) * scale
        ok = np.isfinite(lo) & np.isfinite(hi)
        ax.fill_between(xs[ok], lo[ok], hi[ok], color=line.get_color(), alpha=0.2, linewidth=0)


def forest(
    ax,
    labels: Sequence[str],
    values: Sequence[float],
    low: Sequence[float],
    high: Sequence[float],
    significant: Sequence[bool],
    *,
    xlabel: str,
) -> None:
    """Horizontal interval plot (top row first); significant effects in colour, the others
    grey and hollow; a zero line."""
    n = len(labels)
    y = np.arange(n)[::-1]
    v = np.asarray(values, dtype=float)
    err = _err(v, low, high)
    for i in range(n):
        color = COLORS[1] if significant[i] else "#999999"
        ax.errorbar(
            v[i],
            y[i],
            xerr=err[:, i : i + 1],
            fmt="o",
            color=color,
            ecolor=color,
            markerfacecolor=color if significant[i] else "white",
            capsize=3,
        )
    ax.axvline(0.0, color=FAIR, linestyle="--", linewidth=1)
    _row_axes(ax, y, labels, xlabel=xlabel)


def boxes_by_group(
    ax,
    categories: Sequence[str],
    groups: Sequence[str],
    samples: list[list[np.ndarray]],
    *,
    ylabel: str,
    xlabel: str = "",
) -> None:
    """Box plots (whiskers at the 5th and 95th percentiles, no outliers, a white dot at the
    mean) of samples[g][c]: group g, category c. Labels go to the figure's legend."""
    n_groups = len(groups)
    x, width = np.arange(len(categories)), 0.8 / max(n_groups, 1)
    for g in range(n_groups):
        pos = _slot(x, width, g)
        data = [s if len(s) else np.array([np.nan]) for s in samples[g]]
        color = COLORS[g % len(COLORS)]
        bp = ax.boxplot(
            data,
            positions=pos,
            widths=width * 0.8,
            whis=(5, 95),
            showfliers=False,
            patch_artist=True,
            showmeans=True,
            meanprops={
                "marker": "o",
                "markerfacecolor": "white",
                "markeredgecolor": "black",
                "markersize": 4,
            },
            medianprops={"color": "black"},
        )
        for patch in bp["boxes"]:
            patch.set_facecolor(color)
            patch.set_alpha(0.6)
        ax.plot(
            [], [], color=color, linewidth=6, alpha=0.6, label=groups[g] if n_groups > 1 else None
        )
    _category_axes(ax, x, categories, ylabel=ylabel, xlabel=xlabel)


def intervals(
    ax,
    labels: Sequence[str],
    values: Sequence[float],
    low: Sequence[float],
    high: Sequence[float],
    *,
    xlabel: str,
    reference: float | None = None,
    reference_label: str = "",
    colors: Sequence[str] | None = None,
) -> None:
    """Horizontal dots with their intervals, the first label on top; a dashed reference line
    (a fair share, a printed price) when given."""
    n = len(labels)
    y = np.arange(n)[::-1]
    v = np.asarray(values, dtype=float)
    err = _err(v, low, high)
    for i in range(n):
        color = colors[i] if colors is not None else COLORS[0]
        ax.errorbar(v[i], y[i], xerr=err[:, i : i + 1], fmt="o", color=color, ecolor=color,
                    capsize=3, markersize=5)  # fmt: skip
    if reference is not None:
        ax.axvline(reference, color=FAIR, linestyle="--", linewidth=1.2,
                   label=reference_label or None)  # fmt: skip
    _row_axes(ax, y, labels, xlabel=xlabel)


def interval_figure(
    name: str,
    title: str,
    caption: str,
    labels: Sequence[str],
    values: Sequence[float],
    low: Sequence[float],
    high: Sequence[float],
    *,
    xlabel: str,
    reference: float | None = None,
    reference_label: str = "",
    scale: float = 1.0,
) -> Figure:
    """One panel of `intervals`, as tall as its rows (values x `scale`, e.g. 100 for %)."""
    row = 0.3 if len(labels) <= 20 else 0.17
    fig, axes = new(1, 1, width=9, height=max(2.0, row * len(labels) + 1.2))
    s = float(scale)
    intervals(axes[0, 0], labels, [x * s for x in values], [x * s for x in low],
              [x * s for x in high], xlabel=xlabel,
              reference=None if reference is None else reference * s,
              reference_label=reference_label)  # fmt: skip
    legend_below(fig)
    return finish(fig, name, title, caption)
