"""What `sim run` and `sim tournament` do, behind the thin commands in sim/cli.py."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from typing import Any

import typer

from sim.runner.execute import DEFAULT_CHUNK_SIZE, Interrupted, RunSummary, check_options, run
from sim.runner.experiment import Experiment, load_experiment

INTERRUPTED_EXIT = 130


def run_command(
    *,
    file: str,
    overrides: list[str],
    games: int | None,
    jobs: int | None,
    chunk_size: int,
    out: str | None,
    fresh: bool,
    backend: str,
    address: str | None,
    seed: int | None,
    report: bool,
    report_dir: str | None,
    progress: bool = True,
) -> RunSummary:
    check_options(chunk_size=chunk_size, backend=backend, address=address, jobs=jobs)
    exp = load_experiment(file, overrides, games=games, seed=seed)
    summary = _run(exp, out=out, jobs=jobs, chunk_size=chunk_size, fresh=fresh,
                   backend=backend, address=address, progress=progress)  # fmt: skip
    _print_summary(exp, summary)
    if report:
        _build_report(summary.out, Path(report_dir) if report_dir else Path("reports") / exp.name)
    return summary


def _run(exp: Experiment, **options: Any) -> RunSummary:
    n_arms = len(exp.arms)
    typer.echo(
        f"{exp.name}: {n_arms} arm{'s' if n_arms != 1 else ''} x {exp.games:,} games"
        + (
            f" (until {exp.precision.metric} is known to {exp.precision.width})"
            if exp.precision
            else ""
        )  # fmt: skip
    )
    try:
        return run(exp, **options)
    except Interrupted as stop:
        s = stop.summary
        typer.echo(
            f"\ninterrupted: kept {s.games_stored:,} games in {s.out} "
            f"({s.games_played:,} played in this run). Run the same command again to resume.",
            err=True,
        )
        raise typer.Exit(INTERRUPTED_EXIT) from None


def _print_summary(exp: Experiment, s: RunSummary) -> None:
    rate = s.games_played / s.seconds if s.seconds > 0 else 0.0
    resumed = " (resumed)" if s.resumed else ""
    compiled = f", after {s.compile_seconds:.0f} s compiling" if s.compile_seconds >= 0.5 else ""
    typer.echo(
        f"played {s.games_played:,} games in {s.seconds:.1f} s ({rate:,.0f} games/s)"
        f"{resumed}{compiled}"
    )
    for arm, prec in s.precision.items():
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


def _build_report(results_dir: Path, report_dir: Path) -> None:
    build_report = None
    if importlib.util.find_spec("sim.report") is not None:
        module = importlib.import_module("sim.report")
        build_report = getattr(module, "build_report", None)
    if build_report is None:
        typer.echo("report: not built (sim.report not installed)")
        return
    built = build_report(results_dir=results_dir, report_dir=report_dir)
    where = built if isinstance(built, str | Path) else report_dir
    typer.echo(f"report: {where}")


def tournament_command(
    *,
    strategies: str,
    players: int,
    games: int,
    game: str,
    ruleset: str | None,
    overrides: list[str],
    seed: int,
    jobs: int | None,
    chunk_size: int,
    out: str | None,
    fresh: bool,
    backend: str,
    address: str | None,
    progress: bool = True,
) -> None:
    from rich.console import Console
    from rich.table import Table

    from sim.runner.tournament import adjacent_pairs, ranking, ratings, tournament_experiment

    check_options(chunk_size=chunk_size, backend=backend, address=address, jobs=jobs)
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
    out = out or str(Path("results") / exp.name)
    summary = _run(exp, out=out, jobs=jobs, chunk_size=chunk_size, fresh=fresh,
                   backend=backend, address=address, progress=progress)  # fmt: skip
    _print_summary(exp, summary)
    rank = ranking(summary.out)
    rated = {row["strategy"]: row for row in ratings(summary.out).iter_rows(named=True)}
    table = Table(title=f"{players} players, {exp.games:,} games, {exp.arms[0].ruleset_name}")
    columns = ("#", "strategy", "win share", "95% interval", "rating (mu ± sigma)",
               "mean score", "raid rate", "seats")  # fmt: skip
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
            f"{row['raid_rate']:.3f}",
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


__all__ = ["DEFAULT_CHUNK_SIZE", "run_command", "tournament_command"]
