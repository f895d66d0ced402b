"""What `sim tune` and `sim screen` do, behind the thin commands in sim/cli.py: read the tune,
run it (sim.tune), print the recommendation with its intervals and verdicts (or the keys that
move the targets), and build the report."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer

from sim.commands.signals import exit_code, sigterm_as_interrupt, stopped_by
from sim.faults import RESUME, keeping
from sim.runner import Interrupted
from sim.runner.folder import results_root
from sim.runner.options import RunOptions
from sim.tune.run import kept, run_tune
from sim.tune.spec import Tune, load_tune


def tune_command(*, file: str, overrides: Sequence[str], games: int | None, seed: int | None,
                 trials: int | None, options: RunOptions, report: bool,
                 report_dir: str | None) -> dict[str, Any]:  # fmt: skip
    options.check()
    tune = load_tune(file, overrides, games=games, seed=seed, trials=trials)
    root = results_root(options.out, tune.name)
    report_at = _report_dir(root, report_dir) if report else None
    with sigterm_as_interrupt() as caught, keeping(lambda: kept(root), then=RESUME):
        try:
            summary = run_tune(tune, root=root, options=options)
        except Interrupted:
            typer.echo(f"\n{stopped_by(caught)}: the study and every candidate's games are "
                       f"kept in {root}. Run the same command again to resume.",
                       err=True)  # fmt: skip
            raise typer.Exit(exit_code(caught)) from None
    print_recommendation(tune, summary)
    typer.echo(f"recommended rules: {summary['overlay']}")
    if report_at is not None:
        from sim.tune.report import build_tune_report

        with keeping(lambda: f"the tune, done: its recommended rules in {summary['overlay']}"):
            typer.echo(f"report: {build_tune_report(root, report_at)}")
    return summary


def _report_dir(root: Path, report_dir: str | None) -> Path:
    from sim.report.folder import check

    return check(report_dir if report_dir is not None else root / "report", key="--report-dir")


def print_recommendation(tune: Tune, summary: dict[str, Any]) -> None:
    best = summary["confirmed"][0]
    typer.echo(f"recommended: {best['label']} (confirmed on {tune.games:,} games per arm; "
               f"{summary['games_stored']:,} games in all)")  # fmt: skip
    for i, target in enumerate(tune.targets):
        typer.echo(f"  {target.name or target.measure}: wanted {target.wanted} within "
                   f"{target.within}: {best['verdicts'][i]}")  # fmt: skip
        for place in (p for p in best["places"] if p["target"] == i):
            typer.echo(f"    {place['arm']}: {_value(target, place)} {place['verdict']}")
    for c in summary["crossings"]:
        target = tune.targets[c["target"]]
        typer.echo(f"  {tune.knobs[0].name} where {target.measure} = {target.wanted} "
                   f"({c['arm']}): {c['estimate']:.3g} ({c['low']:.3g} to "
                   f"{c['high']:.3g})")  # fmt: skip


def _value(target: Any, place: dict[str, Any]) -> str:
    """The value and its interval in the measure's units."""
    show = target.show
    return f"{show(place['value'])} ({show(place['low'])} to {show(place['high'])})"


def screen_command(*, file: str, overrides: Sequence[str], games: int | None,
                   seed: int | None, options: RunOptions, report: bool,
                   report_dir: str | None) -> dict[str, Any]:  # fmt: skip
    """`sim screen`: move every key a step each way, measure, rank, report."""
    from sim.tune.screen import moves, run_screen, write_summary

    options.check()
    tune = load_tune(file, overrides, games=games, seed=seed, needs_knobs=False)
    root = results_root(options.out, f"{tune.name}_screen")
    report_at = _report_dir(root, report_dir) if report else None
    chosen, notes = moves(tune)
    typer.echo(f"{tune.name}: {len(chosen)} moves of {len(tune.screen.keys)} keys and the "
               f"baseline, {tune.games:,} games each")  # fmt: skip
    with sigterm_as_interrupt() as caught:
        try:
            run_screen(tune, chosen, root=root, options=options)
        except Interrupted:
            typer.echo(f"\n{stopped_by(caught)}: the games played are kept in {root}. Run the "
                       "same command again to resume.", err=True)  # fmt: skip
            raise typer.Exit(exit_code(caught)) from None
    with keeping(lambda: "every move's games, stored"):
        summary = write_summary(tune, chosen, notes, root=root)
    rows = summary["rows"]
    for i, target in enumerate(tune.targets):
        top = [r for r in rows if r["target"] == i][:5]
        typer.echo(f"{target.name or target.measure}: " + ", ".join(
            f"{r['key']} ({r['size']:.2g} tolerances{', ' + r['level'] if r['level'] else ''})"
            for r in top))  # fmt: skip
    for note in notes:
        typer.echo(f"note: {note}", err=True)
    if report_at is not None:
        from sim.tune.screen_report import build_screen_report

        with keeping(lambda: f"the screen, done: its ranking in {root / 'screen.json'}"):
            typer.echo(f"report: {build_screen_report(root, summary, report_at)}")
    return summary
