"""Per-seat and per-table quantities every game's report tells: the mean of a seats column per
seat (of every seat, or of the seats a strategy held), a seat's own score and advantage, the
table's total, the winner's score and the share of games someone won.

    seat_mean.<column>             per seat, e.g. seat_mean.launches
    seat_mean.<column>.<strategy>  per seat the strategy held, e.g. seat_mean.score.economist
                                   (A+B: the seats of A and B together)
    seat_share.<column>[.<strategy>]  the share of seats whose column is above 0
    game_total.<column>            per game, summed over the table, e.g. game_total.score
    score.seat.<k>                 seat k's final score
    won_share.seat.<k>             seat k's share of the games someone won
    uplift.seat.<k>                seat k's win share minus the game's fair share
    winner_score, decided_rate

and `SeatContrast`, the difference of a seats column's mean between two groups of seats (a
game's own measures of what a coin-decided choice does: buying a card or not, raiding or
catching).

Several seats of one game are one unit (the delta method of `Ratio`): their values are not
independent. A share held once a game gets Wilson's interval.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import polars as pl

from sim.measures.core import (
    DEAL,
    Contrast,
    Ratio,
    Value,
    by_deal,
    ratio_difference,
    words_of_member,
)
from sim.stored_arm import Settings, StoredArm

_COLUMN = re.compile(r"^[a-z][a-z0-9_]*$")
WON = pl.col("win_share") > 0  # a seat that won, alone or shared
# per game, in a group_by("game") aggregation of the seats:
DECIDED = pl.col("win_share").sum() > 0  # someone won the game
FAIR_SHARE = pl.col("win_share").sum() / pl.len()  # a seat's fair share: the table's wins / players


def seat_win_share(seat: int) -> pl.Expr:
    """Per game, in a group_by("game") aggregation of the seats: seat `seat`'s win share."""
    return pl.col("win_share").filter(pl.col("seat") == seat).sum()


def missing_seat(seat: int, settings: Settings) -> str:
    return f"seat {seat} does not exist" if seat >= settings.players else ""


class OfSeat:
    """A measure of one seat, seat k (0 = the first to play): its class writes `name`, `label`
    and `definition` as templates of {seat} (k) and {nth} (k + 1, the seat as the players
    count it); an arm with fewer seats lacks it. Put before the measure's kind:
    `class SeatScore(OfSeat, Ratio)`."""

    name: str
    label: str
    definition: str

    def __init__(self, seat: int) -> None:
        self.seat = seat
        words_of_member(self, seat=seat, nth=seat + 1)

    def missing_in(self, settings: Settings) -> str:
        return missing_seat(self.seat, settings)


def seat_value(arm: StoredArm, seat: int, column: str) -> pl.DataFrame:
    """game, x, w of a Ratio: the seat's value of a seats column, each game one unit."""
    mine = arm.seats.filter(pl.col("seat") == seat)
    return mine.select("game", pl.col(column).cast(pl.Float64).alias("x"), pl.lit(1.0).alias("w"))


def missing_strategies(strategies: tuple[str, ...], settings: Settings) -> str:
    absent = [s for s in strategies if s not in settings.lineup]
    return f"strategy '{absent[0]}' does not play" if absent else ""


class SeatRatio(Ratio):
    """sum(x) / sum(w) over the seats `strategies` held (every seat without any), x and w
    expressions on the seats table (w None: 1 a seat; or made from the arm, a price, say):
    per game, their sums over those seats."""

    def __init__(self, name: str, label: str, definition: str, x: pl.Expr,
                 w: pl.Expr | Callable[[StoredArm], pl.Expr] | None, columns: tuple[str, ...],
                 strategies: tuple[str, ...] = (), *, unit: str = "num",
                 rate: bool = False) -> None:  # fmt: skip
        self.name, self.label, self.definition, self.unit = name, label, definition, unit
        self.x, self.w, self.strategies, self.rate = x, w, strategies, rate
        self.seats_columns = (*columns, "strategy") if strategies else columns

    def missing_in(self, settings: Settings) -> str:
        return missing_strategies(self.strategies, settings)

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        return self._sums(self._held(arm.seats), arm)

    def paired(self, a: StoredArm, b: StoredArm) -> Value:
        """b minus a over the seats the strategies held in b and the same seats of the same
        games in a, whoever held them there: a strategy against the one it replaced."""
        held = self._held(b.seats).select("game", "seat")
        same = a.seats.join(held, on=["game", "seat"], how="semi")
        ua, ub = self.counted(self._sums(same, a)), self.units(b)
        both = ua.join(ub, on="game", how="inner", suffix="_b")
        if DEAL in a.games.columns:
            both = by_deal(both, a.games, ("x", "w", "x_b", "w_b"))
        return ratio_difference(*(both[c].to_numpy() for c in ("x", "w", "x_b", "w_b")))

    def _held(self, seats: pl.DataFrame) -> pl.DataFrame:
        if not self.strategies:
            return seats
        return seats.filter(pl.col("strategy").is_in(list(self.strategies)))

    def _sums(self, seats: pl.DataFrame, arm: StoredArm) -> pl.DataFrame:
        w = self.w(arm) if callable(self.w) else self.w
        w = pl.len() if w is None else w.sum()
        return seats.group_by("game", maintain_order=True).agg(
            self.x.sum().cast(pl.Float64).alias("x"), w.cast(pl.Float64).alias("w")
        )


