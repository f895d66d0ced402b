"""The scorecard: what a report found, on its first screen. One row per question of every
section: the question (a link to the section that holds its details), the verdict in a few
words, the key figure with its 95% interval, and where it holds (each skill level, or every
level). A designer who reads only the scorecard knows what the report found.

It is built from the answers the sections already give (``Answer.category``, ``kind``,
``headline`` and, across skill levels, ``levels``): nothing is recomputed here.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

from sim.report import verdicts as words
from sim.report.answers import Answer, Estimate, Label

TITLE = "Scorecard"
DASH = "\u2014"
SHOWN = 3  # estimates shown for an answer without a headline
# the verdict of an answer that names no conclusion of its own, by its kind
# (sim.report.verdicts: finding, within, unsettled, info)
KIND_WORDS = {
    words.FINDING: words.BEYOND_WORD,
    words.WITHIN: words.WITHIN_WORD,
    words.UNSETTLED: words.OPEN_WORD,
    words.INFO: DASH,
}


@dataclass(frozen=True)
class Figure:
    """One key figure of a row: the estimate and where it holds ('' when the question has no
    levels)."""

    estimate: Estimate
    where: str = ""


@dataclass(frozen=True)
class Row:
    question: str
    section: str  # the id of the section holding the details
    key: str  # the answer's key
    kind: str  # finding | within | unsettled | info (the colour of the verdict)
    verdict: str
    figures: tuple[Figure, ...]


def verdict_word(answer: Answer) -> str:
    """The answer's conclusion in the vocabulary's few words (`Answer.word`: "too cheap",
    "skill decides"), else its category, else its kind's word."""
    return answer.word or answer.category or KIND_WORDS.get(answer.kind, "")


def key_figures(answer: Answer) -> tuple[Figure, ...]:
    """The figures that sum an answer up: its headline at each skill level, else its headline,
    else its first few estimates of different kinds (none for an answer that gives no
    figure), each with where it holds (`where`)."""
    if answer.levels:
        return tuple(Figure(e, level) for level, e in answer.levels.items())
    if answer.headline is not None:
        return (Figure(answer.headline, where(answer, answer.headline, headline=True)),)
    found = answer.estimates
    labels = [e.label for e in found]
    distinct = [e for i, e in enumerate(found) if e.label not in labels[:i]][:SHOWN]
    return tuple(Figure(e, where(answer, e)) for e in distinct)


def where(answer: Answer, figure: Estimate, *, headline: bool = False) -> str:
    """Where a figure holds (`_where`), arms repeated at a skill level said as 'baseline
    (club)', not by their stored names 'baseline@club' (sim.report.levels)."""
    return _AT_LEVEL.sub(r"\1 (\2)", _where(answer, figure, headline=headline))


_AT_LEVEL = re.compile(r"([\w.-]+)@([\w-]+)")
_CLAUSE_END = re.compile(r"[;.](\s|$)")


def _where(answer: Answer, figure: Estimate, *, headline: bool = False) -> str:
    """Where a figure of an answer holds, in words. The headline: where the answer's verdict
    holds (its `where`: "every level", "club"), else where the figure was measured. Any other
    figure: the row that shows it, else the setting its sentence names right after it ("53.1%
    (...) in optimal", within its clause: not past a ';' or the sentence's end), else the
    answer's `where`; '' when none says."""
    if headline and answer.where:
        return answer.where
    for row in answer.rows:
        if row.figure.key == figure.key and row.where:
            return row.where
    parts = [*answer.parts, *answer.more]
    at = next((i for i, p in enumerate(parts) if p is figure), None)
    for p in parts[at + 1 :] if at is not None else []:
        if isinstance(p, Estimate) or (isinstance(p, str) and _CLAUSE_END.search(p)):
            break  # a label past the next figure or the clause's end names something else
        if isinstance(p, Label):  # "(at casual)" in a sentence, "casual" under "at"
            return p.text.removeprefix("at ")
    return answer.where


def rows(answers: Sequence[Answer]) -> list[Row]:
    """One row per answer, in the page's order."""
    return [
        Row(a.question, a.section, a.key, a.kind, verdict_word(a), key_figures(a)) for a in answers
    ]


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _figure_html(f: Figure) -> str:
    e = f.estimate
    ci = e.ci_text()
    ci_html = f' <span class="ci">{_esc(ci)}</span>' if ci else ""
    return (
        f'<span class="what">{_esc(e.label)}</span> '
        f'<span class="est" data-key="{_esc(e.key)}">{_esc(e.text())}{ci_html}</span>'
    )


def render(answers: Sequence[Answer]) -> str:
    """The scorecard as an HTML section (empty when no section gives an answer)."""
    found = rows(answers)
    if not found:
        return ""
    levels = any(f.where for r in found for f in r.figures)
    head = "<th>question</th><th>verdict</th><th>key figure (95% interval)</th>"
    head += "<th>at</th>" if levels else ""
    body = []
    for r in found:
        figures = r.figures or (None,)
        span = f' rowspan="{len(figures)}"' if len(figures) > 1 else ""
        for i, f in enumerate(figures):
            cells = []
            if i == 0:
                link = f'<a href="#{_esc(r.section)}">{_esc(r.question)}</a>'
                cells.append(f'<th scope="row" class="q"{span}>{link}</th>')
                cells.append(f'<td class="v {_esc(r.kind)}"{span}>{_esc(r.verdict)}</td>')
            cells.append(f'<td class="k">{_figure_html(f) if f else DASH}</td>')
            if levels:
                cells.append(f'<td class="at">{_esc(f.where) if f else ""}</td>')
            first = f' data-question="{_esc(r.key)}"' if i == 0 else ""
            body.append(f"<tr{first}>{''.join(cells)}</tr>")
    return (
        f'<section id="scorecard" aria-label="{TITLE}"><h2>{TITLE}</h2>'
        '<div class="tablewrap"><table class="scorecard">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
        "</section>"
    )


def markdown(answers: Sequence[Answer]) -> list[str]:
    """The scorecard as a markdown table (no lines when there is no answer)."""
    found = rows(answers)
    if not found:
        return []
    out = [f"## {TITLE}", "", "| question | verdict | key figure (95% interval) | at |",
           "| --- | --- | --- | --- |"]  # fmt: skip
    for r in found:
        figures = r.figures or (None,)
        for i, f in enumerate(figures):
            question, verdict = (r.question, r.verdict) if i == 0 else ("", "")
            figure = f"{f.estimate.label} {f.estimate.plain()}" if f else "\u2014"
            where = f.where if f else ""
            out.append(f"| {_md(question)} | {_md(verdict)} | {_md(figure)} | {_md(where)} |")
    out.append("")
    return out


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
