"""What `sim report` does, behind the thin command in sim/cli.py: build a results folder's
report (or two runs compared) and say where it is."""

from __future__ import annotations

import typer

from sim.errors import SimError


def report_command(*, results_dir: str | None, report_dir: str | None,
                   compare: tuple[str, str] | None) -> None:  # fmt: skip
    if compare:
        from sim.report.compare import build_comparison

        if results_dir is not None:
            raise SimError(
                "give either a results folder or --compare A B, not both",
                hint="sim report --compare results/before results/after",
            )
        index = build_comparison(dir_a=compare[0], dir_b=compare[1], report_dir=report_dir)
        typer.echo(f"comparison: {index}")
        return
    if results_dir is None or not results_dir.strip():  # "" would read the current folder
        raise SimError("no results folder given", hint="sim report results/<name>")
    from sim import lab

    typer.echo(f"report: {lab.report(results_dir, report_dir, key='--report-dir')}")
    note = lab.open_results(results_dir).incomplete
    if note:
        typer.echo(f"warning: the run is incomplete ({note}); the report covers the games "
                   "stored so far", err=True)  # fmt: skip