def _whose(strategies: tuple[str, ...]) -> tuple[str, str]:
    """(' of A+B', ' A+B held') for the words of a measure over some strategies' seats."""
    joined = "+".join(strategies)
    return (f" of {joined}", f" {joined} held") if strategies else ("", "")


def seat_mean(column: str, strategies: tuple[str, ...] = (), **words: str) -> SeatRatio:
    """The mean of a seats column per seat (of the seats the strategies held)."""
    of, held = _whose(strategies)
    name = f"seat_mean.{column}" + (f".{'+'.join(strategies)}" if strategies else "")
    definition = f"The mean of the seats column `{column}` per seat{held}, over all games."
    return SeatRatio(words.get("name", name), words.get("label", f"{column} per seat{of}"),
                     words.get("definition", definition), pl.col(column), None,
                     (column,), strategies, unit=words.get("unit", "num"),
                     rate=words.get("unit") == "share")  # fmt: skip


def seat_share(column: str, strategies: tuple[str, ...] = ()) -> SeatRatio:
    """The share of seats (of the seats the strategies held) whose column is above 0."""
    of, held = _whose(strategies)
    name = f"seat_share.{column}" + (f".{'+'.join(strategies)}" if strategies else "")
    return SeatRatio(name, f"seats with {column}{of}",
                     f"The share of the seats{held} whose `{column}` is above 0, over all games.",
                     pl.col(column) > 0, None, (column,), strategies, unit="share",
                     rate=True)  # fmt: skip


def _column_and_strategies(make):
    """A family factory for `<name>.<column>` and `<name>.<column>.<A+B>`."""

    def factory(spec: str) -> SeatRatio | None:
        column, _, strategies = spec.partition(".")
        if not _COLUMN.match(column):
            return None
        return make(column, tuple(strategies.split("+")) if strategies else ())

    return factory


seat_mean_family = _column_and_strategies(seat_mean)
seat_share_family = _column_and_strategies(seat_share)


class GameTotal(Ratio):
    """A seats column summed over the table, mean per game."""

    def __init__(self, column: str) -> None:
        self.column = column
        self.name = f"game_total.{column}"
        self.label = f"{column} per game (all seats)"
        self.definition = (f"The seats column `{column}` summed over the table, mean per game "
                           "over all games.")  # fmt: skip
        self.seats_columns = (column,)

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        return arm.seats.group_by("game", maintain_order=True).agg(
            pl.col(self.column).sum().cast(pl.Float64).alias("x"), pl.lit(1.0).alias("w")
        )


def game_total(column: str) -> GameTotal | None:
    return GameTotal(column) if _COLUMN.match(column) else None


class SeatScore(OfSeat, Ratio):
    name, label = "score.seat.{seat}", "score of seat {nth}"
    definition = "The final score of seat {nth} (seat {seat}), mean over all games."
    seats_columns = ("score",)

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        return seat_value(arm, self.seat, "score")


class WonShare(OfSeat, Ratio):
    """Seat k's win share over the games someone won: a share of one unit a game (Wilson)."""

    rate = True
    name, label, unit = "won_share.seat.{seat}", "seat {nth}'s share of the games won", "share"
    definition = ("Seat {nth}'s win share over the games with a winner (a shared win counts "
                  "1/k to each of the k winners).")  # fmt: skip
    seats_columns = ("seat", "win_share")

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        return arm.seats.group_by("game", maintain_order=True).agg(
            seat_win_share(self.seat).alias("x"), DECIDED.cast(pl.Float64).alias("w")
        )


