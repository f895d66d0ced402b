"""`sim bench`: how fast a game, the workers and a whole run are on this machine.

One bench for every game, driven by its plug-in's `bench_plan` (sim/plugins/base.py): each of
the game's strategies alone in every seat and the plan's other lineups, per preset; the
speed-up of two worker processes over one; in the full bench the time from a new process to
its first game on an empty and a filled compile cache, and a whole `sim run`. Every figure is
measured after a warm-up, repeated, and the median reported. Speed is measured here, never
by timed assertions in the tests.
"""

from __future__ import annotations

import functools
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml


@dataclass
class Bench:
    """Figures gathered so far, printable as a table and as JSON."""

    machine: dict[str, Any] = field(default_factory=dict)
    rates: list[dict[str, Any]] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)
    counted: tuple[str, ...] = ()  # per-game columns each rate counts (BenchPlan.counted)

    def as_dict(self) -> dict[str, Any]:
        per_second = {
            f"{c}_per_s_per_core": {f"{r['preset']}/{r['strategy']}": r[f"{c}_per_s_per_core"]
                                    for r in self.rates}
            for c in self.counted
        }  # fmt: skip
        return {"machine": self.machine, **per_second, "rates": self.rates, **self.figures}


def machine() -> dict[str, Any]:
    import numba

    return {
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "cpu": _cpu_name(),
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


@dataclass(frozen=True)
class Table:
    """What a rate plays: a game, a preset with rule overrides, the seats."""

    game: str
    preset: str
    players: int
    rules: tuple[tuple[str, Any], ...] = ()

    def load(self) -> tuple[Any, Any]:
        """The plug-in and the ruleset, loaded once per process."""
        return _loaded(self.game, self.preset, json.dumps(self.rules))

    def as_json(self) -> str:
        return json.dumps({"game": self.game, "preset": self.preset, "players": self.players,
                           "rules": self.rules})  # fmt: skip


@functools.cache
def _loaded(game_name: str, preset: str, rules: str) -> tuple[Any, Any]:
    from sim.plugins import get_game

    game = get_game(game_name, source="--game")
    return game, game.load_ruleset(preset, dict(json.loads(rules)), source="--set")


def seating(names: Sequence[str], games: int, players: int) -> np.ndarray:
    """Game g seats names[(k + g) % len(names)] in seat k: every name in every seat."""
    return (np.arange(players)[None, :] + np.arange(games)[:, None]) % len(names)


def strategy_rate(
    table: Table,
    names: Sequence[str],
    *,
    games: int,
    repeats: int,
    label: str | None = None,
    counted: Sequence[str] = (),
    engine: str = "",
) -> dict[str, Any]:
    """Games per second on one core of `names` alternating seats (one name: every seat), on
    the wall clock and per CPU second, and each `counted` column per game and per second;
    played by the game's `simulate_chunk`, or by `engine` ("module:function", BenchPlan.engines)."""
    from sim.plugins.base import StrategySpec, prepare

    game, ruleset = table.load()
    play = _engine(game, engine) if engine else game.simulate_chunk
    lineup = [StrategySpec(name) for name in names]
    prepare(game, lineup)
    seats = seating(names, games, table.players)
    warm = min(games, 20)
    play(ruleset, table.players, lineup, seats[:warm], np.arange(warm))  # warm-up
    samples = []
    for rep in range(repeats):
        seeds = np.arange(rep * games, (rep + 1) * games)
        start, start_cpu = time.perf_counter(), time.process_time()
        chunk = play(ruleset, table.players, lineup, seats, seeds)
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        totals = [float(np.sum(chunk.games[c])) for c in counted]
        samples.append((wall, cpu, totals))
    row = {
        "game": table.game,
        "preset": table.preset,
        "players": table.players,
        "strategy": label or "+".join(names),
        "games": games,
        "repeats": repeats,
        "games_per_s_per_core": round(statistics.median(games / w for w, _, _ in samples), 1),
        # per second of this process's CPU time: the per-core cost on a machine shared with
        # other work, where the wall clock also counts the time the process waits
        "games_per_cpu_s": round(statistics.median(games / c for _, c, _ in samples), 1),
    }
    for i, c in enumerate(counted):
        row[f"{c}_per_s_per_core"] = round(statistics.median(t[i] / w for w, _, t in samples))
        row[f"{c}_per_game"] = round(statistics.median(t[i] / games for _, _, t in samples), 1)
    return row


def _engine(game: Any, path: str) -> Any:
    """`simulate_chunk` by the function "module:function" names, which plays the lineup's ready
    players (as the game's own chunks.simulate_chunk does: BenchPlan.engines)."""
    from importlib import import_module

    from sim.plugins.base import needed

    module, _, name = path.partition(":")
    function = getattr(import_module(module), name)
    ready = needed(game, "ready", "ready players (its bench plan's engines need them)")

    def simulate_chunk(ruleset: Any, n_players: int, lineup: Any, seats: Any, seeds: Any) -> Any:
        return function(ruleset, n_players, ready(lineup), seats, seeds)

    return simulate_chunk


SCALING_CHUNK = 5_000  # games per task: a faster core takes more tasks; fewer tasks cost less IPC


def scaling(table: Table, names: Sequence[str], *, games: int, pairs: int) -> dict[str, Any]:
    """Throughput of 2 worker processes against 1 on the same games.

    The games go out in chunks, as `sim run` sends them, so that the two cores share the work
    even when one runs slower than the other (on shared machines they often do). The
    machine's speed also drifts between runs, so one- and two-worker runs alternate in pairs
    (the order swapped every pair) and the speed-up is the median of the pairs' ratios."""
    from joblib import Parallel, delayed

    def wall(jobs: int, n: int) -> float:
        starts = range(0, n, SCALING_CHUNK)
        start = time.perf_counter()
        Parallel(n_jobs=jobs, backend="loky", batch_size=1)(
            delayed(_play_count)(table, tuple(names), min(SCALING_CHUNK, n - k), k) for k in starts
        )
        return time.perf_counter() - start

    # start both workers and load the compiled code in each
    for _ in range(2):
        wall(2, 4 * SCALING_CHUNK)
    wall(1, SCALING_CHUNK)
    ones, twos = [], []
    for k in range(pairs):
        for jobs in (1, 2) if k % 2 == 0 else (2, 1):
            (ones if jobs == 1 else twos).append(wall(jobs, games))
    ratios = [one / two for one, two in zip(ones, twos, strict=True)]
    return {"games": games, "pairs": pairs,
            "one_worker_s": round(statistics.median(ones), 3),
            "two_workers_s": round(statistics.median(twos), 3),
            "speedup_2_workers": round(statistics.median(ratios), 2),
            "speedup_range": [round(min(ratios), 2), round(max(ratios), 2)]}  # fmt: skip


def _play_count(table: Table, names: tuple[str, ...], games: int, offset: int) -> int:
    from sim.plugins.base import StrategySpec

    game, ruleset = table.load()
    lineup = [StrategySpec(name) for name in names]
    seeds = np.arange(offset, offset + games)
    chunk = game.simulate_chunk(ruleset, table.players, lineup,
                            seating(names, games, table.players), seeds)  # fmt: skip
    return len(chunk.games["outcome"])


# a new process: prepare the lineup argv[1] (names joined by commas) of the table argv[2]
# (JSON) and play one game with it
_COMPILE_PROBE = """
import json, sys, numpy as np
from sim.bench import Table, seating
from sim.plugins.base import StrategySpec, prepare
table = Table(**json.loads(sys.argv[2]))
game, ruleset = table.load()
names = sys.argv[1].split(",")
lineup = [StrategySpec(name) for name in names]
prepare(game, lineup)
game.simulate_chunk(ruleset, table.players, lineup, seating(names, 1, table.players), np.arange(1))
"""


def first_game_seconds(table: Table, names: Sequence[str], cache: str) -> float:
    """Wall seconds of a new process that prepares `names` and plays one game (what a user
    waits for at the start of a run), with the compile cache in `cache`."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    start = time.perf_counter()
    probe = [sys.executable, "-c", _COMPILE_PROBE, ",".join(names), table.as_json()]
    subprocess.run(probe, env=env, check=True)
    return round(time.perf_counter() - start, 2)


def compile_times(table: Table, strategies: Sequence[str]) -> dict[str, Any]:
    """Seconds from a new process to its first game, per strategy: cold (an empty cache for
    the first strategy, engine included; then the engine cached and the strategy not) and
    warm (everything cached); and every strategy at once on an empty cache."""
    cold, warm = {}, {}
    with tempfile.TemporaryDirectory() as cache:
        for name in strategies:
            label = f"engine+{name}" if not cold else name
            cold[label] = first_game_seconds(table, [name], cache)
        for name in strategies:
            warm[name] = first_game_seconds(table, [name], cache)
    with tempfile.TemporaryDirectory() as cache:
        every = first_game_seconds(table, strategies, cache)
    return {"compile_cold_s": cold, "compile_warm_s": warm, "compile_cold_all_s": every}


def end_to_end(table: Table, names: Sequence[str], *, games: int,
               jobs: int | None = None) -> dict[str, Any]:  # fmt: skip
    """`sim run` of `games` games of one arm (`names` alternating seats), Parquet written:
    wall time and peak memory."""
    experiment = {"name": "bench", "game": table.game, "ruleset": table.preset,
                  "players": table.players, "rules": dict(table.rules), "pool": list(names),
                  "rotate": len(names) > 1, "games": games, "seed": 1}  # fmt: skip
    if len(names) == 1:
        experiment["seats"] = experiment.pop("pool")
    with tempfile.TemporaryDirectory() as out:
        path = Path(out) / "bench.yaml"
        path.write_text(yaml.safe_dump(experiment))
        cmd = [sys.executable, "-m", "sim", "run", str(path), "--out", str(Path(out) / "run"),
               "--fresh", "--no-report"]  # fmt: skip
        if jobs:
            cmd += ["--jobs", str(jobs)]
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
        peak_total = _watch_memory(proc)
        wall = time.perf_counter() - start
        if proc.returncode:
            raise subprocess.CalledProcessError(proc.returncode, cmd)
    figures = {"games": games, "wall_s": round(wall, 1), "games_per_s": round(games / wall)}
    if peak_total is not None:
        # sampled every 0.1 s: the sum over the run and all its worker processes
        figures["peak_rss_all_processes_mib"] = round(peak_total / 2**20, 1)
    return figures


def _watch_memory(proc: subprocess.Popen) -> int | None:
    """Wait for proc; the largest sum of resident memory over it and its descendants seen
    (bytes), or None where /proc cannot be read."""
    peak = 0
    readable = Path("/proc").is_dir()
    while proc.poll() is None:
        if readable:
            peak = max(peak, _tree_rss(proc.pid))
        time.sleep(0.1)
    return peak if readable else None


def _tree_rss(root: int) -> int:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                # the parent pid follows the parenthesised command name
                parents[int(entry.name)] = int(
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
                )
            except (OSError, IndexError, ValueError):
                continue
    tree, frontier = {root}, [root]
    while frontier:
        pid = frontier.pop()
        for child, parent in parents.items():
            if parent == pid and child not in tree:
                tree.add(child)
                frontier.append(child)
    total = 0
    page = os.sysconf("SC_PAGE_SIZE")
    for pid in tree:
        try:
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * page
        except (OSError, IndexError, ValueError):
            continue
    return total


def run_bench(
    game_name: str, *, quick: bool, presets: Sequence[str] = (), strategies: Sequence[str] = ()
) -> Bench:
    """The bench of a game, as its plug-in's `bench_plan` says: every strategy alone (or the
    `strategies` chosen) and the plan's lineups, on the first preset (every preset with the
    plan's `every_preset`, but in a quick bench; or the `presets` chosen); the 2-worker
    speed-up; in the full bench the compile times and a whole run."""
    from sim.plugins import get_game
    from sim.plugins.base import part, strategy_names

    game = get_game(game_name, source="--game")
    plan = part(game, "bench_plan")
    every = plan.every_preset and not quick
    chosen_presets = list(presets) or list(game.presets if every else game.presets[:1])
    names = list(strategies) or list(strategy_names(game))
    rows: dict[str, tuple[str, ...]] = {name: (name,) for name in names}
    if not strategies:
        rows.update(plan.lineups)
    games, repeats = (2000, 3) if quick else (5000, 5)
    rules = tuple(sorted(plan.rules.items()))
    bench = Bench(machine=machine(), counted=tuple(plan.counted))
    for preset in chosen_presets:
        table = Table(game.name, preset, plan.players, rules)
        for label, lineup in rows.items():
            n = max(20, int(games * plan.share.get(label, 1.0)))
            bench.rates.append(strategy_rate(table, lineup, games=n, repeats=repeats,
                                             label=label, counted=plan.counted))  # fmt: skip
            for engine, path in plan.engines.items():
                bench.rates.append(strategy_rate(table, lineup, games=n, repeats=repeats,
                                                 label=f"{label} [{engine}]", engine=path,
                                                 counted=plan.counted))  # fmt: skip
    first = Table(game.name, chosen_presets[0], plan.players, rules)
    run_lineup = plan.run_lineup or (names[0],)
    bench.figures["scaling"] = (
        scaling(first, run_lineup, games=40_000, pairs=3)
        if quick
        else scaling(first, run_lineup, games=200_000, pairs=5)
    )
    if not quick:
        bench.figures.update(compile_times(first, names))
        bench.figures["end_to_end"] = end_to_end(first, run_lineup, games=plan.run_games)
        bench.figures["end_to_end_small"] = end_to_end(first, run_lineup, games=1000)
    return bench


def table(bench: Bench) -> str:
    """The rates as a table (who played, games per second per core and per CPU second, each
    counted column per second), then the other figures."""
    extra = [f"{c}/s/core" for c in bench.counted]
    lines = [f"{'game':16s} {'preset':26s} {'players':>7s} {'strategy':12s} "
             f"{'games/s/core':>13s} {'games/cpu-s':>12s}"
             + "".join(f" {h:>15s}" for h in extra)]  # fmt: skip
    for r in bench.rates:
        counts = "".join(f" {r[f'{c}_per_s_per_core']:>15,}" for c in bench.counted)
        lines.append(f"{r['game']:16s} {r['preset']:26s} {r['players']:>7} "
                     f"{r['strategy']:12s} {r['games_per_s_per_core']:>13,.0f} "
                     f"{r['games_per_cpu_s']:>12,.0f}{counts}")  # fmt: skip
    for key, value in bench.figures.items():
        lines.append(f"{key}: {value}")
    return "\n".join(lines)
