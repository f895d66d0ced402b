"""Simulating alien-raid games in chunks, as columns: the plug-in's heavy half (plugin.py is the
light one). Every strategy is a compiled policy the game loop calls through a function pointer
(decision.py), so a run compiles the loop once and only the policies its seats use."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.compiling import Unit
from sim.games.alien_raid import layout as L
from sim.games.alien_raid.columns import (
    BOUGHT,
    OFFERED,
    PROBE_CARD,
    SEAT_FIELDS,
    SEAT_TRAJECTORY,
    card_column,
)
from sim.games.alien_raid.decision import POLICY_SIGNATURE
from sim.games.alien_raid.kernel import (
    BATCH_TYPES,
    G_ERROR,
    G_ERROR_SEAT,
    G_OUTCOME,
    G_WINNERS,
    GAME_COLUMNS,
    OUTCOMES,
    SEAT_BLOCK,
    SEAT_SCORE,
    SEAT_SIZE,
    SEAT_TRAJ,
    compiled,
    play_batch,
    workspace,
)
from sim.games.alien_raid.params import names, to_params
from sim.games.alien_raid.ruleset import check_players
from sim.plugins import base
from sim.plugins.policy_table import PolicyTable
from sim.rulesets import Ruleset

# the loop with the rules, and the policy of the loop's free slots (a policy's unit carries the
# whole signature, return type included: the loop's call through a pointer asks the cache for
# that key: a policy cached under its argument types alone compiled again in the new processes
# that played it, a run's workers and the test session's)
_LOOP = [Unit("sim.games.alien_raid.kernel", "play_batch", BATCH_TYPES)]
_FREE_SLOTS = [Unit("sim.games.alien_raid.decision", "keep_default", POLICY_SIGNATURE)]


def simulate_chunk(ruleset: Ruleset, n_players: int, players: list[base.Player],
               seat_lineup: np.ndarray, seeds: np.ndarray, *,
               trace: bool = False) -> base.Chunk:  # fmt: skip
    """Play len(seeds) games; with `trace`, hash every turn's state and check the census."""
    facts = _facts(ruleset, n_players)
    seat_lineup, games, seats = base.chunk_arrays(
        seat_lineup, seeds, n_players, len(GAME_COLUMNS), (n_players, SEAT_SIZE)
    )
    plan = Plan(players)
    compiled(play_batch, BATCH_TYPES)(
        facts.params.copy(), n_players, np.ascontiguousarray(seeds, np.uint64),
        seat_lineup, plan.which, plan.params, games, seats, bool(trace),
        *workspace(plan.policies, plan.params.shape[1], ruleset.values["game.turns"]),
    )  # fmt: skip
    labels = [player.label for player in players]
    errors, illegal = base.refusals(games[:, G_ERROR], games[:, G_ERROR_SEAT], seat_lineup,
                                    labels, error_names=L.ERROR_NAMES,
                                    made="a refused decision")  # fmt: skip
    return base.Chunk(
        games=base.game_columns(
            games, GAME_COLUMNS, trace=trace, outcome=G_OUTCOME, outcome_names=OUTCOMES
        ),
        seats=_seat_columns(facts.models, games, seats, seat_lineup, labels),
        errors=errors,
        illegal=illegal,
    )


class Plan(PolicyTable):
    """How a lineup's ready players are played: their policy table."""

    def compile_jobs(self) -> list[list[Unit]]:
        """What playing the lineup compiles, as jobs for parallel processes: the loop with the
        rules (the longest), each policy of the lineup, the policy of the free slots."""
        return [_LOOP, *self.policy_jobs(POLICY_SIGNATURE), _FREE_SLOTS]


@dataclass
class _Facts:
    """What a chunk reads of its ruleset, worked out once per ruleset (not once per chunk: a
    catalog's card names took some 2 ms a chunk to read from the values)."""

    values: Mapping[str, Any]  # kept so that the ruleset's id is not reused while cached
    params: np.ndarray
    models: tuple[str, ...]
    players: set[int]  # the player counts check_players let through


_FACTS: dict[int, _Facts] = {}
_FACTS_KEPT = 8


def _facts(ruleset: Ruleset, n_players: int) -> _Facts:
    """The ruleset's params and card names, and check_players for `n_players` (raising for a
    count the catalog cannot deal), each worked out the first time it is asked."""
    facts = _FACTS.get(id(ruleset.values))
    if facts is None or facts.values is not ruleset.values:
        if len(_FACTS) >= _FACTS_KEPT:
            _FACTS.pop(next(iter(_FACTS)))
        facts = _Facts(ruleset.values, to_params(ruleset.values), names(ruleset.values).models,
                       set())  # fmt: skip
        _FACTS[id(ruleset.values)] = facts
    if n_players not in facts.players:
        check_players(ruleset, n_players)
        facts.players.add(n_players)
    return facts


def _seat_columns(models, games, seats, seat_lineup, labels) -> dict[str, np.ndarray]:
    """One row per captain: the framework's columns, the captain's counters, the card of the
    purchase probe (`models`: the card names), and each card's purchases and offers."""
    n, players, _ = seats.shape
    flat = seats.reshape(n * players, SEAT_SIZE)
    block = flat[:, SEAT_BLOCK:]
    cols = base.winner_seat_columns(games[:, G_WINNERS], flat[:, SEAT_SCORE], seat_lineup, labels)
    for column, field in SEAT_FIELDS.items():
        cols[column] = block[:, field]
    probe = block[:, L.PL_PROBE_CARD]
    cols[PROBE_CARD] = np.array([*models, ""], dtype=object)[np.where(probe >= 0, probe,
                                                                      len(models))]  # fmt: skip
    for m, model in enumerate(models):
        cols[card_column(BOUGHT, model)] = block[:, L.PL_BOUGHT + m]
        cols[card_column(OFFERED, model)] = block[:, L.PL_OFFERED + m]
    for i, column in enumerate(SEAT_TRAJECTORY):
        cols[column] = flat[:, SEAT_TRAJ + i]
    return cols
