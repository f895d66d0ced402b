"""`sim calibrate`: the continuous skill at which a table reproduces an observed figure.

"Our playtest group of 4 loses to the invaders 20% of the time": find the skill s at which a
table of `players` seats, every seat playing the game's continuous skill knob at s, ends in a
raid 20% of the time. Every skill is played on the same games (common random numbers: the
same seeds, so the same shuffles), which makes the rate a smooth, nearly monotone function
of s. A grid over 0..1 finds the bracket, bisection refines it, and a monotone fit (pool
adjacent violators) over every point played is inverted at the target.

The interval: the skills at which the fit crosses the target plus and minus 1.96 standard
errors of a rate, counting the simulated games and, when given, the observed ones
(`observed_games`). It is the range of skills whose simulated rate is not told apart from
the target at 95%.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim.errors import ConfigError
from sim.games import get_game
from sim.games.base import StrategySpec, outcomes
from sim.runner.seeds import game_seeds, root_keys

Z = 1.96


@dataclass
class Calibration:
    outcome: str
    target: float
    skill: float
    low: float
    high: float
    rate_at_skill: float  # the simulated rate at `skill`
    games: int
    points: list[tuple[float, float]] = field(default_factory=list)  # (skill, rate) played


def parse_target(text: str, game: Any) -> tuple[str, float]:
    """'raid=0.20' -> ('raid', 0.2), checked against the game's outcomes."""
    name, sep, value = text.partition("=")
    known = outcomes(game) or ()
    hint = f"For example raid=0.20; outcomes: {', '.join(known)}."
    if not sep or name.strip() not in known:
        raise ConfigError(f"unknown target {text!r}", key="--target", hint=hint)
    try:
        rate = float(value)
    except ValueError:
        raise ConfigError(f"expected a rate in the target {text!r}", key="--target",
                          hint=hint) from None  # fmt: skip
    if not 0.0 < rate < 1.0:
        raise ConfigError(f"the rate must lie strictly between 0 and 1, got {rate}",
                          key="--target", hint=hint)  # fmt: skip
    return name.strip(), rate


def calibrate(
    *,
    players: int,
    target: str,
    ruleset: str = "guardians",
    rules: Any = (),
    games: int = 2000,
    seed: int = 0,
    observed_games: int | None = None,
    game: str = "guardians",
    grid: int = 9,
    refine: int = 6,
) -> Calibration:
    plugin = get_game(game)
    knob = getattr(plugin, "skill_knob", None)
    if knob is None:
        raise ConfigError(f"{game} has no continuous skill to calibrate", key="--game")
    if players not in getattr(plugin, "player_counts", (players,)):
        raise ConfigError(f"{game} is not played by {players} players", key="--players")
    if games < 10:
        raise ConfigError("play at least 10 games per skill", key="--games")
    outcome, rate = parse_target(target, plugin)
    rs = plugin.load_ruleset(ruleset, rules, source="--set")
    seeds = game_seeds(root_keys(seed), 0, games)
    seats = np.zeros((games, players), np.int64)
    played: dict[float, float] = {}

    def rate_at(skill: float) -> float:
        skill = round(min(max(skill, 0.0), 1.0), 6)
        if skill not in played:
            spec = StrategySpec(knob[0], ((knob[1], skill),))
            chunk = plugin.play_chunk(rs, players, [spec], seats, seeds)
            played[skill] = float(np.mean(chunk.games["outcome"] == outcome))
        return played[skill]

    for s in np.linspace(0.0, 1.0, grid):
        rate_at(float(s))
    falling = rate_at(0.0) >= rate_at(1.0)
    low_end, high_end = sorted((rate_at(0.0), rate_at(1.0)))
    if not low_end <= rate <= high_end:
        raise ConfigError(
            f"no skill gives a {outcome} rate of {rate}: from skill 0 to 1 it runs "
            f"{rate_at(0.0):.3f} to {rate_at(1.0):.3f}",
            key="--target",
            hint="Check the figure, the ruleset and the number of players.",
        )
    for _ in range(refine):  # bisect the bracket of the monotone fit
        xs, fit = _monotone_fit(played, falling)
        i = _bracket(fit, rate, falling)
        rate_at((xs[i] + xs[i + 1]) / 2)
    xs, fit = _monotone_fit(played, falling)
    skill = _invert(xs, fit, rate, falling)
    n_obs = observed_games or 0
    half = Z * math.sqrt(rate * (1 - rate) * (1 / games + (1 / n_obs if n_obs else 0.0)))
    ends = [_invert(xs, fit, min(max(r, 0.0), 1.0), falling) for r in (rate - half, rate + half)]
    return Calibration(
        outcome=outcome, target=rate, skill=skill, low=min(ends), high=max(ends),
        rate_at_skill=rate_at(skill), games=games, points=sorted(played.items()),
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


def describe(cal: Calibration, points: dict[str, float] | None = None) -> str:
    """The answer in words, with the named levels around it (`points`: level -> skill)."""
    lines = [
        f"{cal.outcome} rate {cal.target:.3f}: skill {cal.skill:.3f} "
        f"(95% interval {cal.low:.3f}-{cal.high:.3f}); its simulated {cal.outcome} rate "
        f"{cal.rate_at_skill:.3f} over {cal.games:,} games"
    ]
    if points:
        below = [(s, n) for n, s in points.items() if s <= cal.skill]
        above = [(s, n) for n, s in points.items() if s > cal.skill]
        near = []
        if below:
            near.append(f"above {max(below)[1]} ({max(below)[0]:g})")
        if above:
            near.append(f"below {min(above)[1]} ({min(above)[0]:g})")
        lines.append("on the ladder: " + ", ".join(near))
    lines.append("skill -> rate played: " + ", ".join(f"{s:.3f}: {r:.3f}" for s, r in cal.points))
    return "\n".join(lines)
