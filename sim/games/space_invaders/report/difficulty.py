"""The Space Invaders difficulty section (`invaders_difficulty`), from the stored games alone:
win rate, planet health left and score by players x level x dexterity x team skill; the
printed chart's implied win rates and whether each printed level is harder than the one
below; each player-card power's win-rate uplift against a plain token; the sensitivity to
the assumed catalog and geometry (docs/games/space_invaders/rules.md, section Reports).
"""

from __future__ import annotations

import math

import polars as pl

from sim.games.space_invaders.report import answers, figures
from sim.games.space_invaders.report.common import (
    WIN_RATE,
    Arm,
    arms,
    dealt,
    in_play,
    is_grid,
    largest_move,
    matched,
    order,
    outcome_columns,
    outcome_stats,
    table_columns,
    win_change,
    win_change_columns,
)
from sim.games.space_invaders.report.verdicts import none_moves, step_verdict
from sim.games.space_invaders.schema import LEVELS
from sim.report import fmt
from sim.report import verdicts as words_v
from sim.report.answers import plain_text
from sim.report.context import Context
from sim.report.metrics import prefixed
from sim.report.render import Finding, Section, Text
from sim.report.table import Column, Table
from sim.stats.interval_columns import as_columns, columns, interval_in
from sim.stats.tolerances import Tolerance
from sim.stats.verdict import Verdict

MAX_STEP_FINDINGS = 8
ASSUMPTION_NOTE = (
    "The invader cards' speeds, damages and icons, the explosion icons on the health track "
    "and every measurement of the board are assumptions (the rulebook does not print them; "
    "rulesets/catalog-*.yaml, geometry-*.yaml); so are the dexterity presets. The "
    "sensitivity table shows how much the answers move when they change."
)


# --- the difficulty section --------------------------------------------------------------


def build(ctx: Context) -> Section:
    section = Section(
        "invaders_difficulty",
        "Space Invaders: how hard is each printed level?",
        "How often does a table of each size, dexterity and skill win at each printed level; "
        "is each level really harder than the one below; which powers matter; how much do "
        "the assumed card and board data move the answers?",
    )
    all_arms = arms(ctx)
    grid = sorted((a for a in all_arms if is_grid(a)), key=order)
    if not grid:
        section.add(Text("No arm plays the printed setup (no main grid)."))
        return section
    levels = [{"players": a.players, "dexterity": a.dexterity, "skill": a.skill,
               "level": a.level, **outcome_stats(ctx, a.name)}
              for a in grid]  # fmt: skip
    tol = ctx.tolerance("win_rate")
    steps = _step_rows(ctx, grid, tol)
    uplift_arms = [a for a in all_arms if a.plain != "none" and not a.variant]
    uplift = _uplift_rows(ctx, grid, uplift_arms)
    variants = [a for a in all_arms if a.variant and a.plain == "none"]
    sensitivity = _sensitivity_rows(ctx, grid, variants)
    section.add(figures.levels(levels))
    if uplift:
        section.add(
            figures.differences(
                uplift,
                "power",
                "invaders_uplift_plot",
                "Win-rate uplift of each power against a plain token",
            )
        )
    if sensitivity:
        section.add(
            figures.differences(
                sensitivity,
                "variant",
                "invaders_sensitivity_plot",
                "How the assumed data move the win rate",
            )
        )
    section.add(Text(ASSUMPTION_NOTE))
    section.add(_outcome_table(levels))
    section.add(_chart_table(levels))
    if steps:
        section.add(_ladder_table(steps))
        section.findings.extend(_ladder_findings(steps, tol))
    if uplift:
        section.add(_uplift_table(uplift))
        section.findings.append(_uplift_finding(uplift, tol))
    if sensitivity:
        section.add(_sensitivity_table(sensitivity))
        section.findings.append(_sensitivity_finding(sensitivity, tol))
    section.answers.extend(answers.difficulty(levels, steps, uplift, sensitivity, tol))
    return section


def _outcome_table(levels: list[dict]) -> Table:
    return Table(
        "invaders_outcomes",
        "Win rate, planet health left and score by players, dexterity, team skill and level",
        pl.DataFrame(levels),
        [*table_columns(level=False), Column.text("level", "level"), *outcome_columns(levels)],
        note="Rates with 95% Wilson intervals, means with 95% normal intervals. 1 player = "
        "one person playing the cards of setup.solo_hands hands (line 102).",
    )


