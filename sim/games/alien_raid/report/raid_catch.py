"""Raid or catch: the humans and the risk of losing a ship of both choices, per city kind
(x1-x3 army cards) and fleet strength, from coin-decided rewards (probe_reward)."""

from __future__ import annotations

import polars as pl

from sim.games.alien_raid.report.common import SKILL, Heading, bucket, section_rows, skill
from sim.report import fmt
from sim.report import verdicts as words_v
from sim.report.answers import Answer, Count, Estimate, Label, Row, sentence
from sim.report.context import Context
from sim.report.data_quality import Quality
from sim.report.metrics import diff_cols, prefixed
from sim.report.render import Finding, Section
from sim.report.table import Column, Table
from sim.stats.interval_columns import interval_in
from sim.stats.verdict import Verdict, all_of, equivalence

ID = "alien_raid_raid_catch"
HEADING = Heading(ID, "Raid or catch?",
                  "Expected humans and the risk of losing a ship, per city kind (army "
                  "cards x1-x3) and fleet strength, from coin-decided rewards "
                  "(probe_reward).")  # fmt: skip
READS = ("rp_armies", "rp_fleet", "rp_raid", "rp_catch", "rp_choice", "rp_humans", "rp_lost")
FLEET_EDGES = [4, 8, 12, 16]  # the group's attack against armies, cut into buckets


def reward_rows(ctx: Context, arm: str) -> list[dict]:
    """One row per kind of city (its army cards) and fleet strength (bucketed): the reward
    measures over the probes of that kind (StoredArm.where)."""
    s = ctx.results.arm_seats(arm).filter(pl.col("rp_armies") > 0)
    if s.height == 0:
        return []
    s = s.with_columns(pl.Series("fleet", bucket(s.get_column("rp_fleet").to_numpy(), FLEET_EDGES)))
    rows = []
    for (armies, fleet), g in s.group_by("rp_armies", "fleet", maintain_order=True):
        strengths = g.get_column("rp_fleet").unique().to_list()
        kind = ctx.results.stored(arm).where(
            seats=(pl.col("rp_armies") == armies) & pl.col("rp_fleet").is_in(strengths)
        )
        rows.append(
            {
                "arm": arm,
                "skill": skill(ctx, arm),
                "armies": int(armies),
                "fleet": fleet,
                "fleet_min": int(g.get_column("rp_fleet").min()),
                "raids": g.filter(pl.col("rp_choice") == 0).height,
                "catches": g.filter(pl.col("rp_choice") == 1).height,
                **prefixed(ctx.measure(kind, "raid_humans"), "raid"),
                **prefixed(ctx.measure(kind, "catch_humans"), "catch"),
                **diff_cols(ctx.measure(kind, "catch_gain"), "gain"),
                **prefixed(ctx.measure(kind, "catch_risk"), "risk"),
            }
        )
    return sorted(rows, key=lambda r: (r["armies"], r["fleet_min"]))


REWARD_COLUMNS = [
    SKILL,
    Column.count("armies", "army cards"),
    Column.text("fleet", "attack against armies"),
    Column.num_ci("raid", "humans of a raid", 0),
    Column.num_ci("catch", "humans of a catch", 0),
    Column.diff("gain", "catch minus raid", digits=0),
    Column.pct_ci("risk", "catches losing a ship"),
    Column.count("raids", "raids"),
    Column.count("catches", "catches"),
]


def build(ctx: Context) -> Section:
    out, rows = section_rows(ctx, HEADING, reward_rows, "No reward probes were played "
                             "(strategy parameter probe_reward: 1).")  # fmt: skip
    if not rows:
        return out
    tol = ctx.tolerance("humans")
    open_: list[Verdict] = []
    counts = {"catch": 0, "raid": 0, "same": 0, "kinds": 0}
    table = []
    for arm in ctx.arm_names:
        mine = [r for r in rows if r["arm"] == arm and min(r["raids"], r["catches"]) >= 30]
        games = ctx.results.arm_games(arm).height
        verdicts = [equivalence(*interval_in(r, "gain"), tol.value, games=games)
                    for r in mine]  # fmt: skip
        catch = [r for r, v in zip(mine, verdicts, strict=True) if v.opposite and r["gain"] > 0]
        raid = [r for r, v in zip(mine, verdicts, strict=True) if v.opposite and r["gain"] < 0]
        same = sum(v.holds for v in verdicts)
        open_ += [v for v in verdicts if not v.settled]
        for key, n in (("catch", len(catch)), ("raid", len(raid)), ("same", same),
                       ("kinds", len(mine))):  # fmt: skip
            counts[key] += n
        for r, v in zip(mine, verdicts, strict=True):
            said = words_v.pick(v, "catch" if r["gain"] > 0 else "raid", "either")
            table.append(Row(f"{skill(ctx, arm)}: x{r['armies']} cities, attack {r['fleet']}",
                             Estimate(f"{ID}.{arm}.{r['armies']}.{r['fleet']}",
                                      "catch minus raid", *interval_in(r, "gain"), unit="num",
                                      digits=0), said))  # fmt: skip
        where = "; ".join(
            f"x{r['armies']} cities with attack {r['fleet']} "
            f"({fmt.signed(r['gain'], 0)} humans for a catch)"
            for r in raid
        )
        text = (
            f"{skill(ctx, arm)}: a catch brings more humans than a raid beyond the tolerance in "
            f"{len(catch)} of {len(mine)} kinds of city and fleet"
            + (f"; a raid is better for {where}" if raid else "")
            + f"; the two are alike (tolerance {tol.text()}) in {same}."
        )
        out.findings.append(Finding(text, "finding" if catch or raid else "info"))
    settle = all_of(open_) if open_ else None
    better = max(("catch", "raid"), key=lambda k: counts[k])
    if counts["catch"] or counts["raid"]:
        parts = sentence("A ", better, " brings more humans, beyond the ", Label(tol.text()),
                         " tolerance, in ", Count(counts[better]), " of ",
                         Count(counts["kinds"], "kinds of city and fleet"), "; the other in ",
                         Count(counts["raid" if better == "catch" else "catch"]), ".")  # fmt: skip
        kind = words_v.FINDING
    elif settle is None:
        parts = sentence("Raid and catch bring the same humans, within the ", Label(tol.text()),
                         " tolerance, in every kind of city and fleet.")  # fmt: skip
        kind = words_v.WITHIN
    else:
        parts = sentence("Not settled whether a raid or a catch brings more humans",
                         words_v.tolerance(tol), ".")  # fmt: skip
        kind = words_v.UNSETTLED
    table.sort(key=lambda row: -abs(row.figure.value))
    out.answers.append(Answer(
        key=f"{ID}.better",
        question="Raid or catch: which brings more humans?",
        parts=parts,
        kind=kind,
        quality=Quality(games=ctx.results.games.height, basis="games",
                        note="a kind counts with 30 coin-decided raids and catches or more"),
        section=ID,
        verdict=settle,
        more=words_v.settle_sentence(settle, "the others"),
        rows=table[:8],
        word={words_v.FINDING: better, words_v.WITHIN: "either"}.get(kind, words_v.OPEN_WORD),
        rows_head="level: kind",
    ))  # fmt: skip
    out.add(
        Table(
            "alien_raid_raid_catch",
            "Raid against catch",
            pl.DataFrame(rows),
            REWARD_COLUMNS,
            note="The choice was a fair coin in these games, so both "
            "columns cover the same situations.",
        )
    )
    return out
