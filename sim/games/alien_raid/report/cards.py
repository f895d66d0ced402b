"""Is each card worth its price? Per card: how often it is bought when offered, the win share
of its owners against the others (an association: who buys is not random), and, from the
randomised purchase probes (strategies/alien_raid/probes.py), the causal effect of buying it
at its price on the final humans and the win share. The fair price (break-even) is the price
plus that effect in humans: buying at the fair price would leave the buyer's final humans
unchanged. Cards whose fair-price interval lies above or below their price are listed; a card
is priced right only when that interval lies within the `card_price` tolerance of its price
(an equivalence verdict, sim/stats/verdict.py)."""

from __future__ import annotations

import math

import polars as pl

from sim.games.alien_raid.catalog import PREFIX, cards
from sim.games.alien_raid.columns import BOUGHT, OFFERED, card_column
from sim.games.alien_raid.report import card_figure
from sim.games.alien_raid.report.common import (
    ABOVE,
    ASSUMED,
    BELOW,
    OPEN,
    RIGHT,
    SKILL,
    TOO_FEW,
    Heading,
    assumed,
    catalog,
    section_rows,
    skill,
)
from sim.report import fmt
from sim.report import verdicts as words_v
from sim.report.answers import Answer, Count, Estimate, Label, Row, sentence
from sim.report.context import Context
from sim.report.data_quality import Quality
from sim.report.metrics import diff_cols, prefixed
from sim.report.render import Finding, Section, Text
from sim.report.table import Column, Table
from sim.stats.interval_columns import columns, interval_in
from sim.stats.tolerances import Tolerance
from sim.stats.verdict import Verdict, all_of, equivalence

ID = "alien_raid_cards"
HEADING = Heading(ID, "Card prices: is each card worth what it costs?",
                  "For each ship and station: how often is it bought, does buying it at its "
                  "price pay, and what would its fair price be?")  # fmt: skip
READS = ("probe_card", "probe_bought", f"{BOUGHT}*", f"{OFFERED}*")  # * every card's column
MIN_PROBES = 30  # per side, for a verdict
FOLD_LEAST = 8  # card rows shown before "show all" when fewer are to be repriced


def card_rows(ctx: Context, arm: str) -> list[dict]:
    """One row per card a captain can buy (not a starting ship) in the arm."""
    values = catalog(ctx, arm)
    names = [(kind, n) for kind in ("ships", "stations") for n in cards(values, kind)
             if values.get(f"{PREFIX}{kind}.{n}.deck") != "start"]  # fmt: skip
    s = ctx.results.arm_seats(arm)
    rows = []
    for kind, name in names:
        price = float(values[f"{PREFIX}{kind}.{name}.price"])
        probes = s.filter(pl.col("probe_card") == name)
        n_yes = probes.filter(pl.col("probe_bought") == 1).height
        humans = ctx.measure(arm, f"buy_effect.{name}")
        row = {
            "arm": arm,
            "skill": skill(ctx, arm),
            "card": name,
            "kind": kind[:-1],
            "price": price,
            "offered": float(s.get_column(card_column(OFFERED, name)).sum()),
            "bought": float(s.get_column(card_column(BOUGHT, name)).sum()),
            "probes_bought": n_yes,
            "probes_declined": probes.height - n_yes,
            **prefixed(ctx.measure(arm, f"purchase_rate.{name}"), "purchase"),
            **diff_cols(ctx.measure(arm, f"owner_edge.{name}"), "owner_uplift"),
            **diff_cols(humans, "effect"),
            **diff_cols(ctx.measure(arm, f"buy_win_effect.{name}"), "win_effect"),
            **columns("fair", price + humans.value, price + humans.low, price + humans.high),
        }
        v = price_verdict(row, ctx.tolerance("card_price"), ctx.results.arm_games(arm).height)
        row["verdict"] = verdict(row, v)
        row["games_to_settle"] = v.games_to_settle
        rows.append(row)
    return rows


