"""Credit terms and task rewards: how often credits are taken and what the first credit of a
game brings (its decision is a coin: probe_credit), how often the tasks decide the winner and
which rewards would decide a target share of games."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from sim.games.alien_raid.report.common import SKILL, Heading, section, skill
from sim.report import fmt
from sim.report import verdicts as words_v
from sim.report.answers import Answer, Estimate, Label, Row, sentence
from sim.report.context import Context
from sim.report.data_quality import Quality
from sim.report.metrics import diff_cols, prefixed
from sim.report.render import Finding, Section
from sim.report.table import Column, Table
from sim.stats.interval_columns import interval_in
from sim.stats.verdict import all_of, equivalence

READS = ("credits_taken", "cp_turn", "cp_took", "repaid", "task_humans", "tasks_first")
TASK_TARGETS = (0.10, 0.25, 0.50)  # shares of games the tasks should decide


def credit_row(ctx: Context, arm: str) -> dict:
    s = ctx.results.arm_seats(arm)
    humans = ctx.measure(arm, "credit_effect")
    extra = ctx.measure(arm, "credit_count_effect").value  # credits the first one leads to
    repay = float(ctx.results.arm(arm).rules.get("credit.repay", math.nan))
    neutral = repay + humans.value / extra if extra > 0 else math.nan
    return {
        "arm": arm,
        "skill": skill(ctx, arm),
        "seats": s.height,
        "repay": repay,
        **prefixed(ctx.measure(arm, "seat_share.credits_taken"), "taken"),
        "probes": s.filter(pl.col("cp_turn") > 0).height,
        **diff_cols(humans, "humans"),
        **diff_cols(ctx.measure(arm, "credit_win_effect"), "win"),
        "neutral_repay": neutral,
    }


def task_rows(ctx: Context, arm: str) -> tuple[dict, list[dict]]:
    """How much the tasks decide, and the reward scale that would decide each target share."""
    s = ctx.results.arm_seats(arm).sort("game", "seat")
    players = int(s.get_column("players")[0])
    games = s.height // players
    score = s.get_column("score").to_numpy().reshape(games, players).astype(float)
    tasks = s.get_column("task_humans").to_numpy().reshape(games, players).astype(float)
    base = score - tasks
    winner0 = np.argmax(base, axis=1)

    def decided(scale: float) -> float:
        return float((np.argmax(base + scale * tasks, axis=1) != winner0).mean())

    row = {
        "arm": arm,
        "skill": skill(ctx, arm),
        "games": games,
        **prefixed(ctx.measure(arm, "seat_mean.task_humans"), "task_humans"),
        **prefixed(ctx.measure(arm, "tasks_decide_rate"), "decided"),
        **diff_cols(ctx.measure(arm, "task_leader_edge"), "leader_uplift"),
    }
    values = ctx.results.arm(arm).rules
    reward = float(values.get("tasks.first", 200_000))
    scales = np.linspace(0.0, 3.0, 61)
    shares = np.array([decided(x) for x in scales])
    targets = []
    for target in TASK_TARGETS:
        hit = np.flatnonzero(shares >= target)
        scale = float(scales[hit[0]]) if hit.size else math.nan
        targets.append(
            {
                "arm": arm,
                "skill": skill(ctx, arm),
                "target": target,
                "scale": scale,
                "first": scale * reward,
                "second": scale * reward / 2,
            }
        )
    return row, targets


CREDIT_COLUMNS = [
    SKILL,
    Column.pct_ci("taken", "seats that borrowed"),
    Column.count("probes", "credit probes"),
    Column.diff(
        "humans",
        "humans from a credit",
        digits=0,
        help="final humans, borrowed minus declined, at the first chance (coin-decided)",
    ),
    Column.diff("win", "win share from a credit", unit="pp"),
    Column.num("repay", "repayment", 0),
    Column.num(
        "neutral_repay",
        "repayment for no effect",
        0,
        help="the repayment at which borrowing would change no final humans, the play "
        "being the same (humans effect / extra credits taken)",
    ),
]
ID = "alien_raid_credit_tasks"
HEADING = Heading(ID, "Credit terms and task rewards",
                  "How often are credits taken and tasks won, what are they worth, and "
                  "what would the numbers need to be for a target effect?")  # fmt: skip
TASK_COLUMNS = [
    SKILL,
    Column.num_ci("task_humans", "task humans per captain", 0),
    Column.pct_ci(
        "decided",
        "games the tasks decide",
        help="the winner differs from the winner without task rewards",
    ),
    Column.diff(
        "leader_uplift",
        "win share of a first place",
        unit="pp",
        help="captains with a task's first place minus the others (an association)",
    ),
]
TARGET_COLUMNS = [
    SKILL,
    Column.pct("target", "tasks decide", 0),
    Column.num("first", "first place reward", 0),
    Column.num("second", "second place reward", 0),
]

TARGETS_TITLE = "Task rewards for a target share of games decided"
TARGETS_NOTE = ("Static: the stored games re-scored with scaled rewards; captains who chased "
                "larger rewards harder would change this. A dash: not reached with rewards up "
                "to 3 times the printed ones.")  # fmt: skip


def build(ctx: Context) -> Section:
    out = section(HEADING, ctx)
    credit = [credit_row(ctx, arm) for arm in ctx.arm_names]
    tasks = [task_rows(ctx, arm) for arm in ctx.arm_names]
    for row in credit:
        if row["humans_sig"]:
            better = "pays" if row["humans"] > 0 else "costs"
            out.findings.append(
                Finding(
                    f"{row['skill']}: a credit {better} "
                    f"{fmt.signed_ci(row['humans'], row['humans_low'], row['humans_high'], 0)} "
                    f"final humans; a repayment of {fmt.num(row['neutral_repay'], 0)} would make "
                    "it neutral.",
                    "finding",
                )
            )
    for row, _ in tasks:
        out.findings.append(
            Finding(
                f"{row['skill']}: the tasks decide "
                f"{fmt.pct_ci(row['decided'], row['decided_low'], row['decided_high'])} of games.",
                "info",
            )
        )
    out.answers.extend(_answers(ctx, credit, [row for row, _ in tasks]))
    targets = [t for _, ts in tasks for t in ts]
    out.add(Table.of_rows("alien_raid_credit", "Credits", credit, CREDIT_COLUMNS))
    out.add(Table.of_rows("alien_raid_tasks", "Tasks", [r for r, _ in tasks], TASK_COLUMNS))
    out.add(Table.of_rows("alien_raid_task_targets", TARGETS_TITLE, targets, TARGET_COLUMNS,
                          note=TARGETS_NOTE))  # fmt: skip
    return out


def _answers(ctx: Context, credit: list[dict], tasks: list[dict]) -> list[Answer]:
    """What a credit is worth (against the `humans` tolerance) and how often the tasks decide
    the winner, each level in the rows."""
    quality = Quality(games=ctx.results.games.height, basis="games")
    tol = ctx.tolerance("humans")
    rows, verdicts = [], []
    for row in credit:
        humans = Estimate(f"{ID}.credit.{row['arm']}", "final humans from taking a credit",
                          *interval_in(row, "humans"), unit="num",
                          digits=0)  # fmt: skip
        v = equivalence(*interval_in(row, "humans"), tol.value,
                        games=ctx.results.arm_games(row["arm"]).height)  # fmt: skip
        verdicts.append(v)
        rows.append(
            Row(
                row["skill"],
                humans,
                words_v.pick(v, "pays" if row["humans"] > 0 else "costs", "worth nothing"),
            )
        )
    out = []
    if rows:
        top = max(zip(rows, verdicts, strict=True), key=lambda rv: abs(rv[0].figure.value))
        family = all_of(verdicts)
        at = [" at ", Label(top[0].where)]
        if any(v.opposite for v in verdicts):
            pays = "pays" if top[0].figure.value > 0 else "costs humans"
            lead = sentence("Taking a credit ", pays, ": ", top[0].figure, " final humans", at,
                            ", beyond the ", Label(tol.text()), " tolerance.")  # fmt: skip
        elif family.holds:
            lead = sentence(
                "A credit is worth nothing beyond the ",
                Label(tol.text()),
                " tolerance: at most ",
                top[0].figure,
                " final humans",
                at,
                ".",
            )
        else:
            lead = sentence("Not settled whether a credit is worth anything: ", top[0].figure,
                            " final humans", at, words_v.tolerance(tol), ".")  # fmt: skip
        open_ = words_v.open_ones(verdicts)
        out.append(
            Answer(
                key=f"{ID}.credit",
                question="What is taking a credit worth, in final humans?",
                parts=lead,
                kind=words_v.each(verdicts)[1],
                quality=quality,
                section=ID,
                verdict=open_ or family,
                tolerance=tol,
                more=words_v.settle_sentence(open_, "them"),
                rows=rows,
                word=words_v.said(family, "worth nothing", "worth something"),
            )
        )
    shares = [Estimate(f"{ID}.decided.{row['arm']}", "games the tasks decide",
                       *interval_in(row, "decided"), unit="pct", signed=False)
              for row in tasks]  # fmt: skip
    if shares:
        low = min(range(len(shares)), key=lambda i: shares[i].value)
        high = max(range(len(shares)), key=lambda i: shares[i].value)
        spread = (sentence(shares[low]) if low == high else
                  sentence("from ", shares[low], " at ", Label(tasks[low]["skill"]), " to ",
                           shares[high], " at ", Label(tasks[high]["skill"])))  # fmt: skip
        out.append(
            Answer(
                key=f"{ID}.tasks",
                question="How often do the tasks decide the winner?",
                parts=sentence("The tasks decide ", spread, " of the games."),
                quality=quality,
                section=ID,
                rows=[Row(r["skill"], e) for r, e in zip(tasks, shares, strict=True)],
            )
        )
    return out  # fmt: skip
