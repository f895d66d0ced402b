"""The HTML a notebook shows for the lab's objects (`_repr_html_`): a heading, a few facts, and
small tables, escaped, with no style sheet of their own (the notebook's is used)."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def text(value: Any) -> str:
    """A cell's text: whole numbers with thousands separators, floats short, None empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list | tuple):
        return ", ".join(text(v) for v in value)
    return str(value)


def facts(pairs: Iterable[tuple[str, Any]]) -> str:
    """A two-column table of labels and values (a value of None leaves its row out)."""
    rows = "".join(
        f'<tr><th style="text-align:left">{html.escape(label)}</th>'
        f'<td style="text-align:left">{html.escape(text(value))}</td></tr>'
        for label, value in pairs
        if value is not None
    )
    return f"<table>{rows}</table>"


def table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> str:
    """One row per mapping, the columns in the order given (else the first row's keys)."""
    if not rows:
        return ""
    names = list(columns) if columns is not None else list(rows[0])
    head = "".join(f"<th>{html.escape(c)}</th>" for c in names)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(text(row.get(c)))}</td>" for c in names) + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def panel(title: str, subtitle: str, *parts: str) -> str:
    """A heading, a line under it, and the parts."""
    sub = f"<p>{html.escape(subtitle)}</p>" if subtitle else ""
    return f"<div><h4>{html.escape(title)}</h4>{sub}{''.join(parts)}</div>"