def price_verdict(row: dict, tol: Tolerance, games: int) -> Verdict:
    """Whether the card is priced right: its fair price within the `card_price` tolerance of
    the printed one (an equivalence verdict)."""
    p = row["price"]
    return equivalence(row["fair"] - p, row["fair_low"] - p, row["fair_high"] - p, tol.value,
                       games=games)  # fmt: skip


def verdict(row: dict, v: Verdict) -> str:
    if min(row["probes_bought"], row["probes_declined"]) < MIN_PROBES or math.isnan(
        row["fair_low"]
    ):
        return TOO_FEW
    if v.holds:
        return RIGHT
    if v.opposite:
        return BELOW if row["fair_low"] > row["price"] else ABOVE
    return OPEN


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
    tol = ctx.tolerance("card_price").text()
    for arm in ctx.arm_names:
        mine = [r for r in rows if r["arm"] == arm]
        off = [r for r in mine if r["verdict"] in (BELOW, ABOVE)]
        if off:
            words = "; ".join(
                f"{r['card']} ({r['verdict'].split()[1]}: fair "
                f"{fmt.num_ci(r['fair'], r['fair_low'], r['fair_high'], 0)} "
                f"against {fmt.num(r['price'], 0)})"
                for r in off
            )
            out.findings.append(Finding(f"{skill(ctx, arm)}: {words}.", "finding"))
        elif probes:
            right = sum(r["verdict"] == RIGHT for r in mine)
            open_ = [r for r in mine if r["verdict"] == OPEN]
            text = (
                f"{skill(ctx, arm)}: no card is priced away from its worth beyond the tolerance; "
                f"{right} of {len(mine)} are priced right (tolerance {tol})"
            )
            if open_:
                settle = max((r["games_to_settle"] or 0) for r in open_)
                text += f", {len(open_)} not settled" + (
                    f" (about {settle:,} games per arm would likely settle them)" if settle else ""
                )
            kind = "unsettled" if open_ else "within" if right == len(mine) else "info"
            out.findings.append(Finding(text + ".", kind))
    if probes:
        out.answers.append(_answer(ctx, rows))
    picture = card_figure.figure(rows, {a: skill(ctx, a) for a in ctx.arm_names},
                                 ctx.tolerance("card_price"))  # fmt: skip
    if picture is not None:
        out.add(picture)
    out.add(_table(ctx, rows))
    return out


def _fair(r: dict, key: str) -> Estimate:
    return Estimate(key, "fair price", *interval_in(r, "fair"), unit="num",
                    digits=0, signed=False)  # fmt: skip


def _table(ctx: Context, rows: list[dict]) -> Table:
    """Every card at every level: the cards to reprice first (furthest first, level by
    level), then the others by level and effect; the page shows the first rows (at least the
    cards to reprice) and the rest behind "show all"."""
    first = card_figure.reprice(rows)
    order = {arm: i for i, arm in enumerate(ctx.arm_names)}

    def rank(r: dict) -> tuple:
        off = r["verdict"] in (BELOW, ABOVE)
        effect = r["effect"] if math.isfinite(r["effect"]) else -math.inf
        return (not off, first.index(r["card"]) if off else 0, order[r["arm"]], -effect)

    ordered = sorted(rows, key=rank)
    off = sum(r["verdict"] in (BELOW, ABOVE) for r in rows)
    return Table(
        "alien_raid_card_prices",
        "Card prices by skill level",
        pl.DataFrame(ordered),
        COLUMNS,
        note="The cards to reprice first. Fair price = price + the humans a bought card adds "
        "(probe games); its interval is the effect's 95% interval (each game one unit) shifted "
        "by the price. 'Owners' win share' is an association, not an effect.",
        fold=max(off, FOLD_LEAST) if len(ordered) > max(off, FOLD_LEAST) else None,
    )


