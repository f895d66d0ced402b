"""The measures every game gets: outcome rates, seats and strategies, length and score, and the
quality of play (closeness, the lead, comebacks, turns without a real choice).

A game's `GameMeasures` (sim/measures/spec.py) says what only it knows; `generic(spec,
outcomes)` builds the registry entries from it. Competitive measures read the per-seat final
order: a seat is ahead of another when its win share is higher, or when neither won and its
score is higher (the order `sim tournament` rates); games nobody won are left out of them.
"""

from __future__ import annotations

import polars as pl

from sim.measures.blocks import never_wins_excess_family, never_wins_family
from sim.measures.core import Column, Measure, Quantile, Ratio, Share, Value, words_of_member
from sim.measures.registry import Registry
from sim.measures.seats import (
    DECIDED,
    FAIR_SHARE,
    WON,
    DecidedRate,
    OfSeat,
    SeatAdvantage,
    SeatRatio,
    SeatScore,
    SeatUplift,
    WinnerScore,
    WonShare,
    game_total,
    missing_strategies,
    seat_family,
    seat_mean,
    seat_mean_family,
    seat_share_family,
    seat_value,
)
from sim.measures.spec import GameMeasures
from sim.plugins import trajectory as T
from sim.stored_arm import Settings, StoredArm

# --- seats and strategies ------------------------------------------------------------------


class SeatWinShare(OfSeat, Ratio):
    rate = True
    name, label, unit = "win_share.seat.{seat}", "win share of seat {nth}", "share"
    definition = ("Mean win share of seat {nth} (seat {seat}, 0 = first to play) over all "
                  "games; a shared win counts 1/k to each of the k winners.")  # fmt: skip
    seats_columns = ("seat", "win_share")

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        return seat_value(arm, self.seat, "win_share")


def strategy_win_share(strategy: str) -> SeatRatio:
    """Wilson's interval when the strategies hold one seat a game, the delta method's when
    several (their wins in one game are not independent); `A+B`: their seats together."""
    return seat_mean("win_share", tuple(strategy.split("+")), name=f"win_share.{strategy}",
                     label=f"win share of {strategy}", unit="share",
                     definition=f"Mean win share of the seats {strategy} held, over all games "
                     "(the fair share of an even table is 1/players).")  # fmt: skip


class StrategyUplift(Ratio):
    """A strategy's win share above the fair share: what playing it (buying an item, say)
    wins over the table. The pricing sections read their buyers' uplift here too: given
    several strategies, their seats count together."""

    def __init__(self, strategy: str, *more: str) -> None:
        self.strategies = (strategy, *more)
        self.strategy = "+".join(self.strategies)
        self.name = f"uplift.{self.strategy}"
        self.label = f"win-share uplift of {self.strategy}"
        self.unit = "share"
        self.definition = (f"The mean win share of the seats {self.strategy} held minus the "
                           "fair share (the game's total win share / players), over the games "
                           "it played; 0 when playing it neither gains nor loses.")  # fmt: skip
        self.seats_columns = ("strategy", "win_share")

    def missing_in(self, settings: Settings) -> str:
        return missing_strategies(self.strategies, settings)

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        mine = pl.col("strategy").is_in(list(self.strategies))
        per = arm.seats.group_by("game", maintain_order=True).agg(
            pl.col("win_share").filter(mine).mean().alias("held"),
            FAIR_SHARE.alias("fair"),
            mine.any().alias("plays"),
        )
        return per.filter(pl.col("plays")).select(
            "game", (pl.col("held") - pl.col("fair")).alias("x"), pl.lit(1.0).alias("w")
        )


