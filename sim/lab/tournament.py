"""Tournaments: strategies against each other in every seat arrangement, ranked by win share.

A tournament is an ordinary one-arm experiment: the strategies form the pool and the seats
rotate through every distinct ordered arrangement (`rotate: permutations`), so seat effects and
"who plays after whom" cancel. With fewer strategies than seats the pool repeats them in turn
(greedy, random, greedy, random) before the arrangements are taken. Games are rounded up to a
multiple of the number of arrangements so every one is played equally often.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sim.errors import ConfigError
from sim.experiment.model import Experiment
from sim.experiment.parsing import parse_experiment
from sim.stats.interval_columns import high_key, low_key
from sim.stats.intervals import wilson


def tournament_experiment(
    strategies: list[str],
    *,
    players: int = 4,
    games: int = 10_000,
    game: str | None = None,
    ruleset: str | None = None,
    rules: Any = (),
    seed: int = 0,
    name: str | None = None,
) -> Experiment:
    """The experiment behind `sim tournament` (games rounded up to whole rotations)."""
    strategies = [s.strip() for s in strategies if s.strip()]
    if len(set(strategies)) < 2:
        alone = f", got only '{strategies[0]}'" if strategies else ""
        raise ConfigError(
            f"a tournament ranks at least two different strategies{alone}",
            key="--strategies",
            hint="For example --strategies greedy,random; to measure one strategy against itself "
            "use `sim run` with seats: greedy.",
        )
    pool = [strategies[k % len(strategies)] for k in range(max(players, len(strategies)))]
    label = name or f"tournament-{players}p-" + "-".join(dict.fromkeys(strategies))
    data: dict[str, Any] = {
        "name": _safe(label),
        "players": players,
        "pool": pool,
        "rotate": "permutations",
        "games": games,
        "seed": seed,
    }
    if game is not None:  # else the game of the ruleset's preset, or the default game
        data["game"] = game
    if ruleset is not None:
        data["ruleset"] = ruleset
    from sim.config.keys import override_pairs

    pairs = override_pairs(rules, source="--set")
    try:
        exp = parse_experiment(data, overrides=pairs)
    except ConfigError as err:
        raise _as_option(err) from None
    tables = len(exp.arms[0].tables)
    rounded = -(-games // tables) * tables
    return exp.with_games(rounded) if rounded != games else exp


# experiment keys a tournament fills from its options
_OPTIONS = {"players": "--players", "games": "--games", "seed": "--seed", "ruleset": "--ruleset",
            "pool": "--strategies", "name": "--strategies", "game": "--game"}  # fmt: skip


def _as_option(err: ConfigError) -> ConfigError:
    """An error of the experiment built from the options names the option, not the key."""
    if err.file is not None:  # --set, or a ruleset file: named already
        return err
    head = re.split(r"[.\[]", err.key or "")[0]
    option = _OPTIONS.get(head)
    return err if option is None else ConfigError(err.message, key=option, hint=err.hint)


def _safe(text: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in text)[:120]


def ranking(results_dir: str | Path, *, z: float = 1.96) -> Any:
    """A polars DataFrame, one row per strategy: seats played, win share with its Wilson
    interval, mean score, and the share of its games nobody won.

    Win share is the mean over the seats a strategy occupied (a shared win counts 1/k), so with
    P players an even field gives 1/P each. A game nobody won (in Guardians a raid or the turn
    cap) counts in `no_winner_rate`. Sorted by win share, best first.
    """
    import polars as pl

    from sim.results import load

    seats = load(results_dir, "seats").select("arm", "game", "strategy", "win_share", "score")
    played = seats.join(_nobody_won(seats), on=["arm", "game"], how="left").collect()
    table = (
        played.group_by("strategy", maintain_order=True)
        .agg(
            pl.len().alias("seats"),
            pl.col("score").mean().alias("mean_score"),
            pl.col("nobody_won").mean().alias("no_winner_rate"),
        )
        .join(_wins(played), on="strategy", maintain_order="left")
    )
    n = table["seats"].to_numpy()
    wins = table["wins"].to_numpy().clip(0, n)
    low, high = wilson(wins, n, z)
    columns = ("strategy", "seats", "win_share", low_key("win"), high_key("win"), "mean_score",
               "no_winner_rate")  # fmt: skip
    return (
        table.with_columns(
            (pl.col("wins") / pl.col("seats")).alias("win_share"),
            pl.Series(low_key("win"), low),
            pl.Series(high_key("win"), high),
        )
        .select(*columns)
        .sort(["win_share", "strategy"], descending=[True, False])
    )


def _wins(played: Any) -> Any:
    """(strategy, wins): the sums of its win shares, such as 1/3, added in row order: the same
    bits every run (polars' group-by adds its threads' partial sums in any order)."""
    import polars as pl

    from sim.measures.core import sums_by

    return sums_by(played, "strategy", ("win_share",)).select(
        "strategy", pl.col("win_share").alias("wins")
    )


def _nobody_won(seats: Any) -> Any:
    """(arm, game, nobody_won) from the seats: a game whose win shares are all zero."""
    from sim.measures.seats import DECIDED

    return seats.group_by("arm", "game", maintain_order=True).agg(
        DECIDED.not_().alias("nobody_won")
    )


def ratings(results_dir: str | Path) -> Any:
    """A polars DataFrame, one row per strategy: its skill rating from the openskill
    package's Plackett-Luce model, fed every game's final order in game order
    (sim.measures.ratings: winners first, then the others by score, players out last; a game
    nobody won puts everybody in one place). Columns: mu, sigma (its uncertainty) and
    ordinal (mu - 3 sigma, the model's conservative rating)."""
    import polars as pl

    from sim.measures.ratings import rate
    from sim.results import load

    stored = load(results_dir, "seats")
    keep = [c for c in ("arm", "game", "seat", "strategy", "win_share", "score", "status")
            if c in stored.collect_schema()]  # fmt: skip
    seats = stored.select(keep).collect()
    if seats.get_column("arm").n_unique() > 1:  # one rating over every arm, in arm order
        seats = seats.with_columns(pl.struct("arm", "game").rank("dense").alias("game"))
    rating = rate(seats)
    return pl.DataFrame(
        {
            "strategy": list(rating),
            "mu": [mu for mu, _ in rating.values()],
            "sigma": [sigma for _, sigma in rating.values()],
            "ordinal": [mu - 3 * sigma for mu, sigma in rating.values()],
        }
    ).sort("mu", descending=True)


def adjacent_pairs(results_dir: str | Path, order: list[str]) -> Any:
    """For each pair of neighbours in `order` (a ranking, best first): the difference of
    their win shares over the games both played (each game's mean share over its seats),
    with a paired 95% t interval; `separated` when the interval excludes zero."""
    import polars as pl

    from sim.results import load
    from sim.stats.paired import paired_difference

    per_game = (
        load(results_dir, "seats")
        .group_by("arm", "game", "strategy", maintain_order=True)
        .agg(pl.col("win_share").mean())
        .collect()
        .pivot(on="strategy", index=["arm", "game"], values="win_share")
    )
    out = []
    for better, worse in zip(order, order[1:], strict=False):
        both = per_game.select(better, worse).drop_nulls()
        diff = paired_difference(both[better].to_numpy(), both[worse].to_numpy())
        out.append(
            {"better": better, "worse": worse, "games": both.height, "difference": diff.estimate,
             "low": diff.low, "high": diff.high, "separated": diff.low > 0}
        )  # fmt: skip
    return pl.DataFrame(out)
