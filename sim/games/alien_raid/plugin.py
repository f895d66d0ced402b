"""The alien-raid plug-in: rulesets, strategies, chunks of games as columns, watching a game,
scenarios and report sections. The compiled modules are imported only when a game is played."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.games import register
from sim.games.alien_raid import layout as L
from sim.games.alien_raid.ruleset import PRESETS, Ruleset, check_players, load_ruleset
from sim.games.base import Chunk, StrategySpec

# per-seat columns copied from the player's block of the state: column -> PL_* field
SEAT_FIELDS = {
    "humans_play": L.PL_HUMANS_PLAY,
    "task_humans": L.PL_TASK_HUMANS,
    "repaid": L.PL_REPAID,
    "spent": L.PL_SPENT,
    "credits_taken": L.PL_CREDITS_TAKEN,
    "attacks": L.PL_ATTACKS,
    "conquests": L.PL_CONQUESTS,
    "battles": L.PL_BATTLES,
    "battles_won": L.PL_BATTLES_WON,
    "retreats": L.PL_RETREATS,
    "ships_lost": L.PL_SHIPS_LOST,
    "compensations": L.PL_COMPS_RECEIVED,
    "raids": L.PL_RAIDS,
    "raid_humans": L.PL_RAID_HUMANS,
    "catches": L.PL_CATCHES,
    "catches_won": L.PL_CATCHES_WON,
    "catch_humans": L.PL_CATCH_HUMANS,
    "catch_retreats": L.PL_CATCH_RETREATS,
    "army_losses": L.PL_ARMY_LOSSES,
    "stations_used": L.PL_STATIONS_USED,
    "comp_humans": L.PL_COMP_HUMANS,
    "trophies": L.PL_TROPHIES_TAKEN,
    "transfers": L.PL_TRANSFERS,
    "tasks_first": L.PL_TASKS_FIRST,
    "tasks_second": L.PL_TASKS_SECOND,
    "cities": L.PL_N_WON,
    "probe_bought": L.PL_PROBE_BOUGHT,
    "probe_turn": L.PL_PROBE_TURN,
    "probe_price": L.PL_PROBE_PRICE,
    "rp_armies": L.PL_RP_ARMIES,
    "rp_fleet": L.PL_RP_FLEET,
    "rp_raid": L.PL_RP_RAID,
    "rp_catch": L.PL_RP_CATCH,
    "rp_choice": L.PL_RP_CHOICE,
    "rp_humans": L.PL_RP_HUMANS,
    "rp_lost": L.PL_RP_LOST,
    "rp_turn": L.PL_RP_TURN,
    "cp_turn": L.PL_CP_TURN,
    "cp_took": L.PL_CP_TOOK,
}


def column_name(card: str) -> str:
    """A card name as part of a column name: new-york -> new_york."""
    return card.replace("-", "_")


class AlienRaid:
    name = "alien-raid"
    title = "Alien raid"
    version = L.ENGINE_VERSION
    presets = PRESETS
    player_counts = (2, 3, 4, 5)
    outcomes = ("win", "shared", "refused")

    @property
    def skills(self) -> tuple[str, ...]:
        from strategies.alien_raid.registry import LADDER

        return LADDER

    @property
    def report_sections(self) -> dict[str, Any]:
        from sim.games.alien_raid import report

        return dict(report.SECTIONS)

    def load_ruleset(self, name_or_path: str, overrides: Any = (), *, source: str = "--set"):
        return load_ruleset(name_or_path, overrides, source=source)

    def check_strategy(self, spec: StrategySpec, *, source: str) -> StrategySpec:
        from strategies.alien_raid import registry

        registry.param_vector(
            registry.resolve(spec.name, source=source), dict(spec.params), source=source
        )
        return spec

    def strategy_names(self) -> tuple[str, ...]:
        from strategies.alien_raid.dispatch import ORDER

        return ORDER

    def prepare(self, ruleset: Ruleset, lineup: list[StrategySpec]) -> None:
        """Compile (or load) the game loop once, before workers start."""
        self.play_chunk(ruleset, 2, lineup[:1], np.zeros((1, 2), np.int64), np.arange(1))

    def play_chunk(
        self,
        ruleset: Ruleset,
        n_players: int,
        lineup: list[StrategySpec],
        seat_lineup: np.ndarray,
        seeds: np.ndarray,
        *,
        trace: bool = False,
    ) -> Chunk:
        """Play len(seeds) games; with `trace`, hash every turn's state and check the census."""
        from sim.games.alien_raid.kernel import GAME_COLUMNS, SEAT_SIZE, play_batch
        from sim.games.alien_raid.params import to_params

        n = len(seeds)
        if np.shape(seat_lineup) != (n, n_players):
            raise ValueError(
                f"seat_lineup must have one row of {n_players} per seed "
                f"({n}, {n_players}); got {np.shape(seat_lineup)}"
            )
        check_players(ruleset, n_players)
        kinds, params = lineup_arrays(lineup)
        games = np.zeros((n, len(GAME_COLUMNS)), np.int64)
        seats = np.zeros((n, n_players, SEAT_SIZE), np.int64)
        seat_lineup = np.ascontiguousarray(seat_lineup, np.int64)
        play_batch(
            to_params(ruleset.values),
            n_players,
            np.asarray(seeds, np.uint64),
            seat_lineup,
            kinds,
            params,
            games,
            seats,
            trace,
        )
        labels = [spec.label for spec in lineup]
        return Chunk(
            games=_game_columns(games, trace),
            seats=_seat_columns(ruleset, games, seats, seat_lineup, labels),
            errors=_errors(games, seat_lineup, labels),
        )

    def watch(self, ruleset: Ruleset, lineup: list[StrategySpec], seed: int):
        from sim.games.alien_raid.watch import watch

        return watch(ruleset, lineup, seed)

    def scenario_run(self, path: str) -> str:
        from sim.games.alien_raid.scenario import run_file

        return run_file(path)

    def scenario_check(self, path: str) -> str:
        from sim.games.alien_raid.scenario import check_file

        return check_file(path)


