"""A small HTML writer for a self-contained report page (inline CSS, images as data URIs, an
optional inline table sorter) and the matching markdown."""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass, field

from sim.report.plots import Figure
from sim.report.table import Table


@dataclass(frozen=True)
class Finding:
    """One sentence a designer can act on. kind: 'finding' (a significant effect), 'null' (no
    detectable effect: shown as such, never as a finding), 'info' (a plain fact)."""

    text: str
    kind: str = "info"


@dataclass(frozen=True)
class Text:
    text: str


Block = Table | Figure | Text


@dataclass
class Section:
    id: str
    title: str
    question: str = ""
    findings: list[Finding] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)

    def add(self, *blocks: Block) -> None:
        self.blocks.extend(blocks)

    def tables(self) -> list[Table]:
        return [b for b in self.blocks if isinstance(b, Table)]

    def figures(self) -> list[Figure]:
        return [b for b in self.blocks if isinstance(b, Figure)]


CSS = """
:root { --ink:#1d2430; --muted:#5b6472; --line:#d9dee5; --sig:#b3261e; --ns:#7a828e;
        --bg:#ffffff; --panel:#f5f7fa; --accent:#1f5fa8; }
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
nav a { margin-right: 16px; color: var(--accent); text-decoration: none; }
.findings { list-style: none; padding: 0; margin: 10px 0 14px; }
.findings li { padding: 7px 12px; margin: 5px 0; border-left: 4px solid var(--line);
               background: var(--panel); border-radius: 0 4px 4px 0; }
.findings li.finding { border-left-color: var(--sig); }
.findings li.null { border-left-color: var(--ns); color: #3d4450; }
.findings li.null::before { content: "no detectable effect \\2014  "; font-weight: 600;
                            color: var(--ns); }
.findings li.finding::before { content: "finding \\2014  "; font-weight: 600; color: var(--sig); }
.answers { border: 1px solid var(--line); border-radius: 6px; padding: 6px 16px 10px; }
.answers h3 { margin-top: 10px; }
.tablewrap { overflow-x: auto; margin: 8px 0 4px; }
table { border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 10px; text-align: right;
         white-space: nowrap; }
th { background: var(--panel); position: sticky; top: 0; cursor: pointer; user-select: none; }
th[title] { text-decoration: underline dotted; }
td.t, th.t { text-align: left; }
td.sig { color: var(--sig); font-weight: 600; }
td.ns { color: var(--ns); }
caption { caption-side: top; text-align: left; font-weight: 600; padding: 4px 0; }
.note { color: var(--muted); font-size: 12.5px; margin: 2px 0 12px; }
figure { margin: 16px 0; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
figcaption { color: var(--muted); font-size: 13px; }
.csv { font-size: 12px; }
footer { margin-top: 50px; color: var(--muted); font-size: 12.5px; }
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
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) {
      c.removeAttribute('aria-sort');
    });
    th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
  }
  document.addEventListener('DOMContentLoaded', function () {
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
    out = [f'<div class="tablewrap"><table class="sortable" id="t-{esc(table.name)}">']
    out.append(f"<caption>{esc(table.title)}</caption><thead><tr>")
    for i, col in enumerate(table.columns):
        cls = ' class="t"' if i in text_cols else ""
        title = f' title="{esc(col.help)}"' if col.help else ""
        out.append(f"<th{cls}{title}>{esc(col.label)}</th>")
    out.append("</tr></thead><tbody>")
    for row in cells:
        out.append("<tr>")
        for i, cell in enumerate(row):
            classes = " ".join(c for c in ("t" if i in text_cols else "", cell.css) if c)
            cls = f' class="{classes}"' if classes else ""
            sort = "" if cell.sort is None else f' data-sort="{esc(cell.sort)}"'
            out.append(f"<td{cls}{sort}>{esc(cell.text)}</td>")
        out.append("</tr>")
    out.append("</tbody></table></div>")
    notes = []
    if table.note:
        notes.append(esc(table.note))
    if csv_href:
        notes.append(f'<a class="csv" href="{esc(csv_href)}">CSV</a>')
    if notes:
        out.append(f'<p class="note">{" ".join(notes)}</p>')
    return "".join(out)


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


def render_section(section: Section) -> str:
    out = [f'<section id="{esc(section.id)}"><h2>{esc(section.title)}</h2>']
    if section.question:
        out.append(f'<p class="question">{esc(section.question)}</p>')
    out.append(render_findings(section.findings))
    for block in section.blocks:
        if isinstance(block, Table):
            out.append(render_table(block, f"tables/{block.name}.csv"))
        elif isinstance(block, Figure):
            out.append(render_figure(block))
        elif isinstance(block, Text):
            out.append(f"<p>{esc(block.text)}</p>")
    out.append("</section>")
    return "".join(out)


def render_page(
    *,
    title: str,
    meta: list[str],
    sections: list[Section],
    methods: list[str],
    footer: str,
) -> str:
    nav = "".join(f'<a href="#{esc(s.id)}">{esc(s.title)}</a>' for s in sections)
    answers = "".join(
        f'<h3><a href="#{esc(s.id)}">{esc(s.title)}</a></h3>{render_findings(s.findings)}'
        for s in sections
        if s.findings
    )
    body = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body><main>",
        f"<h1>{esc(title)}</h1>",
        "".join(f'<p class="meta">{m}</p>' for m in meta),
        f'<nav><a href="#answers">Answers</a>{nav}<a href="#methods">Methods</a></nav>',
        f'<section id="answers"><h2>Answers</h2><div class="answers">{answers}</div></section>',
        "".join(render_section(s) for s in sections),
        '<section id="methods"><h2>Methods</h2>',
        "".join(f"<p>{esc(m)}</p>" for m in methods),
        "</section>",
        f"<footer>{footer}</footer>",
        f"</main><script>{SORTER_JS}</script></body></html>",
    ]
    return "\n".join(body)


def render_markdown(
    *, title: str, meta: list[str], sections: list[Section], methods: list[str]
) -> str:
    out = [f"# {title}", ""]
    out.extend(f"{_strip_tags(m)}  " for m in meta)
    out.append("")
    for s in sections:
        out.append(f"## {s.title}")
        out.append("")
        if s.question:
            out.extend([f"*{s.question}*", ""])
        for f in s.findings:
            prefix = {"finding": "**Finding:** ", "null": "**No detectable effect:** "}.get(
                f.kind, ""
            )
            out.append(f"- {prefix}{f.text}")
        if s.findings:
            out.append("")
        for block in s.blocks:
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
    out.extend(["## Methods", ""])
    out.extend(f"- {m}" for m in methods)
    out.append("")
    return "\n".join(out)


def _strip_tags(text: str) -> str:
    import re

    return html.unescape(re.sub(r"<[^>]+>", "", text))
