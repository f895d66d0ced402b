"""What-if comparison: each arm against the baseline arm, on the same games (same seeds). Every
headline metric's paired difference with its interval and a significance flag (Holm-corrected
for the number of metrics), sorted by effect size; a chart of the differences."""

from __future__ import annotations

import math

import polars as pl

from sim.report import fmt, plots
from sim.report.context import Context
from sim.report.metrics import (
    Metric,
    is_all_zero,
    paired,
    per_game,
    standard_metrics,
    strategy_win_per_game,
)
from sim.report.render import Finding, Section, Text
from sim.report.table import Column, Table
from sim.stats.tests import holm

ID = "what_if"
TITLE = "What-if comparison"


def baseline_arm(ctx: Context) -> str:
    names = ctx.arm_names
    base = ctx.results.baseline
    return base if base in names else names[0]


def compare(
    ctx: Context,
    base: str,
    other: str,
    *,
    frames: dict[str, pl.DataFrame] | None = None,
    metrics: list[Metric] | None = None,
    strategies: bool = True,
) -> list[dict]:
    """Rows of paired differences (other - base) for every metric that is not zero in both."""
    frames = frames if frames is not None else {}
    for arm in (base, other):
        if arm not in frames:
            frames[arm] = per_game(ctx.results, arm)
    fa, fb = frames[base], frames[other]
    players = min(_players(ctx, base), _players(ctx, other))
    chosen = metrics if metrics is not None else standard_metrics(fa, players)
    rows = []
    for m in chosen:
        if is_all_zero(fa, m.key) and is_all_zero(fb, m.key):
            continue
        d, base_mean, base_sd = paired(fa, fb, m.key)
        if d.n < 2:
            continue
        rows.append(_row(other, m.label, m.unit, m.digits, m.headline, d, base_mean, base_sd))
    if strategies:
        sa, sb = strategy_win_per_game(ctx.results, base), strategy_win_per_game(ctx.results, other)
        common = [c for c in sa.columns if c != "game" and c in sb.columns]
        if len(common) > 1:
            for strat in common:
                d, base_mean, base_sd = paired(sa, sb, strat)
                if d.n >= 2:
                    rows.append(
                        _row(other, f"win share of {strat}", "pp", 1, False, d, base_mean, base_sd)
                    )
    adjusted = holm([row["diff_p"] for row in rows])
    for row, p in zip(rows, adjusted, strict=True):
        row["diff_p_holm"] = p
        row["diff_sig_holm"] = None if math.isnan(p) else bool(p < 1 - ctx.level)
    rows.sort(key=lambda row: -abs(row["effect"]) if not math.isnan(row["effect"]) else 0.0)
    return rows


def _players(ctx: Context, arm: str) -> int:
    return int(ctx.results.arm_games(arm).get_column("players")[0])


def _row(arm, label, unit, digits, headline, d, base_mean, base_sd) -> dict:
    if base_sd and base_sd > 0:
        effect = d.estimate / base_sd
    else:
        effect = math.inf if d.estimate else 0.0
    rel = d.estimate / base_mean if base_mean else math.nan
    return {
        "arm": arm,
        "metric": label,
        "unit": unit,
        "digits": digits,
        "headline": headline,
        "base": base_mean,
        "value": base_mean + d.estimate,
        "diff": d.estimate,
        "diff_low": d.low,
        "diff_high": d.high,
        "diff_p": d.pvalue,
        "diff_sig": d.significant,
        "games": d.n,
        "effect": effect,
        "relative": rel,
    }


def _value_cell(key: str):
    from sim.report.table import Cell

    def r(row: dict) -> Cell:
        v = row.get(key)
        text = fmt.pct(v) if row["unit"] == "pp" else fmt.num(v, row["digits"])
        return Cell(text, v)

    return r


