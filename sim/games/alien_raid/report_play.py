"""Credits and tasks, raid against catch, fairness and game length: alien-raid report sections
computed from the stored games (report.py lists them)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from sim.games.alien_raid.report_data import (
    arm_seats,
    assumed_note,
    bucket,
    diff_row,
    skill,
    welch,
)
from sim.report import fmt
from sim.report.context import Context
from sim.report.metrics import mean, prefixed, rate
from sim.report.render import Finding, Section, Text
from sim.report.table import Column, Table
from sim.stats.tests import fairness_test, holm

TASK_TARGETS = (0.10, 0.25, 0.50)  # shares of games the tasks should decide
FLEET_EDGES = [4, 8, 12, 16]


def _section(ident: str, title: str, question: str, ctx: Context) -> Section:
    section = Section(ident, title, question)
    section.findings += assumed_note(ctx)
    return section


# --- credits and tasks ----------------------------------------------------------------------


def credit_row(ctx: Context, arm: str) -> dict:
    values = ctx.results.arm(arm).ruleset_values
    s = arm_seats(ctx, arm, ["credits_taken", "cp_turn", "cp_took", "repaid"])
    probes = s.filter(pl.col("cp_turn") > 0)
    humans = welch(probes, "cp_took", "score")
    per_took = probes.group_by("cp_took").agg(pl.col("credits_taken").mean()).sort("cp_took")
    extra = np.diff(per_took.get_column("credits_taken").to_numpy()) if per_took.height == 2 else []
    repay = float(values.get("credit.repay", math.nan))
    neutral = repay + humans.estimate / extra[0] if len(extra) and extra[0] > 0 else math.nan
    took = float((s.get_column("credits_taken") > 0).sum())
    return {
        "arm": arm,
        "skill": skill(ctx, arm),
        "seats": s.height,
        "repay": repay,
        **prefixed(rate(took, s.height), "taken"),
        "probes": probes.height,
        **diff_row(humans, "humans"),
        **diff_row(welch(probes, "cp_took", "win_share"), "win"),
        "neutral_repay": neutral,
    }


def task_rows(ctx: Context, arm: str) -> tuple[dict, list[dict]]:
    """How much the tasks decide, and the reward scale that would decide each target share."""
    s = arm_seats(ctx, arm, ["task_humans", "tasks_first", "players"]).sort("game", "seat")
    players = int(s.get_column("players")[0])
    games = s.height // players
    score = s.get_column("score").to_numpy().reshape(games, players).astype(float)
    tasks = s.get_column("task_humans").to_numpy().reshape(games, players).astype(float)
    base = score - tasks
    winner0 = np.argmax(base, axis=1)

    def decided(scale: float) -> float:
        return float((np.argmax(base + scale * tasks, axis=1) != winner0).mean())

    first = s.with_columns((pl.col("tasks_first") > 0).cast(pl.Int8).alias("leader"))
    row = {
        "arm": arm,
        "skill": skill(ctx, arm),
        "games": games,
        **prefixed(mean(tasks.reshape(-1)), "task_humans"),
        **prefixed(rate(decided(1.0) * games, games), "decided"),
        **diff_row(welch(first, "leader", "win_share"), "leader_uplift"),
    }
    values = ctx.results.arm(arm).ruleset_values
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
    Column.text("skill", "skill level"),
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
TASK_COLUMNS = [
    Column.text("skill", "skill level"),
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
    Column.text("skill", "skill level"),
    Column.pct("target", "tasks decide", 0),
    Column.num("first", "first place reward", 0),
    Column.num("second", "second place reward", 0),
]


def credit_tasks(ctx: Context) -> Section:
    section = _section(
        "alien_raid_credit_tasks",
        "Credit terms and task rewards",
        "How often are credits taken and tasks won, what are they worth, and "
        "what would the numbers need to be for a target effect?",
        ctx,
    )
    credit = [credit_row(ctx, arm) for arm in ctx.arm_names]
    tasks = [task_rows(ctx, arm) for arm in ctx.arm_names]
    for row in credit:
        if row["humans_sig"]:
            better = "pays" if row["humans"] > 0 else "costs"
            section.findings.append(
                Finding(
                    f"{row['skill']}: a credit {better} "
                    f"{fmt.signed_ci(row['humans'], row['humans_low'], row['humans_high'], 0)} "
                    f"final humans; a repayment of {fmt.num(row['neutral_repay'], 0)} would make "
                    "it neutral.",
                    "finding",
                )
            )
    for row, _ in tasks:
        section.findings.append(
            Finding(
                f"{row['skill']}: the tasks decide "
                f"{fmt.pct_ci(row['decided'], row['decided_low'], row['decided_high'])} of games.",
                "info",
            )
        )
    section.add(Table("alien_raid_credit", "Credits", pl.DataFrame(credit), CREDIT_COLUMNS))
    section.add(
        Table("alien_raid_tasks", "Tasks", pl.DataFrame([r for r, _ in tasks]), TASK_COLUMNS)
    )
    section.add(
        Table(
            "alien_raid_task_targets",
            "Task rewards for a target share of games decided",
            pl.DataFrame([t for _, ts in tasks for t in ts]),
            TARGET_COLUMNS,
            note="Static: the stored games re-scored with scaled rewards; captains "
            "who chased larger rewards harder would change this. A dash: not reached with "
            "rewards up to 3 times the printed ones.",
        )
    )
    return section


# --- raid against catch -------------------------------------------------------------------


def reward_rows(ctx: Context, arm: str) -> list[dict]:
    cols = ["rp_armies", "rp_fleet", "rp_raid", "rp_catch", "rp_choice", "rp_humans", "rp_lost"]
    s = arm_seats(ctx, arm, cols).filter(pl.col("rp_armies") > 0)
    if s.height == 0:
        return []
    s = s.with_columns(
        pl.Series("fleet", bucket(s.get_column("rp_fleet").to_numpy(), FLEET_EDGES)),
        (pl.col("rp_lost") > 0).cast(pl.Int8).alias("lost"),
    )
    rows = []
    for (armies, fleet), g in s.group_by("rp_armies", "fleet"):
        raid = g.filter(pl.col("rp_choice") == 0)
        catch = g.filter(pl.col("rp_choice") == 1)
        rows.append(
            {
                "arm": arm,
                "skill": skill(ctx, arm),
                "armies": int(armies),
                "fleet": fleet,
                "fleet_min": int(g.get_column("rp_fleet").min()),
                "raids": raid.height,
                "catches": catch.height,
                **prefixed(mean(raid.get_column("rp_humans").to_numpy()), "raid"),
                **prefixed(mean(catch.get_column("rp_humans").to_numpy()), "catch"),
                **diff_row(welch(g, "rp_choice", "rp_humans"), "gain"),
                **prefixed(rate(float(catch.get_column("lost").sum()), catch.height), "risk"),
            }
        )
    return sorted(rows, key=lambda r: (r["armies"], r["fleet_min"]))


REWARD_COLUMNS = [
    Column.text("skill", "skill level"),
    Column.count("armies", "army cards"),
    Column.text("fleet", "attack against armies"),
    Column.num_ci("raid", "humans of a raid", 0),
    Column.num_ci("catch", "humans of a catch", 0),
    Column.diff("gain", "catch minus raid", digits=0),
    Column.pct_ci("risk", "catches losing a ship"),
    Column.count("raids", "raids"),
    Column.count("catches", "catches"),
]


def raid_catch(ctx: Context) -> Section:
    section = _section(
        "alien_raid_raid_catch",
        "Raid or catch?",
        "Expected humans and the risk of losing a ship, per city kind (army cards "
        "x1-x3) and fleet strength, from coin-decided rewards (probe_reward).",
        ctx,
    )
    rows = [r for arm in ctx.arm_names for r in reward_rows(ctx, arm)]
    if not rows:
        section.add(Text("No reward probes were played (strategy parameter probe_reward: 1)."))
        return section
    for arm in ctx.arm_names:
        mine = [r for r in rows if r["arm"] == arm and min(r["raids"], r["catches"]) >= 30]
        catch = [r for r in mine if r["gain_sig"] and r["gain"] > 0]
        raid = [r for r in mine if r["gain_sig"] and r["gain"] < 0]
        where = "; ".join(
            f"x{r['armies']} cities with attack {r['fleet']} "
            f"({fmt.signed(r['gain'], 0)} humans for a catch)"
            for r in raid
        )
        text = (
            f"{skill(ctx, arm)}: a catch brings more humans than a raid in {len(catch)} of "
            f"{len(mine)} kinds of city and fleet"
            + (f"; a raid is better for {where}" if raid else "")
            + "."
        )
        section.findings.append(Finding(text, "finding" if catch or raid else "null"))
    section.add(
        Table(
            "alien_raid_raid_catch",
            "Raid against catch",
            pl.DataFrame(rows),
            REWARD_COLUMNS,
            note="The choice was a fair coin in these games, so both "
            "columns cover the same situations.",
        )
    )
    return section


# --- fairness and length ------------------------------------------------------------------


def fairness_rows(ctx: Context, arm: str) -> tuple[list[dict], dict]:
    s = arm_seats(ctx, arm, ["players"])
    g = ctx.results.arm_games(arm)
    players = int(s.get_column("players")[0])
    wins = s.group_by("seat").agg(pl.col("win_share").sum()).sort("seat")
    counts = wins.get_column("win_share").to_numpy()
    test = fairness_test(counts)
    n = g.height
    seats = [
        {
            "arm": arm,
            "skill": skill(ctx, arm),
            "players": players,
            "seat": int(k) + 1,
            **prefixed(rate(float(c), n), "win"),
            "fair": 1.0 / players,
            "p": test.pvalue,
        }
        for k, c in enumerate(counts)
    ]
    top = g.get_column("top_humans").to_numpy().astype(float)
    margin = top - g.get_column("second_humans").to_numpy().astype(float)
    total = s.group_by("game").agg(pl.col("score").sum()).get_column("score").to_numpy()
    length = {
        "arm": arm,
        "skill": skill(ctx, arm),
        "players": players,
        "games": n,
        **prefixed(rate(float((g.get_column("outcome") == "shared").sum()), n), "shared"),
        **prefixed(mean(top), "top"),
        "top_p10": float(np.quantile(top, 0.1)),
        "top_p90": float(np.quantile(top, 0.9)),
        **prefixed(mean(margin), "margin"),
        **prefixed(mean(total.astype(float)), "total"),
        "p": test.pvalue,
    }
    return seats, length


SEAT_COLUMNS = [
    Column.text("skill", "skill level"),
    Column.count("players", "players"),
    Column.count("seat", "seat"),
    Column.pct_ci("win", "win share"),
    Column.pct("fair", "fair share"),
    Column.pvalue("p", "p (all seats equal)"),
]
LENGTH_COLUMNS = [
    Column.text("skill", "skill level"),
    Column.count("players", "players"),
    Column.pct_ci("shared", "shared wins"),
    Column.num_ci("top", "winner's humans", 0),
    Column.num("top_p10", "10th percentile", 0),
    Column.num("top_p90", "90th percentile", 0),
    Column.num_ci("margin", "margin over second", 0),
    Column.num_ci("total", "humans of the table", 0),
]


def fairness(ctx: Context) -> Section:
    section = _section(
        "alien_raid_fairness",
        "Fairness by player count and seat; game length",
        "Does any seat win more than its share, how often is a win shared, and "
        "how many humans does a game produce?",
        ctx,
    )
    parts = [fairness_rows(ctx, arm) for arm in ctx.arm_names]
    adjusted = holm([length["p"] for _, length in parts])  # one test per arm
    for (seats, length), p_holm in zip(parts, adjusted, strict=True):
        kind = "finding" if not math.isnan(p_holm) and p_holm < 0.05 else "null"
        text = (
            f"{length['skill']}, {length['players']} players: seat win shares "
            + ", ".join(fmt.pct(r["win"]) for r in seats)
            + f" (p = {fmt.pvalue(length['p'])}, {fmt.pvalue(p_holm)} after Holm's correction "
            f"for {len(parts)} arms)"
        )
        section.findings.append(Finding(text, kind))
    section.add(
        Table(
            "alien_raid_seats",
            "Win share by seat",
            pl.DataFrame([r for s, _ in parts for r in s]),
            SEAT_COLUMNS,
            note="p: chi-square (or exact multinomial) test that every "
            "seat wins equally often; a shared win counts 1/k to each.",
        )
    )
    section.add(
        Table(
            "alien_raid_length",
            "Game length in humans",
            pl.DataFrame([length for _, length in parts]),
            LENGTH_COLUMNS,
        )
    )
    return section
