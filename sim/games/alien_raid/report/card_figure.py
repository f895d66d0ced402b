"""The card report's picture: each card's fair price (the break-even, with its 95% interval)
against its printed price, one panel per skill level side by side; the cards to reprice
first, their names in bold; a card whose fair price depends on skill (two levels' fair prices
apart by more than the `card_price` tolerance, the whole interval of their difference) says so.
Computed from the section's rows (cards.card_rows): nothing is measured here."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from sim.games.alien_raid.report.common import ABOVE, BELOW, RIGHT
from sim.report import plots
from sim.report.answers import Estimate, difference, family_widening
from sim.stats.interval_columns import interval_in
from sim.stats.tolerances import Tolerance

# a card's verdict at a level -> its colour and its legend entry
COLOURS = {
    BELOW: (plots.COLORS[1], "worth more than printed: reprice up"),
    ABOVE: (plots.COLORS[3], "worth less than printed: reprice down"),
    RIGHT: (plots.COLORS[0], "priced right (within the tolerance)"),
}
OTHER = ("#8a8f98", "not settled, or too few probes")
THOUSAND = 1000.0


def reprice(rows: Sequence[dict]) -> list[str]:
    """The cards priced away from their worth at some level, furthest first (by the largest
    gap between fair and printed price, relative to the printed price)."""
    off = [r for r in rows if r["verdict"] in (BELOW, ABOVE)]
    gap: dict[str, float] = {}
    for r in off:
        g = abs(r["fair"] - r["price"]) / max(r["price"], 1.0)
        gap[r["card"]] = max(gap.get(r["card"], 0.0), g)
    return sorted(gap, key=lambda c: -gap[c])


def _estimate(r: dict) -> Estimate:
    return Estimate("fair", "fair price", *interval_in(r, "fair"), unit="num")


def depends_on_skill(rows: Sequence[dict], tol: Tolerance) -> list[str]:
    """The cards whose fair price differs between two levels by more than the tolerance: the
    whole interval of the difference (MOVER, Bonferroni-widened for the pairs) beyond it."""
    by_card: dict[str, list[dict]] = {}
    for r in rows:
        if all(math.isfinite(x) for x in interval_in(r, "fair")):
            by_card.setdefault(r["card"], []).append(r)
    out = []
    for card, found in by_card.items():
        pairs = list(itertools.combinations(found, 2))
        widen = family_widening(len(pairs))
        for a, b in pairs:
            d = difference(_estimate(a), _estimate(b), widen=widen)
            if d.low > tol.value or d.high < -tol.value:
                out.append(card)
                break
    return out


def _order(rows: Sequence[dict], first: list[str]) -> list[str]:
    """Cards top to bottom: those to reprice first (furthest first), then by printed price."""
    price = {r["card"]: r["price"] for r in rows}
    rest = sorted((c for c in price if c not in first), key=lambda c: (-price[c], c))
    return [*first, *rest]


def figure(rows: Sequence[dict], levels: dict[str, str], tol: Tolerance) -> plots.Figure | None:
    """One panel per arm (`levels`: arm -> its name on the page), a row per card."""
    if not rows or not any(math.isfinite(r["fair"]) for r in rows):
        return None
    to_reprice = reprice(rows)
    skill_bound = depends_on_skill(rows, tol) if len(levels) > 1 else []
    cards = _order(rows, to_reprice)
    y = {c: i for i, c in enumerate(reversed(cards))}
    fig, axes = plots.new(1, len(levels), width=min(3.3 * len(levels) + 2.4, 15),
                          height=0.27 * len(cards) + 1.6)  # fmt: skip
    ends = [r[k] / THOUSAND for r in rows for k in ("price", "fair_low", "fair_high")
            if math.isfinite(r[k])]  # fmt: skip
    pad = 0.04 * (max(ends) - min(ends) or 1.0)
    for (arm, name), ax in zip(levels.items(), axes[0], strict=True):
        _panel(ax, [r for r in rows if r["arm"] == arm], y, tol)
        ax.set_title(name, fontsize=10)
        ax.set_xlim(min(ends) - pad, max(ends) + pad)  # one scale: the levels side by side
    labels = [c + (" (depends on skill)" if c in skill_bound else "") for c in reversed(cards)]
    first = axes[0, 0]
    first.set_yticks(list(range(len(cards))), labels)
    for tick, card in zip(first.get_yticklabels(), reversed(cards), strict=True):
        if card in to_reprice:
            tick.set_fontweight("bold")
    for ax in axes[0, 1:]:
        ax.set_yticks(list(range(len(cards))), [""] * len(cards))
    _legend(first, rows)
    plots.legend_below(fig, ncol=3)
    named = ", ".join(to_reprice) if to_reprice else "none at this size"
    caption = (
        f"Each card's fair price (the price at which buying it leaves the buyer's final humans "
        f"unchanged, with its 95% interval) against its printed price (black tick), in "
        f"thousands of humans, at each level. To reprice (bold): {named}. "
        + (f"Depends on skill: {', '.join(skill_bound)}. " if skill_bound else "")
        + f"Priced right: the fair price's whole interval within {tol.text()} of the printed "
        "price."
    )
    return plots.finish(fig, "alien_raid_card_prices", "Card prices: fair against printed",
                        caption)  # fmt: skip


def _panel(ax, rows: Sequence[dict], y: dict[str, int], tol: Tolerance) -> None:
    for r in rows:
        yi = y[r["card"]]
        price = r["price"] / THOUSAND
        ax.plot([price], [yi], marker="|", color="black", markersize=11, markeredgewidth=2)
        colour = COLOURS.get(r["verdict"], OTHER)[0]
        fair, lo, hi = (x / THOUSAND for x in interval_in(r, "fair"))
        if not math.isfinite(fair):
            continue
        ax.plot([price, fair], [yi, yi], color=colour, linewidth=0.8, alpha=0.5)
        err = np.array([[max(fair - lo, 0.0)], [max(hi - fair, 0.0)]])
        ax.errorbar(fair, yi, xerr=err, fmt="o", color=colour, ecolor=colour, capsize=2,
                    markersize=4.5)  # fmt: skip
    ax.set_ylim(-0.7, len(y) - 0.3)
    ax.set_xlabel("thousand humans")
    ax.grid(True, axis="x", alpha=0.3)
    ax.grid(False, axis="y")


def _legend(ax, rows: Sequence[dict]) -> None:
    ax.plot([], [], marker="|", color="black", markersize=11, markeredgewidth=2, linestyle="",
            label="printed price")  # fmt: skip
    used = {r["verdict"] for r in rows}
    for verdict, (colour, said) in COLOURS.items():
        if verdict in used:
            ax.plot([], [], "o", color=colour, label=f"fair price: {said}")
    if used - set(COLOURS):
        ax.plot([], [], "o", color=OTHER[0], label=f"fair price: {OTHER[1]}")
