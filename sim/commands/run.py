"""What `sim run` does, behind the thin command in sim/cli.py: read the experiment, play it
through the lab (sim.lab), print what was played and where it is stored, build the report."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

import typer

from sim.commands.signals import exit_code, sigterm_as_interrupt, stopped_by
from sim.experiment.model import Experiment
from sim.faults import keeping
from sim.paths import check_folder
from sim.runner.execute import Interrupted, RunSummary
from sim.runner.folder import results_root
from sim.runner.options import RunOptions, default_jobs
from sim.runner.pool import WorkerPool, local_pool


def run_command(
    *,
    file: str,
    overrides: list[str],
    games: int | None,
    seed: int | None,
    report: bool,
    report_dir: str | None,
    options: RunOptions,
) -> RunSummary:
    options.check()
    pool = _early_pool(options, games)
    try:
        from sim import lab  # after the pool's start: polars, the results' reader

        exp = lab.experiment(file, overrides, games=games, seed=seed).parsed
        # the report folder is checked before playing
        report_at = _report_dir(exp, options.out, report_dir) if report else None
        summary = run_experiment(exp, options, pool)
    finally:
        if pool is not None:
            pool.close()
    print_summary(exp, summary)
    if report_at is not None:
        with keeping(lambda: f"the run's {summary.games_stored:,} games, all stored"):
            typer.echo(f"report: {lab.report(summary.out, report_at, key='--report-dir')}")
    return summary


def _early_pool(options: RunOptions, games: int | None) -> WorkerPool | None:
    """The run's local workers, started before the experiment is read when `--games` alone says
    the run plays more than one chunk on several workers: their server (about 0.8 s of CPU
    before the first fork) gets ready while this process reads and checks the experiment and
    the compile cache. Otherwise None: the runner starts a pool when it finds it needs one."""
    if games is None or games <= options.chunk_size:
        return None
    jobs = default_jobs() if options.jobs is None else options.jobs
    return local_pool(jobs, backend=options.backend, games=())


def _report_dir(exp: Experiment, out: str | None, report_dir: str | None) -> Path:
    """--report-dir, or the default beside the results (sim.report.folder.default_dir)."""
    from sim.report.folder import check, default_dir

    root = check_folder(results_root(out, exp.name), key="--out")
    return check(report_dir if report_dir is not None else default_dir(root, exp.name),
                 key="--report-dir")  # fmt: skip


def run_experiment(exp: Experiment, options: RunOptions,
                    pool: WorkerPool | None = None) -> RunSummary:  # fmt: skip
    """Play `exp` through the lab, saying what it plays; Ctrl-C or SIGTERM end the command
    with the games kept and how to resume."""
    n_arms = len(exp.arms)
    typer.echo(
        f"{exp.name}: {n_arms} arm{'s' if n_arms != 1 else ''} x {exp.games:,} games" + _until(exp)
    )
    with sigterm_as_interrupt() as caught:
        try:
            from sim import lab

            return lab.run(exp, pool=pool, **asdict(options)).summary
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


def print_summary(exp: Experiment, s: RunSummary) -> None:
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


__all__ = ["run_experiment", "print_summary", "run_command"]
