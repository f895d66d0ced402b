"""The facts a group's records hold, each read the same way from the records and from the lab's
stored games: one value per game, a category (who won from which seat, how it ended) or a
number (the score per seat, the margin, a stored column's value), and the measures of the
lab's registry that give its figures with their intervals (sim/measures).

Which facts: who won from which seat (a competitive game whose records say the seats), how
the game ended (its `outcome` column, or in a cooperative game whether the table won), the
score per seat, the margin between first and second (competitive), and every column the
records hold that the game stores, per game (`turns`, `rounds`) or per seat (the mean over
a game's seats: `missiles_bought`). A column the game does not store is refused, with the
nearest it does; columns named `note...` or `comment...` are left aside.

The real records become the same tables the lab stores (`real_frames`): seats numbered from
0, a win counting 1/k to each of k winners, the columns cast to the game's types; a value
that is not a number, or a per-game column whose rows disagree, is refused naming the line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from sim.config.words import did_you_mean
from sim.errors import SimError
from sim.playtest.records import Records
from sim.stored_arm import Settings, StoredArm

BINS = 8  # a number's categories: the octiles of the simulated values
ASIDE = ("note", "comment")  # columns left aside
NOT_FACTS = (
    "seat",
    "strategy",
    "error",
    "error_seat",
    "trace_hash",
    "winners_mask",
    "players",
    "won",
    "score",
    "win_share",
)  # stored columns that are not compared as columns


@dataclass(frozen=True)
class Fact:
    """One fact: `name`, its words, `kind` ('category' or 'number') and the measures of its
    figures (registry names, or a measure object of this module)."""

    name: str
    words: str
    kind: str
    column: str = ""  # the stored column (a column fact)
    per_seat: bool = False
    measures: tuple[str, ...] = ()  # the registry's names
    unit: str = ""  # what a number counts ("turns", "points")


def facts_of(
    records: Records, game: Any, games_schema: Mapping[str, Any], seats_schema: Mapping[str, Any]
) -> list[Fact]:
    """The facts the records hold, given the game's stored columns (name -> polars dtype)."""
    from sim.measures.spec import for_game as measures
    from sim.plugins.base import outcomes

    spec = measures(game)
    seats = records.seats
    found: list[Fact] = []
    extra = [c for c in records.extra if not c.startswith(ASIDE)]
    if not spec.cooperative and seats.get_column("seat").drop_nulls().len():
        found.append(
            Fact("winner", "who won from which seat", "category", measures=("win_share.seat.0",))
        )
    ends = outcomes(game) or ()
    if "outcome" in extra and seats.get_column("outcome").drop_nulls().len():
        found.append(
            Fact(
                "outcome",
                "how games end",
                "category",
                column="outcome",
                measures=tuple(f"{o}_rate" for o in ends),
            )
        )
    elif spec.cooperative and spec.win:
        found.append(
            Fact("result", "how often the table wins", "category", measures=(f"{spec.win}_rate",))
        )
    if seats.get_column("score").drop_nulls().len():
        found.append(
            Fact(
                "score",
                "the score per seat",
                "number",
                measures=("mean_score",),
                unit=spec.score_unit,
            )
        )
        if not spec.cooperative:
            found.append(
                Fact(
                    "margin",
                    "the margin between first and second",
                    "number",
                    measures=("mean_margin",),
                    unit=spec.score_unit,
                )
            )
    for column in extra:
        if column == "outcome" or not seats.get_column(column).drop_nulls().len():
            continue
        if column in games_schema and column not in NOT_FACTS:
            words = f"game length ({column})" if column in spec.length else f"the {column}"
            found.append(
                Fact(
                    column,
                    words,
                    _kind(games_schema[column]),
                    column=column,
                    measures=(f"mean_{column}",),
                    unit=column,
                )
            )
        elif column in seats_schema and column not in NOT_FACTS:
            found.append(
                Fact(
                    column,
                    f"the {column} per seat",
                    _kind(seats_schema[column]),
                    column=column,
                    per_seat=True,
                    measures=(f"seat_mean.{column}",),
                    unit=column,
                )
            )
        else:
            _unknown(records, column, games_schema, seats_schema)
    return found


