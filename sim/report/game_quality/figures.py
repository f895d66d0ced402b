"""The quality section's pictures, one per question, each estimate with its 95% interval."""

from __future__ import annotations

import numpy as np
import polars as pl

from sim.report import plots
from sim.report.game_quality import references
from sim.report.game_quality.common import Found
from sim.report.game_quality.design import Design
from sim.report.game_quality.luck import Coins, DealShares, Replays, Upsets
from sim.report.game_quality.skill import Ladder, Move
from sim.report.plots import COLORS, FAIR


def _levels(design: Design) -> list[str]:
    return [lv or "all games" for lv in design.levels]


def skill_ladder(ladders: list[Ladder]) -> plots.Figure:
    """Each step of each ladder: how often the upper level finishes ahead (50% = a coin)."""
    fig, axes = plots.new(
        1, 2, width=11, height=0.5 + 0.45 * max(len(lad.steps) + 1 for lad in ladders) + 1.2
    )
    ax, rating = axes[0, 0], axes[0, 1]
    labels, values, lows, highs, sig = [], [], [], [], []
    for lad in ladders:
        named = f"{lad.arm}: " if len(ladders) > 1 else ""
        for hi, lo, v in lad.pairs():
            labels.append(f"{named}{hi} over {lo}")
            values.append(100 * v.value)
            lows.append(100 * v.low)
            highs.append(100 * v.high)
            sig.append(v.low > 0.5 or v.high < 0.5)
    plots.forest(
        ax,
        labels,
        [x - 50 for x in values],
        [x - 50 for x in lows],
        [x - 50 for x in highs],
        sig,
        xlabel="finishes ahead of the lower level, minus 50% (pp)",
    )
    ax.set_title("Each step of the ladder (0: a coin flip)", fontsize=10, loc="left")
    for i, lad in enumerate(ladders):
        xs = np.arange(len(lad.order))
        pts = [lad.points.get(s) for s in lad.order]
        v = np.array([p.value if p else np.nan for p in pts])
        lo = np.array([p.low if p else np.nan for p in pts])
        hi = np.array([p.high if p else np.nan for p in pts])
        plots.curve(
            rating,
            xs,
            v,
            lo,
            hi,
            label=lad.arm if len(ladders) > 1 else None,
            color=COLORS[i % len(COLORS)],
        )
        rating.set_xticks(xs, lad.order)
    rating.set_ylabel("rating points above the weakest")
    rating.set_title("The ladder in openskill rating points", fontsize=10, loc="left")
    plots.legend_below(fig)
    return plots.finish(
        fig,
        "quality_skill",
        "Does skill matter? The ladder's steps",
        "Left: how often each level finishes ahead of the one below it (and the "
        "top of the bottom) when both sit at the table, minus a coin flip's 50%, "
        "with 95% intervals; red: distinguishable. Right: each level's openskill "
        "rating above the weakest, with jackknife 95% intervals.",
    )


def skill_moves(moves: list[Move], design: Design) -> plots.Figure:
    """Cooperative: the win rate at each value of each skill factor, a panel per setting."""
    levels = [lv for lv in design.levels if any(m.level == lv for m in moves)]
    factors = list(dict.fromkeys(m.factor for m in moves))
    fig, panels = plots.grid(factors, levels, cell_width=3.4, cell_height=3.0)
    for factor, level, ax in panels:
        m = next((m for m in moves if m.level == level and m.factor == factor), None)
        if m is None:
            ax.set_visible(False)
            continue
        names = list(m.rates)
        vals = np.array([[m.rates[n].value for n in names]])
        plots.grouped_bars(
            ax,
            names,
            ["win rate"],
            vals,
            np.array([[m.rates[n].low for n in names]]),
            np.array([[m.rates[n].high for n in names]]),
            ylabel="win rate (%)",
            scale=100,
        )
        ax.set_ylim(0, 100)
        ax.set_title(f"{level or 'all'}: {factor}", fontsize=10, loc="left")
    return plots.finish(
        fig,
        "quality_skill",
        "Does skill matter? The win rate by team skill and dexterity",
        "The table's win rate at each team skill (strategy) "
        "and dexterity, over the other factor's tables, a panel per setting, "
        "with 95% intervals.",
    )