def _chart_table(levels: list[dict]) -> Table:
    """The printed chart's implied win rates: one row per table, one column per level."""
    rows: dict[tuple, dict] = {}
    for r in levels:
        row = rows.setdefault((r["players"], r["dexterity"], r["skill"]),
                              {"players": r["players"], "dexterity": r["dexterity"],
                               "skill": r["skill"]})  # fmt: skip
        row.update(columns(r["level"], *interval_in(r, "victory")))
    present = [lv for lv in LEVELS if any(lv in r for r in rows.values())]
    return Table(
        "invaders_implied_chart",
        "The printed chart's implied win rates",
        pl.DataFrame(list(rows.values()), infer_schema_length=None),
        [*table_columns(level=False), *[Column.pct_ci(lv, lv.capitalize()) for lv in present]],
        note="Each cell plays the printed deck size, planet health and UFO health of its "
        "level and player count (lines 134-167). 95% Wilson intervals.",
    )


def _step_rows(ctx: Context, grid: list[Arm], tol: Tolerance) -> list[dict]:
    """Is each level harder than the one below? Paired on game index (common seeds)."""
    by_cell: dict[tuple, dict[str, Arm]] = {}
    for a in grid:
        by_cell.setdefault(a.cell, {})[a.level] = a
    rows = []
    for cell, levels in by_cell.items():
        present = [lv for lv in LEVELS if lv in levels]
        for low, high in zip(present, present[1:], strict=False):
            d = win_change(ctx, levels[high].name, levels[low].name)
            row = {"players": cell[0], "dexterity": cell[1], "skill": cell[2],
                   "low": low, "high": high, "step": f"{low} -> {high}",
                   **as_columns("diff", d), "diff_p": d.pvalue, "games": d.n}  # fmt: skip
            v = step_verdict(row, tol)
            row["verdict"] = (
                "harder" if v.holds else "easier" if d.low > 0 else "no harder"
                if v.opposite else "not settled"
            )  # fmt: skip
            row["games_to_settle"] = v.games_to_settle
            rows.append(row)
    return rows


def _ladder_findings(rows: list[dict], tol: Tolerance) -> list[Finding]:
    findings = []
    kinds = {"easier": "finding", "no harder": "within", "not settled": "unsettled"}
    for r in rows:
        if r["verdict"] != "harder":
            said = {
                "easier": "is easier than",
                "no harder": f"is no harder (tolerance {tol.text()}) than",
                "not settled": "is not settled harder than",
            }[r["verdict"]]
            settle = (
                f"; about {r['games_to_settle']:,} games per arm would likely settle it"
                if r["games_to_settle"] else ""
            )  # fmt: skip
            findings.append(
                Finding(
                    f"{r['high'].capitalize()} {said} {r['low']} for "
                    f"{r['players']} player(s), {r['dexterity']} dexterity, {r['skill']} team "
                    f"({fmt.pp(r['diff'])}, {fmt.pp(r['diff_low'])} to {fmt.pp(r['diff_high'])})"
                    f"{settle}.",
                    kinds[r["verdict"]],
                )
            )
    harder = sum(r["verdict"] == "harder" for r in rows)
    summary = Finding(
        f"{harder} of {len(rows)} steps from a printed level to the next are "
        "harder (paired 95% intervals below zero).",
        "finding" if harder else "info",
    )
    if len(findings) > MAX_STEP_FINDINGS:
        more = len(findings) - MAX_STEP_FINDINGS
        findings = findings[:MAX_STEP_FINDINGS] + [
            Finding(f"... and {more} more steps not shown harder (table below).", "info")
        ]
    return [summary, *findings]


def _ladder_table(rows: list[dict]) -> Table:
    return Table.of_rows(
        "invaders_level_steps",
        "Is each printed level harder than the one below?",
        rows,
        [
            *table_columns(level=False),
            Column.text("step", "step"),
            *win_change_columns(),
            Column.text("verdict", "verdict"),
            Column.count("games", "paired games"),
        ],
        note="The change in win rate from a level to the next, paired by game (the same seed "
        "deals the same shuffle at both levels); 'harder' when the whole 95% interval is "
        "below zero, 'easier' when above, 'no harder' when it lies above minus the win_rate "
        "tolerance, 'not settled' otherwise.",
    )