def _kind(dtype: Any) -> str:
    return "number" if dtype.is_numeric() else "category"


def _unknown(
    records: Records, column: str, games_schema: Mapping[str, Any], seats_schema: Mapping[str, Any]
) -> None:
    known = [c for c in (*games_schema, *seats_schema) if c not in NOT_FACTS]
    then = (
        f"Columns compared: {', '.join(known)}; a column named note... or comment... is left aside."
    )
    raise SimError(
        f"the game {records.game} stores no column '{column}'",
        file=records.file,
        line=1,
        key=column,
        hint=did_you_mean(column, known, then=then),
    )


def real_frames(
    records: Records, facts: Sequence[Fact], game: Any
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The records as the lab's games and seats tables (the columns the facts read)."""
    from sim.plugins.base import outcomes

    seats = records.seats
    winners = pl.col("won").cast(pl.Float64).sum().over("game")
    table = seats.select(
        "game",
        "seat",
        "players",
        "player",
        "score",
        "where",
        "line",
        pl.when(pl.col("won")).then(1.0 / winners).otherwise(0.0).alias("win_share"),
        pl.len().over("game").alias("rows"),
    )
    games = records.games.select("game", "players", "rows")
    for fact in facts:
        if not fact.column:
            continue
        values = _column(records, fact, outcomes(game) or ())
        if fact.per_seat:
            table = table.with_columns(values)
        else:
            _agree(records, fact.column, values)
            first = seats.select("game", values).group_by("game", maintain_order=True).first()
            games = games.join(first, on="game", how="left")
    return games, table


def _column(records: Records, fact: Fact, ends: Sequence[str]) -> pl.Series:
    """A fact's column of the records, cast (a line naming the cell that is not a value)."""
    raw = records.seats.get_column(fact.column)
    if fact.kind == "category":
        if fact.column == "outcome" and ends:
            for i, value in enumerate(raw.to_list()):
                if value is not None and value not in ends:
                    raise _cell(
                        records,
                        i,
                        fact.column,
                        f"'{value}' is not an outcome of {records.game}",
                        did_you_mean(value, list(ends), then=f"Outcomes: {', '.join(ends)}."),
                    )
        return raw.alias(fact.column)
    out = []
    for i, value in enumerate(raw.to_list()):
        try:
            out.append(None if value is None else float(value))
        except ValueError:
            raise _cell(
                records,
                i,
                fact.column,
                f"'{value}' is not a number",
                f"Write {fact.column} as a number, or leave the cell empty.",
            ) from None
    return pl.Series(fact.column, out, dtype=pl.Float64)


def _agree(records: Records, column: str, values: pl.Series) -> None:
    """A per-game column holds one value per game: every row of a game the same."""
    frame = records.seats.select("game", values)
    first = frame.group_by("game", maintain_order=True).agg(pl.col(column).drop_nulls().first())
    joined = frame.with_row_index("i").join(first, on="game", suffix="_first")
    bad = joined.filter(
        pl.col(column).is_not_null() & (pl.col(column) != pl.col(f"{column}_first"))
    )
    if bad.height:
        i = int(bad.get_column("i")[0])
        raise _cell(
            records,
            i,
            column,
            f"the rows of game '{records.seats['game_id'][i]}' "
            f"disagree on {column} ({bad[f'{column}_first'][0]} and {bad[column][0]})",
            f"{column} is a game's: give every row of the game the same value.",
        )


def _cell(records: Records, i: int, column: str, message: str, hint: str) -> SimError:
    line = records.seats.get_column("line")[i]
    where = records.seats.get_column("where")[i]
    text = message if line is not None else f"{where}: {message}"
    return SimError(text, file=records.file, line=line, key=column, hint=hint)


# --- one value per game ------------------------------------------------------------------------


def values(fact: Fact, games: pl.DataFrame, seats: pl.DataFrame, spec: Any) -> pl.DataFrame:
    """game, value: the fact of each game (null where the game does not say), from the games
    and seats tables (stored or real: `rows` counts a real game's recorded seats)."""
    rows = pl.col("rows") if "rows" in seats.columns else pl.len()
    won = pl.col("win_share") > 0
    if fact.name == "winner":
        per = seats.group_by("game", maintain_order=True).agg(
            won.sum().alias("n"),
            pl.col("seat").filter(won).first().alias("at"),
            rows.first().alias("rows") if "rows" in seats.columns else pl.len().alias("rows"),
            pl.col("players").first(),
        )
        value = (
            pl.when(pl.col("n") > 1)
            .then(pl.lit("shared"))
            .when((pl.col("n") == 1) & pl.col("at").is_not_null())
            .then(pl.format("seat {}", pl.col("at") + 1))
            .when((pl.col("n") == 0) & (pl.col("rows") == pl.col("players")))
            .then(pl.lit("nobody"))
        )
        return per.select("game", value.alias("value"))
    if fact.name == "result":
        per = seats.group_by("game", maintain_order=True).agg(won.any().alias("won"))
        value = pl.when(pl.col("won")).then(pl.lit("won")).otherwise(pl.lit("lost"))
        return per.select("game", value.alias("value"))
    if fact.name == "score":
        per = seats.group_by("game", maintain_order=True).agg(
            pl.col("score").mean().alias("value"), pl.col("score").is_null().any().alias("gap")
        )
        return per.select("game", pl.when(~pl.col("gap")).then(pl.col("value")).alias("value"))
    if fact.name == "margin":
        from sim.measures.generic import final_order

        order = final_order(seats.select("game", "score", "win_share"))
        full = seats.group_by("game", maintain_order=True).agg(
            (rows.first() == pl.col("players").first()).alias("full")
            if "rows" in seats.columns
            else pl.lit(True).alias("full")
        )
        return order.join(full, on="game").select(
            "game", pl.when(pl.col("full")).then(pl.col("margin")).cast(pl.Float64).alias("value")
        )
    if fact.per_seat:
        per = seats.group_by("game", maintain_order=True).agg(
            pl.col(fact.column).cast(pl.Float64).mean()
        )
        return per.select("game", pl.col(fact.column).alias("value"))
    column = pl.col(fact.column)
    cast = column.cast(pl.Float64) if fact.kind == "number" else column.cast(pl.String)
    return games.select("game", cast.alias("value"))


@dataclass(frozen=True)
class Coding:
    """How a fact's values become categories at one table: the categories' names, or the
    edges of a number's bins."""

    labels: tuple[str, ...]
    edges: tuple[float, ...] = ()

    def codes(self, values: pl.Series) -> np.ndarray:
        """Each value's category (-1: no value)."""
        if self.edges or not self.labels or values.dtype.is_numeric():
            v = values.cast(pl.Float64).to_numpy()
            codes = np.searchsorted(np.asarray(self.edges), v, side="right")
            return np.where(np.isnan(v), -1, codes).astype(np.int64)
        index = {label: i for i, label in enumerate(self.labels)}
        return np.array(
            [index.get(v, -1) if v is not None else -1 for v in values.to_list()], np.int64
        )


def coding(fact: Fact, simulated: Sequence[pl.Series], real: pl.Series) -> Coding:
    """The categories of a fact at one table: a category's names (the simulated and the
    recorded ones), or a number's bins at the octiles of the simulated values."""
    if fact.kind == "category":
        seen = {v for s in (*simulated, real) for v in s.drop_nulls().to_list()}
        return Coding(tuple(sorted(seen, key=_category_order)))
    pooled = np.concatenate([s.drop_nulls().cast(pl.Float64).to_numpy() for s in simulated])
    if pooled.size == 0:
        return Coding(("all",), ())
    edges = np.unique(np.quantile(pooled, np.arange(1, BINS) / BINS))
    labels = tuple(f"bin {i}" for i in range(edges.size + 1))
    return Coding(labels, tuple(float(e) for e in edges))


def _category_order(value: str) -> tuple[int, str]:
    """Seats in their order, then the rest by name."""
    if value.startswith("seat ") and value[5:].isdigit():
        return (0, f"{int(value[5:]):04d}")
    return (1, value)


def arm_view(games: pl.DataFrame, seats: pl.DataFrame, players: int) -> StoredArm:
    """A measure's view of one arm's tables (or of the records): the one place the fit makes
    one."""
    return StoredArm(games, seats, Settings(players=players))
