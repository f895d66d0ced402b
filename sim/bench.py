"""`sim bench`: how fast the game loop, the workers and a whole run are on this machine.

Every figure is measured after a warm-up, repeated, and the median reported. Speed is
measured here, never by timed assertions in the tests. The default game (BENCH_GAME) is
measured here in full; another game gives its own rows (its plug-in's `bench(quick)`,
`game_bench`).
"""

from __future__ import annotations

import functools
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

BENCH_GAME = "guardians"
PLAYERS = 4


@dataclass
class Bench:
    """Figures gathered so far, printable as a table and as JSON."""

    machine: dict[str, Any] = field(default_factory=dict)
    rates: list[dict[str, Any]] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        per_strategy = {f"{r['preset']}/{r['strategy']}": r["turns_per_s_per_core"]
                        for r in self.rates if "turns_per_s_per_core" in r}  # fmt: skip
        turns = {"turns_per_s_per_core": per_strategy} if per_strategy else {}
        return {"machine": self.machine, **turns, "rates": self.rates, **self.figures}


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


def strategy_rate(
    preset: str,
    strategy: str,
    *,
    games: int,
    repeats: int,
    players: int = PLAYERS,
    label: str | None = None,
) -> dict[str, Any]:
    """Games/s and turns/s on one core: every seat plays `strategy` (reported as `label`)."""
    from sim.games import get_game
    from sim.games.base import StrategySpec

    game = get_game(BENCH_GAME)
    ruleset = game.load_ruleset(preset)
    lineup = [StrategySpec(strategy)]
    seats = np.zeros((games, players), np.int64)
    warm = min(games, 20)
    game.play_chunk(ruleset, players, lineup, seats[:warm], np.arange(warm))  # warm-up
    samples = []
    for rep in range(repeats):
        seeds = np.arange(rep * games, (rep + 1) * games)
        start, start_cpu = time.perf_counter(), time.process_time()
        chunk = game.play_chunk(ruleset, players, lineup, seats, seeds)
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - start_cpu
        turns = int(chunk.games["turns"].sum())
        samples.append((games / elapsed, turns / elapsed, turns / games, games / cpu))
    return {
        "preset": preset,
        "strategy": label or strategy,
        "games": games,
        "repeats": repeats,
        "games_per_s_per_core": round(statistics.median(s[0] for s in samples), 1),
        "turns_per_s_per_core": round(statistics.median(s[1] for s in samples)),
        "turns_per_game": round(statistics.median(s[2] for s in samples), 1),
        # per second of this process's CPU time: the per-core cost on a machine shared with
        # other work, where the wall clock also counts the time the process waits
        "games_per_cpu_s": round(statistics.median(s[3] for s in samples), 1),
    }


SCALING_CHUNK = 5_000  # games per task: a faster core takes more tasks; fewer tasks cost less IPC


def scaling(
    *, games: int, pairs: int, strategy: str = "greedy", preset: str = "guardians"
) -> dict[str, Any]:
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
            delayed(_play_count)(preset, strategy, min(SCALING_CHUNK, n - k), k) for k in starts
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


def _play_count(preset: str, strategy: str, games: int, offset: int) -> int:
    from sim.games.base import StrategySpec

    game, ruleset = _bench_ruleset(preset)
    seats = np.zeros((games, PLAYERS), np.int64)
    chunk = game.play_chunk(ruleset, PLAYERS, [StrategySpec(strategy)], seats,
                            np.arange(offset, offset + games))  # fmt: skip
    return int(chunk.games["turns"].sum())


@functools.cache
def _bench_ruleset(preset: str):
    """The game and a preset, loaded once per process (a ruleset file is parsed and checked)."""
    from sim.games import get_game

    game = get_game(BENCH_GAME)
    return game, game.load_ruleset(preset)


_COMPILE_PROBE = """
import sys, numpy as np
from sim.games import get_game
from sim.games.base import StrategySpec
g = get_game(sys.argv[2])
lineup = [StrategySpec(name) for name in sys.argv[1].split(",")]
g.prepare(lineup)
g.play_chunk(g.load_ruleset(g.presets[0]), 4, lineup, np.zeros((1, 4), np.int64), np.arange(1))
"""