class Beats(Ratio):
    """How often `upper` finishes ahead of `lower` when both sit at the table (a rate: each
    pair of seats one unit; Wilson's interval when every game holds one pair)."""

    rate = True

    def __init__(self, upper: str, lower: str) -> None:
        self.upper, self.lower = upper, lower
        self.name = f"beats.{upper}>{lower}"
        self.label = f"{upper} ahead of {lower}"
        self.unit = "share"
        self.definition = (
            f"Over every pair of seats held by {upper} and {lower} in the same game (games with "
            f"a winner), the share in which {upper} finishes ahead: it won and {lower} did not, "
            "or neither won and its score is higher; a tie counts one half."
        )
        self.seats_columns = ("strategy", "win_share", "score")

    def missing_in(self, settings: Settings) -> str:
        return missing_strategies((self.upper, self.lower), settings)

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        s = arm.seats
        played = s.group_by("game", maintain_order=True).agg(DECIDED.alias("has_winner"))
        keys = ("game", "seat", "win_share", "score")
        a = s.filter(pl.col("strategy") == self.upper).select(keys)
        b = s.filter(pl.col("strategy") == self.lower).select(keys)
        pairs = a.join(b, on="game", suffix="_b").filter(pl.col("seat") != pl.col("seat_b"))
        ahead = (pl.col("win_share") > pl.col("win_share_b")) | (
            (pl.col("win_share") == 0) & (pl.col("win_share_b") == 0)
            & (pl.col("score") > pl.col("score_b"))
        )  # fmt: skip
        level = (pl.col("win_share") == pl.col("win_share_b")) & (
            (pl.col("win_share") > 0) | (pl.col("score") == pl.col("score_b"))
        )
        scored = pairs.select(
            "game", (ahead.cast(pl.Float64) + 0.5 * level.cast(pl.Float64)).alias("x")
        )
        per = scored.group_by("game", maintain_order=True).agg(
            pl.col("x").sum(), pl.len().cast(pl.Float64).alias("w")
        )
        return per.join(played, on="game").select(
            "game", "x", pl.when(pl.col("has_winner")).then(pl.col("w")).otherwise(0.0).alias("w")
        )


def _beats(pairing: str) -> Beats | None:
    upper, sep, lower = pairing.partition(">")
    return Beats(upper, lower) if sep and upper and lower and upper != lower else None


class CoinFlips(Measure):
    """Luck in a designer's units: the share of games a coin would have to decide, in a game
    the stronger player always wins otherwise, to give `upper`'s record against `lower`
    (Duersch, Lambrecht and Oechssler, "Measuring skill and chance in games", European
    Economic Review 2020: their "x%-chess", with the pure game of skill taken as one the
    stronger always wins). Were a share c of games coin flips, `upper` would finish ahead in
    1 - c/2 of them, so c = 2 (1 - p) for p = beats.upper>lower: 0 a pure game of skill
    between these two, 1 a coin flip (also when `lower` is the stronger: clipped there)."""

    unit = "share"

    def __init__(self, upper: str, lower: str) -> None:
        self.beats = Beats(upper, lower)
        self.name = f"coin_flips.{upper}>{lower}"
        self.label = "coin-flip share"
        self.definition = (
            f"The share of games a coin would have to decide, were the stronger player to win "
            f"every other game, to give {upper}'s record against {lower}: 2 x (1 - the share "
            f"in which {upper} finishes ahead of {lower}). 0% is a pure game of skill between "
            "them, 100% a coin flip (Duersch, Lambrecht and Oechssler 2020, with a pure game of "
            "skill as the reference)."
        )
        self.seats_columns = self.beats.seats_columns

    def missing_in(self, settings: Settings) -> str:
        return self.beats.missing_in(settings)

    @staticmethod
    def _of(p: Value) -> Value:
        def c(x: float) -> float:
            return min(max(2.0 * (1.0 - x), 0.0), 1.0)

        return Value(c(p.value), c(p.high), c(p.low), 2.0 * p.se, p.n)

    def estimate(self, arm: StoredArm) -> Value:
        return self._of(self.beats.estimate(arm))

    def pooled(self, arms: list[StoredArm]) -> Value:
        return self._of(self.beats.pooled(arms))

    def paired(self, a: StoredArm, b: StoredArm) -> Value:
        d = self.beats.paired(a, b)  # the coin-flip share moves by -2 x the record's change
        return Value(-2.0 * d.value, -2.0 * d.high, -2.0 * d.low, 2.0 * d.se, d.n)


