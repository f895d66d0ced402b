"""The interface every game plugin offers the shared runner, storage, reports and CLI.

A plugin knows its rulesets and strategies and plays chunks of games into plain columns; the
runner adds the experiment's columns (arm, game index, seed) and never looks inside a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np


@dataclass(frozen=True)
class StrategySpec:
    """A strategy as an experiment names it: a registered name or `module:Class`, plus
    parameters (validated by the game's strategy registry)."""

    name: str
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        if not self.params:
            return self.name
        inner = ",".join(f"{k}={v}" for k, v in self.params)
        return f"{self.name}({inner})"


@dataclass
class Chunk:
    """The results of a chunk of games as columns: one row per game, one per (game, seat)."""

    games: dict[str, np.ndarray]
    seats: dict[str, np.ndarray]
    errors: list[str] = field(default_factory=list)  # illegal moves, as readable messages
    # games stopped by an illegal move, per strategy label (the runner fails a run when a
    # strategy's share grows too large); a plugin that leaves it empty gets warnings only
    illegal: dict[str, int] = field(default_factory=dict)


class Game(Protocol):
    """Required: name, presets, load_ruleset, check_strategy, play_chunk.

    Optional (read through the helpers below, with a default when a plugin lacks them):
    ``player_counts`` (the numbers of players the game takes) and ``outcomes`` (the values
    of the per-game ``outcome`` column).
    """

    name: str
    presets: tuple[str, ...]

    def load_ruleset(self, name_or_path: str, overrides: Any = (), *, source: str = "--set"):
        """A validated, immutable ruleset (has .name, .values, .to_yaml(), .fingerprint())."""

    def check_strategy(self, spec: StrategySpec, *, source: str) -> StrategySpec:
        """Validate a strategy name and its parameters; raise ConfigError naming `source`."""

    def play_chunk(
        self,
        ruleset: Any,
        n_players: int,
        lineup: list[StrategySpec],
        seat_lineup: np.ndarray,
        seeds: np.ndarray,
    ) -> Chunk:
        """Play len(seeds) games; game g seats lineup[seat_lineup[g, k]] in seat k."""


# --- optional parts of the protocol -------------------------------------------------------

DEFAULT_PLAYER_COUNTS = (2, 3, 4)


def player_counts(game: Game) -> tuple[int, ...]:
    """The numbers of players `game` takes (`game.player_counts`, default 2, 3 or 4)."""
    return tuple(getattr(game, "player_counts", DEFAULT_PLAYER_COUNTS))


def outcomes(game: Game) -> tuple[str, ...] | None:
    """The values of the per-game `outcome` column (`game.outcomes`), or None if unknown."""
    found = getattr(game, "outcomes", None)
    return tuple(found) if found is not None else None