def lineup_arrays(lineup: list[StrategySpec]) -> tuple[np.ndarray, np.ndarray]:
    """Strategy kinds and parameter vectors (one row per lineup entry) for the game loop."""
    from strategies.alien_raid import registry

    resolved = [registry.resolve(spec.name) for spec in lineup]
    vectors = [
        registry.param_vector(r, dict(spec.params))
        for r, spec in zip(resolved, lineup, strict=True)
    ]
    width = max(len(v) for v in vectors)
    params = np.zeros((len(lineup), width), np.float64)
    for j, v in enumerate(vectors):
        params[j, : len(v)] = v
    return np.array([r.kind for r in resolved], np.int64), params


def _game_columns(games: np.ndarray, trace: bool) -> dict[str, np.ndarray]:
    from sim.games.alien_raid.kernel import G_OUTCOME, GAME_COLUMNS, OUTCOMES

    cols = {name: games[:, i] for i, name in enumerate(GAME_COLUMNS)}
    if not trace:
        del cols["trace_hash"]
    cols["outcome"] = np.array(OUTCOMES, dtype=object)[games[:, G_OUTCOME]]
    return cols


def _seat_columns(ruleset, games, seats, seat_lineup, labels) -> dict[str, np.ndarray]:
    from sim.games.alien_raid.kernel import G_WINNERS, SEAT_BLOCK, SEAT_SCORE, SEAT_SIZE
    from sim.games.alien_raid.params import names

    n, players, _ = seats.shape
    seat = np.tile(np.arange(players), n)
    mask = np.repeat(games[:, G_WINNERS], players)
    won = (mask >> seat) & 1
    n_winners = np.repeat(np.bitwise_count(games[:, G_WINNERS].astype(np.uint64)), players)
    flat = seats.reshape(n * players, SEAT_SIZE)
    block = flat[:, SEAT_BLOCK:]
    models = names(ruleset.values).models
    cols: dict[str, np.ndarray] = {
        "seat": seat,
        "strategy": np.array(labels, dtype=object)[np.asarray(seat_lineup).reshape(-1)],
        "score": flat[:, SEAT_SCORE],
        "win_share": np.where(won == 1, 1.0 / np.maximum(n_winners, 1), 0.0),
    }
    for name, f in SEAT_FIELDS.items():
        cols[name] = block[:, f]
    probe = block[:, L.PL_PROBE_CARD]
    cols["probe_card"] = np.array([*models, ""], dtype=object)[
        np.where(probe >= 0, probe, len(models))
    ]
    for m, model in enumerate(models):
        cols[f"bought_{column_name(model)}"] = block[:, L.PL_BOUGHT + m]
        cols[f"offered_{column_name(model)}"] = block[:, L.PL_OFFERED + m]
    return cols


def _errors(games, seat_lineup, labels) -> list[str]:
    from sim.games.alien_raid.kernel import G_ERROR, G_ERROR_SEAT

    out = []
    for g in np.flatnonzero(games[:, G_ERROR]):
        seat = int(games[g, G_ERROR_SEAT])
        who = labels[int(seat_lineup[g, seat])] if seat >= 0 else "the engine"
        out.append(
            f"game {g}: {who} in seat {seat} made a refused decision "
            f"({L.ERROR_NAMES[games[g, G_ERROR]]})"
        )
    return out


GAME = register(AlienRaid())
