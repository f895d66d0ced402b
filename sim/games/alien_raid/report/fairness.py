"""Fairness by player count and seat (ties count 1/k to each winner) and game length in
humans: does any seat win more than its share, how often is a win shared, how many humans does
a game produce?"""

from __future__ import annotations

import math

import numpy as np

from sim.games.alien_raid.report.common import PLAYERS, SKILL, Heading, section, skill
from sim.measures.core import sums_by
from sim.report import deals, fmt
from sim.report import verdicts as words_v
from sim.report.answers import Answer, Estimate, Label, Row, sentence
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
    counts = sums_by(s, "seat", ("win_share",)).get_column("win_share").to_numpy()
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
    groups = deals.replaying_groups(ctx)
    out.findings.extend(deals.findings(groups))
    picture = deals.figure(groups, "alien_raid_deals")
    if picture is not None:
        out.add(picture)
    seats = [r for s, _ in parts for r in s]
    out.add(Table.of_rows("alien_raid_seats", "Win share by seat", seats, SEAT_COLUMNS,
                          note=SEATS_NOTE))  # fmt: skip
    lengths = [length for _, length in parts]
    out.add(Table.of_rows("alien_raid_length", "Game length in humans", lengths, LENGTH_COLUMNS))
    if groups:
        out.add(deals.table(groups, "alien_raid_deals", "ARM: one of the group's arms"))
    return out


def _gap(r: dict, key: str) -> Estimate:
    return Estimate(key, "win share minus the fair share", r["win"] - r["fair"],
                    r["win_low"] - r["fair"], r["win_high"] - r["fair"])  # fmt: skip


def _answer(parts: list[tuple[list[dict], dict]], verdicts: list[Verdict],
            tol: Tolerance) -> Answer:  # fmt: skip
    """Does the seat matter? At each level the seat furthest from its fair share in the rows;
    the lead says where the seats differ beyond the tolerance (the test over all seats backing
    it, Holm-corrected over the arms), are fair (every seat within the tolerance), or not
    settled."""
    table, by_outcome = [], {}
    worst_of = {}
    for (seats, length), v in zip(parts, verdicts, strict=True):
        where = f"{length['skill']}, {length['players']} players"
        worst = max(seats, key=lambda r: abs(r["win"] - r["fair"]))
        worst_of[where] = (worst, length)
        table.append(Row(f"{where}, seat {worst['seat']}",
                         _gap(worst, f"{ID}.seat{worst['seat']}.{length['arm']}"),
                         words_v.word(v)))  # fmt: skip
        by_outcome.setdefault(v.outcome, []).append(where)
    open_ = [v for v in verdicts if not v.settled]
    family = all_of(verdicts)
    if Outcome.OPPOSITE in by_outcome:
        where = by_outcome[Outcome.OPPOSITE][0]
        worst, length = worst_of[where]
        parts_ = sentence("The seat matters at ", Label(", ".join(by_outcome[Outcome.OPPOSITE])),
                          ": at ", Label(where), ", seat ", Label(str(worst["seat"])), " wins ",
                          _gap(worst, f"{ID}.seat{worst['seat']}.{length['arm']}"),
                          " off its fair share, beyond the ", Label(tol.text()),
                          " tolerance.")  # fmt: skip
        kind, category, word = words_v.FINDING, "seats differ", "unfair"
    elif not open_:
        parts_ = sentence("The seats are fair at every level: every seat's win share lies within ",
                          Label(tol.text()), " of its fair share.")  # fmt: skip
        kind, category, word = words_v.WITHIN, "the seats are fair", "fair"
    else:
        fair = by_outcome.get(Outcome.HOLDS, [])
        parts_ = sentence("Not settled whether the seats are fair", words_v.tolerance(tol),
                          sentence(": fair at ", Label(", ".join(fair)), ", open at ",
                                   Label(", ".join(by_outcome[Outcome.UNSETTLED])))
                          if fair else None, ".")  # fmt: skip
        kind, category, word = words_v.UNSETTLED, "not settled", words_v.OPEN_WORD
    games = sum(length["games"] for _, length in parts)
    verdict = all_of(open_) if open_ else family
    return Answer(
        key=f"{ID}.seats",
        question="Does the seat you sit in matter?",
        parts=parts_,
        kind=kind,
        category=category,
        quality=Quality(games=games, basis="games", note="a shared win counts 1/k to each"),
        section=ID,
        verdict=verdict,
        tolerance=tol,
        more=words_v.settle_sentence(all_of(open_) if open_ else None, "them"),
        rows=table,
        word=word,
        rows_head="level, seat furthest from fair",
    )