def _first_game_seconds(names: list[str], cache: str) -> float:
    """Wall seconds of a new process that prepares `names` and plays one game (what a user
    waits for at the start of a run), with the compile cache in `cache`."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    start = time.perf_counter()
    probe = [sys.executable, "-c", _COMPILE_PROBE, ",".join(names), BENCH_GAME]
    subprocess.run(probe, env=env, check=True)
    return round(time.perf_counter() - start, 2)


def compile_times(strategies: list[str]) -> dict[str, Any]:
    """Seconds from a new process to its first game, per strategy: cold (an empty cache for
    the first strategy, engine included; then the engine cached and the strategy not) and
    warm (everything cached); and every strategy at once on an empty cache."""
    cold, warm = {}, {}
    strategies = sorted(strategies, key=lambda name: name != "greedy")  # the engine with greedy
    with tempfile.TemporaryDirectory() as cache:
        for name in strategies:
            label = f"engine+{name}" if not cold else name
            cold[label] = _first_game_seconds([name], cache)
        for name in strategies:
            warm[name] = _first_game_seconds([name], cache)
    with tempfile.TemporaryDirectory() as cache:
        every = _first_game_seconds(strategies, cache)
    return {"compile_cold_s": cold, "compile_warm_s": warm, "compile_cold_all_s": every}


def end_to_end(*, games: int, jobs: int | None = None) -> dict[str, Any]:
    """`sim run` of `games` games of one arm, Parquet written: wall time and peak memory."""
    experiment = Path(__file__).parent / "bench_experiment.yaml"
    with tempfile.TemporaryDirectory() as out:
        cmd = [sys.executable, "-m", "sim", "run", str(experiment), "--games", str(games),
               "--out", out, "--fresh", "--no-report"]  # fmt: skip
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


def run_bench(*, quick: bool, presets: list[str], strategies: list[str]) -> Bench:
    """The default game's full bench. Its plug-in may name strategies that search
    (`bench_searchers`, timed on a tenth of the games) and plain-Python strategies to time
    beside the compiled ones (`bench_python`: (label, module:Class) pairs)."""
    from sim.games import get_game

    game = get_game(BENCH_GAME)
    searchers = tuple(getattr(game, "bench_searchers", ()))
    python = tuple(getattr(game, "bench_python", ()))
    bench = Bench(machine=machine())
    games, repeats = (2000, 3) if quick else (5000, 5)
    for preset in presets:
        for strategy in strategies:
            n = max(20, games // 10) if strategy in searchers else games
            bench.rates.append(strategy_rate(preset, strategy, games=n, repeats=repeats))
        for label, spec in python:
            bench.rates.append(strategy_rate(preset, spec, games=games // 20, repeats=repeats,
                                             label=label))  # fmt: skip
    bench.figures["scaling"] = (
        scaling(games=40_000, pairs=3) if quick else scaling(games=200_000, pairs=5)
    )
    if not quick:
        bench.figures.update(compile_times(strategies))
        bench.figures["end_to_end"] = end_to_end(games=1_000_000)
        bench.figures["end_to_end_small"] = end_to_end(games=1000)
    return bench


def game_bench(game: str, *, quick: bool) -> Bench:
    """The bench rows a game plug-in gives for itself (its optional `bench(quick)`)."""
    from sim.games import get_game
    from sim.games.base import bench

    rows = bench(get_game(game, source="--game"), quick=quick)
    for row in rows:
        missing = [k for k in ROW_KEYS if k not in row]
        if missing:
            raise ValueError(f"a bench row of {game} lacks {', '.join(missing)}: {row}")
    return Bench(machine=machine(), rates=rows)


ROW_KEYS = ("game", "preset", "players", "strategy", "games_per_s_per_core")


def table(bench: Bench) -> str:
    if not all("turns_per_s_per_core" in r for r in bench.rates):
        return _rows_table(bench)
    lines = [f"{'preset':26s} {'strategy':10s} {'games/s/core':>13s} {'turns/s/core':>13s}"]
    for r in bench.rates:
        lines.append(f"{r['preset']:26s} {r['strategy']:10s} {r['games_per_s_per_core']:>13,.0f}"
                     f" {r['turns_per_s_per_core']:>13,}")  # fmt: skip
    for key, value in bench.figures.items():
        lines.append(f"{key}: {value}")
    return "\n".join(lines)


def _rows_table(bench: Bench) -> str:
    """A game's own rows: who played, games per second per core (and per CPU second)."""
    lines = [f"{'game':16s} {'preset':26s} {'players':>7s} {'strategy':10s} "
             f"{'games/s/core':>13s} {'games/cpu-s':>12s}"]  # fmt: skip
    for r in bench.rates:
        cpu = r.get("games_per_cpu_s")
        lines.append(f"{r['game']:16s} {r['preset']:26s} {r['players']:>7} {r['strategy']:10s} "
                     f"{r['games_per_s_per_core']:>13,.0f} "
                     f"{f'{cpu:,.0f}' if cpu is not None else '':>12s}")  # fmt: skip
    return "\n".join(lines)
