"""The re-derived Space Invaders difficulty chart, computed from the stored games alone.

The chart experiment (experiments/invaders_chart.yaml) sweeps `search.knob` (deck, planet,
ufo) and `search.factor` (the printed number times this) for every player count and level,
with the same seeds in every arm. For each player count, level and number, the win rate as a
function of the number is smoothed to be monotone and read where it crosses the level's target
(`search.targets_pct`), with its interval (sim.stats.bootstrap.break_even_interval).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from sim.games.space_invaders.report import answers, figures
from sim.games.space_invaders.report.common import (
    KNOB_COLUMN,
    KNOB_LABEL,
    Arm,
    arms,
    table_columns,
)
from sim.games.space_invaders.report.verdicts import on_target
from sim.games.space_invaders.schema import LEVELS
from sim.report import fmt
from sim.report.context import Context
from sim.report.metrics import prefixed, rate
from sim.report.render import Finding, Section, Text
from sim.report.table import Column, Table
from sim.stats.bootstrap import break_even_bootstrap
from sim.stats.tolerances import Tolerance


def _derived(value: float, low: float, high: float) -> str:
    """A crossing with its interval; open ends say the range tried was not wide enough."""
    if fmt.is_missing(value):
        return "\u2014"
    if math.isinf(value):
        return "above the range tried" if value > 0 else "below the range tried"
    lo = "\u2264 range" if math.isinf(low) else fmt.num(low, 1)
    hi = "\u2265 range" if math.isinf(high) else fmt.num(high, 1)
    return f"{fmt.num(value, 1)} ({lo}{fmt.DASH}{hi})"


def _search_groups(ctx: Context) -> dict[tuple, list[Arm]]:
    groups: dict[tuple, list[Arm]] = {}
    for a in arms(ctx):
        if a.knob != "none" and a.plain == "none" and not a.variant:
            groups.setdefault((a.players, a.level, a.knob, a.dexterity, a.skill), []).append(a)
    return groups


def _curve(ctx: Context, members: list[Arm], knob: str) -> tuple[np.ndarray, np.ndarray, list]:
    """Distinct knob values (ascending), the per-game wins at each (rows), and the arms."""
    by_x: dict[float, Arm] = {}
    for a in sorted(members, key=lambda m: (m.factor != 1.0, m.factor)):  # printed first
        x = float(ctx.results.arm_games(a.name).get_column(KNOB_COLUMN[knob])[0])
        by_x.setdefault(x, a)  # equal values play identical games (same seeds)
    xs = sorted(by_x)
    frames = [ctx.results.arm_games(by_x[x].name).select("game", "won") for x in xs]
    common = frames[0].select("game")
    for f in frames[1:]:
        common = common.join(f.select("game"), on="game")
    rows = [common.join(f, on="game").sort("game").get_column("won").to_numpy() for f in frames]
    wins = np.vstack(rows).astype(float)
    return np.array(xs), wins, [by_x[x] for x in xs]


def build(ctx: Context) -> Section:
    section = Section(
        "invaders_chart",
        "Space Invaders: a re-derived difficulty chart",
        "Which deck size, planet health and UFO health give each player count and level its "
        "target win rate? Each is found with the other two as printed.",
    )
    groups = _search_groups(ctx)
    if not groups:
        section.add(Text("No arm scales a chart number (search.knob): nothing to re-derive."))
        return section
    rows, cells, curves = [], {}, []
    for (players, level, knob, dexterity, skill), members in sorted(groups.items()):
        xs, wins, chosen = _curve(ctx, members, knob)
        target = members[0].targets[LEVELS.index(level)] / 100.0
        row = {
            "players": players,
            "level": level,
            "knob": KNOB_LABEL[knob],
            "knob_key": knob,
            "dexterity": dexterity,
            "skill": skill,
            "target": target,
            "tried": f"{xs.min():g}-{xs.max():g} ({len(xs)} values)",
            "xs": [float(x) for x in xs],
            "games": wins.shape[1],
        }
        printed = next((a for a in chosen if a.factor == 1.0), None)
        if printed is not None:
            k = chosen.index(printed)
            row["printed"] = float(xs[k])
            row.update(prefixed(rate(wins[k].sum(), wins.shape[1]), "printed_win"))
        if len(xs) >= 2:
            be = break_even_bootstrap(xs, wins - target, n_boot=ctx.n_boot, seed=ctx.seed)
            row.update({"derived": be.estimate, "derived_low": be.low, "derived_high": be.high})
        rows.append(row)
        curves.append(_curve_points(row, xs, wins))
        cell = cells.setdefault(
            (players, level, dexterity, skill),
            {
                "players": players,
                "level": level,
                "dexterity": dexterity,
                "skill": skill,
                "target": target,
            },
        )
        cell[f"{knob}_printed"] = row.get("printed")
        cell[knob] = _derived(
            row.get("derived", math.nan),
            row.get("derived_low", math.nan),
            row.get("derived_high", math.nan),
        )
        if "printed_win" in row:
            cell["printed_win"] = fmt.pct_ci(
                row["printed_win"], row["printed_win_low"], row["printed_win_high"]
            )
    section.add(figures.chart_curves(curves))
    section.add(_chart_form(list(cells.values())))
    section.add(_search_long(rows))
    section.findings.extend(_chart_findings(rows, ctx.tolerance("win_rate")))
    section.answers.extend(
        answers.chart(rows, ctx.tolerance("win_rate"), ctx.tolerance("chart_number"))
    )
    return section


def _curve_points(row: dict, xs: np.ndarray, wins: np.ndarray) -> dict:
    """One search's win rate at each value tried, with 95% Wilson intervals (the figure)."""
    rates = [rate(w.sum(), w.size) for w in wins]
    return {"players": row["players"], "level": row["level"], "knob": row["knob_key"],
            "target": row["target"], "printed": row.get("printed"), "x": [float(x) for x in xs],
            "win": [r["value"] for r in rates], "low": [r["low"] for r in rates],
            "high": [r["high"] for r in rates]}  # fmt: skip


