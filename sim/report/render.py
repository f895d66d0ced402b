"""A small HTML writer for a self-contained report page (inline CSS, images as data URIs, an
optional inline table sorter) and the matching markdown.

The page opens with the Answers block (one sentence per question, with its data-quality line),
then each section with its pictures first and every pairwise finding collapsed, the tables, a
glossary of the terms the answers use, and the methods. It reads at phone width and prints
(CSS media queries; collapsed details open for printing)."""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass, field

from sim.report import scorecard
from sim.report.answers import Answer, glossary, render_block
from sim.report.answers import markdown as answers_markdown
from sim.report.plots import Figure
from sim.report.table import Table


@dataclass(frozen=True)
class Finding:
    """One sentence a designer can act on. kind: 'finding' (an effect is shown), 'within' (the
    effect is shown to lie within its tolerance), 'unsettled' (not settled at this size: never
    shown as a finding nor as no effect), 'info' (a plain fact); see sim.report.verdicts."""

    text: str
    kind: str = "info"


@dataclass(frozen=True)
class Text:
    text: str


@dataclass
class Group:
    """Blocks under a heading, collapsed unless `open` (e.g. one skill level's details)."""

    title: str
    blocks: list = field(default_factory=list)
    open: bool = False
    findings: list[Finding] = field(default_factory=list)


Block = Table | Figure | Text | Group


@dataclass
class Section:
    id: str
    title: str
    question: str = ""
    findings: list[Finding] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)
    glossary: dict[str, str] = field(default_factory=dict)  # term -> definition

    def add(self, *blocks: Block) -> None:
        self.blocks.extend(blocks)

    def _flat(self) -> list:
        out, todo = [], list(self.blocks)
        while todo:
            b = todo.pop(0)
            if isinstance(b, Group):
                todo[:0] = b.blocks
            else:
                out.append(b)
        return out

    def tables(self) -> list[Table]:
        return [b for b in self._flat() if isinstance(b, Table)]

    def figures(self) -> list[Figure]:
        return [b for b in self._flat() if isinstance(b, Figure)]


