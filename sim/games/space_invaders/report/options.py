"""The Space Invaders options section (`invaders_options`), from the stored games alone: what
each optional action the rules offer is worth to the team (the planet-area re-launch, the UFO
re-launch, the heal, the bonus shots: docs/games/space_invaders/strategies.md). An arm whose
team plays a strategy with an option parameter changed (an action never taken, or a token
left in the planet area when the strategy judges it better) is compared with the arm of the
same table whose team plays that strategy as it comes (else the baseline), on the same
games: the per-game differences in winning and in the team's score get a paired normal
interval. A game in which no decision differs plays out the same in both arms. Each option's
verdict (sim/stats/verdict.py) reads its win-rate change against the `win_rate` tolerance: it
changes the win rate (shown), it changes nothing beyond the tolerance, or not settled at this
size.
"""

from __future__ import annotations

import polars as pl

from sim.games.space_invaders.report import figures
from sim.games.space_invaders.report.answers import thin_warning
from sim.games.space_invaders.report.common import WIN_RATE, Arm, arms, win_change_columns
from sim.report import verdicts as words
from sim.report.answers import Answer, Estimate, Label, Row, sentence
from sim.report.context import Context
from sim.report.data_quality import Quality
from sim.report.options import (
    changes,
    option_pairs,
    options_answer,
    options_table,
    reference,
)
from sim.report.render import Section, Text
from sim.report.table import Column, Table
from sim.stats.interval_columns import as_columns, interval_in, interval_keys
from sim.stats.tolerances import Tolerance
from sim.stats.verdict import Verdict, equivalence

ID = "invaders_options"
DECLINES = ("planet_stays", "declined")  # per-seat counters of declined optional actions
READS = DECLINES


def build(ctx: Context) -> Section:
    section = Section(
        ID,
        "Space Invaders: what are the optional actions worth?",
        "Where the rules say a player may (re-launch from the planet area, re-launch after a "
        "UFO hit, heal, take a bonus shot), what does taking or declining it change for the "
        "team, on the same games?",
    )
    tables = {a.name: a for a in arms(ctx)}
    rows = [_row(ctx, name, ref, tables[ref]) for name, ref in option_pairs(ctx, reference(ctx))]
    if not rows:
        section.add(Text("No arm plays another arm's table with a strategy parameter changed."))
        return section
    title = "Win-rate change against the same team as it comes"
    section.add(figures.differences(rows, "arm", "invaders_options_plot", title))
    section.add(_table(rows))
    section.findings += changes(rows, "diff", "arm", "the win rate")
    section.answers.append(answer(rows, ctx.tolerance("win_rate")))
    return section


def _row(ctx: Context, name: str, base: str, table: Arm) -> dict:
    win = ctx.paired(base, name, WIN_RATE)
    score = ctx.paired(base, name, "mean_score")
    declines = {arm: sum(ctx.measure(arm, f"game_total.{c}").value for c in DECLINES)
                for arm in (name, base)}  # fmt: skip
    declined = ctx.results.arm_seats(name).filter(pl.sum_horizontal(DECLINES) > 0)
    lineup = ", ".join(dict.fromkeys(ctx.results.arm(name).lineup))
    return {
        "arm": name, "against": base, "lineup": lineup, "players": table.players,
        "level": table.level,
        "dexterity": table.dexterity, "skill": table.skill,
        **as_columns("diff", win), "diff_p": win.pvalue, **as_columns("score", score),
        "declines": declines[name], "base_declines": declines[base],
        "declining_games": declined.get_column("game").n_unique(), "games": win.n,
    }  # fmt: skip


def _table(rows: list[dict]) -> Table:
    return options_table(
        "invaders_options_table",
        "Each option against the same team as it comes, on the same games",
        rows,
        "seats",
        [
            *win_change_columns(),
            Column.diff("score", "team score change", digits=1),
            Column.num("declines", "options declined a game", 2),
            Column.num("base_declines", "... against", 2),
            Column.count("declining_games", "games with a decline"),
        ],  # fmt: skip
        note="Paired by game: the same seed deals the same cards and draws the same launch "
        "errors in both arms, so only the games in which a decision differs can differ. "
        "Declined options: planet-area re-launches left (planet_stays) and other optional "
        "actions declined (declined), all seats.",
    )


# an option's verdict in words (holds, opposite), and the family's
_SAID_ALL = ("no option changes the win rate beyond the tolerance",
             "some option changes the win rate")  # fmt: skip


def worth(r: dict, tol: Tolerance) -> Verdict:
    """Whether the option leaves the team's win rate as it was, within the tolerance."""
    return equivalence(*interval_in(r, "diff"), tol.value, games=r["games"])


def answer(rows: list[dict], tol: Tolerance) -> Answer:
    """'no_heal changes the team's win rate most: -3.1 pp (...), beyond the ±2 pp tolerance.'
    Every option, largest change first, in the rows (a change that rounds to zero left out)."""
    verdicts = [worth(r, tol) for r in rows]
    order = sorted(zip(rows, verdicts, strict=True), key=lambda rv: -abs(rv[0]["diff"]))
    top, top_v = order[0]
    change = Estimate(f"{ID}.{top['arm']}", f"win-rate change of {top['arm']}",
                      *interval_in(top, "diff"))  # fmt: skip
    verdict, _ = words.each(verdicts)
    beyond = [r for r, v in order if v.opposite]
    if beyond:
        parts = sentence(Label(top["arm"]), " changes the team's win rate most: ", change,
                         words.versus(top_v, tol), ".")  # fmt: skip
    elif verdict.holds:
        parts = sentence("No option changes the team's win rate beyond the ", Label(tol.text()),
                         " tolerance; the largest change, ", Label(top["arm"]), ", is ", change,
                         ".")  # fmt: skip
    else:
        parts = sentence(
            "Not settled whether any option changes the team's win rate: ",
            Label(top["arm"]),
            " ",
            change,
            words.versus(top_v, tol),
            ".",
        )
    table = [Row(f"{r['arm']} (against {r['against']})",
                 Estimate(f"{ID}.{r['arm']}", "win-rate change", *interval_in(r, "diff")),
                 words.word(v), r["arm"])
             for r, v in order if not _rounds_to_zero(r)]  # fmt: skip
    games = min(r["games"] for r in rows)
    warning = thin_warning(rows, "diff", "win-rate change")
    return options_answer(
        ID, "What does each optional action change for the team?", verdicts, parts,
        said_all=_SAID_ALL, rows=table, rows_head="option", tolerance=tol,
        quality=Quality(games=games, basis="paired games",
                        warnings=(warning,) if warning else ()),
    )  # fmt: skip


def _rounds_to_zero(r: dict) -> bool:
    return all(round(100 * r[k], 1) == 0 for k in interval_keys("diff"))
