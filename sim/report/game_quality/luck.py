"""How much does luck decide? (docs/reports.md, `quality`)

Competitive games, from a replay group (the same deals with the players' seats rotated):

- the **deal decides**: the share of deals whose every replay ended alike seat by seat (the
  same seats won, or nobody won), whoever sat where;
- the **player decides**: the share of the other deals whose every replay the same players
  won, whatever seats they had;
- the rest: neither (the winners changed with the seating, following neither seat nor
  player).

From the mixed tables, **upsets**: the share of games (with a winner) won by a player two or
more levels below the strongest at the table (its pool's order, weakest first), beside the
share such players would win if skill did not matter (their share of the seats).

A cooperative game, at each setting, over its tables (teams, dexterities) on the same deals:
the share of deals every table won and every table lost (the deal decided), and the rest
(who played decided).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from sim.measures import registry_for
from sim.measures.blocks import replayed
from sim.measures.core import DEAL, Value, ratio_difference, ratio_value
from sim.measures.generic import CoinFlips
from sim.measures.seats import DECIDED
from sim.report import verdicts as words
from sim.report.answers import Answer, Label, Part, Row, joined, sentence
from sim.report.data_quality import Quality, mde
from sim.report.game_quality import references
from sim.report.game_quality.common import alike, estimate, key, unasked
from sim.report.game_quality.design import Design, ReplayGroup
from sim.stats.tolerances import Tolerance
from sim.stats.verdict import Verdict

QUESTION = "How much does luck decide?"


@dataclass
class Replays:
    group: ReplayGroup
    seat: Value  # the deal decides: every replay ended alike seat by seat
    player: Value  # the player decides: the same players won every replay
    neither: Value
    alone: dict[str, Value]  # a player seated once in the first seating -> P(it wins every replay)
    deals: int
    difference: Value  # deal minus player, per deal
    # (label, measure, its value with each deal's seatings one unit, with each game one unit)
    figures: list[tuple[str, str, Value, Value]] = field(default_factory=list)


def _winner_masks(results, arms: list[str]) -> np.ndarray:
    """deals x replays: the seats that won each replay, as a bit mask (0: nobody won)."""
    out = None
    for r, arm in enumerate(arms):
        won = (
            results.arm_seats(arm)
            .group_by("game", maintain_order=True)
            .agg(
                (pl.when(pl.col("win_share") > 0).then(pl.lit(2) ** pl.col("seat")).otherwise(0))
                .cast(pl.Int64)
                .sum()
                .alias(f"m{r}")
            )
        )
        out = won if out is None else out.join(won, on="game")
    out = out.sort("game")
    return np.column_stack([out[f"m{r}"].to_numpy() for r in range(len(arms))]).astype(np.int64)


def _players(masks: np.ndarray, players: int) -> np.ndarray:
    """The winning seats as the first seating's seats: replay r seats the first seating's
    player of seat k in seat k + r, so its seat bits move r back."""
    full = (1 << players) - 1
    out = np.empty_like(masks)
    for r in range(masks.shape[1]):
        m = masks[:, r]
        out[:, r] = ((m >> r) | (m << (players - r))) & full
    return out


def replays(results, group: ReplayGroup) -> Replays:
    seats = _winner_masks(results, group.arms)
    players = _players(seats, len(group.base))
    deal = (seats == seats[:, :1]).all(axis=1)
    player = ~deal & (players == players[:, :1]).all(axis=1) & (players[:, 0] > 0)
    one = np.ones(len(seats))
    labels = list(group.base)
    single = {lab: labels.index(lab) for lab in labels if labels.count(lab) == 1}
    every = {lab: ((players >> k) & 1).all(axis=1) for lab, k in single.items()}
    return Replays(
        group,
        ratio_value(deal.astype(float), one, rate=True),
        ratio_value(player.astype(float), one, rate=True),
        ratio_value((~deal & ~player).astype(float), one, rate=True),
        {lab: ratio_value(w.astype(float), one, rate=True) for lab, w in every.items()},
        len(seats),
        ratio_difference(player.astype(float), one, deal.astype(float), one),
        seat_figures(results, group, list(single)),
    )


def seat_figures(
    results, group: ReplayGroup, alone: list[str]
) -> list[tuple[str, str, Value, Value]]:
    """The first seat's and each lone player's win share over the group's games, each deal's
    seatings one unit (sim/measures/blocks.py), beside the same games each one unit."""
    block = replayed([results.stored(a) for a in group.arms], group.arms)
    one_by_one = type(block)(block.games.drop(DEAL), block.seats, block.settings)
    registry = registry_for(results.game)
    named = [("seat 1 wins", "win_share.seat.0")]
    named += [(f"{lab} wins", f"win_share.{lab}") for lab in alone]
    return [(label, name, registry.get(name).estimate(block),
             registry.get(name).estimate(one_by_one)) for label, name in named]  # fmt: skip


@dataclass
class Upsets:
    arm: str
    share: Value  # won by a player two or more levels below the strongest at the table
    fair: Value  # what such players would win if skill did not matter (their share of seats)


def upsets(results, arm: str, pool: tuple[str, ...]) -> Upsets | None:
    rank = {s: i for i, s in enumerate(pool)}
    seats = results.arm_seats(arm).with_columns(
        pl.col("strategy").replace_strict(rank, default=None, return_dtype=pl.Int64).alias("rank")
    )
    per = (
        seats.group_by("game", maintain_order=True)
        .agg(
            pl.col("rank").max().alias("best"),
            DECIDED.alias("any"),
            pl.col("win_share").filter(pl.col("rank") <= pl.col("rank").max() - 2).sum().alias("x"),
            (pl.col("rank") <= pl.col("rank").max() - 2).mean().alias("fair"),
        )
        .filter(pl.col("any"))
    )
    if per.height == 0 or per["fair"].sum() == 0:
        return None
    w = np.ones(per.height)
    return Upsets(
        arm, ratio_value(per["x"].to_numpy(), w, rate=True), ratio_value(per["fair"].to_numpy(), w)
    )


@dataclass
class Coins:
    """Where a mixed table's game sits between pure skill and a coin flip: the share of games a
    coin would have to decide, between its strongest and its weakest level
    (sim.measures.generic.CoinFlips)."""

    arm: str
    top: str
    bottom: str
    value: Value


def coins(design: Design, results) -> list[Coins]:
    out = []
    for level in design.mixed:
        for arm in design.mixed[level]:
            stored = results.stored(arm)
            present = set(stored.seats.get_column("strategy").unique().to_list())
            order = [s for s in design.arms[arm].pool if s in present]
            if len(order) >= 2:
                value = CoinFlips(order[-1], order[0]).estimate(stored)
                if value.n:
                    out.append(Coins(arm, order[-1], order[0], value))
    return out


def competitive(
    design: Design, results, tol: Tolerance, game: str = ""
) -> tuple[Answer, list[Replays], list[Upsets], list[Coins]]:
    """Luck in a designer's units (the coin-flip share of the mixed tables, beside reference
    games), replays and upsets; `tol`: the `quality_share` tolerance (the coin-flip share
    against an even mix of 50%, the deal against the player)."""
    groups = [replays(results, g) for g in design.replays]
    ups = [
        u
        for level in design.mixed
        for a in design.mixed[level]
        if (u := upsets(results, a, design.arms[a].pool)) is not None
    ]
    found = coins(design, results)
    if not groups and not ups and not found:
        why = ("Not asked: the experiment replays no deal and seats no mixed table. To ask, add "
               "arms that replay each deal with the seats rotated ([a, b], then [b, a]), or a "
               "mixed table: {name: ladder, pool: [weakest, ..., strongest], rotate: "
               "permutations}.")  # fmt: skip
        return unasked("quality.luck", QUESTION, why), [], [], []
    rows = [row for c in found for row in _coin_rows(c, game, len(found) > 1)]
    rows += [row for rep in groups for row in _replay_rows(rep, len(groups) > 1)]
    rows += [row for u in ups for row in _upset_rows(u, len(ups) > 1)]
    deal = alike(groups[0].difference, 0.0, tol.value, games=groups[0].deals) if groups else None
    if found:
        c = found[0]
        verdict = alike(c.value, 0.5, tol.value, games=c.value.n)
        head = estimate(key("luck", "coin_flips", c.arm), c.value, "coin-flip share")
        category, word = _luck_words(verdict)
        parts = sentence(
            category[:1].upper() + category[1:],
            ": as if a coin decided ",
            head,
            " of games between ",
            Label(c.top),
            " and ",
            Label(c.bottom),
            ".",
        )
        more = sentence(_beside(game, c.value), _deal_sentence(deal, tol),
                        words.settle_sentence(verdict))  # fmt: skip
        kind, basis = words.kind(verdict), "games of the mixed tables"
    elif deal is not None:
        verdict, rep = deal, groups[0]
        head = estimate(key("luck", "seat", "/".join(rep.group.arms)), rep.seat,
                        "the deal decides the winner's seat")  # fmt: skip
        category, word = _who_decides(deal), words.word(deal)
        parts = sentence(_deal_sentence(deal, tol))
        more = words.settle_sentence(deal)
        kind, basis = words.kind(deal), "deals, each replayed in every seating"
    else:
        verdict, u = None, ups[0]
        head = estimate(key("luck", "upsets", u.arm), u.share, "won by a clearly weaker player")
        fair = estimate(key("luck", "upsets_fair", u.arm), u.fair, "their share of the seats")
        parts = sentence("Players two or more levels below the best win ", head,
                         " of games, holding ", fair, " of the seats.")  # fmt: skip
        category, word, more, kind, basis = "upsets only", "", [], "info", "games"
    quality = Quality(
        games=(found[0].value.n if found else sum(g.deals for g in groups))
        or sum(_games(results, u.arm) for u in ups),
        basis=basis,
        mde=mde(head.low, head.high),
        mde_of="share",
    )
    answer = Answer("quality.luck", QUESTION, parts, kind, head, category, quality, "quality",
                    verdict=verdict, tolerance=tol if verdict is not None else None, more=more,
                    rows=rows, word=word, rows_head="where")  # fmt: skip
    return answer, groups, ups, found


def _beside(game: str, value: Value) -> list[Part]:
    """'On the scale from pure skill (0%) to a coin flip (100%), this game sits below the coin
    race's 55.3% (...) (bold against steady). ' ([] without references): below or above a
    reference when the intervals do not overlap, else it cannot be told apart from it."""
    refs = references.others(game)
    if not refs:
        return []
    each = []
    for ref in refs:
        place = ("sits below" if value.high < ref.low else "sits above" if value.low > ref.high
                 else "cannot be told apart from")  # fmt: skip
        each.append(sentence(place, " ", ref.title, "'s ", ref.estimate(), " (", ref.pairing,
                             ")"))  # fmt: skip
    return sentence("On the scale from ", Label("pure skill (0%)"), " to ",
                    Label("a coin flip (100%)"), ", this game ", joined(each), ". ")  # fmt: skip


def _luck_words(v: Verdict) -> tuple[str, str]:
    """(category, word): the coin-flip share against an even mix (50%)."""
    if v.holds:
        return "as much luck as skill", "even mix"
    if v.opposite:
        return (("more luck than skill", "mostly luck") if v.estimate > 0
                else ("more skill than luck", "mostly skill"))  # fmt: skip
    return "not settled whether luck or skill decides more", words.OPEN_WORD


def _deal_sentence(v: Verdict | None, tol: Tolerance) -> list[Part]:
    """'Replaying each deal with the seats rotated, the deal decides more often than the
    player, beyond the ±2 pp tolerance.' ([] without replays)."""
    if v is None:
        return []
    said = _who_decides(v)
    if not v.settled:
        return sentence("Replaying each deal with the seats rotated: ", said, words.tolerance(tol),
                        ". ")  # fmt: skip
    return sentence("Replaying each deal with the seats rotated, ", said,
                    words.versus(v, tol), ". ")  # fmt: skip