CSS = """
:root { --ink:#1d2430; --muted:#535b68; --line:#d9dee5; --sig:#b3261e; --ns:#5c636e;
        --bg:#ffffff; --panel:#f5f7fa; --accent:#1f5fa8; --warn:#8a4b00; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
       background: var(--bg); margin: 0; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 60px; }
h1 { font-size: 26px; margin: 8px 0 4px; }
h2 { font-size: 21px; margin: 40px 0 6px; padding-top: 12px; border-top: 2px solid var(--line); }
h3 { font-size: 16px; margin: 22px 0 6px; }
p { margin: 6px 0; }
.meta { color: var(--muted); font-size: 13px; }
.meta code { font-size: 12px; }
.question { color: var(--muted); font-style: italic; margin-bottom: 10px; }
nav { background: var(--panel); border: 1px solid var(--line); border-radius: 6px;
      padding: 10px 16px; margin: 16px 0; }
nav a { margin-right: 16px; color: var(--accent); text-decoration: none; display: inline-block; }
.findings { list-style: none; padding: 0; margin: 10px 0 14px; }
.findings li { padding: 7px 12px; margin: 5px 0; border-left: 4px solid var(--line);
               background: var(--panel); border-radius: 0 4px 4px 0; }
.findings li.finding { border-left-color: var(--sig); }
.findings li.within { border-left-color: var(--accent); }
.findings li.within::before { content: "within tolerance \\2014  "; font-weight: 600;
                              color: var(--accent); }
.findings li.unsettled { border-left-color: var(--ns); color: #3d4450; }
.findings li.unsettled::before { content: "not settled \\2014  "; font-weight: 600;
                                 color: var(--ns); }
.findings li.finding::before { content: "finding \\2014  "; font-weight: 600; color: var(--sig); }
.answers { border: 1px solid var(--line); border-radius: 6px; padding: 4px 16px 8px; }
.qa { padding: 8px 0 10px; border-bottom: 1px solid var(--line); }
.qa:last-child { border-bottom: none; }
.qa .q { margin: 0; font-size: 13px; font-weight: 600; }
.qa .q a { color: var(--muted); text-decoration: none; }
.answer { margin: 2px 0; font-size: 16px; padding-left: 10px; border-left: 4px solid var(--line); }
.answer.finding { border-left-color: var(--sig); }
.answer.within { border-left-color: var(--accent); }
.answer.unsettled { border-left-color: var(--ns); }
.est { font-weight: 600; white-space: nowrap; }
.ci { font-weight: 400; color: var(--muted); }
abbr[title] { text-decoration: underline dotted; cursor: help; }
.quality { color: var(--muted); font-size: 12.5px; margin: 3px 0 0 14px; }
.quality .warn { color: var(--warn); display: block; }
details { margin: 8px 0; }
summary { cursor: pointer; color: var(--accent); font-weight: 600; }
dl.glossary dt { font-weight: 600; margin-top: 6px; }
dl.glossary dd { margin: 0 0 4px 18px; }
.tablewrap { overflow-x: auto; margin: 8px 0 4px; }
.tablewrap:focus { outline: 2px solid var(--accent); }
table { border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: right;
         white-space: nowrap; }
th { background: var(--panel); position: sticky; top: 0; cursor: pointer; user-select: none;
     white-space: normal; vertical-align: bottom; min-width: 4em; max-width: 11em; }
td .tci { display: block; font-size: 11.5px; color: var(--muted); white-space: normal; }
td.sig .tci { color: var(--sig); font-weight: 400; }
td.t { white-space: normal; min-width: 6em; max-width: 22em; overflow-wrap: anywhere; }
td.w { white-space: normal; min-width: 7em; max-width: 12em; }
.folded tr.more { display: none; }
button.showall { font: inherit; font-size: 13px; color: var(--accent); background: var(--panel);
                 border: 1px solid var(--line); border-radius: 4px; padding: 3px 10px;
                 cursor: pointer; margin: 2px 0 4px; }
th[title] { text-decoration: underline dotted; }
td[title] { text-decoration: underline dotted; cursor: help; }
td.t, th.t { text-align: left; }
td.sig { color: var(--sig); font-weight: 600; }
td.ns { color: var(--ns); }
caption { caption-side: top; text-align: left; font-weight: 600; padding: 4px 0; }
.note { color: var(--muted); font-size: 12.5px; margin: 2px 0 12px; }
figure { margin: 16px 0; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
figcaption { color: var(--muted); font-size: 13px; }
.csv { font-size: 12px; }
table.scorecard { width: 100%; font-size: 14px; font-variant-numeric: tabular-nums; }
table.scorecard th, table.scorecard td { white-space: normal; text-align: left;
                                          vertical-align: top; padding: 5px 10px; }
table.scorecard thead th { cursor: default; }
table.scorecard th.q { background: none; font-weight: 600; position: static; cursor: default;
                       width: 34%; }
table.scorecard th.q a { color: var(--ink); text-decoration: none; }
table.scorecard th.q a:hover { text-decoration: underline; }
table.scorecard td.v { border-left: 4px solid var(--line); font-weight: 600; width: 22%; }
table.scorecard td.v.finding { border-left-color: var(--sig); color: var(--sig); }
table.scorecard td.v.within { border-left-color: var(--accent); color: var(--accent); }
table.scorecard td.v.unsettled { border-left-color: var(--ns); color: var(--ns); }
table.scorecard .what { color: var(--muted); }
table.scorecard td.at { color: var(--muted); max-width: 16em; overflow-wrap: anywhere; }
footer { margin-top: 50px; color: var(--muted); font-size: 12.5px; }
@media (max-width: 700px) {
  body { font-size: 14px; }
  main { padding: 12px 12px 40px; }
  h1 { font-size: 20px; overflow-wrap: anywhere; }
  h2 { font-size: 18px; margin-top: 28px; }
  nav { padding: 8px 10px; }
  nav a { margin: 2px 12px 2px 0; }
  .answers { padding: 2px 10px 6px; }
  .answer { font-size: 15px; }
  .est { white-space: normal; }
  table { font-size: 12px; }
  th, td { padding: 3px 6px; }
  .meta code { overflow-wrap: anywhere; }
}
@media print {
  body { font-size: 11pt; }
  main { max-width: none; padding: 0; }
  nav, .csv { display: none; }
  h2 { break-after: avoid; border-top: none; }
  figure, .qa, tr, caption { break-inside: avoid; }
  figure img { max-width: 100%; border: none; }
  .tablewrap { overflow: visible; }
  .folded tr.more { display: table-row; }
  button.showall { display: none; }
  th { position: static; }
  th, td { white-space: normal; }
  summary { color: var(--ink); }
  a { color: var(--ink); text-decoration: none; }
}
"""