def _coin_flips(pairing: str) -> CoinFlips | None:
    found = _beats(pairing)
    return CoinFlips(found.upper, found.lower) if found is not None else None


MEAN_SCORE = seat_mean("score", name="mean_score", label="score per seat",
                       definition="Mean final score per seat, over all games.")  # fmt: skip


class Median(Quantile):
    def __init__(self, column: str) -> None:
        self.column = column
        self.name = f"median_{column}"
        self.label = f"median {column}"
        self.definition = f"The median of the games column `{column}` over all games."
        self.games_columns = (column,)

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        return arm.games.select("game", pl.col(self.column).alias("v"))


def _mean(column: str) -> Column:
    return Column(f"mean_{column}", column, f"mean {column}",
                  f"The mean of the games column `{column}` over all games.")  # fmt: skip


# --- the final order ---------------------------------------------------------------------------


def final_order(seats: pl.DataFrame) -> pl.DataFrame:
    """Per game: `has_winner`, `margin` (first minus second: 0 for a shared win, else the
    winner's score minus the best score of the others; null without a winner or a second)."""
    per = seats.group_by("game", maintain_order=True).agg(
        WON.sum().alias("winners"),
        pl.col("score").filter(WON).max().alias("top"),
        pl.col("score").filter(~WON).max().alias("second"),
    )
    margin = (
        pl.when(pl.col("winners") == 0).then(None)
        .when(pl.col("winners") > 1).then(0)
        .otherwise(pl.col("top") - pl.col("second"))
    )  # fmt: skip
    return per.select("game", (pl.col("winners") > 0).alias("has_winner"), margin.alias("margin"))


FINAL_ORDER_COLUMNS = ("win_share", "score")  # the seats columns final_order reads
# what median_margin and mean_margin take the median and the mean of
_MARGIN = ("final margin between first and second, in points, over the games with a winner (a "
           "shared win has margin 0).")  # fmt: skip


class MedianMargin(Quantile):
    name, label = "median_margin", "final margin (median)"
    definition = f"The median {_MARGIN}"
    seats_columns = FINAL_ORDER_COLUMNS

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        return final_order(arm.seats).select("game", pl.col("margin").alias("v"))


class MeanMargin(Ratio):
    name, label = "mean_margin", "final margin"
    definition = f"The mean {_MARGIN}"
    seats_columns = FINAL_ORDER_COLUMNS

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        order = final_order(arm.seats)
        return order.select("game", pl.col("margin").alias("x"),
                            pl.col("margin").is_not_null().cast(pl.Float64).alias("w"))  # fmt: skip


class Close(Ratio):
    """The share of games with a winner whose margin is at most one scoring event."""

    rate = True
    name, label, unit = "close_rate", "games within one scoring event", "share"
    seats_columns = FINAL_ORDER_COLUMNS

    def __init__(self, spec: GameMeasures) -> None:
        self.spec = spec
        self.definition = (
            "The share of the games with a winner whose final margin between first and second "
            f"is at most one scoring event ({spec.scoring_event_words}): one more such event "
            "for the runner-up would have tied or turned the game."
        )

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        event = float(self.spec.scoring_event(arm.settings)) if self.spec.scoring_event else 1.0
        order = final_order(arm.seats)
        return order.select(
            "game",
            (pl.col("margin") <= event).cast(pl.Float64).alias("x"),
            pl.col("margin").is_not_null().cast(pl.Float64).alias("w"),
        )


# --- the lead ----------------------------------------------------------------------------------


def _strict(column: str, best: str) -> tuple[pl.Expr, pl.Expr]:
    """(exactly one seat holds the best value of `column` in its game, that seat won);
    `best` is 'max' (the leader) or 'min' (the last)."""
    top = pl.col(column).max() if best == "max" else pl.col(column).min()
    holds = pl.col(column) == top
    return (holds.sum() == 1), (pl.col("win_share").filter(holds).max() > 0)


