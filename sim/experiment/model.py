"""An experiment as the runner plays it: a frozen Experiment of arms, validated before any game
runs, and the keys an experiment file may have (the format is documented in docs/results.md).

Reading a file into this model is sim/experiment/parsing.py's work (with the modules it names).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from sim.plugins.base import StrategySpec

TOP_KEYS = (
    "name", "description", "game", "ruleset", "rules", "players", "seats", "strategies", "pool",
    "rotate", "games", "seed", "sweep", "arms", "baseline", "precision", "report", "skills",
    "tolerances",
)  # fmt: skip
ARM_KEYS = (
    "name", "description", "ruleset", "rules", "players", "seats", "strategies", "pool", "rotate",
)  # fmt: skip
DEFAULT_GAMES = 10_000
DEFAULT_SEED = 0


@dataclass(frozen=True)
class Arm:
    """One setting of the experiment: a ruleset, players and a lineup, played `games` times."""

    index: int
    name: str
    ruleset_ref: str  # preset name or absolute path of a ruleset file
    overrides: tuple[tuple[str, Any], ...]  # rule overrides on top of ruleset_ref, in order
    ruleset: Any = field(compare=False, repr=False)  # the plugin's effective ruleset
    players: int = 4
    pool: tuple[StrategySpec, ...] = ()
    rotate: str = "none"
    lineup: tuple[StrategySpec, ...] = ()  # distinct strategies; tables index into it
    tables: tuple[tuple[int, ...], ...] = ()  # lineup index per seat, one row per table
    params: tuple[tuple[str, Any], ...] = ()  # parameter column -> value
    skill: str | None = None  # with the `skills` key: the level, and the arm it repeats
    base_arm: str | None = None

    @property
    def ruleset_name(self) -> str:
        return str(self.ruleset.name)

    def effective(self) -> dict[str, Any]:
        """What decides this arm's games (JSON-able)."""
        return {
            "name": self.name,
            "ruleset": self.ruleset_name,
            "ruleset_fingerprint": self.ruleset.fingerprint(),
            "players": self.players,
            "lineup": [spec.label for spec in self.lineup],
            "tables": [list(t) for t in self.tables],
            "params": {k: jsonable(v) for k, v in self.params},
        }


@dataclass(frozen=True)
class Precision:
    """Add games in steps of `step` until `metric`'s 95% interval is narrower than `width`, or
    (`settle`) until every answer of the report is settled; at most `max_games` per arm."""

    metric: str
    width: float
    step: int
    max_games: int
    settle: bool = False

    def text(self) -> str:
        """'every answer is settled, at most 60,000 games per arm' or 'raid_rate is known to
        0.01, at most ...'."""
        known = f"{self.metric} is known to {self.width}"
        goal = "every answer is settled" if self.settle else known
        return f"{goal}, at most {self.max_games:,} games per arm"


@dataclass(frozen=True)
class Experiment:
    name: str
    game: str
    seed: int
    games: int  # per arm (the first checkpoint when `precision` is set)
    arms: tuple[Arm, ...]
    file: str | None = None
    text: str = ""  # the experiment file as read
    cli_overrides: tuple[tuple[str, Any], ...] = ()
    baseline: str | None = None
    precision: Precision | None = None
    report: tuple[str, ...] = ()
    description: str = ""
    param_columns: tuple[tuple[str, str], ...] = ()  # (column, kind: int|float|bool|str)
    game_version: int = 1  # the game's behaviour version (sim.plugins.base.version)
    tolerances: tuple[tuple[str, float], ...] = ()  # the report's tolerances the file overrides

    def arm(self, name: str) -> Arm:
        for arm in self.arms:
            if arm.name == name:
                return arm
        raise KeyError(name)

    def effective(self) -> dict[str, Any]:
        """Everything that decides the games (not the number of games nor the chunking)."""
        return {
            "game": self.game,
            "game_version": self.game_version,
            "seed": self.seed,
            "param_columns": [list(c) for c in self.param_columns],
            "arms": [arm.effective() for arm in self.arms],
        }

    def fingerprint(self) -> str:
        canonical = json.dumps(self.effective(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]

    def with_games(self, games: int) -> Experiment:
        return replace(self, games=games)


def jsonable(value: Any) -> Any:
    """The value as JSON can hold it (tuples as lists, numpy scalars as Python numbers)."""
    if isinstance(value, tuple | list):
        return [jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, np.generic):
        return value.item()
    return value
