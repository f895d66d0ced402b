"""Answers: one sentence per question an experiment asks, in the designer's words, the verdict
first, with every estimate beside its interval, a small table of the figures behind it (one row
per level, price, seat...) and a data-quality line under it.

An ``Answer``'s lead is one sentence of at most about 25 words that says the verdict first
("Skill decides: the top level finishes ahead of the bottom in 92% (90% to 94%) of games.");
`more` may add a short sentence (what would settle an open question); the per-level figures go
into its `rows`, never into the sentence. Its words come from the one verdict vocabulary
(sim/report/verdicts.py). The sentences are made of parts: plain words (no figures),
``Estimate`` (a number that always carries its interval), ``Term`` (a metric's name whose
definition is one hover away on the page and a footnote away in report.md), ``Label`` (the
name of a setting, e.g. "4 players", which may hold digits but is not an estimate) and
``Count`` (a number of games or tables: a fact, not an estimate). The page marks each kind, so
a test can check that every number in the Answers block is an estimate with its interval, a
setting's name or a count.

Nothing here knows a game: sections build the answers, this module renders them, and
``sim.report.levels`` combines the answers of several skill levels into one verdict.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field, replace
from typing import Any

from sim.report import fmt
from sim.report.data_quality import Quality
from sim.stats.intervals import z_for
from sim.stats.tolerances import Tolerance
from sim.stats.verdict import Verdict


@dataclass(frozen=True)
class Estimate:
    """A number with its interval. unit: 'pp' (a difference of shares, shown x100 in
    percentage points), 'pct' (a share, shown x100 in %), 'num' (a plain quantity), 'price'
    (a position on a swept key; infinite ends read "below/above the range")."""

    key: str  # stable name, used to match the same estimate across runs and skill levels
    label: str  # what it is, in words
    value: float
    low: float
    high: float
    unit: str = "pp"
    digits: int = 1
    signed: bool = True

    def _scale(self, x: float) -> float:
        return 100.0 * x if self.unit in ("pp", "pct") else x

    def _one(self, x: float, *, signed: bool) -> str:
        if self.unit == "price" and math.isinf(x):
            return "above the range" if x > 0 else "below the range"
        v = self._scale(x)
        return fmt.signed(v, self.digits) if signed else fmt.num(v, self.digits)

    def text(self) -> str:
        """The value with its unit, e.g. '+0.5 pp', '82.0%', '12.3'."""
        if fmt.is_missing(self.value):
            return "undetermined"
        signed = self.signed and self.unit != "pct"
        body = self._one(self.value, signed=signed)
        return body + {"pp": " pp", "pct": "%"}.get(self.unit, "")

    def ci_text(self) -> str:
        """The interval in brackets, e.g. '(+0.3 to +0.7)'; '' when it is unknown."""
        if fmt.is_missing(self.low) or fmt.is_missing(self.high):
            return ""
        signed = self.signed and self.unit != "pct"
        lo = self._one(self.low, signed=signed)
        hi = self._one(self.high, signed=signed)
        return f"({lo} to {hi})"

    @property
    def significant(self) -> bool:
        """The interval excludes zero (for a difference)."""
        if fmt.is_missing(self.low) or fmt.is_missing(self.high):
            return False
        return not (self.low <= 0.0 <= self.high)

    def plain(self) -> str:
        ci = self.ci_text()
        return f"{self.text()} {ci}" if ci else self.text()


@dataclass(frozen=True)
class Term:
    """A metric's name in a sentence; its definition is shown on hover and in the glossary."""

    text: str
    definition: str


@dataclass(frozen=True)
class Label:
    """The name of a setting or a group ("4 players", "missile.cost 20"): not an estimate."""

    text: str


@dataclass(frozen=True)
class Count:
    """A number of games, tables or arms: a fact, not an estimate."""

    n: int
    noun: str = ""

    def text(self) -> str:
        return f"{self.n:,}" + (f" {self.noun}" if self.noun else "")


Part = str | Estimate | Term | Label | Count


@dataclass(frozen=True)
class Row:
    """One line of an answer's small table: where the figure holds (a level, a price, a seat,
    an arm), the figure with its interval, and the verdict there in words ('' for none).
    `key`: the rule key or measure behind `where`, shown on hover."""

    where: str
    figure: Estimate
    said: str = ""
    key: str = ""
    what: str = ""  # the figure's name, when the rows hold several measures


