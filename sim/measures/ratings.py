"""Skill ratings from stored games: the openskill package's Plackett-Luce model fed every game's
final order, game by game (what `sim tournament` prints and the quality report's ladder span
reads).

The order of a game: winners first, then the other players by score (a seats frame with a
`status` column puts players who are "out" after those still in); equal keys share a place,
and a game nobody won puts everybody in one place. A strategy in several seats of one game is
rated on each and keeps the mean.

`spans(seats, bottom)`: every strategy's rating points above one of them (mu - mu bottom),
with a delete-a-group jackknife interval: the games are split into `groups` groups by their
index (game mod groups), the ratings recomputed without each group in turn, and the standard
error is sqrt((g - 1) / g * sum((span_i - mean)^2)).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np
import polars as pl

from sim.measures.core import Value

JACKKNIFE_GROUPS = 10


def rate(seats: pl.DataFrame) -> dict[str, tuple[float, float]]:
    """strategy -> (mu, sigma) after every game of `seats` (columns game, seat, strategy,
    win_share, score and optionally status), in game order."""
    from openskill.models import PlackettLuce

    status = pl.col("status") != "out" if "status" in seats.columns else pl.lit(True)
    rows = (
        seats.select("game", "seat", "strategy", "win_share", status.alias("in"), "score")
        .sort("game", "seat")
        .rows()
    )
    model = PlackettLuce(tau=0.0)  # no drift: a strategy plays at one strength throughout
    rating = {name: model.rating(name=name) for name in sorted({row[2] for row in rows})}
    for game in _games(rows):
        _rate_game(model, rating, game)
    return {name: (r.mu, r.sigma) for name, r in rating.items()}


def _games(rows: list[tuple]) -> Iterable[list[tuple]]:
    start = 0
    while start < len(rows):
        stop = start
        while stop < len(rows) and rows[stop][0] == rows[start][0]:
            stop += 1
        yield rows[start:stop]
        start = stop


def _rate_game(model: Any, rating: dict[str, Any], game: list[tuple]) -> None:
    """One game's update; rows are (game, seat, strategy, win_share, in, score)."""
    names = [row[2] for row in game]
    if all(row[3] == 0 for row in game):  # nobody won: everybody shares one place
        ranks = [0] * len(game)
    else:  # winners, then players still in by score, then players out
        keys = [(row[3], row[4], row[5]) for row in game]
        ranks = [sum(other > key for other in keys) for key in keys]
    new = model.rate([[rating[name]] for name in names], ranks=ranks)
    for name in set(names):
        mine = [team[0] for team, n in zip(new, names, strict=True) if n == name]
        mu = sum(r.mu for r in mine) / len(mine)
        sigma = sum(r.sigma for r in mine) / len(mine)
        rating[name] = model.rating(mu=mu, sigma=sigma, name=name)


def spans(seats: pl.DataFrame, bottom: str, *, groups: int = JACKKNIFE_GROUPS) -> dict[str, Value]:
    """strategy -> its rating points above `bottom` (mu - mu of bottom), each with its
    jackknife interval (n: games); {} when `bottom` did not play."""
    n = seats.get_column("game").n_unique()
    full = rate(seats)
    if bottom not in full:
        return {}
    value = {k: mu - full[bottom][0] for k, (mu, _) in full.items()}
    if n < 2 * groups:
        return {k: Value(v, math.nan, math.nan, math.nan, n) for k, v in value.items()}
    group = seats.get_column("game") % groups
    parts = []
    for g in range(groups):
        r = rate(seats.filter(group != g))
        parts.append({k: r[k][0] - r[bottom][0] for k in value if k in r})
    out = {}
    for k, v in value.items():
        x = np.asarray([p[k] for p in parts if k in p])
        if x.size < groups:
            out[k] = Value(v, math.nan, math.nan, math.nan, n)
            continue
        se = math.sqrt((groups - 1) / groups * float(((x - x.mean()) ** 2).sum()))
        out[k] = Value.normal(v, se, n)
    return out
