"""Who of a group is stronger, with the seat taken into account: a Plackett-Luce model (Hunter
2004) of each game's final order, from the records alone.

The order is the one `sim tournament` rates: winners first, then the other players by score
(a game with a missing score: the winners, then the rest together); a game nobody won says
nothing and is left out; equal places are ties (Breslow's approximation). A player's strength
theta adds to the seat's, delta (one per seat and number of players, the start player's 0),
so that the start player's edge is not credited to whoever sat there. Seats without a name
are one player, "the others". Strengths are known up to a constant: each is given relative
to the group (its games-weighted mean 0), with its standard error from the information,
under a weak normal prior (sd 2) that keeps a player who always wins finite.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

OTHERS = "(the others)"  # the seats without a name
PRIOR_SD = 2.0


def ranks(seats: pl.DataFrame) -> pl.DataFrame:
    """The seats of every game with a winner, with `rank` (0 = first; equal keys share one)
    and `place` ('place 1', ...; every seat of a game nobody won: 'nobody won')."""
    per = seats.with_columns(
        (pl.col("win_share") > 0).alias("won"),
        pl.col("score").is_null().any().over("game").alias("gap"),
        (pl.col("win_share").sum().over("game") > 0).alias("decided"),
    )
    key = pl.struct(
        pl.col("won"),
        pl.when(pl.col("gap")).then(0.0).otherwise(pl.col("score").cast(pl.Float64)).alias("s"),
    )
    rank = (key.rank("min", descending=True).over("game") - 1).cast(pl.Int64)
    return per.with_columns(
        pl.when(pl.col("decided")).then(rank).alias("rank"),
        pl.when(pl.col("decided"))
        .then(pl.format("place {}", rank + 1))
        .otherwise(pl.lit("nobody won"))
        .alias("place"),
    )


def plackett_luce(
    items: np.ndarray,
    rank: np.ndarray,
    n_par: int,
    *,
    prior_sd: np.ndarray,
    fixed: Sequence[int] = (),
) -> tuple[np.ndarray, np.ndarray]:
    """The Plackett-Luce (Breslow ties) estimates and their covariance.

    items: games x places x slots of parameter indices (-1: none; a seat's strength is the sum
    of its slots' parameters), rank: each place's rank (-1: an empty place). `fixed`
    parameters stay 0; `prior_sd` a normal prior around 0 per parameter (inf: none). The
    covariance is the inverse of the information of the free parameters (NaN for the
    fixed)."""
    valid = rank >= 0
    x = np.zeros((*rank.shape, n_par))
    for slot in range(items.shape[2]):
        idx = items[..., slot]
        g, k = np.nonzero((idx >= 0) & valid)
        np.add.at(x, (g, k, idx[g, k]), 1.0)
    # risk[g, k, j]: place j is still in the running when place k is filled
    risk = valid[:, None, :] & valid[:, :, None] & (rank[:, None, :] >= rank[:, :, None])
    free = np.setdiff1d(np.arange(n_par), np.asarray(fixed, int))
    prec = 1.0 / np.asarray(prior_sd, float) ** 2
    beta = np.zeros(n_par)
    width = rank.shape[1]
    for _ in range(100):
        eta = np.einsum("gkp,p->gk", x, beta)
        e = np.where(risk, np.exp(eta - eta.max(axis=1, keepdims=True))[:, None, :], 0.0)
        pi = e / np.maximum(e.sum(axis=2, keepdims=True), 1e-300) * valid[:, :, None]
        grad = np.einsum("gj,gjp->p", valid - pi.sum(axis=1), x) - prec * beta
        w = np.zeros((rank.shape[0], width, width))
        w[:, np.arange(width), np.arange(width)] = pi.sum(axis=1)
        w -= np.einsum("gkj,gki->gji", pi, pi)
        info = np.einsum("gip,gij,gjq->pq", x, w, x) + np.diag(prec)
        step = np.linalg.solve(info[np.ix_(free, free)], grad[free])
        beta[free] += np.clip(step, -2.0, 2.0)
        if np.max(np.abs(step)) < 1e-8:
            break
    cov = np.full((n_par, n_par), np.nan)
    cov[np.ix_(free, free)] = np.linalg.inv(info[np.ix_(free, free)])
    return beta, cov


def rate(seats: pl.DataFrame, named: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Each named player's strength relative to the group (theta, its se, games rated) from
    the records' seats (game, seat, players, player, score, win_share); {} when no game has a
    winner."""
    order = ranks(seats).filter(pl.col("rank").is_not_null())
    if order.height == 0:
        return {}
    people = [*named, OTHERS]
    who = {p: i for i, p in enumerate(people)}
    sizes = sorted(order.get_column("players").unique().to_list())
    seat_base = {n: len(people) + sum(sizes[:i]) for i, n in enumerate(sizes)}
    frame = order.with_columns(
        pl.col("player")
        .fill_null(OTHERS)
        .replace(dict.fromkeys(set(order.get_column("player").drop_nulls()) - set(named), OTHERS))
        .replace_strict(who, return_dtype=pl.Int64)
        .alias("p"),
        (pl.col("players").replace_strict(seat_base, return_dtype=pl.Int64) + pl.col("seat"))
        .fill_null(-1)
        .alias("d"),
    ).sort("game", "seat")
    games = frame.get_column("game").unique(maintain_order=True).to_list()
    row = {g: i for i, g in enumerate(games)}
    width = int(frame.get_column("players").max())
    items = np.full((len(games), width, 2), -1, np.int64)
    rank = np.full((len(games), width), -1, np.int64)
    fill = np.zeros(len(games), np.int64)
    for g, p, d, r in frame.select("game", "p", "d", "rank").iter_rows():
        i = row[g]
        items[i, fill[i]] = (p, d)
        rank[i, fill[i]] = r
        fill[i] += 1
    n_par = len(people) + sum(sizes)
    fixed = [seat_base[n] for n in sizes]  # the start player's seat: 0
    if frame.filter(pl.col("p") == who[OTHERS]).height == 0:
        fixed.append(who[OTHERS])
    beta, cov = plackett_luce(items, rank, n_par, prior_sd=np.full(n_par, PRIOR_SD), fixed=fixed)
    played = dict(
        frame.group_by("p", maintain_order=True).agg(pl.col("game").n_unique()).iter_rows()
    )
    w = np.array([played.get(i, 0) for i in range(len(named))], float)
    w = w / w.sum() if w.sum() else w
    out = {}
    for p in named:
        i = who[p]
        c = -w.copy()
        c[i] += 1.0
        c = np.concatenate([c, np.zeros(n_par - len(named))])
        var = float(np.nansum(np.outer(c, c) * np.nan_to_num(cov)))
        out[p] = {
            "theta": float(c @ beta),
            "se": math.sqrt(max(var, 0.0)),
            "rated_games": int(played.get(i, 0)),
        }
    return out
