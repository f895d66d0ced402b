"""Fairness by player count and seat (ties count 1/k to each winner) and game length in
humans: does any seat win more than its share, how often is a win shared, how many humans does
a game produce?"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from sim.games.alien_raid.report.common import PLAYERS, SKILL, Heading, section, skill
from sim.report import fmt
from sim.report import verdicts as words_v
from sim.report.answers import Answer, Estimate, Label, joined, sentence
from sim.report.context import Context
from sim.report.data_quality import Quality
from sim.report.metrics import prefixed
from sim.report.render import Finding, Section
from sim.report.table import Column, Table
from sim.stats.tests import fairness_test, holm
from sim.stats.tolerances import Tolerance
from sim.stats.verdict import Outcome, Verdict, all_of, equivalence

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
            **prefixed(ctx.measure(arm, f"win_share.seat.{k}"), "win"),
            "fair": 1.0 / players,
            "p": test.pvalue,
        }
        for k in range(len(counts))
    ]
    top = g.get_column("top_humans").to_numpy().astype(float)
    length = {
        "arm": arm,
        "skill": skill(ctx, arm),
        "players": players,
        "games": n,
        **prefixed(ctx.measure(arm, "shared_rate"), "shared"),
        **prefixed(ctx.measure(arm, "mean_top_humans"), "top"),
        "top_p10": float(np.quantile(top, 0.1)),
        "top_p90": float(np.quantile(top, 0.9)),
        **prefixed(ctx.measure(arm, "mean_margin"), "margin"),
        **prefixed(ctx.measure(arm, "game_total.score"), "total"),
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


def fair_verdict(seats: list[dict], games: int, p_holm: float, tol: float) -> Verdict:
    """Whether an arm's seats are fair: every seat's win share within the `seat_advantage`
    tolerance of the fair share; they differ when the test over all seats (Holm-corrected over
    the arms) says so."""
    differ = not math.isnan(p_holm) and p_holm < 0.05
    return all_of(equivalence(r["win"] - r["fair"], r["win_low"] - r["fair"],
                              r["win_high"] - r["fair"], tol, games=games, effect_shown=differ)
                  for r in seats)  # fmt: skip


SEATS_NOTE = ("p: chi-square (or exact multinomial) test that every seat wins equally often; a "
              "shared win counts 1/k to each.")  # fmt: skip


def build(ctx: Context) -> Section:
    out = section(HEADING, ctx)
    parts = [fairness_rows(ctx, arm) for arm in ctx.arm_names]
    adjusted = holm([length["p"] for _, length in parts])  # one test per arm
    tol = ctx.tolerance("seat_advantage")
    verdicts = [fair_verdict(seats, length["games"], p_holm, tol.value)
                for (seats, length), p_holm in zip(parts, adjusted, strict=True)]  # fmt: skip
    for (seats, length), p_holm, v in zip(parts, adjusted, verdicts, strict=True):
        said = {Outcome.HOLDS: f"; fair (tolerance {tol.text()})", Outcome.OPPOSITE: ""}.get(
            v.outcome, f"; not settled whether fair (tolerance {tol.text()})"
        )
        text = (
            f"{length['skill']}, {length['players']} players: seat win shares "
            + ", ".join(fmt.pct(r["win"]) for r in seats)
            + f" (p = {fmt.pvalue(length['p'])}, {fmt.pvalue(p_holm)} after Holm's correction "
            f"for {len(parts)} arms){said}"
        )
        out.findings.append(Finding(text, words_v.kind(v)))
    out.answers.append(_answer(parts, verdicts, tol))
    seats = [r for s, _ in parts for r in s]
    out.add(Table.of_rows("alien_raid_seats", "Win share by seat", seats, SEAT_COLUMNS,
                          note=SEATS_NOTE))  # fmt: skip
    lengths = [length for _, length in parts]
    out.add(Table.of_rows("alien_raid_length", "Game length in humans", lengths, LENGTH_COLUMNS))
    return out


def _answer(parts: list[tuple[list[dict], dict]], verdicts: list[Verdict],
            tol: Tolerance) -> Answer:  # fmt: skip
    """Does the seat matter? Per level, seat 1's win share against the fair share (its Wilson
    interval shifted by the fair share); at which levels the seats differ (after Holm's
    correction), are fair (every seat within the tolerance) or are not settled."""
    words: list = []
    by_outcome: dict[Outcome, list[str]] = {}
    for (seats, length), v in zip(parts, verdicts, strict=True):
        first = seats[0]
        where = f"{length['skill']}, {length['players']} players"
        gap = Estimate(f"{ID}.seat1.{length['arm']}", "seat 1's win share minus the fair share",
                       first["win"] - first["fair"], first["win_low"] - first["fair"],
                       first["win_high"] - first["fair"])  # fmt: skip
        words += sentence("; " if words else "", Label(where), ": ", Label("seat 1"), " ", gap)
        by_outcome.setdefault(v.outcome, []).append(where)
    said: list = []
    for outcome, words_of in (
        (Outcome.OPPOSITE, "the seats' win shares differ (Holm-corrected) at "),
        (Outcome.HOLDS, "the seats are fair at "),
        (Outcome.UNSETTLED, "not settled at "),
    ):
        if outcome in by_outcome:
            where = joined([[Label(w)] for w in by_outcome[outcome]])
            said += sentence("; " if said else ": ", words_of, where)
    open_ = [v for v in verdicts if not v.settled]
    tail = sentence(said, words_v.tolerance(tol))
    if open_:
        tail += sentence("; ", words_v.to_settle(all_of(open_)), " for the levels not settled")
    games = sum(length["games"] for _, length in parts)
    differ = Outcome.OPPOSITE in by_outcome
    return Answer(
        key=f"{ID}.seats",
        question="Does the seat you sit in matter?",
        parts=sentence(*words, tail, "."),
        kind="finding" if differ else "unsettled" if open_ else "within",
        category="seats differ" if differ else "not settled" if open_ else "the seats are fair",
        quality=Quality(games=games, basis="games", note="a shared win counts 1/k to each"),
        section=ID,
        verdict=all_of(open_) if open_ else all_of(verdicts),
        tolerance=tol,
    )
