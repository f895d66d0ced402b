"""A run's progress bar: games played of the games planned, the rate and the time left, on a
terminal or in a notebook (nothing where no live display can be drawn)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sim.console import draws_live


@dataclass
class ProgressBar:
    """Started when the first chunk is about to be played, advanced by every chunk stored."""

    show: bool
    console: Any = None
    _progress: Any = None
    _task: Any = None

    def start(self, total: int, done: int) -> None:
        """Draw the bar, `done` of `total` games already stored (once; later calls pass)."""
        if not self.show or self._progress is not None:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        console = self.console or Console(stderr=True)
        if not draws_live(console):
            return
        self._progress = Progress(
            TextColumn("[bold]games"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("elapsed,"),
            TimeRemainingColumn(),
            TextColumn("left"),
            console=console,
            transient=False,
        )
        self._progress.start()
        self._task = self._progress.add_task("games", total=total, completed=done, rate="")
        self._began = time.perf_counter()
        self._base = done

    def advance(self, games: int, total: int) -> None:
        if self._progress is None:
            return
        task = self._progress.tasks[0]
        played = task.completed + games - self._base
        rate = played / max(time.perf_counter() - self._began, 1e-9)
        self._progress.update(self._task, advance=games, total=total, rate=f"{rate:,.0f} games/s")

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