def _uplift_rows(ctx: Context, grid: list[Arm], uplift: list[Arm]) -> list[dict]:
    rows = []
    for a, base in matched(grid, uplift):
        games = dealt(ctx, base.name, a.plain)
        d = win_change(ctx, base.name, a.name, games)
        rows.append({"power": a.plain, "players": a.players, "level": a.level,
                     "dexterity": a.dexterity, "skill": a.skill, "dealt": len(games),
                     "in_play": in_play(ctx, base.name, a.plain),
                     "games": ctx.results.arm_games(base.name).height,
                     **as_columns("uplift", d), "uplift_p": d.pvalue})  # fmt: skip
    rows.sort(key=lambda r: -r["uplift"] if not math.isnan(r["uplift"]) else math.inf)
    return rows


def _uplift_finding(rows: list[dict], tol: Tolerance) -> Finding:
    top = rows[0]
    text = (
        f"The power worth most is {top['power']}: {fmt.pp(top['uplift'])} win rate against "
        f"a plain token ({fmt.pp(top['uplift_low'])} to {fmt.pp(top['uplift_high'])}), "
        f"{top['players']} players, {top['level']}"
    )
    if top["uplift_low"] > 0:
        return Finding(text + ".", "finding")
    v = none_moves(rows, "uplift", tol)
    return Finding(text + _none_said(v, tol, "power") + ".", words_v.kind(v))


def _none_said(v: Verdict, tol: Tolerance, what: str) -> str:
    """'; no power moves the win rate beyond ±2 pp' or '; whether any ... is not settled'."""
    if v.holds:
        return f"; no {what} moves the win rate beyond {tol.text()}"
    if v.settled:
        return ""
    return (f"; whether any {what} moves the win rate beyond {tol.text()} is not settled: "
            f"{plain_text(words_v.to_settle(v))}")  # fmt: skip


def _uplift_table(rows: list[dict]) -> Table:
    return _paired_table(
        "invaders_power_uplift",
        "Which player-card powers matter: win-rate uplift against a plain token",
        rows, Column.text("power", "power"), Column.count("dealt", "games with it dealt"),
        "uplift", "uplift",
        note="Win rate with the power minus the same games with that power played as a plain "
        "token (powers.plain), over the games where some player was dealt it; paired by game. "
        "In play: games where a seat holding it had tokens of its level at the end (a power "
        "never in play has an uplift of 0 whatever it does).",
        extra=Column.count("in_play", "games in play"),
    )  # fmt: skip


def _paired_table(name: str, title: str, rows: list[dict], first: Column, measure: Column,
                  diff: str, diff_label: str, *, note: str,
                  extra: Column | None = None) -> Table:  # fmt: skip
    """A table of paired differences in percentage points: what changed (`first`), the table
    it was tried at, a measure (and an `extra` one), the difference and its p-value."""
    measures = [measure] if extra is None else [measure, extra]
    return Table(name, title, pl.DataFrame(rows, infer_schema_length=None),
                 [first, *table_columns(), *measures, Column.diff(diff, diff_label, unit="pp"),
                  Column.pvalue(f"{diff}_p")], note=note)  # fmt: skip


def _sensitivity_rows(ctx: Context, grid: list[Arm], variants: list[Arm]) -> list[dict]:
    rows = []
    for a, base in matched(grid, variants):
        d = win_change(ctx, a.name, base.name)
        rows.append({"variant": a.variant, "players": a.players, "level": a.level,
                     "dexterity": a.dexterity, "skill": a.skill,
                     **prefixed(ctx.measure(a.name, WIN_RATE), "win"), "games": d.n,
                     **as_columns("diff", d), "diff_p": d.pvalue})  # fmt: skip
    return rows


def _sensitivity_finding(rows: list[dict], tol: Tolerance) -> Finding:
    worst = largest_move(rows)
    v = none_moves(rows, "diff", tol)
    text = (
        f"{worst['variant']} moves the win rate most: {fmt.pp(worst['diff'])} "
        f"({worst['players']} players, {worst['level']})"
    )
    if v.opposite:
        return Finding(f"The assumed data matter: {text}.", "finding")
    return Finding(text + _none_said(v, tol, "change of the data") + ".", words_v.kind(v))


def _sensitivity_table(rows: list[dict]) -> Table:
    return _paired_table(
        "invaders_sensitivity", "Sensitivity to the assumed card catalog and board geometry",
        rows, Column.text("variant", "changed data"), Column.pct_ci("win", "win rate"),
        "diff", "against the default data",
        note="Each changed data set against the default assumptions on the same games "
        "(paired by game index).",
    )  # fmt: skip
