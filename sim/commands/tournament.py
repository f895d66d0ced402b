"""What `sim tournament` does, behind the thin command in sim/cli.py: the tournament's
experiment played, then its ranking, ratings and neighbours printed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import typer

from sim.commands.run import print_summary, run_experiment
from sim.runner.options import RunOptions


def tournament_command(
    *,
    strategies: str,
    players: int,
    games: int,
    game: str | None,
    ruleset: str | None,
    overrides: list[str],
    seed: int,
    options: RunOptions,
) -> None:
    from rich.console import Console
    from rich.table import Table

    from sim.lab.tournament import adjacent_pairs, ranking, ratings, tournament_experiment

    options.check()
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
    if options.out is None:
        options = replace(options, out=str(Path("results") / exp.name))
    summary = run_experiment(exp, options)
    print_summary(exp, summary)
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
