"""Two runs side by side: ``sim report --compare DIR_A DIR_B`` writes a page with the same
answers for both runs (for example before and after a rule change) and, for every estimate
both runs give, the difference B - A with its interval.

The difference's interval is MOVER (``sim.report.answers.difference``) from the two runs'
intervals, which treats the runs as independent. Runs that share their seeds are positively
correlated, so for them the interval is conservative (wider than a paired one would be); for
such runs the page adds the headline quality measures of every arm both runs have, paired
game by game (sim.report.game_quality.compare.paired_runs). Whether an answer's headline is
the same in both runs is a three-valued verdict (``sim.stats.verdict.equivalence`` against the
question's tolerance).

    <report_dir>/index.html        the page (self-contained)
    <report_dir>/report.md         the same in markdown
    <report_dir>/tables/compare.csv  every estimate of both runs and their difference, unrounded
    <report_dir>/tables/compare_paired.csv  the paired quality differences (runs sharing seeds)
"""

from __future__ import annotations

import html
import math
from pathlib import Path

import polars as pl

from sim.report import fmt, provenance
from sim.report import folder as report_folder
from sim.report import verdicts as words
from sim.report.answers import (
    Answer,
    Estimate,
    Label,
    Part,
    difference,
    plain_text,
    render_parts,
    sentence,
)
from sim.report.data import Results, load_results
from sim.report.game_quality.compare import paired_runs
from sim.report.render import CSS, SORTER_JS, Section, strip_tags
from sim.stats.interval_columns import as_columns
from sim.stats.tolerances import Tolerance, resolve
from sim.stats.verdict import Verdict, equivalence

METHOD = (
    "Each difference is run B minus run A with a 95% interval built from the two runs' own "
    "intervals (MOVER, Zou and Donner 2008), as for independent runs: when the two runs share "
    "their seeds the interval is wider than it needs to be. An answer's headline is judged "
    "against its question's tolerance, in its own units (printed beside it; the experiment's "
    "`tolerances` key): the same in both runs when the difference's whole interval lies within "
    "the tolerance, changed when it lies wholly beyond it, otherwise not settled, with the "
    "games per arm that would likely settle it. The other differences are figures only."
)


def _answers(sections: list[Section]) -> dict[str, Answer]:
    return {a.key: a for s in sections for a in s.answers}


def _estimates(answer: Answer | None) -> dict[str, Estimate]:
    if answer is None:
        return {}
    return {e.key: e for e in answer.estimates}


def differences(a: Answer | None, b: Answer | None) -> list[tuple[Estimate, Estimate, Estimate]]:
    """(A's estimate, B's estimate, B - A) for every estimate key both answers give."""
    ea, eb = _estimates(a), _estimates(b)
    return [(ea[k], eb[k], difference(eb[k], ea[k])) for k in ea if k in eb]


def _head(a: Answer | None, b: Answer | None) -> str | None:
    return a.headline.key if a is not None and a.headline is not None else None


def _tolerance(a: Answer | None, b: Answer | None) -> Tolerance | None:
    return (b.tolerance if b is not None else None) or (a.tolerance if a is not None else None)


def verdict(a: Answer | None, b: Answer | None, games: int | None) -> Verdict | None:
    """Whether the answer's headline is the same in both runs: B - A within the headline's
    tolerance (None without a headline in both runs or a tolerance)."""
    if a is None or b is None or a.headline is None or b.headline is None:
        return None
    tol = b.tolerance or a.tolerance
    if tol is None or a.headline.key != b.headline.key:
        return None
    d = difference(b.headline, a.headline)
    return equivalence(d.value, d.low, d.high, tol.value, games=games)


SHOWN = 4  # differences told beside the headline's (every one is in the CSV)


