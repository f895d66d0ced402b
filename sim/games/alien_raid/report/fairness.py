"""Fairness by player count and seat (ties count 1/k to each winner) and game length in
humans: does any seat win more than its share, how often is a win shared, how many humans does
a game produce?"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from sim.games.alien_raid.report.common import PLAYERS, SKILL, Heading, section, skill
from sim.report import fmt
from sim.report.answers import Answer, Estimate, Label, sentence
from sim.report.context import Context
from sim.report.metrics import mean, prefixed, rate
from sim.report.quality import Quality
from sim.report.render import Finding, Section
from sim.report.table import Column, Table
from sim.stats.tests import fairness_test, holm

ID = "alien_raid_fairness"
HEADING = Heading(ID, "Fairness by player count and seat; game length",
                  "Does any seat win more than its share, how often is a win shared, and "
                  "how many humans does a game produce?")  # fmt: skip


def fairness_rows(ctx: Context, arm: str) -> tuple[list[dict], dict]:
    s = ctx.results.arm_seats(arm)
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
    SKILL,
    PLAYERS,
    Column.count("seat", "seat"),
    Column.pct_ci("win", "win share"),
    Column.pct("fair", "fair share"),
    Column.pvalue("p", "p (all seats equal)"),
]
LENGTH_COLUMNS = [
    SKILL,
    PLAYERS,
    Column.pct_ci("shared", "shared wins"),
    Column.num_ci("top", "winner's humans", 0),
    Column.num("top_p10", "10th percentile", 0),
    Column.num("top_p90", "90th percentile", 0),
    Column.num_ci("margin", "margin over second", 0),
    Column.num_ci("total", "humans of the table", 0),
]


def build(ctx: Context) -> Section:
    out = section(HEADING, ctx)
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
        out.findings.append(Finding(text, kind))
    out.answers.append(_answer(parts, adjusted))
    out.add(
        Table(
            "alien_raid_seats",
            "Win share by seat",
            pl.DataFrame([r for s, _ in parts for r in s]),
            SEAT_COLUMNS,
            note="p: chi-square (or exact multinomial) test that every "
            "seat wins equally often; a shared win counts 1/k to each.",
        )
    )
    out.add(
        Table(
            "alien_raid_length",
            "Game length in humans",
            pl.DataFrame([length for _, length in parts]),
            LENGTH_COLUMNS,
        )
    )
    return out


def _answer(parts: list[tuple[list[dict], dict]], adjusted: list[float]) -> Answer:
    """Does the seat matter? Per level, seat 1's win share against the fair share (its Wilson
    interval shifted by the fair share), and whether the seats differ after Holm's correction."""
    words, differ = [], []
    for (seats, length), p_holm in zip(parts, adjusted, strict=True):
        first = seats[0]
        where = f"{length['skill']}, {length['players']} players"
        gap = Estimate(f"{ID}.seat1.{length['arm']}", "seat 1's win share minus the fair share",
                       first["win"] - first["fair"], first["win_low"] - first["fair"],
                       first["win_high"] - first["fair"])  # fmt: skip
        words += sentence("; " if words else "", Label(where), ": ", Label("seat 1"), " ", gap)
        if not math.isnan(p_holm) and p_holm < 0.05:
            differ.append(length["skill"])
    if differ:
        tail = f": the seats' win shares differ at {', '.join(differ)} (Holm-corrected)."
    else:
        tail = ": no level's seats differ detectably."
    games = sum(length["games"] for _, length in parts)
    return Answer(
        key=f"{ID}.seats",
        question="Does the seat you sit in matter?",
        parts=sentence(*words, tail),
        kind="finding" if differ else "null",
        category="seats differ" if differ else "no detectable seat effect",
        quality=Quality(games=games, basis="games", note="a shared win counts 1/k to each"),
        section=ID,
    )