def _coin_rows(c: Coins, game: str, named: bool) -> list[Row]:
    where = f"{c.arm}: " if named else ""
    rows = [Row(f"{where}{c.top} against {c.bottom}",
                estimate(key("luck", "coin_flips", c.arm), c.value, "coin-flip share"),
                "this game", f"coin_flips.{c.top}>{c.bottom}")]  # fmt: skip
    for ref in references.others(game):
        rows.append(Row(f"{ref.title}: {ref.pairing}", ref.estimate(), "reference", ref.how))
    return rows


def _replay_rows(rep: Replays, named: bool) -> list[Row]:
    arms = "/".join(rep.group.arms)
    where = f"{arms}: " if named else ""
    rows = [
        Row(f"{where}the deal decides", estimate(key("luck", "seat", arms), rep.seat, "share"),
            "every seating ends alike, seat by seat"),
        Row(f"{where}the player decides",
            estimate(key("luck", "player", arms), rep.player, "share"),
            "the same players win, whatever their seats"),
    ]  # fmt: skip
    for lab, v in rep.alone.items():
        rows.append(Row(f"{where}{lab} wins every seating",
                        estimate(key("luck", f"player_{lab}", arms), v, "share")))  # fmt: skip
    for label, name, blocked, alone in rep.figures:
        half = (alone.high - alone.low) / 2
        rows.append(Row(f"{where}{label}, over every seating",
                        estimate(key("luck", name, arms), blocked, "win share"),
                        f"each deal's seatings one unit (±{100 * half:.1f} pp with each game "
                        "one unit)", name))  # fmt: skip
    return rows