# Click a header to sort by that column (numbers by their raw value); no dependencies.
SORTER_JS = """
(function () {
  function key(td) {
    var v = td.getAttribute('data-sort');
    if (v === null || v === '') { return null; }
    var n = Number(v);
    return isNaN(n) ? v : n;
  }
  function sortBy(table, col, th) {
    var body = table.tBodies[0];
    if (!body) { return; }
    var asc = th.getAttribute('aria-sort') !== 'ascending';
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[col]), y = key(b.cells[col]);
      if (x === y) { return 0; }
      if (x === null) { return 1; }
      if (y === null) { return -1; }
      var r = (typeof x === 'number' && typeof y === 'number') ? x - y
              : String(x).localeCompare(String(y));
      return asc ? r : -r;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    refold(table);
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) {
      c.removeAttribute('aria-sort');
    });
    th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
  }
  function refold(table) {
    var box = table.parentNode, shown = Number(box.getAttribute('data-shown'));
    if (!shown) { return; }
    Array.prototype.forEach.call(table.tBodies[0].rows, function (r, i) {
      r.className = i >= shown ? 'more' : '';
    });
  }
  function showAll(button) {
    var box = document.getElementById(button.getAttribute('aria-controls')).parentNode;
    var open = box.classList.toggle('folded') === false;
    button.setAttribute('aria-expanded', open ? 'true' : 'false');
    button.textContent = open ? 'Show the first ' + box.getAttribute('data-shown') + ' rows'
                              : button.getAttribute('data-all');
  }
  function openAll() {
    Array.prototype.forEach.call(document.querySelectorAll('details'), function (d) {
      d.open = true;
    });
  }
  window.addEventListener('beforeprint', openAll);
  if (window.matchMedia) {
    var print = window.matchMedia('print');
    if (print.addEventListener) {
      print.addEventListener('change', function (e) { if (e.matches) { openAll(); } });
    }
  }
  document.addEventListener('DOMContentLoaded', function () {
    Array.prototype.forEach.call(document.querySelectorAll('button.showall'), function (b) {
      b.setAttribute('data-all', b.textContent);
      b.addEventListener('click', function () { showAll(b); });
    });
    var tables = document.querySelectorAll('table.sortable');
    Array.prototype.forEach.call(tables, function (table) {
      if (!table.tHead) { return; }
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
        th.addEventListener('click', function () { sortBy(table, i, th); });
      });
    });
  });
})();
"""


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def render_table(table: Table, csv_href: str | None = None) -> str:
    cells = table.cells()
    text_cols = {
        i
        for i, _ in enumerate(table.columns)
        if cells and all(isinstance(row[i].sort, str) or row[i].sort is None for row in cells)
    }
    # a scrolling region must be reachable from the keyboard: it takes the focus, named
    region = f'role="region" tabindex="0" aria-label="{esc(table.title)}"'
    shown = table.shown()
    folded = "" if shown is None else f' folded" data-shown="{shown}'
    out = [f'<div class="tablewrap{folded}" {region}>'
           f'<table class="sortable" id="t-{esc(table.name)}">']  # fmt: skip
    out.append(f"<caption>{esc(table.title)}</caption><thead><tr>")
    for i, col in enumerate(table.columns):
        cls = ' class="t"' if i in text_cols else ""
        title = f' title="{esc(col.help)}"' if col.help else ""
        out.append(f"<th{cls}{title}>{esc(col.label)}</th>")
    out.append("</tr></thead><tbody>")
    for n, row in enumerate(cells):
        out.append('<tr class="more">' if shown is not None and n >= shown else "<tr>")
        for i, cell in enumerate(row):
            # a long sentence in a figure's column wraps (a figure with its interval stacks)
            wrap = i not in text_cols and len(cell.text) > WRAP_OVER
            wrap = wrap and not _WITH_INTERVAL.match(cell.text)
            kind = "t" if i in text_cols else ("w" if wrap else "")
            classes = " ".join(c for c in (kind, cell.css) if c)
            cls = f' class="{classes}"' if classes else ""
            sort = "" if cell.sort is None else f' data-sort="{esc(cell.sort)}"'
            title = f' title="{esc(cell.title)}"' if cell.title else ""
            text = esc(cell.text) if i in text_cols else stacked(cell.text)
            out.append(f"<td{cls}{sort}{title}>{text}</td>")
        out.append("</tr>")
    out.append("</tbody></table></div>")
    if shown is not None:
        out.append(
            f'<button type="button" class="showall" aria-controls="t-{esc(table.name)}" '
            f'aria-expanded="false">Show all {len(cells):,} rows</button>'
        )
    notes = []
    if table.note:
        notes.append(esc(table.note))
    if csv_href:
        notes.append(f'<a class="csv" href="{esc(csv_href)}">CSV</a>')
    if notes:
        out.append(f'<p class="note">{" ".join(notes)}</p>')
    return "".join(out)


