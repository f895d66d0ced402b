"""The contract of a game whose plug-in shows only whole games (a compiled engine's
`simulate_chunk`), checked on many games (`sim check`): each game ends before the game's cap
(its `cap` outcome), is the same game when played again from its seed and in another
chunking of the seeds, and its engine reports no illegal move. A compiled engine shows no
state between decisions, so the steps themselves (each offered action accepted, a copy
independent, what a seat may see) cannot be checked from outside: the report says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sim.contract.findings import Contract, Failure, replay_command
from sim.plugins.base import StrategySpec, outcomes, prepare

CAP = "cap"
UNCHECKED = (
    "each step (the actions offered accepted, a copy independent of its original): the "
    "engine plays whole games and shows no state between decisions",
    "what a seat may see: the engine's strategies read its state directly",
)


def check_engine(plugin: Any, *, games: int, seed: int, lineup: Sequence[str]) -> Contract:
    contract = Contract(plugin.name, games, len(lineup), tuple(lineup))
    specs = [StrategySpec(name) for name in dict.fromkeys(lineup)]
    index = {spec.name: k for k, spec in enumerate(specs)}
    prepare(plugin, specs)
    ruleset = plugin.load_ruleset(plugin.presets[0])
    seats = np.tile([index[name] for name in lineup], (games, 1)).astype(np.int64)
    seeds = np.arange(seed, seed + games, dtype=np.uint64)

    def played(rows: slice) -> Any:
        return plugin.simulate_chunk(ruleset, len(lineup), specs, seats[rows], seeds[rows])

    whole, again = played(slice(None)), played(slice(None))
    halves = [played(slice(0, games // 2)), played(slice(games // 2, None))]

    def fail(game: int, message: str) -> None:
        s = int(seeds[game])
        contract.failures.append(Failure(s, None, message,
                                         replay_command(plugin.name, lineup, s)))  # fmt: skip

    _ends(whole, fail)
    _same(whole, again, fail, "played again from its seed")
    _same(whole, _joined(halves), fail, "played in another chunking of the seeds")
    for message in whole.errors:
        game = int(message.split()[1].rstrip(":")) if message.startswith("game ") else 0
        fail(game, f"the engine reports an illegal move: {message}")
    if contract.ok:
        has_cap = CAP in (outcomes(plugin) or ())
        contract.passed += [
            f"every game ends before the game's cap ({games} games)" if has_cap
            else f"every game ends ({games} games; the game names no `cap` outcome)",
            "a game played again from its seed, or in another chunking of the seeds, is "
            "the same game (every stored column)",
            "the engine reports no illegal move",
        ]  # fmt: skip
    contract.unchecked += UNCHECKED
    return contract


def _ends(chunk: Any, fail: Any) -> None:
    for game in np.flatnonzero(np.asarray(chunk.games["outcome"]) == CAP):
        fail(int(game), "the game did not end before its cap (outcome `cap`)")


def _joined(halves: list[Any]) -> Any:
    class Joined:
        games = {c: np.concatenate([np.asarray(h.games[c]) for h in halves])
                 for c in halves[0].games}  # fmt: skip
        seats = {c: np.concatenate([np.asarray(h.seats[c]) for h in halves])
                 for c in halves[0].seats}  # fmt: skip

    return Joined


def _same(first: Any, second: Any, fail: Any, how: str) -> None:
    players = len(first.seats["seat"]) // max(len(first.games["outcome"]), 1)
    for table in ("games", "seats"):
        one, two = getattr(first, table), getattr(second, table)
        for column in one:
            a, b = np.asarray(one[column]), np.asarray(two[column])
            differ = _differ(a, b)
            if table == "seats":
                differ = differ.reshape(-1, players).any(axis=1)
            for game in np.flatnonzero(differ)[:1]:
                fail(int(game), f"{how}, the game differs (column {column!r})")


def _differ(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per row, whether two stored columns differ (two NaNs are the same value)."""
    if a.shape != b.shape:
        return np.ones(len(a), bool)
    if a.dtype.kind == "f" and b.dtype.kind == "f":
        return ~((a == b) | (np.isnan(a) & np.isnan(b)))
    return np.asarray(a != b, bool)