def _upset_rows(u: Upsets, named: bool) -> list[Row]:
    where = f"{u.arm}: " if named else ""
    fair = estimate(key("luck", "upsets_fair", u.arm), u.fair, "their share of the seats")
    return [Row(f"{where}won by a player two levels below the best",
                estimate(key("luck", "upsets", u.arm), u.share, "share"),
                f"they hold {fair.plain()} of the seats")]  # fmt: skip


def _who_decides(v: Verdict) -> str:
    """The deal against the player, of the first replay group (deal minus player)."""
    if v.holds:
        return "the deal and the player decide about as often"
    if v.opposite:
        return ("the deal decides more often than the player" if v.estimate > 0
                else "the player decides more often than the deal")  # fmt: skip
    return "not settled whether the deal or the player decides more often"


def _games(results, arm: str) -> int:
    return results.arm_games(arm).height


# --- cooperative -------------------------------------------------------------------------------


@dataclass
class DealShares:
    level: str
    won_by_all: Value
    lost_by_all: Value
    decided: Value  # won by all or lost by all
    tables: int


def deal_shares(design: Design, results, won: str) -> list[DealShares]:
    out = []
    for level in design.levels:
        arms = design.views.get(level, [])
        if len(arms) < 2:
            continue
        parts = [
            results.arm_games(a).select("game", (pl.col("outcome") == won).alias(f"x{i}"))
            for i, a in enumerate(arms)
        ]
        wide = parts[0]
        for p in parts[1:]:
            wide = wide.join(p, on="game")
        matrix = wide.drop("game").to_numpy()
        one = np.ones(matrix.shape[0])
        all_won, all_lost = matrix.all(axis=1), (~matrix).all(axis=1)
        out.append(
            DealShares(
                level,
                ratio_value(all_won.astype(float), one, rate=True),
                ratio_value(all_lost.astype(float), one, rate=True),
                ratio_value((all_won | all_lost).astype(float), one, rate=True),
                len(arms),
            )
        )
    return out


