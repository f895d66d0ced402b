"""Reports designers read: ``build_report(results_dir=..., report_dir=...)`` writes

    <report_dir>/index.html      a self-contained page (charts embedded, opens from disk)
    <report_dir>/report.md       the same findings and tables in markdown
    <report_dir>/tables/*.csv    every table, unrounded
    <report_dir>/figures/*.png   every chart (report.md links them)

Everything is recomputed from the results folder's Parquet parts and manifest.json; the engine,
the game plugins and the strategies are never imported, so results copied from another machine
give the same report. Sections are chosen by the experiment's ``report:`` list (see
docs/reports.md); an overview section (every arm's outcomes) always closes the page.
"""

from __future__ import annotations

import html
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.report import folder as report_folder
from sim.report.folder import default_dir

# The sections' builders (matplotlib, polars) load when a report is read or built, not with
# the package: `sim run` checks its report folder (sim.report.folder) before the first game.
if TYPE_CHECKING:
    from sim.report.data import Results
    from sim.report.render import Section
    from sim.report.spec import GameReport


def __getattr__(name: str) -> Any:
    if name == "load_results":
        from sim.report.data import load_results

        return load_results
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "build_report",
    "choose_sections",
    "game_report",
    "load_results",
    "report_files",
    "report_sections",
]

METHODS = [
    "Every number is recomputed from the stored games (Parquet) and manifest.json; the report "
    "never runs the game.",
    "Rates, means and their differences are measures of the lab's registry (sim/measures), "
    "each defined once and read alike by every section, `sim tune` and the precision stop. "
    "Rates (win share, an "
    "outcome's rate...) carry 95% Wilson score intervals; a shared win counts 1/k to each of "
    "the k winners. Means carry 95% normal intervals (mean \u00b1 1.96 se); where a game "
    "holds several of the units averaged (the seats of one strategy, a game's probes), the "
    "game is one unit of the standard error (the delta method), as its seats are not "
    "independent.",
    "Arms of an experiment play the same shuffles: game i of every arm uses the same seed. "
    "Differences between arms are therefore paired by game index: the per-game differences get "
    "a normal interval and a paired test (two-sided). 'n.s.' (grey) marks a difference whose "
    "95% interval includes zero: it is not a finding.",
    "Seat fairness: Pearson's chi-square test that every seat wins equally often (the exact "
    "multinomial test when a seat expects fewer than 5 wins); a seat's own deviation from the "
    "fair share uses the Wilson interval and the score test, Holm-corrected over the seats.",
    "Data quality: the smallest effect an answer could have detected is its minimum detectable "
    "effect at 80% power for a two-sided 5% test, (1.96 + 0.84) x the standard error read off "
    "its 95% interval. An answer warns when most of the games it rests on cannot move it (e.g. "
    "nobody won them), when 5% or more of the games hit the game's cap, and when a break-even "
    "lies beyond the prices tried.",
    "Verdicts: every claim that something holds, is fair, has no effect or is priced right is "
    "an equivalence test against the question's tolerance (printed beside it; defaults in "
    "docs/reports.md, the experiment's `tolerances` key overrides them): it holds only when "
    "the difference's whole 95% interval lies within \u00b1 the tolerance (two one-sided "
    "tests). An effect is shown when the interval excludes zero. Otherwise the question is not "
    "settled at this size, and the answer says how many games per arm would likely settle it "
    "(80% chance, were the truth the current estimate; the standard error shrinks as "
    "1/\u221agames).",
    "Skill levels: the answer is the same at every level only when, for every pair of levels, "
    "the difference of their headline estimates lies within the tolerance; it depends on skill "
    "when some pair's difference excludes zero. The interval of a difference is MOVER (from the "
    "two intervals), widened to a Bonferroni level for the pairs of levels; levels played on "
    "the same seeds are positively correlated, which makes it conservative.",
    "Games stopped by an illegal move of a strategy are left out (their count is shown above).",
]


def game_report(results: Results) -> GameReport:
    """The report of the game the results were played with, with the sections its plug-in
    names (`report_sections`, imported)."""
    from sim.plugins import get_game
    from sim.plugins.base import part, report
    from sim.report.spec import section_builders

    game = get_game(results.game, source=str(results.root / "manifest.json"))
    spec, declared = report(game), part(game, "report_sections")
    return replace(spec, sections=section_builders(declared)) if declared else spec