def luck(groups: list[Replays], ups: list[Upsets], coins: list[Coins], game: str) -> plots.Figure:
    """The coin-flip share beside the reference games (grey), the replayed deals and the
    upsets."""
    rows = [(f"{c.top} against {c.bottom}: coin-flip share", c.value) for c in coins]
    if coins:
        rows += [(f"reference: {ref.title}, {ref.pairing}", ref.value())
                 for ref in references.others(game)]  # fmt: skip
    for rep in groups:
        who = ", ".join(rep.group.base)
        rows += [
            (f"{who}: the deal decides", rep.seat),
            (f"{who}: the players decide", rep.player),
            (f"{who}: neither", rep.neither),
        ]
        rows += [(f"{who}: {lab} wins every seating", v) for lab, v in rep.alone.items()]
    for u in ups:
        rows += [
            (f"{u.arm}: 2+ levels below the best win", u.share),
            (f"{u.arm}: 2+ levels below: share of seats", u.fair),
        ]
    fig, axes = plots.new(1, 1, width=10, height=0.5 + 0.42 * len(rows) + 1.0)
    ax = axes[0, 0]
    y = np.arange(len(rows))[::-1]
    for i, (label, v) in enumerate(rows):  # the seats' share (what luck would give) in grey
        grey = label.endswith("share of seats") or label.startswith("reference: ")
        ax.barh(y[i], 100 * v.value, color="#bbbbbb" if grey else COLORS[0], alpha=0.85)
        ax.errorbar(
            100 * v.value,
            y[i],
            xerr=[[100 * (v.value - v.low)], [100 * (v.high - v.value)]],
            fmt="none",
            ecolor="black",
            capsize=3,
        )
    ax.set_yticks(y, [r[0] for r in rows])
    ax.set_xlabel("share of deals / games (%)")
    return plots.finish(
        fig,
        "quality_luck",
        "How much does luck decide?",
        "The coin-flip share: the share of games a coin would have to decide, between the "
        "strongest and the weakest level, to give their spread of results (0%: pure skill, "
        "100%: a coin flip), beside reference games the lab measured (grey). "
        "Each deal replayed with the players' seats rotated: the share of deals "
        "the same seat won whoever sat there (the deal decides), the share the "
        "same player won in every seat (the player decides); and in the mixed "
        "tables, the games won by a player two or more levels below the best "
        "at the table, beside their share of the seats. 95% intervals.",
    )


def luck_deals(found: list[DealShares]) -> plots.Figure:
    fig, axes = plots.new(1, 1, width=9, height=3.8)
    ax = axes[0, 0]
    cats = [d.level or "all" for d in found]
    values = np.array([[d.won_by_all.value for d in found], [d.lost_by_all.value for d in found]])
    low = np.array([[d.won_by_all.low for d in found], [d.lost_by_all.low for d in found]])
    high = np.array([[d.won_by_all.high for d in found], [d.lost_by_all.high for d in found]])
    plots.grouped_bars(
        ax,
        cats,
        ["won by every table", "lost by every table"],
        values,
        low,
        high,
        ylabel="share of deals (%)",
        scale=100,
    )
    plots.legend_below(fig)
    return plots.finish(
        fig,
        "quality_luck",
        "How much does luck decide? Deals every table wins or loses",
        "At each setting, the share of deals every team and "
        "dexterity won, and lost: the deal decided them, whoever played. 95% "
        "intervals.",
    )


def close_competitive(
    design: Design, results, found: list[Found], events: dict[str, float], unit: str = "points"
):
    """The final margin's distribution per level (a line at one scoring event)."""
    from sim.measures.generic import final_order

    fig, axes = plots.new(1, 2, width=11, height=3.8)
    ax, bars = axes[0, 0], axes[0, 1]
    for i, level in enumerate(design.levels):
        margins = (
            pl.concat([final_order(results.stored(a).seats) for a in design.views[level]])
            .get_column("margin")
            .drop_nulls()
            .to_numpy()
        )
        if margins.size == 0:
            continue
        xs = np.sort(margins)
        ax.plot(
            xs,
            100 * np.arange(1, xs.size + 1) / xs.size,
            color=COLORS[i % len(COLORS)],
            label=level or None,
            drawstyle="steps-post",
        )
        if level in events:
            ax.axvline(
                events[level],
                color=FAIR,
                linestyle="--",
                linewidth=1,
                label="one scoring event" if i == 0 else None,
            )
    ax.set_xlabel(f"final margin, first minus second ({unit})")
    ax.set_ylabel("games within it (%)")
    _level_bars(
        bars,
        design,
        found,
        ["close_rate", "decided_last_round"],
        ["within one scoring event", "decided in the last round"],
        "share of games (%)",
    )
    plots.legend_below(fig)
    return plots.finish(
        fig,
        "quality_close",
        "Are games close?",
        "Left: the share of games (with a winner) whose final margin is at most "
        f"x {unit}; the dashed line is one scoring event. Right: games within one "
        "scoring event and games decided in the last round, with 95% "
        "intervals.",
    )