def _diff_parts(rows: list[tuple[Estimate, Estimate, Estimate]], v: Verdict | None,
                tol: Tolerance | None, head: str | None = None) -> list[Part]:  # fmt: skip
    """The headline's difference with its verdict first, in the vocabulary and in its own
    units ('the break-even price is the same in both runs: +0.3 (-0.5 to +1.1), within the ±1
    point tolerance'); then a few other differences, as figures only (no verdict of their
    own: their tolerance is not the headline's)."""
    if not rows:
        return ["No estimate in common."]
    lead: list[Part] = []
    rest = rows
    judged = next((r for r in rows if r[0].key == head), None) if v is not None else None
    if judged is not None and tol is not None:
        d = judged[2]
        said = words.pick(
            v,
            " changed: ",
            " is the same in both runs: ",
            " differs by " if v.real else " is not settled: ",
        )
        lead = sentence(Label(d.label[:1].upper() + d.label[1:]), said, d,
                        words.versus(v, tol), ". ")  # fmt: skip
        rest = [r for r in rows if r is not judged]
    others: list[Part] = []
    for i, (_, _, d) in enumerate(rest[:SHOWN]):
        others += ["; " if i else "", Label(d.label), " ", d]
    more = len(rest) - SHOWN
    if others:
        others = sentence("Other differences: " if lead else "", others,
                          sentence(" and ", Label(f"{more} more in the CSV")) if more > 0
                          else None, ".")  # fmt: skip
    return sentence(lead, others)


def _side(answer: Answer | None, run: str) -> str:
    if answer is None:
        return f'<div class="side"><p class="run">{run}</p><p>Not asked in this run.</p></div>'
    quality = answer.quality.html() if answer.quality is not None else ""
    return (
        f'<div class="side"><p class="run">{run}</p>'
        f'<p class="said">{render_parts(answer.parts)}</p>{quality}</div>'
    )


def _row(key: str, a: Answer | None, b: Answer | None, games: int | None) -> str:
    first = a or b
    rows = differences(a, b)
    v = verdict(a, b, games)
    kind = words.kind(v) if v is not None else words.INFO
    said = render_parts(_diff_parts(rows, v, _tolerance(a, b), _head(a, b)))
    e = html.escape
    return (
        f'<div class="qa" data-question="{e(key)}"><p class="q">{e(first.question)}</p>'
        f'<div class="pair">{_side(a, "A")}{_side(b, "B")}</div>'
        f'<p class="answer {kind}"><b>B \u2212 A:</b> {said}</p></div>'
    )


def _table(keys: list[str], ans_a: dict, ans_b: dict, games: int | None) -> pl.DataFrame:
    rows = []
    for key in keys:
        a, b = ans_a.get(key), ans_b.get(key)
        v = verdict(a, b, games)
        for ea, eb, d in differences(a, b):
            headline = v is not None and ea.key == a.headline.key
            rows.append(
                {
                    "question": (ans_a.get(key) or ans_b.get(key)).question,
                    "estimate": ea.key,
                    "label": ea.label,
                    "unit": ea.unit,
                    **as_columns("a", ea), **as_columns("b", eb), **as_columns("diff", d),
                    "excludes_zero": d.significant,
                    "tolerance": v.tolerance if headline else None,
                    "verdict": _said(v) if headline else "",
                    "games_to_settle": v.games_to_settle if headline else None,
                }
            )  # fmt: skip
    return pl.DataFrame(rows, infer_schema_length=None)


EXTRA_CSS = """
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 14px; margin: 4px 0; }
.side { background: var(--panel); border-radius: 4px; padding: 6px 10px; }
.side .run { font-weight: 700; margin: 0; }
table.differs { width: 100%; }
table.differs th, table.differs td { white-space: normal; text-align: left; }
table.differs tbody th { background: none; position: static; cursor: default; }
td.v.finding { color: var(--sig); font-weight: 600; }
td.v.within { color: var(--accent); font-weight: 600; }
td.v.unsettled { color: var(--ns); }
@media (max-width: 700px) { .pair { grid-template-columns: 1fr; } }
"""


def _said(v: Verdict) -> str:
    """The verdict's word in the vocabulary: within / beyond tolerance, not settled."""
    return words.word(v)


def _run_names(ra: Results, rb: Results) -> tuple[str, str]:
    """What to call the two runs: their experiments' names, or their folders' names where both
    ran one experiment (two runs of steal_highest are told apart by folder, not "X vs X")."""
    if ra.name != rb.name or ra.root.name == rb.root.name:
        return ra.name, rb.name
    return ra.root.name, rb.root.name