WRAP_OVER = 24  # characters: a longer text in a figure's column wraps (td.w)
# a figure and its interval in a cell: "92.5% (91.2-93.5)", "+9.9 pp (+8.1 to +11.7) n.s."
_WITH_INTERVAL = re.compile(r"^(\S[^()]*?) (\([^()]+\))(.*)$")


def stacked(text: str) -> str:
    """A cell's figure with its interval under it (a narrower column); other text as it is."""
    m = _WITH_INTERVAL.match(text)
    if not m:
        return esc(text)
    value, interval, rest = m.groups()
    return f'{esc(value)}{esc(rest)}<span class="tci">{esc(interval)}</span>'


def render_figure(figure: Figure) -> str:
    alt = esc(figure.title)
    caption = esc(figure.caption or figure.title)
    return (
        f'<figure id="f-{esc(figure.name)}"><img src="{data_uri(figure.png)}" alt="{alt}">'
        f"<figcaption>{caption}</figcaption></figure>"
    )


def render_findings(findings: list[Finding]) -> str:
    if not findings:
        return ""
    items = "".join(f'<li class="{esc(f.kind)}">{esc(f.text)}</li>' for f in findings)
    return f'<ul class="findings">{items}</ul>'


def render_blocks(blocks: list[Block]) -> str:
    out = []
    for block in blocks:
        if isinstance(block, Table):
            out.append(render_table(block, f"tables/{block.name}.csv"))
        elif isinstance(block, Figure):
            out.append(render_figure(block))
        elif isinstance(block, Text):
            out.append(f"<p>{esc(block.text)}</p>")
        elif isinstance(block, Group):
            opened = " open" if block.open else ""
            out.append(
                f"<details{opened}><summary>{esc(block.title)}</summary>"
                f"{_findings_details(block.findings)}{render_blocks(block.blocks)}</details>"
            )
    return "".join(out)


def _findings_details(findings: list[Finding]) -> str:
    if not findings:
        return ""
    n = len(findings)
    what = "finding" if n == 1 else f"{n} findings, one per comparison"
    return f"<details><summary>The {what}</summary>{render_findings(findings)}</details>"


def render_section(section: Section) -> str:
    out = [f'<section id="{esc(section.id)}"><h2>{esc(section.title)}</h2>']
    if section.question:
        out.append(f'<p class="question">{esc(section.question)}</p>')
    out.append(_findings_details(section.findings))
    out.append(render_blocks(section.blocks))
    out.append("</section>")
    return "".join(out)


def page_glossary(sections: list[Section]) -> dict[str, str]:
    extra: dict[str, str] = {}
    for s in sections:
        for k, v in s.glossary.items():
            extra.setdefault(k, v)
    return glossary([a for s in sections for a in s.answers], extra)


# what the Answers block says when no section asks a question
NO_ANSWERS = (
    "No question is asked of this run: its experiment names no report section that answers "
    "one (its `report:` key; `sim games` lists each game's sections, docs/reports.md says "
    "what each answers). What happened in each arm is below."
)


