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

from dataclasses import dataclass

import numpy as np
import polars as pl

from sim.measures.core import Value, ratio_difference, ratio_value
from sim.report import verdicts as words
from sim.report.answers import Answer, Count, Label, Part, sentence
from sim.report.data_quality import Quality, mde
from sim.report.game_quality.common import alike, by_level, estimate, key
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


def _winner_masks(results, arms: list[str]) -> np.ndarray:
    """deals x replays: the seats that won each replay, as a bit mask (0: nobody won)."""
    out = None
    for r, arm in enumerate(arms):
        won = (
            results.arm_seats(arm)
            .group_by("game")
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
    )


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
        seats.group_by("game")
        .agg(
            pl.col("rank").max().alias("best"),
            (pl.col("win_share").sum() > 0).alias("any"),
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


def competitive(
    design: Design, results, tol: Tolerance
) -> tuple[Answer, list[Replays], list[Upsets]]:
    """Replays and upsets; `tol`: the `quality_share` tolerance of the deal against the
    player."""
    groups = [replays(results, g) for g in design.replays]
    ups = [
        u
        for level in design.mixed
        for a in design.mixed[level]
        if (u := upsets(results, a, design.arms[a].pool)) is not None
    ]
    if not groups and not ups:
        parts: list[Part] = [
            "Not asked: the experiment replays no deal with the seats rotated "
            "and seats no mixed table."
        ]
        return (
            Answer(
                "quality.luck", QUESTION, parts, "info", category="not measured", section="quality"
            ),
            [],
            [],
        )
    parts = []
    for rep in groups:
        parts += _replay_parts(rep, len(groups) > 1)
    for u in ups:
        parts += sentence(
            "; in " if parts else "In ",
            Label(u.arm),
            ", players two or more levels below the best at the table win ",
            estimate(key("luck", "upsets", u.arm), u.share, "games won by a clearly weaker player"),
            " of the games with a winner, though they hold ",
            estimate(key("luck", "upsets_fair", u.arm), u.fair, "their share of the seats"),
            " of the seats (what they would win were skill no matter)",
        )
    parts.append(".")
    head, category, kind, verdict = None, "upsets only", "info", None
    games = sum(g.deals for g in groups)
    if groups:
        rep = groups[0]
        head = estimate(
            key("luck", "seat", "/".join(rep.group.arms)),
            rep.seat,
            "the deal decides the winner's seat",
        )
        verdict = alike(rep.difference, 0.0, tol.value, games=rep.deals)
        category = _who_decides(verdict)
        kind = words.kind(verdict)
        parts[-1:] = sentence("; ", category, words.tolerance(tol),
                              sentence(": ", words.to_settle(verdict)) if not verdict.settled
                              else None, ".")  # fmt: skip
    quality = Quality(
        games=games or sum(_games(results, u.arm) for u in ups),
        basis="deals, each replayed in every seating" if groups else "games",
        mde=mde(groups[0].seat.low, groups[0].seat.high) if groups else float("nan"),
        mde_of="share of deals",
    )
    answer = Answer("quality.luck", QUESTION, parts, kind, head, category, quality, "quality",
                    verdict=verdict, tolerance=tol if verdict is not None else None)  # fmt: skip
    return answer, groups, ups


def _who_decides(v: Verdict) -> str:
    """The deal against the player, of the first replay group (deal minus player)."""
    if v.holds:
        return "the deal and the player decide about as often"
    if v.opposite:
        return ("the deal decides more often than the player" if v.estimate > 0
                else "the player decides more often than the deal")  # fmt: skip
    return "not settled at this size whether the deal or the player decides more often"


def _games(results, arm: str) -> int:
    return results.arm_games(arm).height


def _replay_parts(rep: Replays, named: bool) -> list[Part]:
    arms = "/".join(rep.group.arms)
    who = ", ".join(rep.group.base)
    parts = sentence(
        "Replaying each deal with the seats rotated (",
        Label(who),
        (", " if named else ""),
        (Label(arms) if named else ""),
        "): the deal alone decides ",
        estimate(key("luck", "seat", arms), rep.seat, "the deal decides"),
        " of deals (every seating ends alike, seat by seat), the players ",
        estimate(key("luck", "player", arms), rep.player, "the player decides"),
        " (the same players win, whatever their seats)",
    )
    for lab, v in rep.alone.items():
        parts += sentence(
            "; ",
            Label(lab),
            " wins in every seat in ",
            estimate(key("luck", f"player_{lab}", arms), v, f"{lab} wins every seating"),
            " of deals",
        )
    return parts


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
        parts: list[Part] = ["Not asked: the experiment plays each deal at one table only."]
        return Answer(
            "quality.luck", QUESTION, parts, "info", category="not measured", section="quality"
        ), []

    def at(level: str) -> list[Part]:
        d = next((d for d in found if d.level == level), None)
        if d is None:
            return []
        return sentence(
            "the deal alone decides ",
            estimate(key("luck", "deal", level), d.decided, "the deal decides"),
            " of deals (won by every table ",
            estimate(key("luck", "won_by_all", level), d.won_by_all, "won by every table"),
            ", lost by every table ",
            estimate(key("luck", "lost_by_all", level), d.lost_by_all, "lost by every table"),
            ", over ",
            Count(d.tables, "tables"),
            ")",
        )

    parts = sentence(
        "Playing each deal with every team and dexterity: ", by_level(design.levels, at), "."
    )
    head = found[0]
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
    ), found