def build_comparison(
    *,
    dir_a: str | Path,
    dir_b: str | Path,
    report_dir: str | Path | None = None,
    n_boot: int = 1000,
) -> Path:
    """Build the comparison page of two results folders; returns the path of index.html."""
    from sim.report import choose_sections, report_sections

    if report_dir is not None:
        report_folder.check(report_dir, key="--report-dir")
    ra, rb = load_results(dir_a), load_results(dir_b)
    name_a, name_b = _run_names(ra, rb)
    out = (
        Path(report_dir)
        if report_dir is not None
        else Path("reports") / f"compare-{name_a}-vs-{name_b}"
    )
    report_folder.check(out, key="--report-dir")
    ans_a = _answers(report_sections(ra, choose_sections(ra), n_boot=n_boot))
    ans_b = _answers(report_sections(rb, choose_sections(rb), n_boot=n_boot))
    keys = list(dict.fromkeys([*ans_a, *ans_b]))
    games = min(ra.games_per_arm, rb.games_per_arm)  # what would settle it in the smaller run
    paired = paired_verdicts(paired_runs(ra, rb), resolve(rb.manifest.get("tolerances")))
    title = f"Comparison: {name_a} (A) and {name_b} (B)"
    e = html.escape
    body = "".join(_row(k, ans_a.get(k), ans_b.get(k), games) for k in keys)
    page = "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{e(title)}</title><style>{CSS}{EXTRA_CSS}</style></head><body><main>",
            f"<h1>{e(title)}</h1>",
            *(
                f'<p class="meta">{run}: {line}</p>'
                for run, r in (("A", ra), ("B", rb))
                for line in provenance.header(r)
            ),
            _differs_html(provenance.differences(ra, rb)),
            '<section id="answers"><h2>Answers, side by side</h2>',
            f'<div class="answers">{body}</div></section>',
            _paired_html(paired),
            f'<section id="methods"><h2>Methods</h2><p>{e(METHOD)}</p>',
            '<p><a href="tables/compare.csv">Every estimate and difference as CSV</a></p>',
            f"</section></main><script>{SORTER_JS}</script></body></html>",
        ]
    )
    files = {
        "tables/compare.csv": _table(keys, ans_a, ans_b, games).write_csv(),
        "index.html": page,
        "report.md": _markdown(title, ra, rb, keys, ans_a, ans_b, games, paired),
    }
    if paired:
        files["tables/compare_paired.csv"] = pl.DataFrame(paired).write_csv()
    report_folder.write(out, files, key="--report-dir")  # only its own files (sim.report.folder)
    return out / "index.html"


DIFFERS_TITLE = "What differs between the two runs"
SAME = ("Nothing: the two runs share their experiment, overrides, rules, lineups, games per "
        "arm, root seed and code; any difference below is chance.")  # fmt: skip


def _differs_html(found: list[provenance.Difference]) -> str:
    e = html.escape
    if not found:
        return f'<section id="differs"><h2>{DIFFERS_TITLE}</h2><p>{e(SAME)}</p></section>'
    body = "".join(f"<tr><th scope='row' class='t'>{e(d.what)}</th><td class='t'>{e(d.a)}</td>"
                   f"<td class='t'>{e(d.b)}</td></tr>" for d in found)  # fmt: skip
    return (
        f'<section id="differs"><h2>{DIFFERS_TITLE}</h2>'
        '<div class="tablewrap"><table class="differs"><thead><tr><th class="t">what</th>'
        f'<th class="t">run A</th><th class="t">run B</th></tr></thead><tbody>{body}</tbody>'
        "</table></div></section>"
    )


def _differs_markdown(found: list[provenance.Difference]) -> list[str]:
    lines = [f"## {DIFFERS_TITLE}", ""]
    if not found:
        return [*lines, SAME, ""]
    lines += ["| what | run A | run B |", "| --- | --- | --- |"]
    lines += [f"| {d.what} | {d.a} | {d.b} |" for d in found]
    return [*lines, ""]


PAIRED_TITLE = "How the game plays, paired on the same deals"
PAIRED_NOTE = (
    "The two runs share their root seed, so deal i is the same in both: for every arm both "
    "runs have, each headline quality measure's difference B \u2212 A game by game (the delta "
    "method on per-game pairs), with its 95% interval, judged against its tolerance in its own "
    "units (a share: the quality_share tolerance; a quantity: quality_relative of run A's "
    "value) in the report's words: beyond the tolerance when the whole interval lies beyond "
    "it, within it when the whole interval lies within it, otherwise not settled."
)