@dataclass
class Answer:
    """One question and its answer: `parts` the lead sentence (the verdict first, at most
    about 25 words), `more` what follows it (short), `rows` the figures behind it.

    kind: 'finding' (an effect is shown), 'within' (shown to lie within its tolerance: no
    effect, fair, priced right), 'unsettled' (not settled at this size) or 'info'
    (sim.report.verdicts).
    headline: the estimate that sums the answer up (compared across skill levels and runs).
    category: the conclusion in a few words, without figures ("raises the buyer's win share",
    "the seats are fair").
    verdict: the answer's claim read against its tolerance (None: the answer claims nothing).
    tolerance: the tolerance of the headline, in its units: how far apart two headlines (at
    two skill levels, in two runs) may be and still count as the same.
    word: the verdict in the vocabulary's few words, for a scorecard ("too cheap", "skill
    decides", "within tolerance", "not settled"; sim.report.verdicts); '' when it claims nothing.
    where: the levels (or settings) the verdict holds at, in words ("every level", "club").
    rows_head: the heading of the rows' first column ("level", "price", "seat").
    levels: the headline at each skill level, for an answer told over several levels
    (sim.report.levels.combine); the scorecard shows them.
    """

    key: str
    question: str
    parts: list[Part]
    kind: str = "info"
    headline: Estimate | None = None
    category: str = ""
    quality: Quality | None = None
    section: str = ""  # id of the section holding the details
    verdict: Verdict | None = None
    tolerance: Tolerance | None = None
    more: list[Part] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    word: str = ""
    where: str = ""
    rows_head: str = "level"
    levels: dict[str, Estimate] = field(default_factory=dict)
    reference: tuple[str, float] | None = None  # what the headline is read against, e.g.
    # ("printed price", 10.0): drawn beside it (sim.report.level_figure)

    @property
    def estimates(self) -> list[Estimate]:
        found = [p for p in [*self.parts, *self.more] if isinstance(p, Estimate)]
        found += [r.figure for r in self.rows]
        if self.headline is not None:
            found.append(self.headline)
        first: dict[str, Estimate] = {}
        for e in found:
            first.setdefault(e.key, e)
        return list(first.values())

    @property
    def terms(self) -> list[Term]:
        return [p for p in [*self.parts, *self.more] if isinstance(p, Term)]

    def lead(self) -> str:
        """The lead sentence as plain text."""
        return plain_text(self.parts)

    def text(self) -> str:
        """The lead and what follows it, as plain text."""
        more = plain_text(self.more)
        return plain_text(self.parts) + (f" {more}" if more else "")


def plain_text(parts: list[Part]) -> str:
    """Parts as plain text (an estimate with its interval), e.g. for a finding."""
    return "".join(_plain(p) for p in parts)


def _plain(part: Part) -> str:
    if isinstance(part, Estimate):
        return part.plain()
    if isinstance(part, Term | Label):
        return part.text
    if isinstance(part, Count):
        return part.text()
    return str(part)


def sentence(*parts: Part | list[Part] | None) -> list[Part]:
    """Flatten parts (lists and None allowed) into one list."""
    out: list[Part] = []
    for p in parts:
        if p is None:
            continue
        if isinstance(p, list):
            out.extend(p)
        else:
            out.append(p)
    return out


def joined(items: list[list[Part]], sep: str = ", ", last: str = " and ") -> list[Part]:
    """Parts lists joined with commas and a final 'and'."""
    out: list[Part] = []
    for i, item in enumerate(items):
        if i:
            out.append(last if i == len(items) - 1 else sep)
        out.extend(item)
    return out


# --- differences between two estimates ----------------------------------------------------------


def difference(a: Estimate, b: Estimate, *, widen: float = 1.0) -> Estimate:
    """a - b with the MOVER interval (Zou & Donner 2008) built from the two intervals:
    low = d - sqrt((a - a_low)^2 + (b_high - b)^2), high = d + sqrt((a_high - a)^2 +
    (b - b_low)^2). Exact for independent normal estimates and close for Wilson and bootstrap
    intervals; `widen` scales every half-width first (a wider family-wise level)."""
    d = a.value - b.value
    unit = "pp" if a.unit == "pct" else a.unit
    if not all(math.isfinite(x) for x in (a.value, a.low, a.high, b.value, b.low, b.high)):
        nan = float("nan")
        return replace(a, value=d if math.isfinite(d) else nan, low=nan, high=nan, unit=unit)
    low = d - widen * math.hypot(a.value - a.low, b.high - b.value)
    high = d + widen * math.hypot(a.high - a.value, b.value - b.low)
    return replace(a, value=d, low=low, high=high, unit=unit, signed=True)


def family_widening(pairs: int, level: float = 0.95) -> float:
    """Factor turning 95% half-widths into Bonferroni half-widths for `pairs` comparisons."""
    if pairs <= 1:
        return 1.0
    return z_for(1.0 - (1.0 - level) / pairs) / z_for(level)


# --- rendering -------------------------------------------------------------------------------


def esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def render_parts(parts: list[Part]) -> str:
    out = []
    for p in parts:
        if isinstance(p, Estimate):
            ci = p.ci_text()
            ci_html = f' <span class="ci">{esc(ci)}</span>' if ci else ""
            out.append(f'<span class="est" data-key="{esc(p.key)}">{esc(p.text())}{ci_html}</span>')
        elif isinstance(p, Term):
            out.append(f'<abbr title="{esc(p.definition)}">{esc(p.text)}</abbr>')
        elif isinstance(p, Label):
            out.append(f'<span class="lbl">{esc(p.text)}</span>')
        elif isinstance(p, Count):
            noun = f" {esc(p.noun)}" if p.noun else ""
            out.append(f'<span class="n">{p.n:,}</span>{noun}')
        else:
            out.append(esc(p))
    return "".join(out)


def render_answer(answer: Answer) -> str:
    link = f'<a href="#{esc(answer.section)}">{esc(answer.question)}</a>'
    quality = answer.quality.html() if answer.quality is not None else ""
    more = f' <span class="more">{render_parts(answer.more)}</span>' if answer.more else ""
    return (
        f'<div class="qa" data-question="{esc(answer.key)}"><p class="q">{link}</p>'
        f'<p class="answer {esc(answer.kind)}"><span class="lead">{render_parts(answer.parts)}'
        f"</span>{more}</p>{render_rows(answer)}{quality}</div>"
    )


def row_names(answer: Answer) -> list[str] | None:
    """Each row's measure, when the rows hold more than one and their `where` does not tell
    them apart (its `what`, else its figure's label); None when they all hold one, named in the
    figure column's heading."""
    names = [r.what or r.figure.label for r in answer.rows]
    wheres = [r.where for r in answer.rows]
    told_apart = len(set(wheres)) == len(wheres) and not any(r.what for r in answer.rows)
    return names if len(set(names)) > 1 and not told_apart else None


def render_rows(answer: Answer) -> str:
    """The answer's figures as a small table: where, [the measure,] the figure, its interval,
    the verdict."""
    if not answer.rows:
        return ""
    said = any(r.said for r in answer.rows)
    names = row_names(answer)
    figure = "<th class='t'>measure</th><th>value</th>" if names else (
        f"<th>{esc(answer.rows[0].figure.label)}</th>")  # fmt: skip
    head = (f"<tr><th class='t'>{esc(answer.rows_head)}</th>{figure}<th>95% interval</th>"
            + ("<th class='t'>verdict</th>" if said else "") + "</tr>")  # fmt: skip
    body = []
    for i, r in enumerate(answer.rows):
        title = f' title="{esc(r.key)}"' if r.key else ""
        cells = [f"<td class='t'{title}>{esc(r.where)}</td>"]
        cells += [f"<td class='t'>{esc(names[i])}</td>"] if names else []
        cells += [f"<td>{esc(r.figure.text())}</td>", f"<td>{esc(r.figure.ci_text())}</td>"]
        if said:
            cells.append(f"<td class='t'>{esc(r.said)}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    return (f'<table class="answer-rows"><thead>{head}</thead>'
            f"<tbody>{''.join(body)}</tbody></table>")  # fmt: skip


def markdown_rows(answer: Answer) -> list[str]:
    """The answer's rows as a markdown table (indented under its list item)."""
    if not answer.rows:
        return []
    said, names = any(r.said for r in answer.rows), row_names(answer)
    head = [answer.rows_head, *(["measure", "value"] if names else [answer.rows[0].figure.label])]
    head += ["95% interval", *(["verdict"] if said else [])]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for i, r in enumerate(answer.rows):
        cells = [r.where, *([names[i]] if names else []), r.figure.text(), r.figure.ci_text()]
        cells += [r.said] if said else []
        lines.append("| " + " | ".join(cells) + " |")
    return ["", *(f"  {line}" for line in lines), ""]


def render_block(answers: list[Answer]) -> str:
    return "".join(render_answer(a) for a in answers)


def glossary(answers: list[Answer], extra: dict[str, str] | None = None) -> dict[str, str]:
    """term -> definition for every term the answers use (and `extra`), in order of use."""
    out: dict[str, str] = {}
    for a in answers:
        for t in a.terms:
            out.setdefault(t.text, t.definition)
    for k, v in (extra or {}).items():
        out.setdefault(k, v)
    return out


def markdown(answers: list[Answer]) -> list[str]:
    """Markdown lines: the question in bold, the answer, its quality line; terms as footnotes."""
    notes: dict[str, int] = {}
    lines: list[str] = []
    for a in answers:
        text = []
        for p in [*a.parts, " " if a.more else "", *a.more]:
            if isinstance(p, Term):
                n = notes.setdefault(p.definition, len(notes) + 1)
                text.append(f"{p.text}[^{n}]")
            else:
                text.append(_plain(p))
        lines.append(f"- **{a.question}** {''.join(text)}")
        lines.extend(markdown_rows(a))
        if a.quality is not None:
            lines.append(f"  <br>_{a.quality.text()}_")
    if notes:
        lines.append("")
        lines.extend(f"[^{n}]: {definition}" for definition, n in notes.items())
    return lines
