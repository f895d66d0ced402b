"""What the Space Invaders sections share: the arms told apart by their rulesets, their order
in tables, and paired comparisons of two arms' wins (same game index = same seed).

Arms are told apart by their rulesets (the manifest keeps each arm's effective ruleset): an
arm of the main grid changes nothing but the level and the dexterity; an uplift arm also
plays one power as plain (`powers.plain`); a sensitivity arm changes a data key (catalog,
geometry).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from sim.games.space_invaders.columns import POWER_COLUMNS, TOKEN_COLUMNS
from sim.games.space_invaders.layout import STATUS_NAMES
from sim.games.space_invaders.schema import DEXTERITIES, LEVELS
from sim.measures import Value
from sim.plugins import get_game
from sim.plugins.base import part
from sim.report import fmt
from sim.report.context import Context
from sim.report.metrics import prefixed
from sim.report.table import Column

OUTCOMES = STATUS_NAMES[1:]  # victory, planet_destroyed, ufo_survived, cap
OUTCOME_LABELS = {
    "victory": "won",
    "planet_destroyed": "planet destroyed",
    "ufo_survived": "UFO survived the assault",
    "cap": "stopped at the round cap",
}
# per-game means: registry measure -> (key, label); every seat scores the team's score
MEANS = {
    "mean_rounds": ("rounds", "rounds"),
    "mean_planet_left": ("planet", "planet health left"),
    "mean_score": ("score", "team score"),
}
WIN_RATE = "victory_rate"  # the share of games the team wins
# keys that place an arm in the grid rather than make it a variant
GRID_KEYS = ("setup.level", "dexterity.skill", "powers.plain")


@dataclass(frozen=True)
class Arm:
    name: str
    players: int
    level: str
    dexterity: str
    skill: str
    plain: str
    variant: str

    @property
    def cell(self) -> tuple[int, str, str]:
        """The table cell this arm fills: players, dexterity, team skill."""
        return self.players, self.dexterity, self.skill


def arms(ctx: Context) -> list[Arm]:
    out = []
    for name in ctx.arm_names:
        info = ctx.results.arm(name)
        v = info.rules
        games = ctx.results.arm_games(name)
        strategies = ctx.results.arm_seats(name).get_column("strategy").unique().sort()
        variant = ", ".join(
            f"{k}={fmt.value(v.get(k))}" for k in info.overrides if k not in GRID_KEYS
        )
        out.append(
            Arm(
                name=name,
                players=int(games.get_column("players")[0]),
                level=str(games.get_column("level")[0]),
                dexterity=str(games.get_column("dexterity")[0]),
                skill="+".join(strategies.to_list()),
                plain=str(v.get("powers.plain", "none")),
                variant=variant,
            )
        )
    return out


def table_columns(*, level: bool = True) -> list[Column]:
    """The columns that say which table (players, level, dexterity, team skill) a row is."""
    columns = [Column.count("players", "players")]
    if level:
        columns.append(Column.text("level", "level"))
    return columns + [Column.text("dexterity", "dexterity"), Column.text("skill", "team skill")]


def win_change_columns() -> list[Column]:
    """A paired win-rate change and its p-value (columns `diff`, `diff_p`)."""
    return [Column.diff("diff", "win-rate change", unit="pp"), Column.pvalue("diff_p")]


@functools.cache
def team_skills() -> tuple[str, ...]:
    """The team-skill ladder, weakest first: the plug-in's `skills` (the players' plain data,
    read through the plug-in)."""
    return tuple(part(get_game("space-invaders"), "skills"))


def order(a: Arm) -> tuple:
    rank = lambda seq, x: seq.index(x) if x in seq else len(seq)  # noqa: E731
    return (
        a.players,
        rank(DEXTERITIES, a.dexterity),
        rank(team_skills(), a.skill),
        a.skill,
        rank(LEVELS, a.level),
    )


def is_grid(a: Arm) -> bool:
    return a.plain == "none" and not a.variant


def win_change(ctx: Context, treat: str, control: str, games: np.ndarray | None = None) -> Value:
    """The win rate's paired difference, treat minus control (same game index = same seed),
    over the games `games` when given."""
    a, b = ctx.results.stored(control), ctx.results.stored(treat)
    if games is not None:
        keep = pl.col("game").is_in(games)
        a, b = a.where(keep), b.where(keep)
    return ctx.paired(a, b, WIN_RATE)


def dealt(ctx: Context, arm: str, power: str) -> np.ndarray:
    """Game indices of an arm in which some seat holds `power` (the deal is the same in every
    arm of a seed: it happens first at setup)."""
    seats = ctx.results.arm_seats(arm)
    held = pl.any_horizontal(pl.col(c).str.split("+").list.contains(power) for c in POWER_COLUMNS)
    return seats.filter(held).get_column("game").unique().sort().to_numpy()


def in_play(ctx: Context, arm: str, power: str) -> int:
    """Games of an arm in which a seat holding `power` had tokens of the power's level active
    at the end: the power could be used. A level-3 power never is at a table whose
    reinforcements stop before level 3 (docs/games/space_invaders/rules.md)."""
    seats = ctx.results.arm_seats(arm)
    usable = [pl.col(held).str.split("+").list.contains(power) & (pl.col(tokens) > 0)
              for held, tokens in zip(POWER_COLUMNS, TOKEN_COLUMNS, strict=True)]  # fmt: skip
    return seats.filter(pl.any_horizontal(usable)).get_column("game").n_unique()


def match(grid: list[Arm], a: Arm) -> Arm | None:
    """The main-grid arm of the same table and level as `a`."""
    return next((g for g in grid if g.cell == a.cell and g.level == a.level), None)


def matched(grid: list[Arm], arms: list[Arm]) -> list[tuple[Arm, Arm]]:
    """Each of `arms`, in table order, with the main-grid arm of its table and level (an arm
    without one is left out)."""
    pairs = ((a, match(grid, a)) for a in sorted(arms, key=order))
    return [(a, base) for a, base in pairs if base is not None]


def largest_move(rows: list[dict]) -> dict:
    """The row (a paired comparison under "diff") whose change moves the win rate most."""
    return max(rows, key=lambda r: abs(r["diff"]) if not math.isnan(r["diff"]) else -1)


def outcome_stats(ctx: Context, arm: str) -> dict:
    """An arm's games: how many, the rate of each outcome, the means of MEANS."""
    row: dict = {"games": ctx.results.arm_games(arm).height}
    for outcome in OUTCOMES:
        row.update(prefixed(ctx.measure(arm, f"{outcome}_rate"), outcome))
    for measure, (key, _) in MEANS.items():
        row.update(prefixed(ctx.measure(arm, measure), key))
    return row


def outcome_columns(rows: list[dict]) -> list[Column]:
    """Columns of outcome_stats: the games, the outcomes that happened, the means."""
    shown = [o for o in OUTCOMES if any(row[o] > 0 for row in rows)]
    return [Column.count("games", "games"),
            *[Column.pct_ci(o, OUTCOME_LABELS[o]) for o in shown],
            *[Column.num_ci(key, label) for key, label in MEANS.values()]]  # fmt: skip