def _level_bars(ax, design: Design, found: list[Found], names: list[str],
                labels: list[str], ylabel: str) -> None:  # fmt: skip
    """A group of bars per measure (`labels`), a bar per level, with 95% intervals."""
    values = [[_v(found, n, lv) for n in names] for lv in design.levels]
    levels = _levels(design)
    plots.grouped_bars(
        ax,
        labels,
        levels if len(levels) > 1 else [""],
        *(np.array(part) for part in zip(*(plots.spans(row) for row in values), strict=True)),
        ylabel=ylabel,
        scale=100,
    )


def _v(found: list[Found], name: str, level: str):
    from sim.measures.core import Value

    f = next((f for f in found if f.measure.name == name and f.level == level), None)
    return f.value if f is not None else Value.missing()


def bars_by_level(
    design: Design, found: list[Found], name: str, title: str, caption: str, ylabel: str
) -> plots.Figure:
    """One group of bars per measure, a bar per level (cooperative closeness)."""
    names = list(dict.fromkeys(f.measure.name for f in found))
    labels = [next(f.measure.label for f in found if f.measure.name == n) for n in names]
    fig, axes = plots.new(1, 1, width=10, height=4.0)
    _level_bars(axes[0, 0], design, found, names, labels, ylabel)
    plots.legend_below(fig)
    return plots.finish(fig, name, title, caption)


def lead(design: Design, found: list[Found], players: dict[str, int]) -> plots.Figure:
    """The runaway-leader curve: P(the leader at a point wins), and the last's, per level."""
    fig, axes = plots.new(1, 1, width=8, height=4.2)
    ax = axes[0, 0]
    xs = [1 / 3, 1 / 2, 2 / 3]
    for i, level in enumerate(design.levels):
        color = COLORS[i % len(COLORS)]
        name = level or "all games"
        vs = [_v(found, f"leader_wins.{f}", level) for f in ("third", "half", "two_thirds")]
        plots.curve(ax, xs, *plots.spans(vs), label=f"{name}: the leader wins", color=color,
                    scale=100)  # fmt: skip
        lasts = [_v(found, f"last_wins.{f}", level) for f in ("third", "half", "two_thirds")]
        line = ax.plot(
            xs,
            [100 * v.value for v in lasts],
            linestyle="--",
            marker="s",
            mfc="white",
            color=color,
            label=f"{name}: the last wins",
        )[0]
        ax.errorbar(
            xs,
            [100 * v.value for v in lasts],
            yerr=[
                [100 * (v.value - v.low) for v in lasts],
                [100 * (v.high - v.value) for v in lasts],
            ],
            fmt="none",
            ecolor=line.get_color(),
            capsize=3,
        )
    fair = {100 / p for p in players.values() if p}
    for k, f in enumerate(sorted(fair)):
        ax.axhline(
            f,
            color=FAIR,
            linestyle="--",
            linewidth=1,
            label="no information (1 / players)" if k == 0 else None,
        )
    ax.set_xticks(xs, ["a third", "half time", "two thirds"])
    ax.set_xlabel("point of the game (share of its rounds)")
    ax.set_ylabel("goes on to win (%)")
    ax.set_ylim(0, 100)
    plots.legend_below(fig, ncol=2)
    return plots.finish(
        fig,
        "quality_lead",
        "Does the lead change? The runaway-leader curve",
        "How often the single leader at a third, half and two thirds of the game "
        "goes on to win (solid; a runaway leader: near 100% early), and how "
        "often the single last seat does (dashed; comebacks), over the games with "
        "a winner, with 95% intervals. Dashed: what an early position would say if it said "
        "nothing (1 / players).",
    )


def flow(design: Design, results, found: list[Found], length: str, outcomes) -> plots.Figure:
    fig, axes = plots.new(1, 2, width=11, height=3.8)
    ax, ends = axes[0, 0], axes[0, 1]
    for i, level in enumerate(design.levels):
        values = (
            pl.concat([results.stored(a).games.select(length) for a in design.views[level]])
            .get_column(length)
            .to_numpy()
        )
        if values.size:
            bins = np.arange(values.min(), values.max() + 2) - 0.5
            if bins.size > 60:
                bins = np.linspace(values.min(), values.max() + 1, 40)
            ax.hist(
                values,
                bins=bins,
                density=True,
                histtype="step",
                linewidth=1.5,
                color=COLORS[i % len(COLORS)],
                label=level or None,
            )
    ax.set_xlabel(f"game length ({length})")
    ax.set_ylabel("share of games")
    names = [f"{o}_rate" for o in outcomes or ()]
    names = [n for n in names if any(f.measure.name == n and f.value.value > 0 for f in found)]
    _level_bars(
        ends, design, found, names, [n.removesuffix("_rate") for n in names], "share of games (%)"
    )
    plots.legend_below(fig)
    return plots.finish(
        fig,
        "quality_flow",
        "How does a game flow?",
        f"Left: the distribution of game length ({length}). Right: how games "
        "end, each ending's share with its 95% interval.",
    )
