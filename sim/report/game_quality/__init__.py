"""Is it a good game? The quality section: the same questions for every game, each answered in
one line with 95% intervals at each level the experiment plays, pictures first
(docs/reports.md, `quality`):

- Does skill matter? (skill.py)  - How much does luck decide? (luck.py)
- Are games close?, Does the lead change?, How does a game flow? (course.py)
- What do the what-if arms change in how the game plays? (compare.py)

Every number comes from the measure registry (sim/measures) on the stored games; a game's
plug-in says what only it knows through its `measures()` part (whether the table plays as one
team, one scoring event's points, the no-choice column, its own closeness measures). A game
lists the section in its plug-in's `report_sections` (sim.plugins.base.QUALITY_SECTION).
"""

from __future__ import annotations

import polars as pl

from sim.plugins.base import QUALITY as ID
from sim.report.context import Context
from sim.report.game_quality import compare, course, figures, luck, skill
from sim.report.game_quality.common import Found
from sim.report.game_quality.design import read_design
from sim.report.render import Section, Text
from sim.report.table import Column, Table
from sim.stats.interval_columns import as_columns, interval_in

TITLE = "Is it a good game?"
QUESTION = (
    "Does skill matter, how much does luck decide, are games close, does the lead "
    "change, how does a game flow? The same questions for every game, at each level "
    "the experiment plays."
)


def build(ctx: Context) -> Section:
    from sim.measures.generic import generic
    from sim.measures.spec import for_game
    from sim.plugins import get_game
    from sim.plugins.base import outcomes

    results = ctx.results
    plugin = get_game(results.game, source=str(results.root / "manifest.json"))
    spec, ends = for_game(plugin), outcomes(plugin)
    registry = generic(spec, ends)
    design = read_design(results, spec)
    section = Section(ID, TITLE, QUESTION)
    pictures, tables, found = [], [], []
    if spec.cooperative:
        answer, moves = skill.cooperative(
            design, results, spec.skill_factors, spec.win, ctx.tolerance("quality_share")
        )
        if moves:
            pictures.append(figures.skill_moves(moves, design))
            tables.append(_moves_table(moves))
        section.answers.append(answer)
        answer, deals = luck.cooperative(design, results, spec.win)
        if deals:
            pictures.append(figures.luck_deals(deals))
        section.answers.append(answer)
        answer, close = course.close_cooperative(design, results, registry, spec)
        if close:
            pictures.append(
                figures.bars_by_level(
                    design,
                    close,
                    "quality_close",
                    "Are games close? How near the other end",
                    "How close a won game came to losing and a lost game to winning, at each "
                    "setting, with 95% intervals (each over the games that ended that way).",
                    "share of the start (%)",
                )
            )
    else:
        answer, ladders = skill.competitive(design, results, ctx.tolerance("skill_depth"))
        if ladders:
            pictures.append(figures.skill_ladder(ladders))
            tables.append(_ladder_table(ladders))
        section.answers.append(answer)
        answer, groups, ups, coins = luck.competitive(
            design, results, ctx.tolerance("quality_share"), results.game
        )
        if groups or ups or coins:
            pictures.append(figures.luck(groups, ups, coins, results.game))
        section.answers.append(answer)
        answer, close = course.close_competitive(design, results, registry, spec)
        if close:
            pictures.append(
                figures.close_competitive(
                    design, results, close, _events(design, spec), spec.score_unit
                )
            )
    section.answers.append(answer)
    found += close
    if not spec.cooperative:
        answer, lead = course.lead(design, results, registry)
        section.answers.append(answer)
        if lead:
            pictures.append(
                figures.lead(design, lead, {a.name: a.players for a in design.arms.values()})
            )
        found += lead
    answer, flow = course.flow(design, results, registry, spec, ends)
    section.answers.append(answer)
    if flow and spec.length:
        pictures.append(figures.flow(design, results, flow, spec.length[0], ends))
    found += flow
    measured = compare.headline(registry, spec, ends, spec.win or None)
    changes = compare.changes(design, results, measured)
    if changes:
        section.answers += compare.answers(ctx, design, changes)
        pictures.append(compare.figure(changes))
        tables.append(_changes_table(changes))
    section.add(*pictures)
    section.add(Text(_views_text(design)))
    section.add(_measures_table(found), *tables)
    return section


def _events(design, spec) -> dict[str, float]:
    from sim.results import Settings

    if spec.scoring_event is None:
        return {}
    out = {}
    for level in design.levels:
        arm = design.arms[design.views[level][0]]
        out[level] = float(spec.scoring_event(Settings(arm.players, arm.strategies, arm.rules)))
    return out