def _answer(ctx: Context, rows: list[dict]) -> Answer:
    """The cards to reprice, furthest from their worth first: 'Reprice 5 of 21 cards: cruiser
    (worth 191,653 (...) at strong, printed 60,000), booster, scout and 2 more.' Each card
    priced away from its worth at some level in the rows, with the levels it is at (a card
    whose verdict differs between levels is said so: 'too cheap at strong only')."""
    tol = ctx.tolerance("card_price")
    off = [r for r in rows if r["verdict"] in (BELOW, ABOVE)]
    off.sort(key=lambda r: -abs(r["fair"] - r["price"]) / max(r["price"], 1.0))
    names = list(dict.fromkeys(r["card"] for r in off))
    levels = list(dict.fromkeys(skill(ctx, a) for a in ctx.arm_names))
    cards_tried = len({r["card"] for r in rows})
    open_rows = [r for r in rows if r["verdict"] == OPEN]
    open_ = [price_verdict(r, tol, ctx.results.arm_games(r["arm"]).height) for r in open_rows]
    v = all_of(open_) if open_ else None
    if names:
        top = off[0]
        worth = sentence(" (worth ", _fair(top, f"{ID}.{top['card']}@{top['arm']}"),
                         " at ", Label(skill(ctx, top["arm"])), ", printed ",
                         Label(fmt.num(top["price"], 0)), ")")  # fmt: skip
        others = [Label(n) for n in names[1:3]]
        rest = len(names) - 3
        parts = sentence("Reprice ", Count(len(names)), " of ", Count(cards_tried, "cards"),
                         ", beyond the ", Label(tol.text()), " tolerance: ", Label(top["card"]),
                         worth, *[x for o in others for x in (", ", o)],
                         sentence(" and ", Count(rest), " more") if rest > 0 else None,
                         ".")  # fmt: skip
        kind, word = words_v.FINDING, "reprice"
    elif all(r["verdict"] == RIGHT for r in rows):
        parts = sentence("Every card is priced right, within the ", Label(tol.text()),
                         " tolerance of its worth.")  # fmt: skip
        kind, word = words_v.WITHIN, "priced right"
    else:  # some prices open, or too few probes for a verdict: neither is "priced right"
        right = sum(r["verdict"] == RIGHT for r in rows)
        few = sum(r["verdict"] == TOO_FEW for r in rows)
        parts = sentence("Not settled whether any card is priced away from its worth beyond "
                         "the ", Label(tol.text()), " tolerance: ", Count(right), " of ",
                         Count(len(rows), "card prices"), " are right, ", Count(len(open_rows)),
                         " open", sentence(", ", Count(few), " with ",
                                           Label(f"fewer than {MIN_PROBES} probes a side"))
                         if few else None,
                         ".")  # fmt: skip
        kind, word = words_v.UNSETTLED, words_v.OPEN_WORD
    table = []
    for name in names:
        mine = [r for r in off if r["card"] == name]
        at = [skill(ctx, r["arm"]) for r in mine]
        only = "" if len(at) == len(levels) else f" at {', '.join(at)} only"
        for r in mine:
            said = ("too cheap" if r["verdict"] == BELOW else "too dear") + only
            table.append(Row(f"{name} at {skill(ctx, r['arm'])}, printed {fmt.num(r['price'], 0)}",
                             _fair(r, f"{ID}.{name}@{r['arm']}"), said))  # fmt: skip
    games = ctx.results.games.height
    return Answer(
        key=f"{ID}.off",
        question="Which cards are priced away from their worth?",
        parts=parts,
        kind=kind,
        category="some cards priced away from their worth" if names else "",
        quality=Quality(
            games=games,
            basis="games",
            warnings=(ASSUMED,) if assumed(ctx) else (),
            note="a card is priced away from its worth when its fair-price interval lies "
            "beyond the tolerance of the price, and right when it lies within it",
        ),
        section=ID,
        verdict=v,
        more=words_v.settle_sentence(v, "the ones not settled"),
        rows=table,
        word=word,
        where=", ".join(levels),
        rows_head="card",
    )
