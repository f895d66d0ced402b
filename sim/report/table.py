"""Report tables: the raw numbers (a polars DataFrame, written as CSV) and how to show them.

A ``Table`` keeps every number unrounded in ``data``; its ``columns`` say how each displayed
column is made from a row: a value with its interval, a difference coloured by significance,
a p-value. HTML and markdown render the same cells.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from sim.report import fmt
from sim.stats.interval_columns import high_key, low_key


@dataclass(frozen=True)
class Cell:
    text: str
    sort: float | str | None = None
    css: str = ""  # "sig" (a significant difference), "ns" (not significant), "" otherwise
    title: str = ""  # a definition shown on hover (e.g. of the metric a row is about)


Renderer = Callable[[dict[str, Any]], Cell]


def _sortable(x: Any) -> float | str | None:
    if fmt.is_missing(x):
        return None
    if isinstance(x, bool):
        return float(x)
    if isinstance(x, int | float):
        return float(x) if not math.isinf(x) else (1e300 if x > 0 else -1e300)
    return str(x)


def _significance(row: dict[str, Any], key: str, sig_key: str | None) -> bool | None:
    if sig_key is not None:
        value = row.get(sig_key)
        return None if value is None else bool(value)
    low, high = row.get(low_key(key)), row.get(high_key(key))
    if fmt.is_missing(low) or fmt.is_missing(high):
        return None
    return not (low <= 0.0 <= high)


@dataclass(frozen=True)
class Column:
    label: str
    render: Renderer
    key: str = ""
    help: str = ""  # shown as the header's tooltip and in the markdown notes

    # --- constructors ----------------------------------------------------------------------

    @staticmethod
    def text(key: str, label: str, help: str = "") -> Column:
        def r(row: dict[str, Any]) -> Cell:
            v = row.get(key)
            return Cell(fmt.value(v), _sortable(v))

        return Column(label, r, key, help)

    @staticmethod
    def shown(key: str, label: str, show: Callable[[Any], str], help: str = "") -> Column:
        """The value shown by `show`, sorted by the value itself."""
        return Column(label, lambda row: Cell(show(row.get(key)), _sortable(row.get(key))), key,
                      help)  # fmt: skip

    @staticmethod
    def count(key: str, label: str, help: str = "") -> Column:
        return Column.shown(key, label, fmt.integer, help)

    @staticmethod
    def num(key: str, label: str, digits: int = 1, help: str = "") -> Column:
        return Column.shown(key, label, lambda v: fmt.num(v, digits), help)

    @staticmethod
    def pct(key: str, label: str, digits: int = 1, help: str = "") -> Column:
        return Column.shown(key, label, lambda v: fmt.pct(v, digits), help)

    @staticmethod
    def shown_ci(key: str, label: str, show: Callable[..., str], help: str = "") -> Column:
        """The value with its interval (`key`_low, `key`_high) shown by show(value, low,
        high), sorted by the value."""

        def r(row: dict[str, Any]) -> Cell:
            v = row.get(key)
            return Cell(show(v, row.get(low_key(key)), row.get(high_key(key))), _sortable(v))

        return Column(label, r, key, help)

    @staticmethod
    def pct_ci(key: str, label: str, digits: int = 1, help: str = "") -> Column:
        return Column.shown_ci(key, label, lambda v, lo, hi: fmt.pct_ci(v, lo, hi, digits), help)

    @staticmethod
    def num_ci(key: str, label: str, digits: int = 1, help: str = "") -> Column:
        return Column.shown_ci(key, label, lambda v, lo, hi: fmt.num_ci(v, lo, hi, digits), help)

    @staticmethod
    def diff(
        key: str,
        label: str,
        *,
        unit: str = "num",
        digits: int = 1,
        sig_key: str | None = None,
        help: str = "",
    ) -> Column:
        """A difference with its interval: unit 'pp' (rates), 'num', 'pct' (x100, '%')."""

        def r(row: dict[str, Any]) -> Cell:
            v, lo, hi = row.get(key), row.get(low_key(key)), row.get(high_key(key))
            if unit == "pp":
                text = fmt.pp_ci(v, lo, hi, digits)
            elif unit == "pct":
                scale = lambda x: None if fmt.is_missing(x) else 100 * x  # noqa: E731
                text = fmt.signed_ci(scale(v), scale(lo), scale(hi), digits)
                text = text.replace(" (", "% (", 1) if "(" in text else text + "%"
            else:
                text = fmt.signed_ci(v, lo, hi, digits)
            sig = _significance(row, key, sig_key)
            if sig is False and not fmt.is_missing(v):
                text += " n.s."
            css = "" if sig is None or fmt.is_missing(v) else ("sig" if sig else "ns")
            return Cell(text, _sortable(v), css)

        return Column(label, r, key, help)

    @staticmethod
    def pvalue(key: str, label: str = "p", help: str = "") -> Column:
        return Column(
            label, lambda row: Cell(fmt.pvalue(row.get(key)), _sortable(row.get(key))), key, help
        )

    @staticmethod
    def verdict(key: str, label: str = "verdict", help: str = "") -> Column:
        """A boolean significance column: 'significant' / 'not significant'."""

        def r(row: dict[str, Any]) -> Cell:
            v = row.get(key)
            if v is None:
                return Cell("\u2014")
            return Cell(
                "significant" if v else "not significant", float(bool(v)), "sig" if v else "ns"
            )

        return Column(label, r, key, help)

    @staticmethod
    def custom(label: str, render: Renderer, key: str = "", help: str = "") -> Column:
        return Column(label, render, key, help)


# a table of more rows than FOLD_ABOVE shows its first FOLD_SHOWN, the others a click away
FOLD_ABOVE, FOLD_SHOWN = 30, 15

# the arm's name: the first column of a table with a row per arm, where settings cannot tell
# the arms apart
ARM = Column.text("arm", "arm")


@dataclass
class Table:
    name: str  # file stem of the CSV (tables/<name>.csv) and the HTML id
    title: str
    data: pl.DataFrame
    columns: list[Column]
    note: str = ""
    rows: list[dict[str, Any]] = field(default_factory=list)
    # rows the page shows before "show all" (its first rows: a section puts the ones that
    # matter first); None: every row of a short table, the first FOLD_SHOWN of a long one
    fold: int | None = None

    def __post_init__(self) -> None:
        if not self.rows:
            self.rows = self.data.to_dicts()

    @classmethod
    def of_rows(cls, name: str, title: str, rows: list[dict[str, Any]], columns: list[Column],
                *, note: str = "", every_row: bool = False) -> Table:  # fmt: skip
        """A table of one dict per row; `every_row` reads every row for the columns' types
        (rows that do not all hold the same keys)."""
        data = pl.DataFrame(rows, infer_schema_length=None) if every_row else pl.DataFrame(rows)
        return cls(name, title, data, columns, note=note)

    def shown(self) -> int | None:
        """Rows shown before "show all" (None: the table is not folded)."""
        limit = self.fold if self.fold is not None else (
            FOLD_SHOWN if len(self.rows) > FOLD_ABOVE else None)  # fmt: skip
        return limit if limit is not None and len(self.rows) > limit else None

    def cells(self) -> list[list[Cell]]:
        return [[c.render(row) for c in self.columns] for row in self.rows]

    def csv_frame(self) -> pl.DataFrame:
        """The raw data with nested/object columns made CSV-safe."""
        out = self.data
        for name, dtype in out.schema.items():
            if isinstance(dtype, pl.List | pl.Struct | pl.Object):
                out = out.with_columns(pl.col(name).map_elements(str, return_dtype=pl.String))
        return out

    def markdown(self) -> str:
        header = "| " + " | ".join(_md(c.label) for c in self.columns) + " |"
        rule = "| " + " | ".join("---" for _ in self.columns) + " |"
        lines = [header, rule]
        for cells in self.cells():
            lines.append("| " + " | ".join(_md(cell.text) for cell in cells) + " |")
        return "\n".join(lines)


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
