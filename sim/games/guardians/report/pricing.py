"""Pricing of the missile, the upgrade and the power-up: for each price, how often the buying
strategy buys and uses the item, the points it gains per point paid, its win-share uplift
against non-buying opponents, and the break-even price (where the uplift crosses zero) with a
interval (sim.stats.bootstrap.break_even_interval); curves with bands."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from sim.games.guardians.measures import MISSILE, POWER_UP, UPGRADE, Item
from sim.games.guardians.report import pricing_answers
from sim.measures import Value
from sim.report import fmt, plots
from sim.report import verdicts as verdict_words
from sim.report.answers import plain_text
from sim.report.context import Context
from sim.report.metrics import prefixed
from sim.report.render import Finding, Section, Text
from sim.report.table import Column, Table
from sim.stats.bootstrap import break_even_bootstrap
from sim.stats.interval_columns import as_columns, high_key, low_key

BUY_THRESHOLD = 0.001  # purchases per seat-game that mark a strategy as a buyer


def _title(item: Item) -> str:
    return f"{item.noun.capitalize()} pricing"


def missile(ctx: Context) -> Section:
    return build(ctx, MISSILE)


def upgrade(ctx: Context) -> Section:
    return build(ctx, UPGRADE)


def power_up(ctx: Context) -> Section:
    return build(ctx, POWER_UP)


def _price(ctx: Context, arm: str, item: Item) -> float | None:
    g = ctx.results.arm_games(arm)
    if item.price in g.columns:
        return float(g.get_column(item.price)[0])
    value = ctx.results.arm(arm).rules.get(item.price)
    return float(value) if value is not None else None


def buyers(ctx: Context, item: Item) -> set[str]:
    s = ctx.results.seats
    if item.bought not in s.columns:
        return set()
    per = s.group_by("strategy", maintain_order=True).agg(pl.col(item.bought).mean())
    return {str(a) for a, v in per.iter_rows() if v is not None and v >= BUY_THRESHOLD}


def _arm_row(ctx: Context, arm: str, item: Item, buy: set[str], price: float):
    """The arm's row of the buyers' measures (the registry's), and its games' uplifts (for the
    break-even) when non-buyers play too."""
    g, s = ctx.results.arm_games(arm), ctx.results.arm_seats(arm)
    who = "+".join(sorted(buy))
    b = s.filter(pl.col("strategy").is_in(list(buy)))
    row: dict = {"arm": arm, "price": price, "players": int(g.get_column("players")[0]),
                 "seat_games": b.height, "games": g.height}  # fmt: skip
    row.update(prefixed(ctx.measure(arm, f"seat_share.{item.bought}.{who}"), "purchase"))
    row["per_game"] = ctx.measure(arm, f"seat_mean.{item.bought}.{who}").value
    if item.used and item.used in b.columns:
        ratio = not (b.get_column(item.used) <= b.get_column(item.bought)).all()
        if not ratio or b.get_column(item.bought).sum() > 0:
            use = ctx.measure(arm, f"{item.key}_use.{who}")
            row.update(as_columns("use", use))
        if ratio:  # a permanent power-up: uses per purchase
            row["use_is_ratio"] = True
    if item.points and item.points in b.columns and b.get_column(item.bought).sum() > 0:
        gross = ctx.measure(arm, f"{item.key}_points_per_point.{who}")
        row.update(as_columns("gross", gross))
        row["points_per_item"] = gross.value * price
    per = None
    if s.filter(~pl.col("strategy").is_in(list(buy))).height > 0:
        net = ctx.measure(arm, f"{item.key}_net_per_point.{who}")
        if math.isfinite(net.value):
            row.update(as_columns("net", net))
        uplift = ctx.registry.get(f"uplift.{who}")
        row.update(_uplift_cols(uplift.estimate(ctx.results.stored(arm))))
        per = uplift.units(ctx.results.stored(arm)).select("game", pl.col("x").alias("uplift"))
    row.update(prefixed(ctx.measure(arm, "raid_rate"), "raid"))
    row.update(prefixed(ctx.measure(arm, f"seat_mean.score.{who}"), "score"))
    return row, per


def _uplift_cols(v: Value) -> dict:
    return {**as_columns("uplift", v), "uplift_p": v.pvalue, "uplift_sig": v.excludes_zero}


def build(ctx: Context, item: Item) -> Section:
    section = Section(
        f"{item.key}_pricing",
        _title(item),
        f"What should the {item.noun} cost? A buying strategy plays against "
        f"opponents who never buy; the {item.noun} is priced right where buying "
        "it stops paying off (the win-share uplift crosses zero).",
    )
    buy = buyers(ctx, item)
    if not buy:
        section.findings.append(
            Finding(f"No strategy bought the {item.noun} in any arm: nothing to price.", "info")
        )
        return section
    prices = {arm: _price(ctx, arm, item) for arm in ctx.arm_names}
    arms = [a for a in ctx.arm_names if prices[a] is not None]
    if not arms:
        section.add(Text(f"No arm says the {item.noun}'s price ({item.price})."))
        return section
    group_keys = [k for k in ctx.label_columns() if k != item.price]
    groups: dict[tuple, list[str]] = {}
    for arm in arms:
        values = ctx.arm_values(arm)
        groups.setdefault(tuple(values.get(k) for k in group_keys), []).append(arm)
    rows, curves = [], []
    for key, members in groups.items():
        label = ", ".join(f"{k} {fmt.value(v)}" for k, v in zip(group_keys, key, strict=True))
        per_games = {}
        group_rows = []
        for arm in sorted(members, key=lambda a: prices[a]):
            row, per = _arm_row(ctx, arm, item, buy, prices[arm])
            row["group"] = label or "all"
            group_rows.append(row)
            if per is not None:
                per_games[prices[arm]] = per
        be = _break_even(ctx, per_games)
        default = _default_price(ctx, members, item)
        curves.append(
            {"label": label or "all", "rows": group_rows, "break_even": be, "default": default}
        )
        rows.extend(group_rows)
        section.findings.append(_finding(ctx, item, label, group_rows, be, default, buy))
        section.answers.append(
            pricing_answers.answer(ctx, item, label, group_rows, be, default, members)
        )
    cols = [Column.text("group", "setting")] if group_keys else []
    cols += [
        Column.num("price", "price", 0),
        Column.count("seat_games", "buyer seat-games"),
        Column.pct_ci(
            "purchase",
            "bought in",
            help=f"Share of the buyer's games in which it bought the {item.noun} at least once.",
        ),
    ]
    if any(r["per_game"] > r["purchase"] + 0.005 for r in rows if r["seat_games"]):
        cols.append(Column.num("per_game", "bought per game", 2))
    if any("use" in r for r in rows):
        ratio = any(r.get("use_is_ratio") for r in rows)
        cols.append(
            Column.num_ci("use", "uses per purchase", 2)
            if ratio
            else Column.pct_ci(
                "use", "used", help=f"Share of the {item.noun}s bought that were used."
            )
        )
    if any("gross" in r for r in rows):
        cols.append(Column.num("points_per_item", f"points per {item.noun}", 1))
        cols.append(
            Column.num_ci(
                "gross",
                "points per point paid",
                2,
                help=f"Points the {item.noun} itself took / points paid for it "
                "(1 = it pays back its price in points).",
            )
        )
    if any("net" in r for r in rows):
        cols.append(
            Column.num_ci(
                "net",
                "net points per point paid",
                2,
                help="(Buyer's score - the non-buyers' mean score) / points paid "
                f"for the {item.noun}s; a game one unit (delta method).",
            )
        )
    if any("uplift" in r for r in rows):
        cols.append(
            Column.diff(
                "uplift",
                "win-share uplift",
                unit="pp",
                sig_key="uplift_sig",
                help="Buyer's win share minus the fair share (games with a winner "
                "/ players), 95% normal interval.",
            )
        )
        cols.append(Column.pvalue("uplift_p", "p"))
    cols.append(Column.pct_ci("raid", "raid rate"))
    section.add(
        Table(
            f"{item.key}_pricing",
            f"{_title(item)}: by price",
            pl.DataFrame(rows),
            cols,
            note=f"Buying strateg{'ies' if len(buy) > 1 else 'y'}: "
            f"{', '.join(sorted(buy))}. Intervals: 95% (Wilson for rates, normal for ratios "
            "and the uplift, each game one unit).",
        )
    )
    be_rows = [
        {"group": c["label"], "default": c["default"], **_be_cols(c["break_even"])}
        for c in curves
        if c["break_even"] is not None
    ]
    if be_rows:
        section.add(
            Table(
                f"{item.key}_break_even",
                f"Break-even price of the {item.noun}",
                pl.DataFrame(be_rows),
                [
                    Column.text("group", "setting"),
                    Column.text("default", "rulebook price"),
                    Column.custom("break-even price (95% interval)", _be_cell, "estimate"),
                    Column.pct(
                        "above",
                        "bootstrap above range",
                        0,
                        "Share of bootstrap resamples whose break-even lies above the highest "
                        "price tried.",
                    ),
                    Column.pct("below", "bootstrap below range", 0),
                ],
                note="The price where the buyer's win-share uplift crosses zero; the 95% "
                "interval holds the prices where a paired test of 'the uplift is zero there' "
                "does not reject; the shares beyond the range are of a paired bootstrap "
                f"({ctx.n_boot} resamples). Between two tried prices the curve is read as a "
                "straight line: the interval covers the sampling noise, not the curve's shape "
                "between them (docs/reports.md measures what that misses); try more prices "
                "near the break-even to refine it.",
            )
        )
    section.blocks.insert(0, _figure(item, curves))  # the picture first
    return section


def _default_price(ctx: Context, arms: list[str], item: Item):
    """The preset's own price (before the experiment's overrides)."""
    for arm in arms:
        value = ctx.results.rulebook_value(arm, item.price)
        if value is not None:
            return value
    return None


def _break_even(ctx: Context, per_games: dict[float, pl.DataFrame]):
    if len(per_games) < 2:
        return None
    prices = sorted(per_games)
    frame = None
    for p in prices:
        f = per_games[p].select("game", pl.col("uplift").alias(str(p)))
        frame = f if frame is None else frame.join(f, on="game", how="full", coalesce=True)
    matrix = frame.select([str(p) for p in prices]).to_numpy().T.astype(float)
    return break_even_bootstrap(np.array(prices), matrix, n_boot=ctx.n_boot, seed=ctx.seed)


def _be_cols(be) -> dict:
    return {
        "estimate": be.estimate,
        "low": be.low,
        "high": be.high,
        "above": be.above_share,
        "below": be.below_share,
    }


def _be_text(estimate: float, low: float, high: float) -> str:
    if math.isnan(estimate):
        return "undetermined"
    if math.isinf(estimate):
        return "above the prices tried" if estimate > 0 else "below the prices tried"
    lo = "below the range" if math.isinf(low) and low < 0 else fmt.num(low)
    hi = "above the range" if math.isinf(high) and high > 0 else fmt.num(high)
    return f"{fmt.num(estimate)} ({lo} to {hi})"


def _be_cell(row: dict):
    from sim.report.table import Cell

    return Cell(
        _be_text(row["estimate"], row["low"], row["high"]),
        row["estimate"] if not math.isnan(row["estimate"]) else None,
    )


def _finding(ctx: Context, item: Item, label: str, rows: list[dict], be, default,
             buy: set[str]) -> Finding:  # fmt: skip
    where = f"{_title(item)} ({label})" if label else _title(item)
    if not any("uplift" in r for r in rows):
        return Finding(
            f"{where}: every seat buys, so there is no non-buying opponent to measure "
            "an uplift against.",
            "info",
        )
    prices = [r["price"] for r in rows]
    sig = [r for r in rows if r.get("uplift_sig")]
    span = f"prices {fmt.value(min(prices))} to {fmt.value(max(prices))}"
    current = ""
    if default is not None:
        at = [r for r in rows if r["price"] == float(default)]
        if at:
            r = at[0]
            current = (
                f" At the rulebook price {fmt.value(default)} the buyer's uplift is "
                f"{fmt.pp_ci(r['uplift'], r['uplift_low'], r['uplift_high'])}"
                f"{'' if r.get('uplift_sig') else ' (not significant)'}."
            )
    if not sig:
        v = pricing_answers.no_gain_verdict(ctx, rows)
        tol = ctx.tolerance("win_share").text()
        if v.holds:
            said = f"buying the {item.noun} makes no difference at any price tried ({span}; "
            said += f"tolerance {tol}); there is no break-even price to pin down."
        else:
            said = (
                f"buying the {item.noun} gives no detectable win-share uplift at any price "
                f"tried ({span}); whether it makes none (tolerance {tol}) is not settled: "
                f"{plain_text(verdict_words.to_settle(v))}."
            )
        return Finding(f"{where}: {said}" + current, verdict_words.kind(v))
    if be is None:
        return Finding(f"{where}: only one price tried." + current, "info")
    text = _be_text(be.estimate, be.low, be.high)
    if math.isinf(be.estimate) and be.estimate > 0:
        msg = (
            f"buying the {item.noun} still pays at the highest price tried "
            f"({fmt.value(max(prices))}): it is worth more than that to "
            f"{', '.join(sorted(buy))}."
        )
    elif math.isinf(be.estimate):
        msg = (
            f"buying the {item.noun} does not pay even at the lowest price tried "
            f"({fmt.value(min(prices))})."
        )
    else:
        msg = (
            f"break-even price {text}: below it buying the {item.noun} raises the buyer's "
            f"win share, above it lowers it; a fair price is about {round(be.estimate)}."
        )
    v = pricing_answers.printed_verdict(ctx, default, be)
    if v is not None and not current:
        d, tol = fmt.value(default), ctx.tolerance("price").text()
        if v.holds:
            current = f" The rulebook price {d} is right (tolerance {tol})."
        elif v.opposite and be.low > float(default):
            current = (
                f" The rulebook price {d} is below the break-even interval: at that price "
                "buying is a winning move."
            )
        elif v.opposite:
            current = (
                f" The rulebook price {d} is above the break-even interval: at that price the "
                "item does not pay."
            )
        else:
            current = (
                f" Whether the rulebook price {d} is right (tolerance {tol}) is not settled: "
                f"{plain_text(verdict_words.to_settle(v))}."
            )
    return Finding(f"{where}: {msg}" + current, "finding")


def _figure(item: Item, curves: list[dict]) -> plots.Figure:
    fig, axes = plots.new(2, 2, width=11, height=7.6)
    a_buy, a_pts, a_up, a_raid = axes[0, 0], axes[0, 1], axes[1, 0], axes[1, 1]
    for i, c in enumerate(curves):
        color = plots.COLORS[i % len(plots.COLORS)]
        rows = c["rows"]
        x = [r["price"] for r in rows]
        label = c["label"] if len(curves) > 1 else None

        def col(key: str, rows=rows) -> list[float]:
            return [r.get(key, math.nan) for r in rows]

        def band(ax, key: str, x=x, color=color, col=col, **style) -> None:
            """The curve of `key` with its interval (`key`_low, `key`_high)."""
            plots.curve(ax, x, col(key), col(low_key(key)), col(high_key(key)), color=color,
                        **style)  # fmt: skip

        band(a_buy, "purchase", label=f"bought{' - ' + label if label else ''}", scale=100)
        if any("use" in r for r in rows) and not any(r.get("use_is_ratio") for r in rows):
            a_buy.plot(
                x,
                [100 * v for v in col("use")],
                linestyle=":",
                marker="s",
                markersize=3,
                color=color,
                label=f"used{' - ' + label if label else ''}",
            )
            a_buy.fill_between(
                x,
                [100 * v for v in col("use_low")],
                [100 * v for v in col("use_high")],
                color=color,
                alpha=0.12,
                linewidth=0,
            )
        key = "gross" if any("gross" in r for r in rows) else "net"
        if any(key in r for r in rows):
            band(a_pts, key, label=label)
        if any("uplift" in r for r in rows):
            band(a_up, "uplift", label=label, scale=100)
            be = c["break_even"]
            if be is not None and math.isfinite(be.estimate):
                a_up.axvline(
                    be.estimate,
                    color=color,
                    linestyle="-.",
                    linewidth=1.2,
                    label=f"break-even {_be_text(be.estimate, be.low, be.high)}"
                    + (f" ({label})" if label else ""),
                )
                lo = be.low if math.isfinite(be.low) else min(x)
                hi = be.high if math.isfinite(be.high) else max(x)
                a_up.axvspan(lo, hi, color=color, alpha=0.08)
        band(a_raid, "raid", label=label, scale=100)
    unit = "points"
    a_buy.set(
        title=f"How often the buyer buys / uses the {item.noun}",
        xlabel=f"price ({unit})",
        ylabel="share (%)",
        ylim=(0, 105),
    )
    gross = any("gross" in r for c in curves for r in c["rows"])
    a_pts.set(
        title=("Points the " + item.noun + " takes per point paid")
        if gross
        else "Net points gained per point paid",
        xlabel=f"price ({unit})",
        ylabel="points per point paid",
    )
    a_pts.axhline(1.0, color=plots.FAIR, linestyle="--", linewidth=1, label="pays back its price")
    beyond = [
        "above" if c["break_even"].estimate > 0 else "below"
        for c in curves
        if c["break_even"] is not None and math.isinf(c["break_even"].estimate)
    ]
    a_up.set(
        title="Buyer's win-share uplift "
        + (f"(break-even {beyond[0]} the prices tried)" if beyond else "(dash-dot: break-even)"),
        xlabel=f"price ({unit})",
        ylabel="win share minus fair share (pp)",
    )
    a_up.axhline(0.0, color=plots.FAIR, linestyle="--", linewidth=1)
    a_raid.set(title="Invaders win (raid rate)", xlabel=f"price ({unit})", ylabel="raid rate (%)")
    top = max((r.get("raid_high", 0) for c in curves for r in c["rows"]), default=1.0)
    a_raid.set_ylim(0, min(100, 100 * top * 1.2 + 1))
    plots.legend_below(fig, ncol=3)
    games = sorted({r["games"] for c in curves for r in c["rows"]})
    n_text = f"{games[0]:,}" if len(games) == 1 else f"{games[0]:,} to {games[-1]:,}"
    return plots.finish(
        fig,
        f"{item.key}_pricing",
        f"{_title(item)}: curves by price",
        f"{n_text} games per price. Bands: 95% intervals. "
        "Bottom left: the buyer's win share minus the fair share; where the curve crosses zero is "
        "the break-even price (shaded: its 95% interval).",
    )
