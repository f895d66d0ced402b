"""The Space Invaders plug-in: rulesets, strategies, chunks of games as columns, the watch
view, scenarios and report sections. Heavy modules (numba) load inside the methods.

Players: 1-4. A cooperative table plays as one team: every seat's `score` is the team's
score and each seat's `win_share` is 1/players of a win (a shared win, as the framework
counts it). A 1-player game is one person playing the cards of `setup.solo_hands` hands
(line 102): the kernel plays the hands as seats with that person's strategy and dexterity,
and the seat row sums them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.games import register
from sim.games.base import Chunk, StrategySpec
from sim.games.space_invaders import layout as L
from sim.games.space_invaders.ruleset import PRESETS, Ruleset, load_ruleset

OUTCOMES = ("victory", "planet_destroyed", "ufo_survived", "cap")
# per-seat counters copied from the seat's block of the state: column -> PL_* field
SEAT_FIELDS = {
    "launches": L.PL_LAUNCHES,
    "planet_relaunches": L.PL_PLANET_RELAUNCHES,
    "power_relaunches": L.PL_POWER_RELAUNCHES,
    "landed": L.PL_LANDED,
    "kills": L.PL_KILLS,
    "ufo_hits": L.PL_UFO_HITS,
    "misses": L.PL_MISSES,
    "waves": L.PL_WAVES,
    "bonus_shots": L.PL_BONUS_SHOTS,
    "redirects": L.PL_REDIRECTS,
    "extras": L.PL_EXTRAS,
    "healed": L.PL_HEALED,
}


def _sections() -> dict[str, Any]:
    from sim.games.space_invaders import report

    return report.SECTIONS


class SpaceInvaders:
    name = "space-invaders"
    title = "Space Invaders (Buffalo Games 2021)"
    version = L.ENGINE_VERSION
    presets = PRESETS
    player_counts = (1, 2, 3, 4)
    outcomes = OUTCOMES

    @property
    def skills(self) -> tuple[str, ...]:
        from strategies.space_invaders.registry import SKILLS

        return SKILLS

    @property
    def report_sections(self) -> dict[str, Any]:
        return _sections()

    def load_ruleset(self, name_or_path: str, overrides: Any = (), *, source: str = "--set"):
        return load_ruleset(name_or_path, overrides, source=source)

    def strategy_names(self) -> tuple[str, ...]:
        return self.skills

    def check_strategy(self, spec: StrategySpec, *, source: str) -> StrategySpec:
        _resolve(spec, source=source)
        return spec

    def prepare(self, ruleset: Ruleset, lineup: list[StrategySpec]) -> None:
        """Compile (or load) the game loop once before workers start."""
        self.play_chunk(ruleset, 2, lineup[:1], np.zeros((1, 2), np.int64), np.zeros(1))

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
        """Play len(seeds) games; with `trace` also hash the state after every turn."""
        from sim.games.space_invaders.kernel import GAME_COLUMNS, play_batch
        from sim.games.space_invaders.params import setup_numbers, table_size, to_params

        n = len(seeds)
        if np.shape(seat_lineup) != (n, n_players):
            raise ValueError(
                f"seat_lineup must have one row of {n_players} per seed; "
                f"got {np.shape(seat_lineup)}"
            )
        seats_n = table_size(n_players, ruleset.values)
        table = np.ascontiguousarray(seat_lineup, np.int64)
        if n_players == 1:  # one person plays every hand
            table = np.repeat(table[:, :1], seats_n, axis=1)
        kinds, params = _lineup_arrays(lineup)
        games = np.zeros((n, len(GAME_COLUMNS)), np.int64)
        seats = np.zeros((n, seats_n, L.PL_SIZE), np.int64)
        p = to_params(ruleset.values, n_players)
        play_batch(p, seats_n, np.asarray(seeds, np.uint64), table, kinds, params, games,
                   seats, trace)  # fmt: skip
        labels = [spec.label for spec in lineup]
        numbers = setup_numbers(ruleset.values, n_players)
        cols = _game_columns(games, ruleset, seats_n, numbers, trace)
        cols["powers"] = _powers_dealt(seats)
        return Chunk(
            games=cols,
            seats=_seat_columns(games, seats, np.asarray(seat_lineup), labels, n_players),
            errors=_errors(games, np.asarray(seat_lineup), labels, n_players),
        )

    def watch(self, ruleset: Ruleset, lineup: list[StrategySpec], seed: int):
        from sim.games.space_invaders.watch import watch

        return watch(ruleset, lineup, seed)

    def scenario_run(self, path: str) -> str:
        from sim.games.space_invaders.scenario import run_file

        return run_file(path)

    def scenario_check(self, path: str) -> str:
        from sim.games.space_invaders.scenario import check_file

        return check_file(path)


def _resolve(spec: StrategySpec, *, source: str | None = None):
    from strategies.space_invaders import registry

    strategy = registry.resolve(spec.name, source=source)
    return strategy, registry.param_vector(strategy, dict(spec.params), source=source)


def _lineup_arrays(lineup: list[StrategySpec]) -> tuple[np.ndarray, np.ndarray]:
    """Kind and parameter vector of each lineup entry (spread_scale first)."""
    resolved = [_resolve(spec) for spec in lineup]
    width = max(len(v) for _, v in resolved)
    params = np.zeros((len(lineup), width), np.float64)
    kinds = np.zeros(len(lineup), np.int64)
    for j, (strategy, vector) in enumerate(resolved):
        params[j, : len(vector)] = vector
        kinds[j] = strategy.kind
    return kinds, params


def _game_columns(games, ruleset, seats_n, numbers, trace) -> dict[str, np.ndarray]:
    from sim.games.space_invaders.kernel import G_OUTCOME, GAME_COLUMNS

    n = games.shape[0]
    cols: dict[str, np.ndarray] = {name: games[:, i] for i, name in enumerate(GAME_COLUMNS)}
    if not trace:
        del cols["trace_hash"]
    cols["outcome"] = np.array(L.STATUS_NAMES, dtype=object)[games[:, G_OUTCOME]]
    cols["won"] = (games[:, G_OUTCOME] == L.VICTORY).astype(np.int64)
    cols["level"] = np.full(n, ruleset.values["setup.level"], dtype=object)
    cols["dexterity"] = np.full(n, ruleset.values["dexterity.skill"], dtype=object)
    cols["hands"] = np.full(n, seats_n, np.int64)
    cols["deck_size"] = np.full(n, numbers["deck"], np.int64)
    cols["planet_start"] = np.full(n, numbers["planet"], np.int64)
    cols["ufo_start"] = np.full(n, numbers["ufo"], np.int64)
    return cols


def _powers_dealt(seats: np.ndarray) -> np.ndarray:
    """Per game, every seat's (every hand's) player-card powers, comma-separated: the report
    compares the games in which a power was dealt (the seats table keeps them per seat)."""
    names = np.array(L.POWER_NAMES, dtype=object)
    held = names[seats[:, :, L.PL_POWER : L.PL_POWER + L.LEVELS]]
    return np.array([",".join(row.ravel()) for row in held], dtype=object)


def _seat_columns(games, seats, seat_lineup, labels, n_players) -> dict[str, np.ndarray]:
    from sim.games.space_invaders.kernel import G_OUTCOME, G_SCORE

    n, hands, _ = seats.shape
    if n_players == 1:  # the hands are one person's: sum their counters
        block = seats.sum(axis=1, keepdims=True)
    else:
        block = seats
    flat = block.reshape(n * n_players, L.PL_SIZE)
    won = np.repeat(games[:, G_OUTCOME] == L.VICTORY, n_players)
    cols: dict[str, np.ndarray] = {
        "seat": np.tile(np.arange(n_players), n),
        "strategy": np.array(labels, dtype=object)[seat_lineup.reshape(-1)],
        "score": np.repeat(games[:, G_SCORE], n_players),
        "win_share": np.where(won, 1.0 / n_players, 0.0),
    }
    names = np.array(L.POWER_NAMES, dtype=object)
    for level in range(L.LEVELS):
        powers = names[seats[:, :, L.PL_POWER + level]]
        if n_players == 1:
            powers = np.array(["+".join(row) for row in powers], dtype=object)[:, None]
        cols[f"power_{level + 1}"] = powers.reshape(-1)
        cols[f"tokens_{level + 1}"] = flat[:, L.PL_ACTIVE + level]
    for name, field in SEAT_FIELDS.items():
        cols[name] = flat[:, field]
    return cols


def _errors(games, seat_lineup, labels, n_players) -> list[str]:
    from sim.games.space_invaders.kernel import G_ERROR, G_ERROR_SEAT

    out = []
    for g in np.flatnonzero(games[:, G_ERROR]):
        seat = int(games[g, G_ERROR_SEAT]) if n_players > 1 else 0
        who = labels[int(seat_lineup[g, seat])]
        out.append(f"game {g}: {who} in seat {seat} made an illegal decision "
                   f"({L.ERROR_NAMES[games[g, G_ERROR]]})")  # fmt: skip
    return out


GAME = register(SpaceInvaders())
