"""Is each card worth its price? Per card: how often it is bought when offered, the win share
of its owners against the others (an association: who buys is not random), and, from the
randomised purchase probes (strategies/alien_raid/probes.py), the causal effect of buying it
at its price on the final humans and the win share. The fair price (break-even) is the price
plus that effect in humans: buying at the fair price would leave the buyer's final humans
unchanged. Cards whose fair-price interval lies above or below their price are listed."""

from __future__ import annotations

import math

import polars as pl

from sim.games.alien_raid.catalog import PREFIX, cards
from sim.games.alien_raid.columns import BOUGHT, OFFERED, card_column
from sim.games.alien_raid.report.common import (
    ASSUMED,
    SKILL,
    Heading,
    assumed,
    catalog,
    section_rows,
    skill,
    welch,
)
from sim.report import fmt
from sim.report.answers import Answer, Count, Label, sentence
from sim.report.context import Context
from sim.report.metrics import diff_cols, prefixed, rate
from sim.report.quality import Quality
from sim.report.render import Finding, Section, Text
from sim.report.table import Column, Table

ID = "alien_raid_cards"
HEADING = Heading(ID, "Card prices: is each card worth what it costs?",
                  "For each ship and station: how often is it bought, does buying it at its "
                  "price pay, and what would its fair price be?")  # fmt: skip
READS = ("probe_card", "probe_bought", f"{BOUGHT}*", f"{OFFERED}*")  # * every card's column
MIN_PROBES = 30  # per side, for a verdict


def card_rows(ctx: Context, arm: str) -> list[dict]:
    """One row per card a captain can buy (not a starting ship) in the arm."""
    values = catalog(ctx, arm)
    names = [(kind, n) for kind in ("ships", "stations") for n in cards(values, kind)
             if values.get(f"{PREFIX}{kind}.{n}.deck") != "start"]  # fmt: skip
    s = ctx.results.arm_seats(arm)
    rows = []
    for kind, name in names:
        price = float(values[f"{PREFIX}{kind}.{name}.price"])
        bought = s.get_column(card_column(BOUGHT, name))
        offered = float(s.get_column(card_column(OFFERED, name)).sum())
        owners = s.with_columns((bought > 0).cast(pl.Int8).alias("owner"))
        probes = s.filter(pl.col("probe_card") == name)
        humans = welch(probes, "probe_bought", "score")
        n_yes = probes.filter(pl.col("probe_bought") == 1).height
        row = {
            "arm": arm,
            "skill": skill(ctx, arm),
            "card": name,
            "kind": kind[:-1],
            "price": price,
            "offered": offered,
            "bought": float(bought.sum()),
            "probes_bought": n_yes,
            "probes_declined": probes.height - n_yes,
            **prefixed(rate(float(bought.sum()), int(offered)), "purchase"),
            **diff_cols(welch(owners, "owner", "win_share"), "owner_uplift"),
            **diff_cols(humans, "effect"),
            **diff_cols(welch(probes, "probe_bought", "win_share"), "win_effect"),
            "fair": price + humans.estimate,
            "fair_low": price + humans.low,
            "fair_high": price + humans.high,
        }
        row["verdict"] = verdict(row)
        rows.append(row)
    return rows


def verdict(row: dict) -> str:
    if min(row["probes_bought"], row["probes_declined"]) < MIN_PROBES or math.isnan(
        row["fair_low"]
    ):
        return "too few probes"
    if row["fair_high"] < row["price"]:
        return "priced above its worth"
    if row["fair_low"] > row["price"]:
        return "priced below its worth"
    return "about right"