def _diff_cell(row: dict):
    from sim.report.table import Cell

    v, lo, hi = row["diff"], row["diff_low"], row["diff_high"]
    if row["unit"] == "pp":
        text = fmt.pp_ci(v, lo, hi)
    else:
        text = fmt.signed_ci(v, lo, hi, row["digits"])
    sig = row.get("diff_sig_holm")
    if sig is False:
        text += " n.s."
    return Cell(text, v, "" if sig is None else ("sig" if sig else "ns"))


def comparison_table(name: str, title: str, rows: list[dict], note: str = "") -> Table:
    cols = [
        Column.text("arm", "arm"),
        Column.text("metric", "metric"),
        Column.custom("baseline", _value_cell("base"), "base"),
        Column.custom("arm value", _value_cell("value"), "value"),
        Column.custom(
            "arm \u2212 baseline (95% interval)",
            _diff_cell,
            "diff",
            "Arm minus baseline on the same games. n.s.: not significant after Holm's correction.",
        ),
        Column.pvalue("diff_p_holm", "p (Holm)"),
        Column.num(
            "effect",
            "effect size",
            2,
            "Difference / standard deviation of the baseline's per-game values.",
        ),
        Column.count("games", "paired games"),
    ]
    data = pl.DataFrame(rows, infer_schema_length=None)
    return Table(name, title, data, cols, note=note)


def describe(row: dict) -> str:
    if row["unit"] == "pp":
        return f"{row['metric']} {fmt.pp_ci(row['diff'], row['diff_low'], row['diff_high'])}"
    diff = fmt.signed_ci(row["diff"], row["diff_low"], row["diff_high"], row["digits"])
    return f"{row['metric']} {diff}"


def ns_note(row: dict) -> str:
    """'' for a significant difference; ' (n.s.)', or a longer note when the interval alone
    excludes zero but the multiple-comparison correction does not."""
    if row.get("diff_sig_holm"):
        return ""
    if row.get("diff_sig"):
        return " (not significant once corrected for the metrics compared)"
    return " (n.s.)"


# the order in which headline metrics are told in a finding (the designer's questions first)
PRIORITY = (
    "invaders win (raid rate)", "game length (turns)", "first player's win share",
    "total score of the table (points)", "winner's score (points)", "board cleared (victory rate)",
)  # fmt: skip


def arm_finding(arm: str, base: str, rows: list[dict], limit: int = 5) -> Finding:
    """The significant headline changes (raid rate, length, first player... in that order);
    'no detectable change' when none is significant after the correction."""
    sig = [r for r in rows if r.get("diff_sig_holm")]
    n = max((r["games"] for r in rows), default=0)
    if not sig:
        return Finding(
            f"{arm} vs {base}: no metric changed detectably ({fmt.integer(n)} paired games).",
            "null",
        )
    rank = {m: i for i, m in enumerate(PRIORITY)}
    head = sorted((r for r in sig if r["headline"]), key=lambda r: rank.get(r["metric"], 99))
    head = head or sig
    text = "; ".join(describe(r) for r in head[:limit])
    more = len(sig) - min(len(head), limit)
    tail = f" (and {more} more significant metric{'s' if more > 1 else ''} in the table)"
    return Finding(f"{arm} vs {base}: {text}{tail if more > 0 else ''}.", "finding")


def changes(ctx: Context, arm: str, base: str) -> str:
    """What an arm changes relative to the baseline, e.g. 'shot.steal highest'."""
    a, b = ctx.arm_values(arm), ctx.arm_values(base)
    diff = [f"{k} {fmt.value(a[k])}" for k in a if k != "arm" and a.get(k) != b.get(k)]
    return ", ".join(diff) or "nothing stored differs"


def arms_table(ctx: Context, base: str) -> Table:
    rows = [
        {
            "arm": arm,
            "role": "baseline" if arm == base else "arm",
            "changes": "\u2014" if arm == base else changes(ctx, arm, base),
            "games": ctx.results.arm_games(arm).height,
        }
        for arm in ctx.arm_names
    ]
    return Table(
        "what_if_arms",
        "The arms",
        pl.DataFrame(rows),
        [
            Column.text("arm", "arm"),
            Column.text("role", "role"),
            Column.text("changes", "changes from the baseline"),
            Column.count("games", "games"),
        ],
    )


