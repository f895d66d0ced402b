"""One arm of a results folder in memory, as the measures, the reports, the stop rules and the
Python API read it (sim.results hands them out: `read_arm`, `Results.stored`): its games, its
seats and its settings. Light: polars only, nothing of the games or the storage."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import polars as pl


@dataclass(frozen=True)
class Settings:
    """What an arm was played with, as its manifest entry records it."""

    players: int = 0
    lineup: tuple[str, ...] = ()  # the strategies' labels
    rules: Mapping[str, Any] = field(default_factory=dict)  # flat rule keys of its ruleset
    index: int = 0
    name: str = ""
    ruleset: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    ruleset_ref: str = ""  # preset name or ruleset file the arm starts from
    overrides: tuple[str, ...] = ()  # rule keys the experiment changed for this arm
    override_values: dict[str, Any] = field(default_factory=dict)  # those keys' values
    skill: str = ""  # the skill level the arm is played at (experiments with `skills:`)
    base_arm: str = ""  # the arm it repeats at that level

    def label(self, keys: list[str] | tuple[str, ...] = ()) -> str:
        if not keys:
            return self.name
        return ", ".join(f"{k}={_short(self.params.get(k))}" for k in keys)


@dataclass(frozen=True)
class StoredArm:
    """One arm's stored games in memory: `games` one row per game, `seats` one per game and
    seat, both with the column `game` (its index: game i has the same seed in every arm), and
    the arm's `settings`."""

    games: pl.DataFrame
    seats: pl.DataFrame
    settings: Settings = field(default_factory=Settings)

    def first(self, games: int) -> StoredArm:
        """Games 0..games-1 only (`first_games`)."""
        keep = first_games(games)
        return StoredArm(self.games.filter(keep), self.seats.filter(keep), self.settings)

    def where(self, games: pl.Expr | None = None, seats: pl.Expr | None = None) -> StoredArm:
        """The games meeting `games` (a condition on the games table) with their seats, and of
        those the seats meeting `seats`: what a measure over a part of the arm reads (the
        games with a winner, the seats that were dealt a card)."""
        kept, table = self.games, self.seats
        if games is not None:
            kept = kept.filter(games)
            table = table.join(kept.select("game"), on="game", how="semi")
        if seats is not None:
            table = table.filter(seats)
        return StoredArm(kept, table, self.settings)


def first_games(games: int) -> pl.Expr:
    """The rows of games 0..games-1, whatever more is stored: a stop rule or a search's rung
    reads the same games whatever the workers, the chunks or an interrupted run did."""
    return pl.col("game") < games


def _short(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