def _answers_html(sections: list[Section]) -> str:
    out = []
    for s in sections:
        if s.answers:
            out.append(render_block(s.answers))
        elif s.findings:  # a section without answers: its findings stand in
            out.append(f'<h3><a href="#{esc(s.id)}">{esc(s.title)}</a></h3>')
            out.append(render_findings(s.findings))
    return "".join(out) or f'<p class="none">{esc(NO_ANSWERS)}</p>'


def render_page(
    *,
    title: str,
    meta: list[str],
    sections: list[Section],
    methods: list[str],
    footer: str,
) -> str:
    nav = "".join(f'<a href="#{esc(s.id)}">{esc(s.title)}</a>' for s in sections)
    terms = page_glossary(sections)
    defs = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in terms.items())
    body = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{CSS}</style>",
        "<noscript><style>.folded tr.more { display: table-row; } button.showall "
        "{ display: none; }</style></noscript></head><body><main>",
        f"<h1>{esc(title)}</h1>",
        "".join(f'<p class="meta">{m}</p>' for m in meta),
        scorecard.render([a for s in sections for a in s.answers]),
        f'<nav aria-label="Sections"><a href="#answers">Answers</a>{nav}'
        + ('<a href="#definitions">Definitions</a>' if terms else "")
        + '<a href="#methods">Methods</a></nav>',
        '<section id="answers"><h2>Answers</h2>',
        f'<div class="answers">{_answers_html(sections)}</div></section>',
        "".join(render_section(s) for s in sections),
        (
            '<section id="definitions"><h2>Definitions</h2>'
            f'<dl class="glossary">{defs}</dl></section>'
            if terms
            else ""
        ),
        '<section id="methods"><h2>Methods</h2>',
        "".join(f"<p>{esc(m)}</p>" for m in methods),
        "</section>",
        f"<footer>{footer}</footer>",
        f"</main><script>{SORTER_JS}</script></body></html>",
    ]
    return "\n".join(body)


def _markdown_blocks(blocks: list[Block], out: list[str]) -> None:
    for block in blocks:
        if isinstance(block, Table):
            out.extend([f"**{block.title}**", "", block.markdown(), ""])
            if block.note:
                out.extend([f"_{block.note}_", ""])
            out.extend([f"[CSV](tables/{block.name}.csv)", ""])
        elif isinstance(block, Figure):
            out.extend([f"![{block.title}](figures/{block.name}.png)", ""])
            if block.caption:
                out.extend([f"_{block.caption}_", ""])
        elif isinstance(block, Text):
            out.extend([block.text, ""])
        elif isinstance(block, Group):
            out.extend([f"### {block.title}", ""])
            _markdown_findings(block.findings, out)
            _markdown_blocks(block.blocks, out)


def _markdown_findings(findings: list[Finding], out: list[str]) -> None:
    for f in findings:
        prefix = {
            "finding": "**Finding:** ",
            "within": "**Within tolerance:** ",
            "unsettled": "**Not settled:** ",
        }.get(f.kind, "")
        out.append(f"- {prefix}{f.text}")
    if findings:
        out.append("")


def render_markdown(
    *, title: str, meta: list[str], sections: list[Section], methods: list[str]
) -> str:
    out = [f"# {title}", ""]
    out.extend(f"{strip_tags(m)}  " for m in meta)
    out.append("")
    out.extend(scorecard.markdown([a for s in sections for a in s.answers]))
    out.extend(["## Answers", ""])
    out.extend(answers_markdown([a for s in sections for a in s.answers]))
    out.append("")
    for s in sections:
        if s.findings and not s.answers:  # its findings stand in, as on the page
            out.extend([f"### {s.title}", ""])
            _markdown_findings(s.findings, out)
    if not any(s.answers or s.findings for s in sections):
        out.extend([NO_ANSWERS, ""])
    for s in sections:
        out.extend([f"## {s.title}", ""])
        if s.question:
            out.extend([f"*{s.question}*", ""])
        _markdown_findings(s.findings, out)
        _markdown_blocks(s.blocks, out)
    terms = page_glossary(sections)
    if terms:
        out.extend(["## Definitions", ""])
        out.extend(f"- **{k}**: {v}" for k, v in terms.items())
        out.append("")
    out.extend(["## Methods", ""])
    out.extend(f"- {m}" for m in methods)
    out.append("")
    return "\n".join(out)


def strip_tags(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", text))