def build(ctx: Context) -> Section:
    section = Section(
        ID,
        TITLE,
        "What changes when a rule changes? Each arm against the "
        "baseline, game by game on the same shuffles.",
    )
    names = ctx.arm_names
    if len(names) < 2:
        section.add(Text("Only one arm: nothing to compare."))
        return section
    base = baseline_arm(ctx)
    section.add(arms_table(ctx, base))
    frames: dict[str, pl.DataFrame] = {}
    all_rows = []
    for arm in names:
        if arm == base:
            continue
        if _players(ctx, arm) != _players(ctx, base):
            section.add(Text(f"{arm}: not compared (a different number of players than {base})."))
            continue
        rows = compare(ctx, base, arm, frames=frames)
        section.findings.append(arm_finding(f"{arm} ({changes(ctx, arm, base)})", base, rows))
        all_rows.extend(rows)
    if not all_rows:
        return section
    section.add(
        comparison_table(
            "what_if",
            f"Every metric, each arm minus the baseline arm '{base}'",
            all_rows,
            note="Paired by game (the same seeds in every arm): mean of the per-game differences "
            "with a 95% t interval. Sorted by effect size within each arm.",
        )
    )
    section.add(forest_figure("what_if", [r for r in all_rows if r["headline"]], base))
    return section


def forest_figure(name: str, rows: list[dict], base: str, title: str | None = None):
    """Two panels, one above the other: rates (pp) and quantities (% of the baseline), one row
    per arm x metric."""
    import textwrap

    rates = [r for r in rows if r["unit"] == "pp"]
    others = [r for r in rows if r["unit"] != "pp" and r["base"]]
    heights = [max(len(rates), 1), max(len(others), 1)]
    fig, axes = plots.new(2, 1, width=10, height=0.36 * sum(heights) + 2.2)
    axes = axes.reshape(1, 2)  # [0, 0]: rates, [0, 1]: quantities

    def label(r: dict) -> str:
        return "\n".join(textwrap.wrap(f"{r['arm']}: {r['metric']}", 58))

    if rates:
        plots.forest(
            axes[0, 0],
            [label(r) for r in rates],
            [100 * r["diff"] for r in rates],
            [100 * r["diff_low"] for r in rates],
            [100 * r["diff_high"] for r in rates],
            [bool(r.get("diff_sig_holm")) for r in rates],
            xlabel="difference (percentage points)",
        )
        axes[0, 0].set_title("Rates: arm minus baseline")
    else:
        axes[0, 0].set_axis_off()
    if others:
        scale = [100 / abs(r["base"]) for r in others]
        plots.forest(
            axes[0, 1],
            [label(r) for r in others],
            [r["diff"] * s for r, s in zip(others, scale, strict=True)],
            [r["diff_low"] * s for r, s in zip(others, scale, strict=True)],
            [r["diff_high"] * s for r, s in zip(others, scale, strict=True)],
            [bool(r.get("diff_sig_holm")) for r in others],
            xlabel="difference (% of the baseline value)",
        )
        axes[0, 1].set_title("Quantities: arm minus baseline, relative to the baseline")
    else:
        axes[0, 1].set_axis_off()
    return plots.finish(
        fig,
        name,
        title or f"Differences from the baseline ({base})",
        f"Arm minus baseline ({base}) on the same games ({_paired_text(rows)}), 95% intervals. "
        "Filled red: significant "
        "(after Holm's correction); hollow grey: not significant. Left: rates in percentage "
        "points; right: quantities in % of the baseline's mean.",
    )


def _paired_text(rows: list[dict]) -> str:
    games = sorted({r["games"] for r in rows if r["metric"] != "winner's score (points)"})
    if not games:
        return "no paired games"
    n = f"{games[0]:,}" if len(games) == 1 else f"{games[0]:,} to {games[-1]:,}"
    return f"{n} paired games per arm"