class SeatAdvantage(WonShare):
    """Seat k's share of the games won minus the fair share 1/players: the share's interval
    (Wilson), moved by that constant; a paired difference is the shares'."""

    name, label = "seat_advantage.{seat}", "seat {nth}'s advantage"
    definition = ("Seat {nth}'s win share minus the fair share 1/players, over the games with "
                  "a winner.")  # fmt: skip

    def estimate(self, arm: StoredArm) -> Value:
        return _less_fair(super().estimate(arm), arm)

    def pooled(self, arms: list[StoredArm]) -> Value:
        return _less_fair(super().pooled(arms), arms[0])


def _less_fair(share: Value, arm: StoredArm) -> Value:
    """The share minus the fair share 1/players (players: the arm's seats a game)."""
    players = (
        arm.seats.group_by("game", maintain_order=True).len()["len"].max()
        if arm.seats.height
        else 0
    )
    fair = 1.0 / players if players else float("nan")
    return Value(share.value - fair, share.low - fair, share.high - fair, share.se, share.n)


class SeatUplift(OfSeat, Ratio):
    """Seat k's win share minus the game's fair share (its total win share / players), over
    all games: a game nobody won counts 0 to both."""

    name, label, unit = "uplift.seat.{seat}", "seat {nth}'s win share above the fair share", "share"
    definition = ("Seat {nth}'s mean win share minus the fair share (the game's total win share "
                  "/ players), over all games.")  # fmt: skip
    seats_columns = ("seat", "win_share")

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        return arm.seats.group_by("game", maintain_order=True).agg(
            (seat_win_share(self.seat) - FAIR_SHARE).alias("x"), pl.lit(1.0).alias("w")
        )


class WinnerScore(Ratio):
    name, label = "winner_score", "winner's score"
    definition = ("The final score of the winner (the highest among shared winners), mean over "
                  "the games with a winner.")  # fmt: skip
    seats_columns = ("win_share", "score")

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        per = arm.seats.group_by("game", maintain_order=True).agg(
            pl.col("score").filter(WON).max().cast(pl.Float64).alias("x"),
            DECIDED.cast(pl.Float64).alias("w"),
        )
        return per.select("game", pl.col("x").fill_null(0.0), "w")


class DecidedRate(Ratio):
    rate = True
    name, label, unit = "decided_rate", "games with a winner", "share"
    definition = ("The share of all games someone won (a shared win counts once); a seat's "
                  "fair share of the wins is this / players.")  # fmt: skip
    seats_columns = ("win_share",)

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        return arm.seats.group_by("game", maintain_order=True).agg(
            DECIDED.cast(pl.Float64).alias("x"), pl.lit(1.0).alias("w")
        )


def seat_family(make):
    """A family factory for `<...>.seat.<k>`: the seat's measure when k is a seat number."""
    return lambda k: make(int(k)) if k.isdigit() else None


class SeatContrast(Contrast):
    """The mean of a seats column over the seats meeting `yes` minus over those meeting `no`,
    among the seats meeting `among` (every seat without it): per game, each side's sum and
    count (a game one unit, whatever seats it has on either side)."""

    def __init__(self, name: str, label: str, definition: str, value: str, yes: pl.Expr,
                 no: pl.Expr, columns: tuple[str, ...], among: pl.Expr | None = None,
                 unit: str = "num") -> None:  # fmt: skip
        self.name, self.label, self.definition, self.unit = name, label, definition, unit
        self.value, self.yes, self.no, self.among = value, yes, no, among
        self.seats_columns = (value, *columns)

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        seats = arm.seats if self.among is None else arm.seats.filter(self.among)
        sides = seats.group_by("game", maintain_order=True).agg(
            pl.col(self.value).filter(self.yes).sum().alias("x1"), self.yes.sum().alias("w1"),
            pl.col(self.value).filter(self.no).sum().alias("x0"), self.no.sum().alias("w0"),
        )  # fmt: skip
        every = arm.seats.select("game").unique()
        return every.join(sides, on="game", how="left").fill_null(0)
