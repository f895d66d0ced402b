"""The optional steps a captain may take (`alien_raid_options`): keeping a bonus-humans card
instead of cashing it (line 192), repaying a credit early (line 184), from the stored games
alone (docs/games/alien_raid/strategies.md). Every arm with the baseline's players and rules
seats one captain (rotating through the seats) whose strategy takes the step differently; on
the same games, that captain's win share and final humans are compared with the same seat's
in the baseline (paired normal intervals). A game in which no decision differs plays out the
same in both arms. Each step's verdict (sim/stats/verdict.py): it changes what the captain
wins (either change shown), it changes nothing beyond the tolerances (the win share within
`win_share`, the final humans within `humans`), or not settled at this size."""

from __future__ import annotations

from sim.games.alien_raid.report.common import Heading, section
from sim.report import verdicts as words
from sim.report.answers import Answer, Estimate, Label, Row, joined, sentence
from sim.report.context import Context
from sim.report.data_quality import Quality
from sim.report.options import (
    changes,
    deviating,
    option_pairs,
    options_answer,
    options_table,
    reference,
)
from sim.report.render import Section, Text
from sim.report.table import Column
from sim.stats.interval_columns import as_columns, interval_in
from sim.stats.tolerances import Tolerance
from sim.stats.verdict import Verdict, all_of, equivalence

ID = "alien_raid_options"
HEADING = Heading(ID, "Optional steps: what are they worth?",
                  "Does keeping a bonus-humans card, or repaying a credit early, change what "
                  "the captain who does it wins?")  # fmt: skip
READS = ("bonus_held", "repaid_early")


def build(ctx: Context) -> Section:
    out = section(HEADING, ctx)
    rows = [r for r in (_row(ctx, arm, ref) for arm, ref in option_pairs(ctx, reference(ctx))) if r]
    if not rows:
        out.add(Text("No arm seats a captain whose strategy has a parameter changed."))
        return out
    out.findings += changes(rows, "win", "lineup", "its win share")
    out.add(
        options_table(
            "alien_raid_options_table",
            "Each deviating captain against the same seat of the same game",
            rows,
            "the captain",
            [
                Column.diff("win", "win-share change", unit="pp"),
                Column.diff("humans", "final humans change", digits=0),
                Column.num("held", "bonus cards kept a game", 2),
                Column.num("early", "credits repaid early a game", 2),
            ],  # fmt: skip
            note="The captain whose strategy differs from the baseline's seat of the same "
            "game, against that seat, paired by game (the same seeds deal the same cards).",
        )
    )
    out.answers.append(answer(rows, ctx.tolerance("win_share"), ctx.tolerance("humans")))
    return out


def _row(ctx: Context, name: str, base: str) -> dict | None:
    """The arm's deviating captain against the same seat of `base`; None if none deviates."""
    labels = deviating(ctx, name, base)
    if not labels:
        return None
    who = "+".join(labels)
    win = ctx.paired(base, name, f"win_share.{who}")
    humans = ctx.paired(base, name, f"seat_mean.score.{who}")
    return {
        "arm": name,
        "against": base,
        "lineup": ", ".join(labels),
        # the step in the answer: the arm's name where the experiment names it ("repays
        # early"), else the captain's strategy as the lineup labels it
        "step": name if ctx.results.named_arms else ", ".join(labels),
        **as_columns("win", win),
        **as_columns("humans", humans),
        "held": ctx.measure(name, f"seat_mean.bonus_held.{who}").value,
        "early": ctx.measure(name, f"seat_mean.repaid_early.{who}").value,
        "games": win.n,
    }  # fmt: skip


def _step(r: dict) -> str:
    """The step in words: the arm's name, else the captain's strategy label."""
    return r.get("step") or r["lineup"]


# the family's verdict in words (holds, opposite)
_SAID_ALL = ("no step changes what the captain wins beyond the tolerances",
             "some step changes what the captain wins")  # fmt: skip


def worth(r: dict, share: Tolerance, humans: Tolerance) -> Verdict:
    """Whether the step leaves what the captain wins as it was: the win share within `share`
    and the final humans within `humans` (either change shown: it changes it)."""
    return all_of(list(_each(r, share, humans)))


def _each(r: dict, share: Tolerance, humans: Tolerance) -> tuple[Verdict, Verdict]:
    """The win share's verdict against `share`, the final humans' against `humans`."""
    return (
        equivalence(*interval_in(r, "win"), share.value, games=r["games"]),
        equivalence(*interval_in(r, "humans"), humans.value,
                    games=r["games"]),
    )  # fmt: skip


def answer(rows: list[dict], share: Tolerance, humans: Tolerance) -> Answer:
    """'value(repay_early=1) changes what the captain wins most: win share +2.2 pp (...),
    beyond its ±1 pp tolerance.' (the largest of the steps shown to change it, and only the
    figures shown beyond their tolerance). Every step, largest change first (in tolerances),
    in the rows."""
    verdicts = [worth(r, share, humans) for r in rows]

    def size(r: dict) -> float:
        return max(abs(r["win"]) / share.value, abs(r["humans"]) / humans.value)

    order = sorted(zip(rows, verdicts, strict=True), key=lambda rv: -size(rv[0]))
    changed = [r for r, v in order if v.opposite]
    top = changed[0] if changed else order[0][0]
    win = Estimate(f"{ID}.{top['arm']}", f"win-share change of {_step(top)}",
                   *interval_in(top, "win"))  # fmt: skip
    gained = Estimate(f"{ID}.{top['arm']}.humans", f"final humans change of {_step(top)}",
                      *interval_in(top, "humans"), unit="num",
                      digits=0)  # fmt: skip
    verdict, _ = words.each(verdicts)
    figures = sentence("win share ", win, ", final humans ", gained)
    if changed:
        beyond = [sentence(what, figure, f", beyond its {tol.text()} tolerance")
                  for what, figure, tol, v in zip(("win share ", "final humans "), (win, gained),
                                                  (share, humans), _each(top, share, humans),
                                                  strict=True) if v.opposite]  # fmt: skip
        parts = sentence(Label(_step(top)), " changes what the captain wins most: ",
                         joined(beyond, "; ", "; "), ".")  # fmt: skip
    elif verdict.holds:
        parts = sentence("No step changes what the captain wins beyond the tolerances; the "
                         "largest, ", Label(_step(top)), ": ", figures, ".")  # fmt: skip
    else:
        parts = sentence("Not settled whether any step changes what the captain wins: ",
                         Label(_step(top)), ", ", figures, ".")  # fmt: skip
    table = []
    for r, v in order:
        table.append(Row(_step(r), Estimate(f"{ID}.{r['arm']}", "win-share change",
                                               *interval_in(r, "win")),
                         words.word(v), r["arm"], what="win share"))  # fmt: skip
        table.append(Row(_step(r), Estimate(f"{ID}.{r['arm']}.humans", "final humans change",
                                               *interval_in(r, "humans"),
                                               unit="num", digits=0),
                         "", r["arm"], what="final humans"))  # fmt: skip
    games = min(r["games"] for r in rows)
    return options_answer(
        ID, "What does taking an optional step differently change for the captain?", verdicts,
        parts, said_all=_SAID_ALL, rows=table, rows_head="step",
        quality=Quality(games=games, basis="paired games (against the same seat of the same "
                        f"game); tolerances: win share {share.text()}, final humans "
                        f"{humans.text()}"),
    )  # fmt: skip
