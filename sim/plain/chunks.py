"""`simulate_chunk` for a plain-Python game: each seed's game played (play.py) and stored as the
lab's columns, the same games however the seeds are chunked.

Per game: `outcome`, `turns`, `decisions`, `lead_changes` and the game's own `stats()`; per
seat: `seat`, `strategy`, `score`, `win_share` (a shared win counts 1/k), `turns_played`,
`no_choice_turns`, `decisions`, the trajectory columns and the game's own `seat_stats()`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.errors import SimError, StrategyError
from sim.plain.columns import (
    COUNTS,
    DECISIONS,
    GAME_COLUMNS,
    NO_CHOICE,
    SEAT_COLUMNS,
    TAKEN,
    TURNS,
    TURNS_PLAYED,
)
from sim.plain.game import PlainGame
from sim.plain.play import Played, course, play
from sim.plain.players import Players, make_players
from sim.plugins import trajectory
from sim.plugins.base import Chunk, StrategySpec, seat_table

Names = tuple[list[str], list[str]]  # the game's own columns: per game, per seat


def simulate_chunk(game: PlainGame, players: Players, ruleset: Any, n_players: int,
               lineup: list[StrategySpec], seat_lineup: Any, seeds: Any) -> Chunk:  # fmt: skip
    """len(seeds) games; game g seats lineup[seat_lineup[g, k]] in seat k."""
    if n_players not in game.player_counts:
        raise SimError(f"{game.title} is played by {', '.join(map(str, game.player_counts))} "
                       f"players, not {n_players}", key="players")  # fmt: skip
    seating = seat_table(seat_lineup, len(seeds), n_players)
    made = make_players(players, lineup)
    labels = [spec.label for spec in lineup]
    games: dict[str, list] = {"outcome": [], **{c: [] for c in GAME_COLUMNS}}
    seats: dict[str, list] = {c: [] for c in ("score", "win_share", *SEAT_COLUMNS)}
    own: Names | None = None
    for g, seed in enumerate(seeds):
        row = [int(j) for j in seating[g]]
        strategies = [made[j].make(game, ruleset, seat) for seat, j in enumerate(row)]
        try:
            played = play(game, ruleset, strategies, int(seed), labels=[labels[j] for j in row])
        except StrategyError as err:
            raise StrategyError(err.message, strategy=err.strategy, game=g, seat=err.seat,
                                hint=err.hint) from None  # fmt: skip
        own = _store(played, games, seats, own, game.title)
    seat_column = np.tile(np.arange(n_players), len(seeds))
    strategy = np.array(labels, dtype=object)[seating.reshape(-1)] if len(seeds) else []
    return Chunk(
        games={k: np.asarray(v, dtype=object if k == "outcome" else _kind(k, v))
               for k, v in games.items()},
        seats={"seat": seat_column, "strategy": np.asarray(strategy, dtype=object),
               **{k: np.asarray(v, dtype=_kind(k, v)) for k, v in seats.items()}},
    )  # fmt: skip


def _kind(column: str, values: list) -> type:
    """int64 for the counts; float64 for scores, shares and the game's own numbers."""
    return np.int64 if column in COUNTS else np.float64


def _store(played: Played, games: dict[str, list], seats: dict[str, list],
           own: Names | None, title: str) -> Names:  # fmt: skip
    state, n = played.state, played.players
    lead_changes, at = course(played)
    games["outcome"].append(played.outcome)
    games[TURNS].append(played.turns)
    games[DECISIONS].append(played.steps)
    games[trajectory.LEAD_CHANGES].append(lead_changes)
    winners = played.winners
    seats["score"] += played.scores
    seats["win_share"] += [1.0 / len(winners) if k in winners else 0.0 for k in range(n)]
    seats[TURNS_PLAYED] += played.turns_played
    seats[NO_CHOICE] += played.no_choice
    seats[DECISIONS] += played.decisions
    for column, values in at.items():
        seats[column] += values
    stats, seat_stats = dict(state.stats()), dict(state.seat_stats())
    names = (list(stats), list(seat_stats))
    if own is None and TAKEN & {*stats, *seat_stats}:
        raise SimError(f"{title}: a game's own column is named like one of the lab's: "
                       f"{', '.join(sorted(TAKEN & {*stats, *seat_stats}))}",
                       hint="Rename it in State.stats or State.seat_stats.")  # fmt: skip
    if own is not None and names != own:
        raise SimError(f"{title}: a game stored the columns {names}, another {own}",
                       hint="State.stats and State.seat_stats must name the same numbers "
                       "in every game.")  # fmt: skip
    for name, value in stats.items():
        games.setdefault(name, []).append(float(value))
    for name, values in seat_stats.items():
        if len(values) != n:
            raise SimError(f"{title}: seat_stats()[{name!r}] has {len(values)} values for "
                           f"{n} seats")  # fmt: skip
        seats.setdefault(name, []).extend(float(v) for v in values)
    return names
