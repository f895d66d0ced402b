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
import shutil
from datetime import UTC, datetime
from functools import partial
from importlib import import_module
from pathlib import Path

from sim.errors import SimError
from sim.report.context import Context
from sim.report.data import Results, load_results
from sim.report.render import Section, render_markdown, render_page
from sim.report.sections import (
    difficulty,
    first_player,
    mine_value,
    pricing,
    summary,
    what_if,
)

__all__ = ["SECTIONS", "build_report", "choose_sections", "load_results"]

# report: names (the experiment file's `report:` list) -> section builder
SECTIONS = {
    "first_player": first_player.build,
    "mine_value": mine_value.build,
    "missile_pricing": pricing.missile,
    "upgrade_pricing": pricing.upgrade,
    "power_up_pricing": pricing.power_up,
    "difficulty": difficulty.build,
    "what_if": what_if.build,
}


def _plugin_section(module: str, name: str, ctx: Context) -> Section:
    """A game plug-in's section, its module imported only when a report uses it."""
    return import_module(module).SECTIONS[name](ctx)


# the alien-raid plug-in's sections (issue 18)
_AR_MODULE = "sim.games.alien_raid.report"
_AR = "alien_raid_cards alien_raid_credit_tasks alien_raid_raid_catch alien_raid_fairness"
SECTIONS.update({name: partial(_plugin_section, _AR_MODULE, name) for name in _AR.split()})

METHODS = [
    "Every number is recomputed from the stored games (Parquet) and manifest.json; the report "
    "never runs the game.",
    "Rates (win share, raid rate...) carry 95% Wilson score intervals; a shared win counts 1/k "
    "to each of the k winners. Means carry 95% normal intervals (mean \u00b1 1.96 sd/\u221an).",
    "Arms of an experiment play the same shuffles: game i of every arm uses the same seed. "
    "Differences between arms are therefore paired by game index: the per-game differences get "
    "a t interval and a paired t test (two-sided). 'n.s.' (grey) marks a difference whose 95% "
    "interval includes zero: it is not a finding.",
    "Seat fairness: Pearson's chi-square test that every seat wins equally often (the exact "
    "multinomial test when a seat expects fewer than 5 wins); a seat's own deviation from the "
    "fair share uses the Wilson interval and the score test, Holm-corrected over the seats.",
    "Break-even prices: the win-share uplift of the buying strategy at each price, smoothed to be "
    "monotone in price (isotonic regression), crosses zero at the break-even (linear "
    "interpolation). Its 95% interval is a percentile bootstrap that resamples games, the same "
    "games at every price (paired).",
    "What-if and mine comparisons test many metrics at once: a difference counts as significant "
    "only after Holm's correction for the number of metrics compared (the p (Holm) column). "
    "Effect size = difference / standard deviation of the baseline's per-game values; the tables "
    "are sorted by its size.",
    "Games stopped by an illegal move of a strategy are left out (their count is shown above).",
]


def choose_sections(results: Results) -> list[str]:
    """The experiment's `report:` list; if empty, inferred from what the arms vary."""
    chosen = [s for s in results.sections if s in SECTIONS]
    if chosen or results.sections:
        return chosen
    varying = set(results.varying())
    inferred = []
    for key, name in (
        ("missile.cost", "missile_pricing"),
        ("upgrade.cost", "upgrade_pricing"),
        ("power_up.cost", "power_up_pricing"),
    ):
        if key in varying:
            inferred.append(name)
    if "mine.enabled" in varying:
        inferred.append("mine_value")
    if not inferred and results.baseline and len(results.arms) > 1:
        inferred.append("what_if")
    return inferred


def build_report(
    *, results_dir: str | Path, report_dir: str | Path | None = None, n_boot: int = 1000
) -> Path:
    """Build the report of a results folder; returns the path of index.html.

    report_dir defaults to reports/<experiment name>/. Raises SimError (with a hint) when the
    folder is missing, has no manifest or no stored games.
    """
    results = load_results(results_dir)
    out = Path(report_dir) if report_dir is not None else Path("reports") / results.name
    if out.exists() and not out.is_dir():
        raise SimError("exists and is not a folder", file=out, hint="Choose another --out.")
    ctx = Context(results, n_boot=n_boot)
    names = choose_sections(results)
    sections: list[Section] = [SECTIONS[name](ctx) for name in names]
    sections.append(summary.build(ctx))  # the reference tables after the answers
    unknown = [s for s in results.sections if s not in SECTIONS]
    meta = _meta(results, names, unknown)
    title = f"Guardians of Space balance report: {results.name}"
    page = render_page(
        title=title, meta=meta, sections=sections, methods=METHODS, footer=_footer(results)
    )
    markdown = render_markdown(title=title, meta=meta, sections=sections, methods=METHODS)
    _write(out, page, markdown, sections)
    return out / "index.html"


def _write(out: Path, page: str, markdown: str, sections: list[Section]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for sub in ("tables", "figures"):
        shutil.rmtree(out / sub, ignore_errors=True)
        (out / sub).mkdir()
    for section in sections:
        for table in section.tables():
            table.csv_frame().write_csv(out / "tables" / f"{table.name}.csv")
        for figure in section.figures():
            (out / "figures" / f"{figure.name}.png").write_bytes(figure.png)
    (out / "report.md").write_text(markdown, encoding="utf-8")
    (out / "index.html").write_text(page, encoding="utf-8")


def _meta(results: Results, names: list[str], unknown: list[str]) -> list[str]:
    m = results.manifest
    e = html.escape
    per_arm = results.games.group_by("arm").len().get_column("len")
    games = f"{results.total_games:,} games in {len(results.arms)} arm(s)"
    if per_arm.len():
        lo, hi = int(per_arm.min()), int(per_arm.max())
        games += f", {lo:,} per arm" if lo == hi else f", {lo:,} to {hi:,} per arm"
    lines = []
    if results.description:
        lines.append(e(results.description))
    seed = m.get("seed", {})
    seed = seed.get("root") if isinstance(seed, dict) else seed
    lines.append(f"{games}; root seed {e(str(seed))}; results <code>{e(str(results.root))}</code>")
    if m.get("experiment_file"):
        lines.append(
            f"experiment file <code>{e(str(m['experiment_file']))}</code>"
            + (f", baseline arm <b>{e(results.baseline)}</b>" if results.baseline else "")
        )
    if results.excluded:
        n = sum(results.excluded.values())
        lines.append(
            f"<b>{n:,} game(s) stopped on an illegal move and are left out</b> "
            f"({', '.join(f'{e(k)}: {v}' for k, v in results.excluded.items())})."
        )
    status = m.get("status")
    targets = [a.get("target") for a in m.get("arms", []) if isinstance(a, dict)]
    short = [
        a
        for a in m.get("arms", [])
        if isinstance(a, dict) and a.get("target") and a.get("games", 0) < a.get("target", 0)
    ]
    if status == "interrupted" or short:
        lines.append(
            "<b>The run is incomplete</b> (interrupted); the numbers cover the games "
            "stored so far. Run the same `sim run` again to finish it."
        )
    del targets
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
