"""Running an experiment: chunks of games on local workers or a Dask cluster, streamed to disk.

Each chunk is a range of game indices of one arm. A worker plays it through the game plugin and
returns the chunk encoded as two Parquet files (games, seats); the parent writes them under
temporary names and renames them into place, so the results folder only ever holds complete
chunks. Nothing else is kept in memory, so memory does not grow with the number of games.

A run on a folder that already holds results of the same experiment (same fingerprint) plays
only the games missing from the stored chunks; any other experiment is refused unless fresh.
"""

from __future__ import annotations

import functools
import os
import subprocess
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from sim.compiling import console_notice, quiet_notice
from sim.errors import SimError
from sim.games import get_game
from sim.games.base import StrategySpec
from sim.runner.experiment import Arm, Experiment
from sim.runner.lineups import seat_lineup
from sim.runner.precision import Measure, measure
from sim.runner.seeds import DERIVATION, game_seeds, root_keys
from sim.storage import (
    cleanup,
    complete_chunks,
    encode,
    part_path,
    read_manifest,
    remove_results,
    write_atomic,
    write_manifest,
)

DEFAULT_CHUNK_SIZE = 20_000
BACKENDS = ("local", "dask")
DASK_CONNECT_TIMEOUT = "10s"
MANIFEST_FORMAT = 1
_MAX_ERROR_EXAMPLES = 20


# --- tasks (what a worker gets) ---------------------------------------------------------


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


@functools.lru_cache(maxsize=64)
def _ruleset(game: str, ref: str, overrides: tuple[tuple[str, Any], ...]) -> Any:
    return get_game(game).load_ruleset(ref, [(k, _thaw(v)) for k, v in overrides])


def play_task(task: Task) -> ChunkResult:
    """Play one chunk and encode it (runs in a worker process, a Dask worker or in-process)."""
    began = time.perf_counter()
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
    chunk = plugin.play_chunk(ruleset, task.players, list(task.lineup), lineup_rows, seeds)
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


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


def make_task(exp: Experiment, arm: Arm, start: int, stop: int) -> Task:
    return Task(
        game=exp.game,
        arm_index=arm.index,
        arm_name=arm.name,
        ruleset_ref=arm.ruleset_ref,
        overrides=tuple((k, _freeze(v)) for k, v in arm.overrides),
        ruleset_fingerprint=arm.ruleset.fingerprint(),
        ruleset_name=arm.ruleset_name,
        players=arm.players,
        lineup=arm.lineup,
        tables=arm.tables,
        keys=root_keys(exp.seed),
        params=arm.params,
        start=start,
        stop=stop,
    )


# --- planning ---------------------------------------------------------------------------


def missing_ranges(done: Iterable[tuple[int, int]], target: int) -> list[tuple[int, int]]:
    """The parts of [0, target) not covered by the done ranges."""
    gaps, at = [], 0
    for start, stop in sorted(done):
        if start > at:
            gaps.append((at, min(start, target)))
        at = max(at, stop)
        if at >= target:
            break
    if at < target:
        gaps.append((at, target))
    return [(a, b) for a, b in gaps if b > a]


def plan_chunks(
    done: Iterable[tuple[int, int]], target: int, chunk_size: int
) -> list[tuple[int, int]]:
    """Chunks of at most chunk_size games filling the gaps below target."""
    out = []
    for a, b in missing_ranges(done, target):
        out.extend((s, min(s + chunk_size, b)) for s in range(a, b, chunk_size))
    return out


def games_done(done: Iterable[tuple[int, int]]) -> int:
    """How many games from 0 on are stored without a gap."""
    at = 0
    for start, stop in sorted(done):
        if start > at:
            break
        at = max(at, stop)
    return at


# --- backends ---------------------------------------------------------------------------


