"""What `sim run` and `sim tournament` do, behind the thin commands in sim/cli.py."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import typer

from sim.paths import check_folder
from sim.runner.execute import (
    DEFAULT_CHUNK_SIZE,
    Interrupted,
    RunSummary,
    check_options,
    default_jobs,
)
from sim.runner.experiment import Experiment
from sim.runner.folder import results_root
from sim.runner.pool import WorkerPool, local_pool

INTERRUPTED_EXIT = 130  # 128 + SIGINT, as a shell reports Ctrl-C; SIGTERM gives 128 + 15


@dataclass(frozen=True)
class Playing:
    """How a run is played and stored (`sim run`, `sim tournament`), checked before any game:
    workers, games per part file, the results folder, a fresh start, the backend."""

    jobs: int | None = None
    chunk_size: int = DEFAULT_CHUNK_SIZE
    out: str | None = None
    fresh: bool = False
    backend: str = "local"
    address: str | None = None
    progress: bool = True

    def check(self) -> None:
        check_options(chunk_size=self.chunk_size, backend=self.backend, address=self.address,
                      jobs=self.jobs)  # fmt: skip


def run_command(
    *,
    file: str,
    overrides: list[str],
    games: int | None,
    seed: int | None,
    report: bool,
    report_dir: str | None,
    playing: Playing,
) -> RunSummary:
    playing.check()
    pool = _early_pool(playing, games)
    try:
        from sim import lab  # after the pool's start: polars, the results' reader

        exp = lab.experiment(file, overrides, games=games, seed=seed).parsed
        # the report folder is checked before playing
        report_at = _report_dir(exp, playing.out, report_dir) if report else None
        summary = _run(exp, playing, pool)
    finally:
        if pool is not None:
            pool.close()
    _print_summary(exp, summary)
    if report_at is not None:
        typer.echo(f"report: {lab.report(summary.out, report_at, key='--report-dir')}")
    return summary


def _early_pool(playing: Playing, games: int | None) -> WorkerPool | None:
    """The run's local workers, started before the experiment is read when `--games` alone says
    the run plays more than one chunk on several workers: their server (about 0.8 s of CPU
    before the first fork) gets ready while this process reads and checks the experiment and
    the compile cache. Otherwise None: the runner starts a pool when it finds it needs one."""
    if games is None or games <= playing.chunk_size:
        return None
    jobs = default_jobs() if playing.jobs is None else playing.jobs
    return local_pool(jobs, backend=playing.backend, games=())


def _report_dir(exp: Experiment, out: str | None, report_dir: str | None) -> Path:
    """--report-dir, or the default beside the results (sim.report.folder.default_dir)."""
    from sim.report.folder import check, default_dir

    root = check_folder(results_root(out, exp.name), key="--out")
    return check(report_dir if report_dir is not None else default_dir(root, exp.name),
                 key="--report-dir")  # fmt: skip


def _run(exp: Experiment, playing: Playing, pool: WorkerPool | None = None) -> RunSummary:
    n_arms = len(exp.arms)
    typer.echo(
        f"{exp.name}: {n_arms} arm{'s' if n_arms != 1 else ''} x {exp.games:,} games" + _until(exp)
    )
    with sigterm_as_interrupt() as caught:
        try:
            from sim import lab

            return lab.run(exp, pool=pool, **asdict(playing)).summary
        except Interrupted as stop:
            s = stop.summary
            typer.echo(
                f"\n{stopped_by(caught)}: kept {s.games_stored:,} games in {s.out} "
                f"({s.games_played:,} played in this run). Run the same command again to "
                "resume.",
                err=True,
            )
            raise typer.Exit(exit_code(caught)) from None
        except KeyboardInterrupt:  # before the run had opened its folder
            typer.echo(f"\n{stopped_by(caught)} before any game was played.", err=True)
            raise typer.Exit(exit_code(caught)) from None


def _until(exp: Experiment) -> str:
    return "" if exp.precision is None else f" (until {exp.precision.text()})"


@contextmanager
def sigterm_as_interrupt() -> Iterator[dict[str, int]]:
    """SIGTERM (sent by `timeout`, a job scheduler, a cancelled CI job) stops the run the way
    Ctrl-C does: finished chunks kept, workers stopped, the manifest closed, a message, and
    exit code 128 + 15. A second SIGTERM during that cleanup is ignored."""
    caught: dict[str, int] = {}

    def stop(signum: int, frame: Any) -> None:
        if "signal" in caught:
            return
        caught["signal"] = signum
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread: signals cannot be handled here
        yield caught
        return
    try:
        yield caught
    finally:
        signal.signal(signal.SIGTERM, previous)


def stopped_by(caught: dict[str, int]) -> str:
    return "terminated (SIGTERM)" if caught.get("signal") == signal.SIGTERM else "interrupted"


def exit_code(caught: dict[str, int]) -> int:
    return 128 + caught["signal"] if "signal" in caught else INTERRUPTED_EXIT


def _print_summary(exp: Experiment, s: RunSummary) -> None:
    rate = s.games_played / s.seconds if s.seconds > 0 else 0.0
    resumed = " (resumed)" if s.resumed else ""
    compiled = f", after {s.compile_seconds:.0f} s compiling" if s.compile_seconds >= 0.5 else ""
    typer.echo(
        f"played {s.games_played:,} games in {s.seconds:.1f} s ({rate:,.0f} games/s)"
        f"{resumed}{compiled}"
    )
    for arm, prec in s.precision.items():
        if prec.get("settle"):
            _print_settled(prec)
            continue
        state = "reached" if prec["reached"] else "NOT reached (max_games)"
        typer.echo(
            f"  {arm}: {prec['metric']} = {prec['estimate']:.4f} "
            f"[{prec['low']:.4f}, {prec['high']:.4f}] after {prec['games']:,} games, "
            f"width {prec['width']:.4f} {state}"
        )
    if s.illegal_moves:
        typer.echo(
            f"warning: {s.illegal_moves} games stopped on an illegal move "
            f"(see illegal_moves in {s.out / 'manifest.json'})",
            err=True,
        )
    typer.echo(f"results: {s.out} ({s.games_stored:,} games; read with sim.results.load)")


def _print_settled(prec: dict[str, Any]) -> None:
    """The precision stop's end when every answer must be settled."""
    if prec["reached"]:
        typer.echo(f"  every answer settled after {prec['games']:,} games per arm")
        return
    typer.echo(
        f"  {len(prec['open'])} answer(s) NOT settled after {prec['games']:,} games per arm "
        "(max_games):"
    )
    for q in prec["open"]:
        more = q["games_to_settle"]
        tail = f" (about {more:,} games per arm would likely settle it)" if more else ""
        typer.echo(f"    {q['question']}{tail}")


