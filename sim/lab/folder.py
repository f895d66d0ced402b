"""A results folder from Python: its games and seats as polars or pandas frames, the report's
measures with their intervals, two arms compared, the report's figures, and the report.

    results = open_results("results/what_if")
    results.games()                       # polars LazyFrame (sim.results.load)
    results.seats(pandas=True)            # pandas DataFrame, converted through Arrow
    results.measures(["close_rate", "win_share.seat.0"])
    results.compare("baseline", "steal_highest", ["close_rate"])
    results.arm("baseline").first(1000)   # one arm in memory, as the measures read it
    results.figure("quality_lead")        # a matplotlib Figure
    results.report()                      # index.html, as `sim report` builds it

Everything is read through sim.results (the one reader of a results folder), the measures
come from the game's registry (sim.measures, as the reports and `sim tune` use them) and the
figures and the report from the report framework (sim.report): nothing is computed twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from sim import results as stored
from sim.errors import SimError
from sim.lab import html

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure as MplFigure

    from sim.results import StoredArm
    from sim.runner.execute import RunSummary

Frame = pl.LazyFrame | pl.DataFrame


def to_pandas(frame: Frame) -> pd.DataFrame:
    """A polars frame as a pandas DataFrame, column by column through Arrow (a LazyFrame is
    collected first)."""
    if isinstance(frame, pl.LazyFrame):
        frame = frame.collect()
    return frame.to_pandas()


def report(results_dir: str | Path, out: str | Path | None = None, *, key: str = "--out") -> Path:
    """Build the report of a results folder (`sim report`): index.html, report.md, tables/ and
    figures/ in `out` (default reports/<name> for results/<name>, else report/ in the
    folder; checked first, `key` naming it in errors); returns the path of index.html."""
    from sim.report import build_report

    return build_report(results_dir=results_dir, report_dir=out, key=key)


def open_results(results_dir: str | Path) -> ResultsFolder:
    """A results folder `sim run` wrote (a SimError with a hint if it is not one)."""
    return ResultsFolder(results_dir)


class ResultsFolder:
    """A results folder: what is stored there, read on demand (a run still writing it, or a
    later one resuming it, is seen as it goes on). `summary` is the runner's summary when
    this object came from `sim.lab.run`."""

    def __init__(self, path: str | Path, *, summary: RunSummary | None = None) -> None:
        self.path = stored.check_folder(path)
        self.summary = summary
        self._drawn: dict[tuple[Any, ...], dict[str, MplFigure]] = {}

    def __repr__(self) -> str:
        return f"ResultsFolder({str(self.path)!r})"

    # --- what is stored ---------------------------------------------------------------------

    @property
    def manifest(self) -> dict[str, Any]:
        return stored.manifest(self.path)

    @property
    def name(self) -> str:
        return str(self.manifest.get("name") or self.path.name)

    @property
    def game(self) -> str:
        return stored.game_name(self.manifest)

    @property
    def arms(self) -> pl.DataFrame:
        """One row per arm: index, arm, players, ruleset, games stored, parameters."""
        return stored.arms(self.path)

    @property
    def incomplete(self) -> str | None:
        """Why and how far the run is incomplete (None when every arm has its games)."""
        return stored.incomplete(self.path)

    @property
    def complete(self) -> bool:
        return self.incomplete is None

    def games(self, *, arms: Iterable[int | str] | None = None,
              columns: Iterable[str] | None = None, pandas: bool = False):  # fmt: skip
        """The games table, one row per game (columns: docs/results.md): a polars LazyFrame,
        or with `pandas` a pandas DataFrame. `arms` by index or name; `columns` by name
        (`name*`: every column beginning with name)."""
        lazy = stored.load(self.path, "games", arms=arms, columns=columns)
        return to_pandas(lazy) if pandas else lazy

    def seats(self, *, arms: Iterable[int | str] | None = None,
              columns: Iterable[str] | None = None, pandas: bool = False):  # fmt: skip
        """The seats table, one row per game and seat; as `games`."""
        lazy = stored.load(self.path, "seats", arms=arms, columns=columns)
        return to_pandas(lazy) if pandas else lazy

    def arm(self, arm: int | str, *, games_columns: Iterable[str] | None = None,
            seats_columns: Iterable[str] | None = None) -> StoredArm:  # fmt: skip
        """One arm (by index or name) in memory, as the registry's measures read it: its
        games, its seats (games stopped on an illegal move left out) and its settings
        (sim.results.StoredArm; `.first(n)` keeps games 0..n-1). Every column unless named."""
        return stored.read_arm(self.path, arm, games_columns=games_columns,
                               seats_columns=seats_columns)  # fmt: skip

    # --- measures ---------------------------------------------------------------------------

    def measure_names(self) -> pl.DataFrame:
        """Every measure of the game's registry (a family as its pattern) and its definition."""
        from sim.measures import registry_for

        rows = registry_for(self.game).describe()
        return pl.DataFrame(rows, schema=["measure", "definition"], orient="row")

    def measures(self, names: Sequence[str], *, arms: Iterable[str] | None = None,
                 pandas: bool = False):  # fmt: skip
        """Each named measure at each arm (or the named arms; an arm played at several skill
        levels by its own name, at every level): value, its 95% interval (low, high), its
        standard error and the games it rests on (n)."""
        from sim.measures import measure_table

        chosen = None if arms is None else self._arm_names(arms)
        table = measure_table(self.path, list(names), arms=chosen)
        return table.to_pandas() if pandas else table

    def compare(self, a: str, b: str, names: Sequence[str], *, pandas: bool = False):
        """Arm `b` minus arm `a`, each named measure, on the same games (paired; at each skill
        level when the arms are played at several): value, 95% interval, se, n, p."""
        from sim.measures import paired_table

        if set(self._arm_names([a])) == set(self._arm_names([b])):
            raise SimError(f"compare two different arms, not '{a}' with itself",
                           file=self.path)  # fmt: skip
        table = paired_table(self.path, list(names), baseline=a, arms=self._arm_names([b]))
        if table.height == 0:
            raise SimError(f"arms '{a}' and '{b}' are not played at a common skill level",
                           file=self.path, hint="Compare arms of the same level.")  # fmt: skip
        return table.to_pandas() if pandas else table

    def _arm_names(self, arms: Iterable[str]) -> list[str]:
        """Full arm names: an arm's own, or the arm it repeats at each skill level."""
        entries = self.manifest["arms"]
        out = []
        for arm in arms:
            found = [str(e["name"]) for e in entries
                     if arm in (e["name"], e.get("base_arm"))]  # fmt: skip
            if not found:
                names = ", ".join(dict.fromkeys(str(e.get("base_arm") or e["name"])
                                                for e in entries))  # fmt: skip
                raise SimError(f"no arm named '{arm}'", file=self.path, hint=f"Arms: {names}.")
            out += found
        return list(dict.fromkeys(out))

    # --- the report -------------------------------------------------------------------------

    def sections(self) -> list[str]:
        """The report sections `sim report` builds for this folder (the experiment's
        `report:` list, else what the game infers), before the overview."""
        from sim.report import choose_sections, load_results

        return choose_sections(load_results(self.path))

    def figures(self, sections: Sequence[str] | None = None) -> dict[str, MplFigure]:
        """Every figure of the report (or of the named sections, and the overview), by its
        name in the report's figures/ folder, as matplotlib Figures: in a notebook a Figure
        shows where it is returned, and can be changed first (titles, limits, savefig)."""
        key = (None if sections is None else tuple(sections), _stamp(self.path))
        if key not in self._drawn:
            self._drawn = {key: _draw(self.path, sections)}  # the newest data only
        return dict(self._drawn[key])

    def figure(self, name: str, *, sections: Sequence[str] | None = None) -> MplFigure:
        """One report figure by name (`figures()` lists them)."""
        drawn = self.figures(sections)
        if name not in drawn:
            raise SimError(
                f"the report has no figure '{name}'",
                file=self.path,
                hint=f"Figures: {', '.join(drawn)}. A section the report does not build: "
                "figures(sections=[...]).",
            )
        return drawn[name]

    def report(self, out: str | Path | None = None, *, key: str = "--out") -> Path:
        """Build the report: `report(self.path, out)`."""
        return report(self.path, out, key=key)

    # --- in a notebook ----------------------------------------------------------------------

    def _repr_html_(self) -> str:
        m = self.manifest
        arms = self.arms
        stored_games = int(arms.get_column("games").sum()) if arms.height else 0
        note = self.incomplete
        facts = html.facts([
            ("experiment", m.get("experiment_file") or "built in Python"),
            ("game", self.game),
            ("games stored", f"{stored_games:,} in {arms.height} arm(s)"),
            ("complete", "yes" if note is None else f"no: {note}"),
            ("root seed", (m.get("seed") or {}).get("root")),
            ("baseline", m.get("baseline")),
            ("report sections", ", ".join(m.get("report") or []) or None),
        ])  # fmt: skip
        return html.panel(f"Results {self.name}: {self.path}", str(m.get("description") or ""),
                          facts, html.table(arms.to_dicts()))  # fmt: skip


def _stamp(path: Path) -> tuple[int, int]:
    """What changes when a run writes to the folder (its manifest is rewritten per chunk)."""
    info = (path / "manifest.json").stat()
    return info.st_mtime_ns, info.st_size


def _draw(path: Path, sections: Sequence[str] | None) -> dict[str, MplFigure]:
    from sim.plugins import get_game
    from sim.plugins.base import report_section_name
    from sim.report import choose_sections, game_report, load_results, report_sections
    from sim.report.plots import kept

    results = load_results(path)
    game = get_game(results.game)
    names = (choose_sections(results) if sections is None
             else [report_section_name(game, name) for name in sections])  # fmt: skip
    known = game_report(results).sections
    unknown = [s for s in names if s not in known]
    if unknown:
        raise SimError(f"no report section {', '.join(map(repr, unknown))}",
                       hint=f"Sections of {results.game}: {', '.join(known)}.")  # fmt: skip
    with kept():
        built = report_sections(results, names)
    return {f.name: f.drawn for s in built for f in s.figures() if f.drawn is not None}
