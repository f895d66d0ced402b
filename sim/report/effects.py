"""The effects chart: every comparison one row, a point with its 95% interval against a zero
line, significant effects filled in colour and the others hollow grey. Rows are grouped in
panels by unit (e.g. rates in percentage points, quantities in % of the baseline), each panel
as tall as its rows; the legend sits under the chart. Nothing here knows a game."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from sim.report import plots


@dataclass(frozen=True)
class Effect:
    label: str  # the comparison, in words
    value: float
    low: float
    high: float
    significant: bool
    panel: str  # rows with the same panel share an axis (and its unit)


def effects_figure(
    name: str,
    title: str,
    effects: list[Effect],
    *,
    xlabels: dict[str, str],
    caption: str,
    wrap: int = 60,
) -> plots.Figure:
    """One panel per distinct `panel` (in the order of `xlabels`, then of appearance), titled by
    the panel and with `xlabels[panel]` under it."""
    panels = [p for p in xlabels if any(e.panel == p for e in effects)]
    panels += [p for p in dict.fromkeys(e.panel for e in effects) if p not in panels]
    rows = [[e for e in effects if e.panel == p] for p in panels]
    labels = [["\n".join(textwrap.wrap(e.label, wrap)) for e in group] for group in rows]
    # Rows are evenly spaced, so every row of a panel is as tall as its longest label: two
    # lines fit the 0.34 in of a row, a longer label takes 0.17 in a line.
    heights = [max(len(group), 1) * max([2, *(t.count("\n") + 1 for t in group)]) / 2
               for group in labels]  # fmt: skip
    fig, axes = plots.new(len(panels), 1, width=10, height=0.34 * sum(heights) + 1.3 * len(panels))
    fig.set_layout_engine(None)
    if len(panels) > 1:  # panels as tall as their rows
        gs = axes[0, 0].get_gridspec()
        gs.set_height_ratios(heights)
    for ax, panel, group, texts in zip(axes[:, 0], panels, rows, labels, strict=True):
        significant = [e.significant for e in group]
        plots.forest(ax, texts, *plots.spans(group), significant, xlabel=xlabels.get(panel, ""))
        ax.set_title(panel, fontsize=10, loc="left")
    first = axes[0, 0]
    first.plot([], [], "o", color=plots.COLORS[1], label="significant")
    first.plot([], [], "o", color="#999999", markerfacecolor="white", label="not significant")
    plots.legend_below(fig, ncol=2)
    return plots.finish(fig, name, title, caption)