COLUMNS = [
    SKILL,
    Column.text("card", "card"),
    Column.num("price", "price", 0),
    Column.pct_ci("purchase", "bought when offered", help="cards bought / cards offered"),
    Column.diff(
        "owner_uplift",
        "owners' win share",
        unit="pp",
        help="win share of seats that bought it minus the others' (an association)",
    ),
    Column.diff(
        "effect",
        "humans from buying",
        digits=0,
        help="final humans, bought minus declined, in the randomised probes",
    ),
    Column.num_ci("fair", "fair price", 0, help="price + humans from buying: the break-even"),
    Column.diff("win_effect", "win share from buying", unit="pp"),
    Column.count("probes_bought", "probes bought"),
    Column.count("probes_declined", "probes declined"),
    Column.text("verdict", "verdict"),
]


def build(ctx: Context) -> Section:
    out, rows = section_rows(ctx, HEADING, card_rows,
                             "No card data: this report needs alien-raid games.")  # fmt: skip
    if not rows:
        return out
    probes = sum(r["probes_bought"] + r["probes_declined"] for r in rows)
    if probes == 0:
        out.add(
            Text(
                "No purchase probes were played (strategy parameter probe_buy: 1), so "
                "the fair prices cannot be estimated; only purchase rates are shown."
            )
        )
    for arm in ctx.arm_names:
        mine = [r for r in rows if r["arm"] == arm]
        off = [r for r in mine if r["verdict"].startswith("priced")]
        if off:
            words = "; ".join(
                f"{r['card']} ({r['verdict'].split()[1]}: fair "
                f"{fmt.num_ci(r['fair'], r['fair_low'], r['fair_high'], 0)} "
                f"against {fmt.num(r['price'], 0)})"
                for r in off
            )
            out.findings.append(Finding(f"{skill(ctx, arm)}: {words}.", "finding"))
        elif probes:
            out.findings.append(
                Finding(
                    f"{skill(ctx, arm)}: no card is priced detectably away from its worth.", "null"
                )
            )
    if probes:
        out.answers.append(_answer(ctx, rows))
    data = pl.DataFrame(rows).sort("arm", "effect", descending=[False, True], nulls_last=True)
    out.add(
        Table(
            "alien_raid_card_prices",
            "Card prices by skill level",
            data,
            COLUMNS,
            note="Fair price = price + the humans a bought card adds (probe games); "
            "its interval is the effect's 95% Welch interval shifted by the price. "
            "'Owners' win share' is an association, not an effect.",
        )
    )
    return out


def _answer(ctx: Context, rows: list[dict]) -> Answer:
    """One sentence over the skill levels: how many cards each level finds priced below or
    above their worth (the fair-price interval clear of the price), out of those tried."""
    parts: list = []
    categories = []
    for arm in ctx.arm_names:
        mine = [r for r in rows if r["arm"] == arm]
        below = [r["card"] for r in mine if r["verdict"] == "priced below its worth"]
        above = [r["card"] for r in mine if r["verdict"] == "priced above its worth"]
        categories.append((len(below) > 0, len(above) > 0))
        parts += sentence("; " if parts else "", Label(skill(ctx, arm)), ": ",
                          Count(len(below)), " of ", Count(len(mine), "cards"),
                          " priced below their worth, ", Count(len(above)), " above",
                          sentence(" (the best buy: ", Label(_best(mine)), ")")
                          if below else None)  # fmt: skip
    verdict = "the same at every level" if len(set(categories)) == 1 else "depends on skill"
    games = ctx.results.games.height
    return Answer(
        key=f"{ID}.off",
        question="Which cards are priced away from their worth?",
        parts=sentence(*parts, f": {verdict}."),
        kind="finding" if any(any(c) for c in categories) else "null",
        category=verdict,
        quality=Quality(
            games=games,
            basis="games",
            warnings=(ASSUMED,) if assumed(ctx) else (),
            note="a verdict needs the fair-price interval clear of the price",
        ),
        section=ID,
    )


def _best(mine: list[dict]) -> str:
    """The card priced furthest below its worth, relative to its price."""
    below = [r for r in mine if r["verdict"] == "priced below its worth"]
    return max(below, key=lambda r: r["fair"] / r["price"])["card"]