def choose_sections(results: Results) -> list[str]:
    """The experiment's `report:` list; if empty, what the game infers from what arms vary."""
    spec = game_report(results)
    chosen = [s for s in results.sections if s in spec.sections]
    if chosen or results.sections:
        return chosen
    return spec.infer(results)


def report_sections(results: Results, names: list[str], *, n_boot: int = 1000) -> list[Section]:
    """The named sections (per skill level when the games have one), then the overview."""
    from sim.report.assemble import build_sections, pictured
    from sim.report.context import Context

    spec = game_report(results)
    sections = build_sections(results, names, spec.sections, n_boot=n_boot)
    sections.append(spec.overview(Context(results, n_boot=n_boot)))  # reference tables last
    return [pictured(s) for s in sections]


def build_report(
    *,
    results_dir: str | Path,
    report_dir: str | Path | None = None,
    n_boot: int = 1000,
    key: str = "--out",
) -> Path:
    """Build the report of a results folder; returns the path of index.html.

    report_dir defaults to reports/<name> for results/<name>, else `report` inside the results
    folder (sim.report.folder.default_dir); `key` names the option that chose it in errors.
    Raises SimError (with a hint) when the folder is missing, has no manifest or no stored
    games, holds a damaged part, or report_dir cannot hold a report.
    """
    from sim.report.data import load_results

    if report_dir is not None:
        report_folder.check(report_dir, key=key)
    results = load_results(results_dir)
    out = Path(report_dir) if report_dir is not None else default_dir(results_dir, results.name)
    report_folder.check(out, key=key)
    spec = game_report(results)
    names = choose_sections(results)
    sections = report_sections(results, names, n_boot=n_boot)
    unknown = [s for s in results.sections if s not in spec.sections]
    meta = _meta(results, names, unknown)
    title = f"{spec.title}: {results.name}"
    methods = [*METHODS[:-1], *spec.methods, METHODS[-1]]
    return write_report(out, title=title, meta=meta, sections=sections, methods=methods,
                        footer=_footer(results), key=key)  # fmt: skip


def write_report(out: Path, *, title: str, meta: list[str], sections: list[Section],
                 methods: list[str], footer: str, key: str) -> Path:  # fmt: skip
    """Write a report's page, its Markdown, tables and figures into `out` (a refusal names
    `key`, the option that chose the folder); the page's path."""
    from sim.report.render import render_markdown, render_page

    page = render_page(title=title, meta=meta, sections=sections, methods=methods,
                       footer=footer)  # fmt: skip
    markdown = render_markdown(title=title, meta=meta, sections=sections, methods=methods)
    report_folder.write(out, report_files(page, markdown, sections), key=key)
    return out / "index.html"


def report_files(page: str, markdown: str, sections: list[Section]) -> dict[str, str | bytes]:
    """Every file of the report, by its path inside the report folder."""
    files: dict[str, str | bytes] = {}
    for section in sections:
        for table in section.tables():
            files[f"tables/{table.name}.csv"] = table.csv_frame().write_csv()
        for figure in section.figures():
            files[f"figures/{figure.name}.png"] = figure.png
    files["report.md"] = markdown
    files["index.html"] = page
    return files


def _meta(results: Results, names: list[str], unknown: list[str]) -> list[str]:
    from sim.report import provenance

    e = html.escape
    lines = []
    if results.description:
        lines.append(e(results.description))
    lines += provenance.header(results)
    if results.excluded:
        n = sum(results.excluded.values())
        lines.append(
            f"<b>{n:,} game(s) stopped on an illegal move and are left out</b> "
            f"({', '.join(f'{e(k)}: {v}' for k, v in results.excluded.items())})."
        )
    if results.incomplete:
        lines.append(
            f"<b>The run is incomplete</b> ({e(results.incomplete)}); the numbers cover the "
            "games stored so far. Run the same `sim run` again to finish it."
        )
    if unknown:
        lines.append(f"Unknown report sections ignored: {e(', '.join(unknown))}.")
    if not names:
        lines.append(
            "The experiment names no report section (its <code>report:</code> key); "
            "the overview only."
        )
    return lines


def _footer(results: Results) -> str:
    m = results.manifest
    e = html.escape
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    parts = [f"Built {when} from {e(str(results.root))}"]
    if m.get("git_commit"):
        parts.append(f"code {e(str(m['git_commit'])[:19])}")
    if m.get("fingerprint"):
        parts.append(f"experiment fingerprint {e(str(m['fingerprint']))}")
    parts.append("Tables as CSV in tables/, charts as PNG in figures/, the same in report.md.")
    return "; ".join(parts)