_IN_WORDS = {"third": "a third of the way", "half": "half time", "two_thirds": "two thirds"}


class HolderWins(Ratio):
    """P(the seat that leads (`best` 'max') or trails ('min') at a point of the game wins): its
    class writes `name`, `label` and `definition` as templates of {fraction} (third, half,
    two_thirds) and {at} (the point in words)."""

    rate = True
    unit = "share"
    best: str

    def __init__(self, fraction: str) -> None:
        self.column = T.SCORE_AT[fraction]
        words_of_member(self, fraction=fraction, at=_IN_WORDS[fraction])
        self.seats_columns = ("win_share", self.column)

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        alone, won = _strict(self.column, self.best)
        per = arm.seats.group_by("game", maintain_order=True).agg(
            alone.alias("alone"), won.alias("won"), DECIDED.alias("any")
        )
        return per.select(
            "game",
            pl.col("won").cast(pl.Float64).alias("x"),
            (pl.col("alone") & pl.col("any")).cast(pl.Float64).alias("w"),
        )


class LeaderWins(HolderWins):
    best = "max"
    name, label = "leader_wins.{fraction}", "the leader at {at} wins"
    definition = ("Over the games with a winner and a single leader at {at} (the seat with the "
                  "strictly highest score after that share of the steps), the share in which "
                  "that leader wins.")  # fmt: skip


class LastWins(HolderWins):
    best = "min"
    name, label = "last_wins.{fraction}", "the last at {at} wins"
    definition = ("Comebacks: over the games with a winner and a single last seat at {at} (the "
                  "strictly lowest score after that share of the steps), the share in which that "
                  "seat wins.")  # fmt: skip


def _fraction_family(make):
    """A family factory for `<...>.<fraction>`: the measure at that point of the game."""
    return lambda fraction: make(fraction) if fraction in T.SCORE_AT else None


class DecidedLastRound(Ratio):
    rate = True
    name, label, unit = "decided_last_round", "decided in the last round", "share"
    definition = ("The share of the games with a winner in which no winner was the single "
                  "leader before the last round (the leader then did not win, or the lead was "
                  "shared): the last round decided the game.")  # fmt: skip
    seats_columns = ("win_share", T.SCORE_BEFORE_LAST_ROUND)

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        alone, won = _strict(T.SCORE_BEFORE_LAST_ROUND, "max")
        per = arm.seats.group_by("game", maintain_order=True).agg(
            (alone & won).alias("held"), DECIDED.alias("any")
        )
        return per.select(
            "game",
            (~pl.col("held")).cast(pl.Float64).alias("x"),
            pl.col("any").cast(pl.Float64).alias("w"),
        )


class NoChoice(Ratio):
    name, label = "no_choice_share", "turns without a real choice"

    def __init__(self, spec: GameMeasures) -> None:
        self.forced, self.turns = spec.no_choice or ("", "")
        self.definition = (f"The share of all turns played in which the player had no real "
                           f"choice: {spec.no_choice_words}.")  # fmt: skip
        self.unit = "share"
        self.seats_columns = (self.forced, self.turns)

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        return arm.seats.group_by("game", maintain_order=True).agg(
            pl.col(self.forced).sum().cast(pl.Float64).alias("x"),
            pl.col(self.turns).sum().cast(pl.Float64).alias("w"),
        )


# --- the registry of generic measures -------------------------------------------------------------