def _chart_form(cells: list[dict]) -> Table:
    order = {lv: i for i, lv in enumerate(LEVELS)}
    cells.sort(key=lambda c: (c["dexterity"], c["skill"], c["players"], order.get(c["level"])))
    columns = [
        *table_columns(),
        Column.pct("target", "target win rate", 0),
        Column.text("printed_win", "win rate as printed"),
    ]
    for knob in ("deck", "planet", "ufo"):
        if any(knob in c for c in cells):
            columns.append(Column.num(f"{knob}_printed", f"{KNOB_LABEL[knob]} printed", 0))
            columns.append(Column.text(knob, f"{KNOB_LABEL[knob]} for the target"))
    return Table(
        "invaders_rederived_chart",
        "The chart re-derived: the number that hits the target win rate (others as printed)",
        pl.DataFrame(cells, infer_schema_length=None),
        columns,
        note="Each number is where the win rate, smoothed to be monotone in it (isotonic), "
        "crosses the target (linear interpolation between the values tried); the 95% interval "
        "holds the values where a paired test of 'the win rate is the target there' does not "
        "reject (common random numbers: game i of every arm has the same seed). Round to a "
        "whole number to print it.",
    )


def _search_long(rows: list[dict]) -> Table:
    for r in rows:
        r["derived_text"] = _derived(
            r.get("derived", math.nan),
            r.get("derived_low", math.nan),
            r.get("derived_high", math.nan),
        )
    return Table(
        "invaders_chart_search",
        "Every search: the values tried and the crossing",
        pl.DataFrame(
            [{k: v for k, v in r.items() if k != "xs"} for r in rows], infer_schema_length=None
        ),
        [
            *table_columns(),
            Column.text("knob", "number"),
            Column.pct("target", "target", 0),
            Column.num("printed", "printed", 0),
            Column.pct_ci("printed_win", "win rate as printed"),
            Column.text("tried", "values tried"),
            Column.text("derived_text", "for the target"),
            Column.count("games", "games per value"),
        ],
    )


def _chart_findings(rows: list[dict], tol: Tolerance) -> list[Finding]:
    """The printed setups shown to miss their target (beyond the `win_rate` tolerance)."""
    out = []
    for r in rows:
        if "printed_win" not in r:
            continue
        if on_target(r, tol).opposite:
            side = "easier" if r["printed_win_low"] > r["target"] else "harder"
            out.append(
                Finding(
                    f"{r['players']} players, {r['level']}: the printed setup is {side} than the "
                    f"target ({fmt.pct(r['printed_win'])} won against {fmt.pct(r['target'], 0)}); "
                    f"{r['knob']} {r['derived_text']} "
                    f"hits it (printed {r['printed']:g}).",
                    "finding",
                )
            )
    return out[:12]
