"""`sim calibrate`: the continuous skill at which a table reproduces an observed figure.

"Our playtest group of 4 loses to the invaders 20% of the time": find the skill s at which a
table of `players` seats, every seat playing the game's continuous skill knob (its plug-in's
`skill_knob`) at s, ends in a raid 20% of the time. The figure is an outcome's rate
(`raid=0.20`), or the mean of a per-game column (`turns=14`) or of a per-seat one
(`credits_taken=1.5`, per captain). Every skill is played on the same games (common random
numbers: the same seeds, so the same shuffles), which makes the figure a smooth, nearly
monotone function of s. A grid over 0..1 finds the bracket, bisection refines it, and a
monotone fit (pool adjacent violators) over every point played is inverted at the target.

The interval: the skills at which the fit crosses the target plus and minus 1.96 standard
errors of the figure (from the simulated games and, when given, the observed ones,
`observed_games`). It is the range of skills whose simulated figure is not told apart from
the target at 95%.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim.config.words import did_you_mean
from sim.errors import ConfigError
from sim.plugins import game_for
from sim.plugins.base import StrategySpec, outcomes, part, player_counts
from sim.seeds import game_seeds, root_keys

Z = 1.96


@dataclass
class Calibration:
    measure: str  # what was matched: "raid rate", "mean turns", "mean credits_taken per seat"
    target: float
    skill: float
    low: float
    high: float
    value_at_skill: float  # the simulated figure at `skill`
    games: int
    points: list[tuple[float, float]] = field(default_factory=list)  # (skill, figure) played
    ladder: dict[str, float] = field(default_factory=dict)  # the game's levels on the knob


@dataclass(frozen=True)
class Target:
    """The figure to match: an outcome's rate, or a per-game or per-seat column's mean."""

    name: str
    value: float
    kind: str  # "rate", "game" or "seat"

    @property
    def measure(self) -> str:
        return {"rate": f"{self.name} rate", "game": f"mean {self.name}",
                "seat": f"mean {self.name} per seat"}[self.kind]  # fmt: skip

    def per_game(self, chunk: Any, players: int) -> np.ndarray:
        """The figure of each game of a chunk (a seat column: the mean over its seats)."""
        if self.kind == "rate":
            return (chunk.games["outcome"] == self.name).astype(float)
        if self.kind == "game":
            return np.asarray(chunk.games[self.name], float)
        return np.asarray(chunk.seats[self.name], float).reshape(-1, players).mean(axis=1)


def parse_target(text: str, game: Any, chunk: Any = None) -> Target:
    """'raid=0.20' -> the rate of outcome raid; 'turns=14' -> the mean of a numeric column of
    `chunk` (a per-game one, else a per-seat one); checked against the game's outcomes."""
    name, sep, value = text.partition("=")
    name = name.strip()
    known = outcomes(game) or ()
    columns = list(dict.fromkeys(_numeric(chunk.games) + _numeric(chunk.seats))) if chunk else []
    hint = f"For example {known[0] if known else 'outcome'}=0.20; outcomes: {', '.join(known)}"
    hint += f"; or a column's mean: {', '.join(columns)}." if columns else "."
    if not sep:
        raise ConfigError(f"expected NAME=VALUE, got {text!r}", key="--target", hint=hint)
    try:
        number = float(value)
    except ValueError:
        raise ConfigError(f"expected a number in the target {text!r}", key="--target",
                          hint=hint) from None  # fmt: skip
    if name in known:
        if not 0.0 < number < 1.0:
            raise ConfigError(f"the rate must lie strictly between 0 and 1, got {number}",
                              key="--target", hint=hint)  # fmt: skip
        return Target(name, number, "rate")
    if chunk is not None and name in _numeric(chunk.games):
        return Target(name, number, "game")
    if chunk is not None and name in _numeric(chunk.seats):
        return Target(name, number, "seat")
    if chunk is None:
        return Target(name, number, "")  # a column: known once a chunk is played
    raise ConfigError(f"unknown target {name!r}", key="--target",
                      hint=did_you_mean(name, [*known, *columns], then=hint))  # fmt: skip


def _numeric(columns: dict[str, np.ndarray]) -> list[str]:
    return [k for k, v in columns.items()
            if np.asarray(v).dtype.kind in "iuf" and k not in _NOT_FIGURES]  # fmt: skip


_NOT_FIGURES = ("seat", "error", "error_seat", "trace_hash", "winners_mask")


