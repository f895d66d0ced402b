"""Deals that decide: where a run plays each deal several times (arms with the same rules and
players: game i of each is one seed, so one deal), how a seat's wins spread over the deals, and
the deals in which a seat never wins, with the command that watches one again.

Per group of such arms (a player count of a fairness sweep, say) and seat: the share of deals
the seat won 0, 1, ..., R of its R replays (the picture, beside what chance alone would give:
each replay won independently at that arm's rate, a Poisson-binomial), the measures
`never_wins.seat.<k>` and `never_wins_excess.seat.<k>` (sim/measures/blocks.py) and a few deals
the seat never won. Computed from the stored games: nothing here plays a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from sim.measures import StoredArm
from sim.measures.blocks import REPLAY, replayed, shut_out
from sim.measures.core import DEAL, Value
from sim.report import plots
from sim.report.metrics import prefixed
from sim.report.render import Finding
from sim.report.table import Column, Table

SHOWN_SEEDS = 3  # deals a seat never won, listed per seat


@dataclass
class SeatDeals:
    seat: int
    observed: np.ndarray  # share of deals the seat won j of R replays, j = 0..R
    chance: np.ndarray  # the same were each replay won independently at its arm's rate
    never: Value
    excess: Value
    shut: list[tuple[int, int]]  # (game index, seed) of deals the seat never won


@dataclass
class DealGroup:
    name: str  # "2 players", what the arms share
    arms: list[str]
    deals: int
    seats: list[SeatDeals]


def deal_group(name: str, arms: Sequence[str], stored: Sequence[StoredArm], registry) -> DealGroup:
    """Seat by seat, how the deals the arms replay spread its wins."""
    block = replayed(stored, arms)
    players = int(block.seats.get_column("seat").max()) + 1
    seats = []
    for k in range(players):
        _, wins = shut_out(block, k)
        replays = wins.shape[1]
        won = wins.sum(axis=1).astype(int)
        observed = np.bincount(won, minlength=replays + 1) / max(won.size, 1)
        seats.append(SeatDeals(k, observed, poisson_binomial(wins.mean(axis=0)),
                               registry.get(f"never_wins.seat.{k}").estimate(block),
                               registry.get(f"never_wins_excess.seat.{k}").estimate(block),
                               _shut(block, k)))  # fmt: skip
    return DealGroup(name, list(arms), int(block.games.get_column(DEAL).n_unique()), seats)


def poisson_binomial(p: np.ndarray) -> np.ndarray:
    """P(j successes), j = 0..len(p), of independent trials with success chances p."""
    out = np.array([1.0])
    for q in p:
        out = np.concatenate([out * (1 - q), [0.0]]) + np.concatenate([[0.0], out * q])
    return out


def _shut(block: StoredArm, seat: int) -> list[tuple[int, int]]:
    """The first deals (by game index) the seat won in none of their replays, with seeds."""
    won = block.seats.filter(pl.col("seat") == seat).select(
        "game", (pl.col("win_share") > 0).alias("won")
    )
    keys = [DEAL, *(["seed"] if "seed" in block.games.columns else [])]
    per = won.join(block.games.select("game", *keys), on="game").group_by(keys, maintain_order=True)
    never = per.agg(pl.col("won").any().alias("any")).filter(~pl.col("any")).sort(DEAL)
    seeds = never["seed"] if "seed" in never.columns else pl.Series([-1] * never.height)
    return list(zip(never[DEAL].head(SHOWN_SEEDS).to_list(),
                    seeds.head(SHOWN_SEEDS).to_list(), strict=True))  # fmt: skip


def replaying_groups(ctx) -> list[DealGroup]:
    """The arms of a report (`ctx`, a sim.report.context.Context) that replay each other's
    deals: two or more with the same players, ruleset and rules (every skill level of a
    player count, say), each group read seat by seat."""
    found: dict[tuple[int, str, str], list[str]] = {}
    for arm in ctx.arm_names:
        info = ctx.results.arm(arm)
        rules = repr(sorted(info.rules.items()))
        found.setdefault((info.players, info.ruleset, rules), []).append(arm)
    return [deal_group(f"{players} players", arms, [ctx.results.stored(a) for a in arms],
                       ctx.registry)
            for (players, _, _), arms in found.items() if len(arms) >= 2]  # fmt: skip


def figure(groups: Sequence[DealGroup], name: str) -> plots.Figure | None:
    """One panel per group: per seat, the share of deals it won 0..R of its replays (bars),
    and what chance alone would give (black ticks)."""
    if not groups:
        return None
    fig, axes = plots.new(1, len(groups), width=min(3.6 * len(groups) + 1.2, 15), height=3.4)
    widest = max(groups, key=lambda g: len(g.seats))  # its panel names every seat's colour
    for g, ax in zip(groups, axes[0], strict=True):
        seats = len(g.seats)
        width = 0.8 / seats
        for s in g.seats:
            x = np.arange(s.observed.size) + (s.seat - (seats - 1) / 2) * width
            ax.bar(x, 100 * s.observed, width, color=plots.COLORS[s.seat % len(plots.COLORS)],
                   label=f"seat {s.seat + 1}" if g is widest else None)  # fmt: skip
            first = g is widest and s.seat == 0
            ax.scatter(x, 100 * s.chance, marker="_", color="black", s=60, zorder=3,
                       label="chance alone" if first else None)  # fmt: skip
        replays = g.seats[0].observed.size - 1
        ax.set_xticks(range(replays + 1), [str(j) for j in range(replays + 1)])
        ax.set_xlabel(f"replays won, of {replays}")
        ax.set_title(f"{g.name} ({g.deals:,} deals)", fontsize=10)
    axes[0, 0].set_ylabel("deals (%)")
    plots.legend_below(fig, ncol=min(len(widest.seats) + 1, 6))
    caption = (
        "Each deal is replayed by every arm that shares its rules and players (game i is one "
        "seed in every arm). Bars: the share of deals a seat won 0, 1, ... of its replays; black "
        "ticks: that share were each replay won independently at its arm's rate (the deal not "
        "mattering). Bars above the ticks at 0 and at the top: deals that decide for a seat."
    )
    return plots.finish(fig, name, "Deals that decide: each seat's wins over the replays of a deal",
                        caption)  # fmt: skip


def rows(groups: Sequence[DealGroup]) -> list[dict]:
    out = []
    for g in groups:
        for s in g.seats:
            seeds = ", ".join(f"game {game} (seed {seed})" for game, seed in s.shut)
            out.append({"group": g.name, "seat": s.seat + 1, "deals": g.deals,
                        **prefixed(s.never, "never"), "chance": float(s.chance[0]),
                        **prefixed(s.excess, "excess"), "seeds": seeds or "none"})  # fmt: skip
    return out


COLUMNS = [
    Column.text("group", "deals of"),
    Column.count("seat", "seat"),
    Column.count("deals", "deals"),
    Column.pct_ci("never", "never won", help="never_wins.seat.<k>"),
    Column.pct("chance", "by chance"),
    Column.diff("excess", "beyond chance", unit="pp", help="never_wins_excess.seat.<k>"),
    Column.text("seeds", "first deals never won"),
]


def table(groups: Sequence[DealGroup], name: str, arms_word: str) -> Table:
    note = (
        "never won: the share of deals the seat won in none of its replays; by chance: that "
        "share were each replay won independently at its arm's rate; beyond chance: the "
        "difference, with the delta method's 95% interval (each deal one unit). Watch a deal "
        f"again: `sim play --from-results RESULTS --arm ARM --index GAME` ({arms_word})."
    )
    return Table.of_rows(name, "Deals that decide", rows(groups), COLUMNS, note=note)


def findings(groups: Sequence[DealGroup]) -> list[Finding]:
    """One line per group: the seat most shut out beyond chance, or that none is."""
    out = []
    for g in groups:
        worst = max(g.seats, key=lambda s: s.excess.value if np.isfinite(s.excess.value) else -1)
        e = worst.excess
        if np.isfinite(e.low) and e.low > 0:
            text = (
                f"{g.name}: some deals shut a seat out whoever plays it: seat "
                f"{worst.seat + 1} wins none of the replays of {100 * worst.never.value:.1f}% "
                f"of deals, {100 * e.value:+.1f} pp ({100 * e.low:+.1f} to "
                f"{100 * e.high:+.1f}) beyond the {100 * worst.chance[0]:.1f}% chance gives."
            )
            out.append(Finding(text, "finding"))
        else:
            text = (
                f"{g.name}: not shown at this size that a deal shuts a seat out beyond "
                f"chance (largest excess {100 * e.value:+.1f} pp, {100 * e.low:+.1f} to "
                f"{100 * e.high:+.1f}, seat {worst.seat + 1})."
            )
            out.append(Finding(text, "info"))
    return out


__all__ = ["REPLAY", "DealGroup", "deal_group", "figure", "findings", "replaying_groups", "table"]
