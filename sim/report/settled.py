"""Which answers of a results folder's report are not settled yet: the runner's precision stop
with `settle: true` plays on until there are none (docs/results.md).

``open_questions(results_dir, games=n)`` builds the report's answers from games 0..n-1 of every
arm (whatever more is stored, so the stop does not depend on workers, chunks or interrupted
runs) and lists those whose verdict is "not settled", with the games per arm that would
likely settle each (sim/stats/verdict.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sim.report.data import load_results


@dataclass(frozen=True)
class Open:
    question: str
    games_to_settle: int | None  # None: more games alone may not settle it


def open_questions(
    results_dir: str | Path, *, games: int | None = None, n_boot: int = 1000
) -> list[Open]:
    """The report's answers that are not settled (over the first `games` games per arm)."""
    from sim.report import choose_sections, report_sections

    results = load_results(results_dir)
    if games is not None:
        results = results.first(games)
    sections = report_sections(results, choose_sections(results), n_boot=n_boot)
    return [
        Open(a.question, a.verdict.games_to_settle)
        for s in sections
        for a in s.answers
        if a.verdict is not None and not a.verdict.settled
    ]