def default_jobs() -> int:
    """All cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _local(tasks: list[Task], jobs: int) -> Iterator[ChunkResult]:
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield play_task(task)
        return
    from joblib import Parallel, delayed

    parallel = Parallel(
        n_jobs=jobs,
        backend="loky",
        return_as="generator_unordered",
        batch_size=1,
        pre_dispatch="2*n_jobs",
    )
    yield from parallel(delayed(play_task)(task) for task in tasks)


def _dask(tasks: list[Task], jobs: int, address: str | None) -> Iterator[ChunkResult]:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:  # pragma: no cover - dask[distributed] is a dependency
        raise SimError("the dask backend needs dask[distributed] installed") from None
    cluster = None
    try:
        if address:
            client = Client(address, timeout=DASK_CONNECT_TIMEOUT, set_as_default=False)
        else:
            cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True)
            client = Client(cluster, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise SimError(
            f"cannot reach the Dask scheduler at {address}: {exc}",
            key="--address",
            hint="Give the scheduler's address, e.g. tcp://10.0.0.5:8786.",
        ) from None
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        pending = iter(tasks)
        first = [client.submit(play_task, t, pure=False) for t in _take(pending, 2 * workers)]
        if not first:
            return
        window = as_completed(first, loop=client.loop)
        for future in window:
            result = future.result()
            future.release()
            for task in _take(pending, 1):
                window.add(client.submit(play_task, task, pure=False))
            yield result
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _take(iterator: Iterator[Task], n: int) -> list[Task]:
    out = []
    for _ in range(n):
        try:
            out.append(next(iterator))
        except StopIteration:
            break
    return out


# --- the run ----------------------------------------------------------------------------


class Interrupted(Exception):
    """The run was stopped (Ctrl-C); completed chunks are kept and a rerun resumes."""

    def __init__(self, summary: RunSummary) -> None:
        super().__init__("interrupted")
        self.summary = summary


@dataclass
class RunSummary:
    out: Path
    games_played: int  # in this run
    games_stored: int  # in the folder, all arms
    chunks_played: int
    seconds: float
    arms: dict[str, int]  # games stored per arm
    precision: dict[str, dict[str, Any]] = field(default_factory=dict)
    illegal_moves: int = 0
    resumed: bool = False
    compile_seconds: float = 0.0  # before the first game; not part of `seconds`


@dataclass
class _Progress:
    """Progress reporting; a callable per finished chunk plus start/stop."""

    show: bool
    console: Any = None
    _progress: Any = None
    _task: Any = None

    def start(self, total: int, done: int) -> None:
        if not self.show:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        console = self.console or Console(stderr=True)
        if not console.is_terminal:
            return
        self._progress = Progress(
            TextColumn("[bold]games"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("elapsed,"),
            TimeRemainingColumn(),
            TextColumn("left"),
            console=console,
            transient=False,
        )
        self._progress.start()
        self._task = self._progress.add_task("games", total=total, completed=done, rate="")
        self._began = time.perf_counter()
        self._base = done

    def advance(self, games: int, total: int) -> None:
        if self._progress is None:
            return
        task = self._progress.tasks[0]
        played = task.completed + games - self._base
        rate = played / max(time.perf_counter() - self._began, 1e-9)
        self._progress.update(self._task, advance=games, total=total, rate=f"{rate:,.0f} games/s")

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


def check_options(*, chunk_size: int, backend: str, address: str | None, jobs: int | None) -> None:
    """Refuse bad run options before anything starts."""
    if chunk_size < 1:
        raise SimError(f"expected a positive chunk size, got {chunk_size}", key="--chunk-size")
    if backend not in BACKENDS:
        raise SimError(f"unknown backend '{backend}'", key="--backend", hint="Use local or dask.")
    if address and backend != "dask":
        raise SimError("--address needs --backend dask", key="--address")
    if jobs is not None and jobs < 0:
        raise SimError(f"expected a number of workers >= 1, got {jobs}", key="--jobs",
                       hint="Leave it out to use all cores.")  # fmt: skip


def run(
    exp: Experiment,
    *,
    out: str | Path | None = None,
    jobs: int | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    backend: str = "local",
    address: str | None = None,
    fresh: bool = False,
    progress: bool = True,
    console: Any = None,
    stop_after: int | None = None,
    on_chunk: Callable[[ChunkResult], None] | None = None,
) -> RunSummary:
    """Play the experiment into `out` (default results/<name>), resuming stored chunks.

    ``stop_after`` (tests) stops as if interrupted after that many chunks were written.
    Raises Interrupted on Ctrl-C (completed chunks are kept) and SimError on bad input.
    """
    check_options(chunk_size=chunk_size, backend=backend, address=address, jobs=jobs)
    jobs = default_jobs() if jobs is None or jobs <= 0 else jobs
    root = Path(out) if out is not None else Path("results") / exp.name
    resumed = _prepare(root, exp, fresh)
    compile_seconds = _compile(exp, show=progress, console=console)
    manifest = _new_manifest(exp, root)
    began = time.perf_counter()
    run_entry = {
        "started": _now(),
        "jobs": jobs,
        "backend": backend,
        "address": address,
        "chunk_size": chunk_size,
        "status": "running",
    }
    manifest["runs"].append(run_entry)
    stored = complete_chunks(root)
    chunk_seconds = _previous_seconds(read_manifest(root))
    manifest["chunks"] = _chunk_list(stored, chunk_seconds)
    write_manifest(root, manifest)

    targets = {arm.index: exp.games for arm in exp.arms}
    finished: set[int] = set()
    results_precision: dict[str, dict[str, Any]] = {}
    state = {"played": 0, "chunks": 0, "errors": 0}
    reporter = _Progress(progress, console)
    status = "complete"
    try:
        while True:
            active = [arm for arm in exp.arms if arm.index not in finished]
            tasks = [
                make_task(exp, arm, a, b)
                for arm in active
                for a, b in plan_chunks(stored.get(arm.index, []), targets[arm.index], chunk_size)
            ]
            if tasks:
                total = sum(targets.values())
                done_now = sum(min(games_done(stored.get(i, [])), targets[i]) for i in targets)
                if reporter._progress is None:
                    reporter.start(total, done_now)
                results = _local(tasks, jobs) if backend == "local" else _dask(tasks, jobs, address)
                try:
                    for result in results:
                        _store(root, result)
                        stored.setdefault(result.arm_index, []).append((result.start, result.stop))
                        chunk_seconds[(result.arm_index, result.start, result.stop)] = (
                            result.seconds
                        )
                        state["played"] += result.stop - result.start
                        state["chunks"] += 1
                        if result.errors:
                            state["errors"] += len(result.errors)
                            _note_errors(manifest, result.errors, exp.arms[result.arm_index].name)
                        manifest["chunks"] = _chunk_list(stored, chunk_seconds)
                        write_manifest(root, manifest)
                        reporter.advance(result.stop - result.start, total)
                        if on_chunk is not None:
                            on_chunk(result)
                        if stop_after is not None and state["chunks"] >= stop_after:
                            raise KeyboardInterrupt
                finally:
                    close = getattr(results, "close", None)
                    if close is not None:
                        close()
            if exp.precision is None:
                break
            prec = exp.precision
            for arm in active:
                m = measure(root, arm.index, targets[arm.index], prec.metric)
                reached = m.width <= prec.width
                results_precision[arm.name] = _measure_entry(m, reached, prec.width)
                if reached or targets[arm.index] >= prec.max_games:
                    finished.add(arm.index)
                else:
                    targets[arm.index] = min(targets[arm.index] + prec.step, prec.max_games)
            manifest["precision_result"] = results_precision
            if len(finished) == len(exp.arms):
                break
    except KeyboardInterrupt:
        status = "interrupted"
    finally:
        reporter.stop()
        run_entry["status"] = status if status == "interrupted" else "failed"
        run_entry["finished"] = _now()
        run_entry["wall_seconds"] = round(time.perf_counter() - began, 3)
        run_entry["games_played"] = state["played"]
        for entry in manifest["arms"]:
            entry["games"] = games_done(stored.get(entry["index"], []))
            entry["target"] = targets[entry["index"]]
        manifest["status"] = run_entry["status"]
        manifest["chunks"] = _chunk_list(stored, chunk_seconds)
        write_manifest(root, manifest)
    if status == "complete":
        run_entry["status"] = manifest["status"] = status
        write_manifest(root, manifest)
    summary = RunSummary(
        out=root,
        games_played=state["played"],
        games_stored=sum(b - a for chunks in stored.values() for a, b in chunks),
        chunks_played=state["chunks"],
        seconds=time.perf_counter() - began,
        arms={e["name"]: e["games"] for e in manifest["arms"]},
        precision=results_precision,
        illegal_moves=manifest["illegal_moves"]["count"],
        resumed=resumed,
        compile_seconds=compile_seconds,
    )
    if status == "interrupted":
        raise Interrupted(summary)
    return summary


def _compile(exp: Experiment, *, show: bool, console: Any) -> float:
    """Compile (or load from the cache) what every arm's lineup needs, once, here, before any
    worker starts: workers then load the machine code instead of each compiling it."""
    prepare = getattr(get_game(exp.game), "prepare", None)
    if prepare is None:
        return 0.0
    lineup = list(dict.fromkeys(spec for arm in exp.arms for spec in arm.lineup))
    return prepare(lineup, notice=console_notice(console) if show else quiet_notice)


def _store(root: Path, result: ChunkResult) -> None:
    # seats first: a chunk counts as done once its games part exists (and seats too)
    seats = part_path(root, "seats", result.arm_index, result.start, result.stop)
    write_atomic(seats, result.seats)
    write_atomic(
        part_path(root, "games", result.arm_index, result.start, result.stop), result.games
    )


def _measure_entry(m: Measure, reached: bool, target: float) -> dict[str, Any]:
    return {
        "metric": m.metric,
        "games": m.games,
        "estimate": m.estimate,
        "low": m.low,
        "high": m.high,
        "width": m.width,
        "target_width": target,
        "reached": reached,
    }


def _note_errors(manifest: dict[str, Any], errors: list[str], arm: str) -> None:
    entry = manifest["illegal_moves"]
    entry["count"] += len(errors)
    room = _MAX_ERROR_EXAMPLES - len(entry["examples"])
    entry["examples"].extend(f"arm '{arm}', {e}" for e in errors[: max(room, 0)])


def _chunk_list(
    stored: dict[int, list[tuple[int, int]]], seconds: dict[tuple[int, int, int], float]
) -> list[dict[str, Any]]:
    return [
        {"arm": arm, "start": a, "stop": b, "seconds": round(seconds.get((arm, a, b), 0.0), 4)}
        for arm in sorted(stored)
        for a, b in sorted(stored[arm])
    ]


def _previous_seconds(manifest: dict[str, Any] | None) -> dict[tuple[int, int, int], float]:
    if not manifest:
        return {}
    chunks = manifest.get("chunks", [])
    return {(c["arm"], c["start"], c["stop"]): c.get("seconds", 0.0) for c in chunks}


# --- the results folder -----------------------------------------------------------------


def _prepare(root: Path, exp: Experiment, fresh: bool) -> bool:
    """Make the folder ready; True if it holds results of this experiment to resume."""
    if root.exists() and not root.is_dir():
        raise SimError("exists and is not a folder", file=root, key="--out")
    if fresh:
        remove_results(root)
    old = read_manifest(root)
    has_parts = any((root / t).is_dir() and any((root / t).iterdir()) for t in ("games", "seats"))
    if old is None:
        if has_parts:
            raise SimError(
                "holds game parts but no manifest.json",
                file=root,
                hint="Run with --fresh to delete them and start over, or choose another --out.",
            )
        root.mkdir(parents=True, exist_ok=True)
        return False
    if old.get("fingerprint") != exp.fingerprint():
        changed = _what_changed(old.get("effective", {}), exp.effective())
        raise SimError(
            f"holds results of a different experiment ({changed})",
            file=root,
            hint="Run with --fresh to delete them and start over, or choose another folder "
            "with --out.",
        )
    cleanup(root)
    return bool(complete_chunks(root))


def _what_changed(old: dict[str, Any], new: dict[str, Any]) -> str:
    if old.get("game") != new.get("game"):
        return f"game {old.get('game')} -> {new.get('game')}"
    if old.get("seed") != new.get("seed"):
        return f"seed {old.get('seed')} -> {new.get('seed')}"
    old_arms, new_arms = old.get("arms", []), new.get("arms", [])
    if [a["name"] for a in old_arms] != [a["name"] for a in new_arms]:
        return "the arms differ"
    for a, b in zip(old_arms, new_arms, strict=True):
        for key in ("ruleset_fingerprint", "players", "lineup", "tables", "params"):
            if a.get(key) != b.get(key):
                what = "rules" if key == "ruleset_fingerprint" else key
                return f"arm '{a['name']}': {what} changed"
    return "its settings changed"


def _new_manifest(exp: Experiment, root: Path) -> dict[str, Any]:
    old = read_manifest(root) or {}
    keys = root_keys(exp.seed)
    return {
        "format": MANIFEST_FORMAT,
        "name": exp.name,
        "status": "running",
        "fingerprint": exp.fingerprint(),
        "experiment_file": exp.file,
        "experiment_text": exp.text,
        "cli_overrides": [list(p) for p in exp.cli_overrides],
        "game": exp.game,
        "games_per_arm": exp.games,
        "baseline": exp.baseline,
        "report": list(exp.report),
        "precision": None
        if exp.precision is None
        else {
            "metric": exp.precision.metric,
            "width": exp.precision.width,
            "step": exp.precision.step,
            "max_games": exp.precision.max_games,
        },
        "param_columns": [list(c) for c in exp.param_columns],
        "seed": {"root": exp.seed, "keys": [str(k) for k in keys], "derivation": DERIVATION},
        "package_version": _package_version(),
        "git_commit": _git_commit(),
        "created": old.get("created", _now()),
        "effective": exp.effective(),
        "arms": [_arm_entry(arm) for arm in exp.arms],
        "runs": old.get("runs", []),
        "illegal_moves": old.get("illegal_moves", {"count": 0, "examples": []}),
        "chunks": [],
    }


def _arm_entry(arm: Arm) -> dict[str, Any]:
    return {
        "index": arm.index,
        "name": arm.name,
        "dir": f"arm-{arm.index:03d}",
        "players": arm.players,
        "ruleset": arm.ruleset_name,
        "ruleset_ref": arm.ruleset_ref,
        "overrides": [[k, _thaw(v)] for k, v in arm.overrides],
        "ruleset_fingerprint": arm.ruleset.fingerprint(),
        "ruleset_yaml": arm.ruleset.to_yaml(),
        "pool": [spec.label for spec in arm.pool],
        "rotate": arm.rotate,
        "lineup": [spec.label for spec in arm.lineup],
        "lineup_specs": [
            {"name": s.name, "params": [list(p) for p in s.params]} for s in arm.lineup
        ],
        "tables": [list(t) for t in arm.tables],
        "params": dict(arm.params),
        **({"skill": arm.skill, "base_arm": arm.base_arm} if arm.skill is not None else {}),
        "games": 0,
        "target": 0,
    }


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@functools.lru_cache(maxsize=1)
def _package_version() -> str:
    try:
        from importlib.metadata import version

        return version("guardians-balance-lab")
    except Exception:  # noqa: BLE001 - not installed: still runnable from a checkout
        return "unknown"


@functools.lru_cache(maxsize=1)
def _git_commit() -> str | None:
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5
        )
        if out.returncode != 0:
            return None
        commit = out.stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=here,
            capture_output=True,
            text=True,
            timeout=5,
        )
        return commit + ("-dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None
