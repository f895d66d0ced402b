"""What `sim sensitivity` does, behind the thin command in sim/cli.py: read the file, run the
analysis (sim.sensitivity.run), write sensitivity.json and the report, and print one line per
target and place."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import typer

from sim.commands.signals import stopping
from sim.faults import RESUME, keeping, writing
from sim.runner import RunOptions
from sim.runner.folder import results_root
from sim.sensitivity.analysis import require_salib
from sim.sensitivity.run import analyse, factors_of, settings
from sim.storage import write_atomic
from sim.tune.folder import TRIALS
from sim.tune.spec import load_tune

SUMMARY = "sensitivity.json"


def sensitivity_command(*, file: str, overrides: Sequence[str], seed: int | None,
                        options: RunOptions, report: bool,
                        report_dir: str | None) -> dict[str, Any]:  # fmt: skip
    options.check()
    require_salib()
    tune = load_tune(file, overrides, seed=seed, needs_knobs=False)
    spec = settings(tune)
    factors = factors_of(tune, spec)
    root = results_root(options.out, f"{tune.name}_sensitivity")
    if options.fresh:  # what an earlier analysis wrote there, only that
        with writing("the stored sensitivity analysis (--fresh)", root, verb="delete"):
            shutil.rmtree(root / TRIALS, ignore_errors=True)
            (root / SUMMARY).unlink(missing_ok=True)
    if report:
        from sim.report.folder import check

        report_at = check(report_dir if report_dir is not None else root / "report",
                          key="--report-dir")  # fmt: skip
    typer.echo(f"{tune.name}: {len(factors)} keys and the seed, {spec['games']:,} games per arm "
               f"at each point: Morris ({spec['trajectories']} paths of "
               f"{len(factors) + 2} points), then Sobol (base {spec['base']})")  # fmt: skip
    with stopping(f"the games played are kept in {root}. Run the same command again to "
                  "resume."), keeping(lambda: _kept(root), then=RESUME):  # fmt: skip
        with _Points() as on_point:
            found = analyse(tune, spec, factors, root=root, options=options,
                            on_point=on_point)  # fmt: skip
        text = json.dumps(found, indent=1, default=str) + "\n"
        write_atomic(root / SUMMARY, text.encode("utf-8"), what="the sensitivity summary")
    for line in sentences(found):
        typer.echo(line)
    if report:
        from sim.sensitivity.report import build_sensitivity_report

        typer.echo(f"report: {build_sensitivity_report(root, found, report_at)}")
    return found


class _Points:
    """What the analysis shows while it plays: a bar over each phase's points on a terminal,
    and a line when a phase ends (anywhere, so logs keep it)."""

    def __enter__(self) -> Callable[[str, int, int], None]:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        from sim.console import draws_live

        self.console = Console(stderr=True)
        self.bar = None
        self.tasks: dict[str, Any] = {}
        self.began = time.perf_counter()
        if draws_live(self.console):
            self.bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                                MofNCompleteColumn(), TimeElapsedColumn(), console=self.console,
                                transient=True)  # fmt: skip
            self.bar.start()
        return self.point

    def point(self, phase: str, done: int, total: int) -> None:
        if self.bar is not None:
            if phase not in self.tasks:
                self.tasks[phase] = self.bar.add_task(f"{phase} points", total=total)
            self.bar.update(self.tasks[phase], completed=done)
        if done == total:
            self.console.print(f"{phase}: {total:,} points played "
                               f"({time.perf_counter() - self.began:,.0f} s so far)",
                               highlight=False, markup=False)  # fmt: skip

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def _kept(root: Path) -> str:
    """What a stopped analysis keeps: its points' games (played again from the store)."""
    points = root / TRIALS
    count = sum(1 for p in points.iterdir() if p.is_dir()) if points.is_dir() else 0
    return f"the games of {count} point{'s' if count != 1 else ''} in {points}"


def sentences(found: Mapping[str, Any]) -> list[str]:
    """One line per target and place: the verdict first (how much the rules explain)."""
    out = []
    for o in found["outputs"]:
        target = found["targets"][o["target"]]
        s = o["shares"]
        rules, luck = s["rules"], s["luck"]
        top = sorted(s["keys"].items(), key=lambda kv: -kv[1]["ST"][0])[:3]
        keys = ", ".join(f"{k} {_pct(v['ST'])}" for k, v in top)
        out.append(f"{target['name']} ({o['place']}): the rules explain {_pct(rules)} of its "
                   f"variation over these ranges, luck {_pct(luck)} at {found['games']:,} games "
                   f"a point; by key (with its interactions): {keys}")  # fmt: skip
    return out


def _pct(v: Sequence[float]) -> str:
    return f"{100 * v[0]:.0f}% ({100 * v[1]:.0f} to {100 * v[2]:.0f})"
