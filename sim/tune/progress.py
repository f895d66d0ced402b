"""What a tune shows while it works: a bar over the trials and the confirmation (on a
terminal), and one line per trial and per confirmed candidate (anywhere, so logs keep it)."""

from __future__ import annotations

import time
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

from sim.console import draws_live
from sim.tune.knobs import show_values
from sim.tune.search import TrialNote
from sim.tune.spec import Tune


class TuneProgress:
    def __init__(self, tune: Tune, *, steps: int, done: int, console: Any = None,
                 show: bool = True) -> None:  # fmt: skip
        self.tune = tune
        self.console = console or Console(stderr=True)
        self.games = 0
        self.began = time.perf_counter()
        self._bar: Progress | None = None
        self._task: Any = None
        self._show = show
        if show and draws_live(self.console):
            self._bar = Progress(
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("{task.fields[games]}"), TimeElapsedColumn(),
                console=self.console, transient=True,
            )  # fmt: skip
            self._bar.start()
            self._task = self._bar.add_task("trials", total=steps, completed=done, games="")

    def chunk(self, result: Any) -> None:
        """A chunk of games was stored (the runner's on_chunk)."""
        self.games += result.stop - result.start
        if self._bar is not None:
            rate = self.games / max(time.perf_counter() - self.began, 1e-9)
            self._bar.update(self._task, games=f"{self.games:,} games ({rate:,.0f}/s)")

    def trial(self, note: TrialNote, planned: int) -> None:
        what = show_values(self.tune.knobs, note.values)
        if note.state == "invalid":
            text = f"refused by the rules ({note.reason})"
        elif note.state == "repeat":
            text = f"tried before: {note.reason}"
        else:
            ev = note.evaluation
            assert ev is not None
            verb = "stopped at" if note.state == "pruned" else "kept to"
            text = f"{verb} {ev.games:,} games, score {ev.score:.3g}"
        stage = f"polishing {note.polish}" if note.polish else f"{note.tried}/{planned} candidates"
        self.line(f"trial {note.number + 1} ({stage}) {what}: {text}")
        self._advance("trials")

    def confirming(self, rank: int, count: int, values: dict[str, Any]) -> None:
        self.line(f"confirming {rank}/{count}: {show_values(self.tune.knobs, values)} at "
                  f"{self.tune.games:,} games per arm")  # fmt: skip
        if rank > 1:
            self._advance("confirmation")

    def confirming_model(self, rank: int, count: int, values: dict[str, Any]) -> None:
        self.line(
            f"confirming the model's {rank}/{count}: "
            f"{show_values(self.tune.knobs, values)} at {self.tune.games:,} games per arm"
        )

    def line(self, text: str) -> None:
        if self._show:
            self.console.print(text, highlight=False, markup=False, soft_wrap=True)

    def _advance(self, what: str) -> None:
        if self._bar is not None:
            task = self._bar.tasks[0]
            total = max(task.total or 0, task.completed + 2)  # polishing adds trials
            self._bar.update(self._task, advance=1, total=total, description=what)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