def generic(spec: GameMeasures, outcomes: tuple[str, ...] | None) -> Registry:
    """Every generic measure for a game with these outcomes and this spec."""
    r = Registry()
    r.add(MEAN_SCORE)
    r.add(WinnerScore())
    r.add(DecidedRate())
    r.family("median_<column>", Median, "the median of a games column, e.g. median_turns")
    if not spec.cooperative:
        r.add(MedianMargin())
        r.add(MeanMargin())
        r.add(Close(spec))
        r.add(Column("lead_changes", T.LEAD_CHANGES, "lead changes per game",
                     "How often the lead changed hands in a game (the leader after a step is the "
                     "seat with the strictly highest score; a tie neither counts nor forgets who "
                     "led), mean over all games."))  # fmt: skip
        r.add(DecidedLastRound())
        r.family("leader_wins.<fraction>", _fraction_family(LeaderWins),
                 "the leader at a point of the game wins (third, half, two_thirds)")  # fmt: skip
        r.family("last_wins.<fraction>", _fraction_family(LastWins),
                 "the last at a point of the game wins (third, half, two_thirds)")  # fmt: skip
        r.family("seat_advantage.<k>", seat_family(SeatAdvantage),
                 "seat k's win share minus the fair share, over games with a winner")  # fmt: skip
        r.family("won_share.seat.<k>", seat_family(WonShare),
                 "seat k's win share over the games with a winner")  # fmt: skip
        r.family("beats.<pairing>", _beats,
                 "beats.A>B: how often strategy A finishes ahead of B at a table")  # fmt: skip
        r.family("coin_flips.<pairing>", _coin_flips,
                 "coin_flips.A>B: the share of games a coin would have to decide to give A's "
                 "record against B, were the stronger to win the rest (0 pure skill, 1 a coin "
                 "flip)")  # fmt: skip
    if spec.no_choice is not None:
        r.add(NoChoice(spec))
    for m in spec.own:
        r.add(m)
    for pattern, factory, about in spec.own_families:
        r.family(pattern, factory, about)

    def outcome_rate(outcome: str) -> Share | None:
        if outcomes is not None and outcome not in outcomes:
            return None
        words = spec.ends.get(outcome, f"end as {outcome}")
        return Share(f"{outcome}_rate", f"{outcome} rate", f"The share of all games that {words}.",
                     pl.col("outcome") == outcome, ("outcome",))  # fmt: skip

    r.family("<outcome>_rate", outcome_rate, "the share of games with that outcome, e.g. "
             + (f"{outcomes[0]}_rate" if outcomes else "victory_rate"),
             examples=[f"{o}_rate" for o in outcomes or ()])  # fmt: skip
    r.family("win_share.seat.<k>", seat_family(SeatWinShare),
             "mean win share of seat k (0 = first to play)")  # fmt: skip
    r.family("win_share.<strategy>", strategy_win_share,
             "mean win share of the seats a strategy (its label) held")  # fmt: skip
    r.family("never_wins.seat.<k>", never_wins_family,
             "of deals replayed in several seatings or tables, the share seat k wins none of "
             "(an arm made by sim.measures.blocks.replayed)")  # fmt: skip
    r.family(
        "never_wins_excess.seat.<k>",
        never_wins_excess_family,
        "never_wins.seat.<k> minus its share were each replay won independently",
    )
    r.family("uplift.seat.<k>", seat_family(SeatUplift),
             "seat k's mean win share minus the fair share (win shares / players)")  # fmt: skip
    r.family("uplift.<strategy>", lambda s: StrategyUplift(*s.split("+")),
             "a strategy's mean win share minus the fair share (win shares / players); "
             "uplift.A+B: the seats of A and B together")  # fmt: skip
    r.family("score.seat.<k>", seat_family(SeatScore), "the final score of seat k")
    r.family(
        "seat_mean.<column>",
        seat_mean_family,
        "the mean of a seats column per seat, "
        "e.g. seat_mean.launches; seat_mean.<column>.<strategy>: per seat it held",
    )
    r.family("seat_share.<column>", seat_share_family, "the share of seats whose column is "
             "above 0; seat_share.<column>.<strategy>: of the seats it held")  # fmt: skip
    r.family(
        "game_total.<column>",
        game_total,
        "a seats column summed over the table, mean per game, e.g. game_total.score",
    )
    r.family("mean_<column>", _mean, "the mean of a games column, e.g. mean_turns, mean_rounds")
    return r