def _views_text(design) -> str:
    said = "; ".join(f"{lv or 'all games'}: {', '.join(design.views[lv])}" for lv in design.levels)
    text = f"The per-level questions describe these arms (their games together by deal): {said}."
    if design.replays:
        groups = "; ".join(", ".join(g.arms) for g in design.replays)
        text += f" Replayed deals with the seats rotated: {groups}."
    mixed = [a for arms in design.mixed.values() for a in arms]
    if mixed:
        text += f" Mixed tables (skill depth, upsets): {', '.join(mixed)}."
    return text


def _measures_table(found: list[Found]) -> Table:
    rows = [
        {
            "level": f.level or "all games",
            "measure": f.measure.name,
            "what": f.measure.label,
            **as_columns("value", f.value),
            "se": f.value.se,
            "games": f.value.n,
            "unit": f.measure.unit,
        }
        for f in found
    ]
    data = pl.DataFrame(rows, infer_schema_length=None) if rows else pl.DataFrame()
    cols = [
        Column.text("level", "level"),
        Column.text("measure", "measure"),
        Column.text("what", "what it is"),
        Column.custom("value (95% interval)", _value_cell, "value"),
        Column.count("games", "games"),
    ]
    return Table(
        "quality_measures",
        "Every measure at each level",
        data,
        cols,
        note="Shares in %, quantities as they are; the CSV holds the standard errors.",
    )


def _value_cell(row):
    from sim.report import fmt
    from sim.report.table import Cell

    v, lo, hi = interval_in(row, "value")
    text = fmt.pct_ci(v, lo, hi) if row["unit"] == "share" else fmt.num_ci(v, lo, hi, 2)
    return Cell(text, v)


def _ladder_table(ladders) -> Table:
    rows = []
    for lad in ladders:
        for hi, lo, v in lad.pairs():
            rows.append(
                {
                    "arm": lad.arm,
                    "upper": hi,
                    "lower": lo,
                    **as_columns("ahead", v),
                    "meetings_in": v.n,
                }
            )
        for level, v in lad.points.items():
            rows.append(
                {
                    "arm": lad.arm,
                    "upper": level,
                    "lower": lad.order[0],
                    **as_columns("points", v),
                }
            )
    cols = [
        Column.text("arm", "mixed table"),
        Column.text("upper", "level"),
        Column.text("lower", "against"),
        Column.pct_ci(
            "ahead",
            "finishes ahead",
            help="In the games both played (with a winner); a tie counts one half.",
        ),
        Column.num_ci("points", "rating points above", 2),
        Column.count("meetings_in", "games"),
    ]
    return Table.of_rows("quality_ladder", "The ladder, step by step", rows, cols, every_row=True)


def _moves_table(moves) -> Table:
    rows = []
    for m in moves:
        for value, v in m.rates.items():
            rows.append(
                {
                    "setting": m.level,
                    "factor": m.factor,
                    "value": value,
                    **as_columns("win", v),
                    "games": v.n,
                }
            )
        rows.append(
            {
                "setting": m.level,
                "factor": m.factor,
                "value": f"{m.high} - {m.low}",
                **as_columns("move", m.value),
                "games": m.value.n,
            }
        )
    cols = [
        Column.text("setting", "setting"),
        Column.text("factor", "factor"),
        Column.text("value", "value"),
        Column.pct_ci("win", "win rate"),
        Column.diff("move", "strongest minus weakest", unit="pp"),
        Column.count("games", "deals"),
    ]
    return Table.of_rows(
        "quality_skill", "The win rate by team skill and dexterity", rows, cols, every_row=True
    )


def _changes_table(changes) -> Table:
    rows = [
        {
            "level": c.level or "all games",
            "arm": c.arm,
            "baseline": c.base,
            "measure": c.measure.label,
            **as_columns("diff", c.value),
            "p_holm": c.p_holm,
            "sig": c.significant,
            "games": c.value.n,
            "unit": c.measure.unit,
        }
        for c in changes
    ]
    cols = [
        Column.text("level", "level"),
        Column.text("arm", "arm"),
        Column.text("measure", "measure"),
        Column.custom("arm \u2212 baseline (95% interval)", _diff_cell, "diff"),
        Column.pvalue("p_holm", "p (Holm)"),
        Column.count("games", "paired games"),
    ]
    return Table(
        "quality_whatif",
        "What each arm changes, against the baseline of its level",
        pl.DataFrame(rows, infer_schema_length=None),
        cols,
    )


def _diff_cell(row):
    from sim.report import fmt
    from sim.report.table import Cell

    v, lo, hi = interval_in(row, "diff")
    text = fmt.pp_ci(v, lo, hi) if row["unit"] == "share" else fmt.signed_ci(v, lo, hi, 2)
    if not row["sig"]:
        text += " n.s."
    return Cell(text, v, "sig" if row["sig"] else "ns")