def tournament_command(
    *,
    strategies: str,
    players: int,
    games: int,
    game: str | None,
    ruleset: str | None,
    overrides: list[str],
    seed: int,
    playing: Playing,
) -> None:
    from rich.console import Console
    from rich.table import Table

    from sim.runner.tournament import adjacent_pairs, ranking, ratings, tournament_experiment

    playing.check()
    names = [s for s in strategies.split(",") if s.strip()]
    exp = tournament_experiment(
        names, players=players, games=games, game=game, ruleset=ruleset, rules=overrides,
        seed=seed,
    )  # fmt: skip
    tables = len(exp.arms[0].tables)
    if exp.games != games:
        typer.echo(
            f"games rounded up to {exp.games:,}: {tables} seat arrangements, each equally often"
        )
    if playing.out is None:
        playing = replace(playing, out=str(Path("results") / exp.name))
    summary = _run(exp, playing)
    _print_summary(exp, summary)
    rank = ranking(summary.out)
    rated = {row["strategy"]: row for row in ratings(summary.out).iter_rows(named=True)}
    table = Table(title=f"{players} players, {exp.games:,} games, {exp.arms[0].ruleset_name}")
    columns = ("#", "strategy", "win share", "95% interval", "rating (mu ± sigma)",
               "mean score", "nobody won", "seats")  # fmt: skip
    for col in columns:
        table.add_column(col, justify="left" if col == "strategy" else "right")
    for i, row in enumerate(rank.iter_rows(named=True), start=1):
        rating = rated[row["strategy"]]
        table.add_row(
            str(i),
            row["strategy"],
            f"{row['win_share']:.3f}",
            f"{row['win_low']:.3f}-{row['win_high']:.3f}",
            f"{rating['mu']:.2f} ± {rating['sigma']:.2f}",
            f"{row['mean_score']:.1f}",
            f"{row['no_winner_rate']:.3f}",
            f"{row['seats']:,}",
        )
    console = Console(width=120)
    console.print(table)
    pairs = adjacent_pairs(summary.out, rank["strategy"].to_list())
    if pairs.height:
        typer.echo("neighbours in the ranking (win share difference, paired 95% interval):")
        for row in pairs.iter_rows(named=True):
            verdict = "separated" if row["separated"] else "NOT separated"
            typer.echo(
                f"  {row['better']} - {row['worse']}: {row['difference']:+.4f} "
                f"[{row['low']:+.4f}, {row['high']:+.4f}] over {row['games']:,} games, {verdict}"
            )


__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "Playing",
    "exit_code",
    "run_command",
    "sigterm_as_interrupt",
    "stopped_by",
    "tournament_command",
]