def calibrate(
    *,
    players: int,
    target: str,
    ruleset: str | None = None,
    rules: Any = (),
    games: int = 2000,
    seed: int = 0,
    observed_games: int | None = None,
    game: str | None = None,
    grid: int = 9,
    refine: int = 6,
) -> Calibration:
    """The skill on the game's continuous knob at which `players` seats reproduce `target`
    (the game: `game`, else the one of the preset `ruleset`, else the default game)."""
    plugin = game_for(game, ruleset)
    knob = part(plugin, "skill_knob")
    if knob is None:
        raise ConfigError(f"{plugin.name} has no continuous skill to calibrate", key="--game")
    if players not in player_counts(plugin):
        raise ConfigError(f"{plugin.name} is not played by {players} players", key="--players")
    if games < 10:
        raise ConfigError("play at least 10 games per skill", key="--games")
    parse_target(target, plugin)  # the target's form, before any game
    rs = plugin.load_ruleset(ruleset or plugin.presets[0], rules, source="--set")
    seeds = game_seeds(root_keys(seed), 0, games)
    seats = np.zeros((games, players), np.int64)

    def chunk_at(skill: float) -> Any:
        spec = StrategySpec(knob[0], ((knob[1], skill),))
        return plugin.simulate_chunk(rs, players, [spec], seats, seeds)

    first = chunk_at(0.0)
    goal = parse_target(target, plugin, first)
    played: dict[float, float] = {}  # skill -> the mean figure of a game
    spread: dict[float, float] = {}  # skill -> the standard deviation of a game's figure

    def value_at(skill: float) -> float:
        skill = round(min(max(skill, 0.0), 1.0), 6)
        if skill not in played:
            figures = goal.per_game(first if skill == 0.0 else chunk_at(skill), players)
            played[skill], spread[skill] = float(np.mean(figures)), float(np.std(figures))
        return played[skill]

    for s in np.linspace(0.0, 1.0, grid):
        value_at(float(s))
    falling = value_at(0.0) >= value_at(1.0)
    low_end, high_end = sorted((value_at(0.0), value_at(1.0)))
    if not low_end <= goal.value <= high_end:
        raise ConfigError(
            f"no skill gives a {goal.measure} of {goal.value}: from skill 0 to 1 it runs "
            f"{value_at(0.0):.3f} to {value_at(1.0):.3f}",
            key="--target",
            hint="Check the figure, the ruleset and the number of players.",
        )
    for _ in range(refine):  # bisect the bracket of the monotone fit
        xs, fit = _monotone_fit(played, falling)
        i = _bracket(fit, goal.value, falling)
        value_at((xs[i] + xs[i + 1]) / 2)
    xs, fit = _monotone_fit(played, falling)
    skill = _invert(xs, fit, goal.value, falling)
    # a rate's spread from the target; a mean's from the games at the nearest skill played
    sd = (math.sqrt(goal.value * (1 - goal.value)) if goal.kind == "rate"
          else spread[min(spread, key=lambda s: abs(s - skill))])  # fmt: skip
    half = Z * sd * math.sqrt(1 / games + (1 / observed_games if observed_games else 0.0))
    ends = [goal.value - half, goal.value + half]
    if goal.kind == "rate":
        ends = [min(max(r, 0.0), 1.0) for r in ends]
    ends = [_invert(xs, fit, end, falling) for end in ends]
    return Calibration(
        measure=goal.measure, target=goal.value, skill=skill, low=min(ends), high=max(ends),
        value_at_skill=value_at(skill), games=games, points=sorted(played.items()),
        ladder=dict(part(plugin, "skill_points")),
    )  # fmt: skip


def _monotone_fit(played: dict[float, float], falling: bool) -> tuple[np.ndarray, np.ndarray]:
    """Pool adjacent violators: the closest non-increasing (or non-decreasing) sequence."""
    xs = np.array(sorted(played))
    ys = np.array([played[x] for x in xs])
    sign = -1.0 if falling else 1.0
    blocks: list[list[float]] = []  # [sum, count]
    for y in sign * ys:
        blocks.append([y, 1.0])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            total, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
    fit = np.concatenate([[b[0] / b[1]] * int(b[1]) for b in blocks])
    return xs, sign * fit


def _bracket(fit: np.ndarray, rate: float, falling: bool) -> int:
    """The first i with the target between fit[i] and fit[i + 1]."""
    for i in range(len(fit) - 1):
        a, b = (fit[i], fit[i + 1]) if falling else (fit[i + 1], fit[i])
        if b <= rate <= a:
            return i
    return len(fit) - 2


def _invert(xs: np.ndarray, fit: np.ndarray, rate: float, falling: bool) -> float:
    """The skill where the piecewise linear fit meets `rate` (the middle of a flat stretch)."""
    order = -1 if falling else 1
    ys = fit[::order]
    x = xs[::order]
    if rate <= ys[0]:
        return float(x[0])
    if rate >= ys[-1]:
        return float(x[-1])
    hits = np.flatnonzero(ys == rate)
    if len(hits):
        return float((x[hits[0]] + x[hits[-1]]) / 2)
    j = int(np.searchsorted(ys, rate))
    t = (rate - ys[j - 1]) / (ys[j] - ys[j - 1])
    return float(x[j - 1] + t * (x[j] - x[j - 1]))


def describe(cal: Calibration) -> str:
    """The answer in words, with the game's named levels around it."""
    lines = [
        f"{cal.measure} {cal.target:g}: skill {cal.skill:.3f} "
        f"(95% interval {cal.low:.3f}-{cal.high:.3f}); its simulated {cal.measure} "
        f"{cal.value_at_skill:.3f} over {cal.games:,} games"
    ]
    if cal.ladder:
        below = [(s, n) for n, s in cal.ladder.items() if s <= cal.skill]
        above = [(s, n) for n, s in cal.ladder.items() if s > cal.skill]
        near = []
        if below:
            near.append(f"above {max(below)[1]} ({max(below)[0]:g})")
        if above:
            near.append(f"below {min(above)[1]} ({min(above)[0]:g})")
        lines.append("on the ladder: " + ", ".join(near))
    lines.append("skill -> figure played: "
                 + ", ".join(f"{s:.3f}: {r:.3f}" for s, r in cal.points))  # fmt: skip
    return "\n".join(lines)
