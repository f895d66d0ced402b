"""What a worker gets and does: a Task is one chunk of games of one arm, small and picklable;
`simulate_task` plays it through the game plug-in and returns it encoded as two Parquet files
(runs in a worker process, a Dask worker or in-process)."""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim import plugin_path
from sim.errors import SimError, StrategyError
from sim.experiment.lineups import seat_lineup
from sim.experiment.model import Arm, Experiment
from sim.plugins import get_game
from sim.plugins.base import StrategySpec
from sim.runner.manifest import freeze, thaw
from sim.seeds import game_seeds, root_keys
from sim.storage import encode


@dataclass(frozen=True)
class Task:
    """One chunk of games of one arm; small and picklable (the worker rebuilds the ruleset)."""

    game: str
    arm_index: int
    arm_name: str
    ruleset_ref: str
    overrides: tuple[tuple[str, Any], ...]
    ruleset_fingerprint: str
    ruleset_name: str
    players: int
    lineup: tuple[StrategySpec, ...]
    tables: tuple[tuple[int, ...], ...]
    keys: tuple[int, int]
    params: tuple[tuple[str, Any], ...]
    start: int
    stop: int
    import_paths: tuple[str, ...] = ()  # where user strategies are imported from

    @property
    def games(self) -> int:
        return self.stop - self.start


@dataclass
class ChunkResult:
    arm_index: int
    start: int
    stop: int
    games: bytes
    seats: bytes
    seconds: float
    errors: list[str] = field(default_factory=list)
    illegal: dict[str, int] = field(default_factory=dict)  # strategy label -> games stopped


@functools.lru_cache(maxsize=64)
def _ruleset(game: str, ref: str, overrides: tuple[tuple[str, Any], ...]) -> Any:
    return get_game(game).load_ruleset(ref, [(k, thaw(v)) for k, v in overrides])


def simulate_task(task: Task) -> ChunkResult:
    """Play one chunk and encode it (runs in a worker process, a Dask worker or in-process)."""
    began = time.perf_counter()
    plugin_path.register(task.import_paths)
    plugin = get_game(task.game)
    ruleset = _ruleset(task.game, task.ruleset_ref, task.overrides)
    if ruleset.fingerprint() != task.ruleset_fingerprint:
        raise SimError(
            f"the worker's ruleset for arm '{task.arm_name}' differs from the one validated "
            f"({ruleset.fingerprint()} != {task.ruleset_fingerprint})",
            hint="Workers must run the same code and see the same ruleset files as `sim run`.",
        )
    n = task.games
    seeds = game_seeds(task.keys, task.start, task.stop)
    lineup_rows = seat_lineup(np.array(task.tables, dtype=np.int64), task.start, task.stop)
    try:
        chunk = plugin.simulate_chunk(ruleset, task.players, list(task.lineup), lineup_rows, seeds)
    except StrategyError as err:
        raise _located(err, task, seeds) from None
    index = np.arange(task.start, task.stop, dtype=np.int64)
    games = _with_run_columns(task, n, {"game": index, "seed": seeds}, chunk.games, "games")
    seat_count = n * task.players
    plugin_seats = dict(chunk.seats)
    seat = np.asarray(plugin_seats.pop("seat", np.tile(np.arange(task.players), n)))
    seats = _with_run_columns(
        task,
        seat_count,
        {"game": np.repeat(index, task.players), "seat": seat.astype(np.int64)},
        plugin_seats,
        "seats",
    )
    errors = [_renumber(message, task.start) for message in chunk.errors]
    return ChunkResult(
        task.arm_index,
        task.start,
        task.stop,
        encode(games),
        encode(seats),
        time.perf_counter() - began,
        errors,
        dict(chunk.illegal),
    )


def _located(err: StrategyError, task: Task, seeds: np.ndarray) -> SimError:
    """The plugin's strategy failure, with the arm, the game's index in the arm and its seed
    (a plain SimError: it crosses from a worker process intact)."""
    game, seed = task.start + err.game, int(seeds[err.game])
    table = task.tables[game % len(task.tables)]
    seats = [task.lineup[j] for j in table]
    replay = ""
    if not task.overrides and not any(spec.params for spec in seats):
        names = ",".join(spec.name for spec in seats)
        replay = f" `sim play --ruleset {task.ruleset_ref} --strategies {names} --seed {seed}`"
        replay += " plays the same game."
    return SimError(
        f"{err.message}, in arm '{task.arm_name}', game {game} (seed {seed})",
        hint=f"{err.hint}{replay}",
    )


def _with_run_columns(
    task: Task, rows: int, keys: dict[str, np.ndarray], plugin: dict[str, Any], table: str
) -> dict[str, Any]:
    cols: dict[str, Any] = {"arm": np.full(rows, task.arm_name, dtype=object), **keys}
    cols["players"] = np.full(rows, task.players, dtype=np.int64)
    cols["ruleset"] = np.full(rows, task.ruleset_name, dtype=object)
    for name, value in task.params:
        cols[name] = np.full(rows, value, dtype=object if isinstance(value, str) else None)
    for name, values in plugin.items():
        if name in cols:
            raise SimError(
                f"the game plugin's {table} column '{name}' clashes with a column of the run",
                hint="Rename the sweep key or the plugin column.",
            )
        values = np.asarray(values)
        if len(values) != rows:
            raise SimError(
                f"the game plugin returned {len(values)} values of {table} column '{name}' "
                f"for {rows} rows"
            )
        cols[name] = values
    return cols


def _renumber(message: str, start: int) -> str:
    """Plugin messages say 'game g' within the chunk; make g the global index."""
    head, sep, rest = message.partition(":")
    if sep and head.startswith("game ") and head[5:].strip().isdigit():
        return f"game {int(head[5:]) + start}:{rest}"
    return message


def make_task(exp: Experiment, arm: Arm, start: int, stop: int) -> Task:
    return Task(
        game=exp.game,
        arm_index=arm.index,
        arm_name=arm.name,
        ruleset_ref=arm.ruleset_ref,
        overrides=tuple((k, freeze(v)) for k, v in arm.overrides),
        ruleset_fingerprint=arm.ruleset.fingerprint(),
        ruleset_name=arm.ruleset_name,
        players=arm.players,
        lineup=arm.lineup,
        tables=arm.tables,
        keys=root_keys(exp.seed),
        params=arm.params,
        start=start,
        stop=stop,
        import_paths=plugin_path.user_paths(exp.file),
    )