def paired_verdicts(rows: list[dict], tolerances: dict[str, Tolerance]) -> list[dict]:
    """Each paired row with its tolerance (in the measure's units), its verdict's word and
    kind (sim.report.verdicts)."""
    out = []
    for r in rows:
        if r["unit"] == "share":
            tol = tolerances["quality_share"].value
        else:
            tol = tolerances["quality_relative"].value * abs(r.get("reference", math.nan))
        v = _paired_verdict(r, tol)
        out.append({**r, "tolerance": tol, "verdict": words.word(v), "kind": words.kind(v)})
    return out


def _paired_verdict(row: dict, tol: float) -> Verdict:
    """A paired quality difference against its tolerance, a change backed by Holm's
    correction over the rows."""
    if not math.isfinite(tol):
        return equivalence(math.nan, math.nan, math.nan, 0.0)
    return equivalence(row["diff_value"], row["diff_low"], row["diff_high"], tol,
                       effect_shown=row["p_holm"] < 0.05)  # fmt: skip


def _paired_text(row: dict) -> str:
    share = row["unit"] == "share"
    v, lo, hi = row["diff_value"], row["diff_low"], row["diff_high"]
    return fmt.pp_ci(v, lo, hi) if share else fmt.signed_ci(v, lo, hi, 2)


def _tolerance_text(row: dict) -> str:
    tol = row["tolerance"]
    if not math.isfinite(tol):
        return "\u2014"
    return (
        f"\u00b1{fmt.num(100 * tol)} pp" if row["unit"] == "share" else f"\u00b1{fmt.num(tol, 2)}"
    )


def _paired_html(rows: list[dict]) -> str:
    if not rows:
        return ""
    e = html.escape
    body = "".join(
        f"<tr><td class='t'>{e(r['arm'])}</td><td class='t'>{e(r['label'])}</td>"
        f"<td>{e(_paired_text(r))}</td><td>{e(_tolerance_text(r))}</td>"
        f"<td class='t v {r['kind']}'>{e(r['verdict'])}</td>"
        f"<td>{r['diff_n']:,}</td></tr>"
        for r in rows
    )
    return (
        f'<section id="paired"><h2>{e(PAIRED_TITLE)}</h2><p class="note">{e(PAIRED_NOTE)}</p>'
        '<div class="tablewrap" tabindex="0"><table><thead><tr><th class="t">arm</th>'
        '<th class="t">measure</th><th>B \u2212 A (95% interval)</th><th>tolerance</th>'
        '<th class="t">verdict</th><th>paired games</th>'
        f"</tr></thead><tbody>{body}</tbody></table></div>"
        '<p><a href="tables/compare_paired.csv">As CSV</a></p></section>'
    )


def _markdown(title, ra, rb, keys, ans_a, ans_b, games, paired=()) -> str:
    lines = [f"# {title}", ""]
    lines += [f"{run}: {strip_tags(line)}  " for run, r in (("A", ra), ("B", rb))
              for line in provenance.header(r)]  # fmt: skip
    lines += ["", *_differs_markdown(provenance.differences(ra, rb))]
    for key in keys:
        a, b = ans_a.get(key), ans_b.get(key)
        lines += [f"## {(a or b).question}", ""]
        lines.append(f"- **A:** {a.text() if a else 'not asked in this run'}")
        lines.append(f"- **B:** {b.text() if b else 'not asked in this run'}")
        said = _diff_parts(differences(a, b), verdict(a, b, games), _tolerance(a, b), _head(a, b))
        lines += [f"- **B \u2212 A:** {plain_text(said)}", ""]
    if paired:
        head = "| arm | measure | B \u2212 A | tolerance | verdict | games |"
        lines += [f"## {PAIRED_TITLE}", "", PAIRED_NOTE, "", head,
                  "| --- | --- | --- | --- | --- | --- |"]  # fmt: skip
        lines += [f"| {r['arm']} | {r['label']} | {_paired_text(r)} | {_tolerance_text(r)} | "
                  f"{r['verdict']} | {r['diff_n']:,} |" for r in paired]  # fmt: skip
        lines.append("")
    lines += ["## Methods", "", METHOD, ""]
    return "\n".join(lines)
