"""Deals replayed in several seatings: the block of one deal as one unit, and the deals that
decide a seat's game.

Game i of every arm of a run is played on the same seed; arms with the same rules and players
therefore play the same deal (a game's setup is drawn from its seed alone). Where arms replay
every deal with the seats rotated (a replay group, sim/report/game_quality/design.py), or at
several levels of skill (one arm per level), each deal is played several times:

- `replayed(arms)`: the arms' games as one `StoredArm`, every game renumbered and tagged with
  its `deal` (the game index it was played at) and its `replay` (the arm's place in `arms`).
  The ratio measures read `deal` and count each deal, all its seatings together, as one unit
  (sim/measures/core.py): a replay group's seat and strategy figures (`win_share.seat.<k>`,
  `win_share.<strategy>`, `seat_advantage.<k>`) over all its games, at no cost in games.
- `deal_table(arm)`: per deal and seat, the replays the seat won (win share above 0), out of
  how many, and the deal's seed (to watch it again);
- `never_wins.seat.<k>`: the share of deals in which seat k won none of its replays (Wilson over
  deals), and `never_wins_excess.seat.<k>`: that share minus what it would be if the deal did
  not matter (each replay won independently at that arm's rate: the product over replays of
  1 - seat k's winning rate there), with the delta method's interval (the rates are estimated
  from the same deals, and their noise is in the interval). Above 0: some deals shut the seat
  out, whoever sits there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import polars as pl

from sim.errors import SimError
from sim.measures.core import DEAL, Measure, Value, ratio_value
from sim.measures.seats import OfSeat, seat_family
from sim.stats.intervals import Z95
from sim.stored_arm import Settings, StoredArm

REPLAY = "replay"  # a games column: the arm of `replayed(arms)` a game was played in


def replayed(arms: Sequence[StoredArm], names: Sequence[str] = ()) -> StoredArm:
    """The games of arms that play the same deals (game i: one seed in every arm) as one arm
    whose games carry `deal` and `replay`; game numbers become deal * len(arms) + replay.
    A seed column that differs between the arms at one game index is refused."""
    if not arms:
        raise ValueError("replayed needs at least one arm")
    count = len(arms)
    games, seats = [], []
    for r, arm in enumerate(arms):
        new = (pl.col("game").cast(pl.Int64) * count + r).alias("game")
        games.append(arm.games.with_columns(pl.col("game").cast(pl.Int64).alias(DEAL),
                                            pl.lit(r, pl.Int64).alias(REPLAY), new))  # fmt: skip
        seats.append(arm.seats.with_columns(new))
    together = pl.concat(games, how="diagonal_relaxed")
    _check_same_seeds(together, names)
    first = arms[0].settings
    lineup = tuple(dict.fromkeys(s for a in arms for s in a.settings.lineup))
    settings = Settings(first.players, lineup, first.rules, name="+".join(names))
    return StoredArm(together, pl.concat(seats, how="diagonal_relaxed"), settings)


def _check_same_seeds(games: pl.DataFrame, names: Sequence[str]) -> None:
    if "seed" not in games.columns:
        return
    differ = (
        games.group_by(DEAL, maintain_order=True)
        .agg(pl.col("seed").n_unique().alias("n"))
        .filter(pl.col("n") > 1)
    )
    if differ.height:
        deal = int(differ[DEAL].min())
        raise SimError(f"the arms {', '.join(names) or '(unnamed)'} play game {deal} on "
                       "different seeds, so they do not replay the same deals",
                       hint="Read a replay group's arms from one run (one root seed).")  # fmt: skip


def deal_table(arm: StoredArm) -> pl.DataFrame:
    """Per deal and seat of a `replayed` arm: `deal`, `seat`, `won` (the replays the seat won,
    a shared win counting as won), `plays` (the deal's replays), `rate` (won / plays) and the
    deal's `seed` when stored (`sim play --seed` watches it again)."""
    _need_deals(arm)
    seats = arm.seats.select("game", "seat", (pl.col("win_share") > 0).cast(pl.Int64).alias("w"))
    keys = [c for c in (DEAL, "seed") if c in arm.games.columns]
    joined = seats.join(arm.games.select("game", *keys), on="game", how="inner")
    table = joined.group_by([*keys, "seat"], maintain_order=True).agg(
        pl.col("w").sum().alias("won"), pl.len().alias("plays")
    )
    return table.with_columns((pl.col("won") / pl.col("plays")).alias("rate")).sort(DEAL, "seat")


def _need_deals(arm: StoredArm) -> None:
    if DEAL not in arm.games.columns:
        raise ValueError("a measure of deals reads an arm made by sim.measures.blocks.replayed")


def shut_out(arm: StoredArm, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """(never, wins): per deal, 1 when seat `seat` won none of its replays; and deals x
    replays, 1 where it won that replay (deals missing a replay are left out)."""
    _need_deals(arm)
    mine = arm.seats.filter(pl.col("seat") == seat).select(
        "game", (pl.col("win_share") > 0).cast(pl.Float64).alias("w")
    )
    tagged = mine.join(arm.games.select("game", DEAL, REPLAY), on="game", how="inner")
    wide = tagged.pivot(on=REPLAY, index=DEAL, values="w", sort_columns=True).drop_nulls()
    wins = wide.sort(DEAL).drop(DEAL).to_numpy().astype(np.float64)
    return (wins.sum(axis=1) == 0).astype(np.float64), wins


def by_chance(wins: np.ndarray) -> tuple[float, np.ndarray]:
    """(E, dE): the share of deals a seat would win no replay of if each replay were won
    independently at its own rate p_r (E = prod(1 - p_r)), and each deal's linearised
    contribution to E's estimate (E * sum_r (y_dr - p_r) / (1 - p_r))."""
    p = wins.mean(axis=0)
    expected = float(np.prod(1.0 - p))
    if expected == 0.0:
        return 0.0, np.zeros(wins.shape[0])
    return expected, -expected * ((wins - p) / (1.0 - p)).sum(axis=1)


class NeverWins(OfSeat, Measure):
    """The share of deals in which seat k won none of its replays (Wilson over deals)."""

    unit = "share"
    seats_columns = ("seat", "win_share")
    name, label = "never_wins.seat.{seat}", "deals seat {nth} never wins"
    definition = ("Of the deals played in several seatings or by several tables, the share in "
                  "which seat {nth} won none of its replays.")  # fmt: skip

    def estimate(self, arm: StoredArm) -> Value:
        never, _ = shut_out(arm, self.seat)
        return ratio_value(never, np.ones(never.size), rate=True)

    def pooled(self, arms: list[StoredArm]) -> Value:
        return self.estimate(replayed(arms))

    def paired(self, a: StoredArm, b: StoredArm) -> Value:
        raise NotImplementedError(f"{self.name} compares deals, not two arms' games")


class NeverWinsExcess(NeverWins):
    """never_wins.seat.<k> minus its share were the deal not to matter (see the module doc)."""

    name, label = "never_wins_excess.seat.{seat}", "deals seat {nth} never wins, beyond chance"
    definition = ("The share of deals in which seat {nth} won none of its replays, minus that "
                  "share were each replay won independently at its arm's rate (the product of "
                  "1 - the rates); above 0: some deals shut the seat out, whoever plays "
                  "it.")  # fmt: skip

    def estimate(self, arm: StoredArm) -> Value:
        never, wins = shut_out(arm, self.seat)
        n = int(never.size)
        if n < 2 or wins.shape[1] < 2:
            return Value.missing(n)
        expected, d_expected = by_chance(wins)
        z = never - never.mean() - d_expected
        se = float(z.std(ddof=1) / math.sqrt(n))
        value = float(never.mean()) - expected
        return Value(value, value - Z95 * se, value + Z95 * se, se, n)


never_wins_family = seat_family(NeverWins)
never_wins_excess_family = seat_family(NeverWinsExcess)