def cooperative(design: Design, results, won: str) -> tuple[Answer, list[DealShares]]:
    found = deal_shares(design, results, won)
    if not found:
        return unasked("quality.luck", QUESTION,
                       "Not asked: the experiment plays each deal at one table only. To ask, "
                       "play each deal at two or more tables (teams or dexterities).",
                       "not measured"), []  # fmt: skip

    head = found[0]
    low = min(found, key=lambda d: d.decided.value)
    high = max(found, key=lambda d: d.decided.value)
    share = (estimate(key("luck", "deal", low.level), low.decided, "the deal decides")
             if low is high else None)  # fmt: skip
    spread = (sentence(share) if share is not None else
              sentence("from ", estimate(key("luck", "deal", low.level), low.decided,
                                         "the deal decides"), " at ", Label(low.level), " to ",
                       estimate(key("luck", "deal", high.level), high.decided,
                                "the deal decides"), " at ", Label(high.level)))  # fmt: skip
    parts = sentence("The deal alone decides ", spread, " of deals: every table wins them, or "
                     "every table loses them.")  # fmt: skip
    rows = []
    for d in found:
        for name, v, what in (
            ("deal", d.decided, "the deal decides"),
            ("won_by_all", d.won_by_all, "won by every table"),
            ("lost_by_all", d.lost_by_all, "lost by every table"),
        ):
            rows.append(Row(d.level or "all games",
                            estimate(key("luck", name, d.level), v, what), what=what,
                            said=f"over {d.tables} tables"))  # fmt: skip
    return Answer(
        "quality.luck",
        QUESTION,
        parts,
        "info",
        estimate(key("luck", "deal", head.level), head.decided, "the deal decides"),
        "described",
        Quality(
            games=sum(d.won_by_all.n for d in found),
            basis="deals, each played by every table of its setting",
            mde=mde(head.decided.low, head.decided.high),
            mde_of="share of deals",
        ),
        "quality",
        rows=rows,
        rows_head="setting",
    ), found
