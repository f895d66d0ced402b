"""How a configuration error speaks: a value shown as the user wrote it, and the nearest
known word suggested ("Did you mean 'games'?"), written once for every check of the lab."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any


def nearest(word: str, candidates: Sequence[str]) -> str | None:
    """The candidate closest to ``word`` (case-insensitive), or None if nothing is close.

    Of the close ones (difflib), the fewest edits wins, then the same length: a mistyped
    letter ('gamez') is likelier than a missing one, so it suggests 'games', not 'game'.
    """
    lowered = {c.lower(): c for c in candidates}
    found = difflib.get_close_matches(word.lower(), list(lowered), n=3)
    if not found:
        return None
    w = word.lower()
    return lowered[min(found, key=lambda c: (_edits(w, c), abs(len(c) - len(w))))]


def _edits(a: str, b: str) -> int:
    """Insertions, deletions, substitutions and swaps of neighbours turning a into b."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, prev2[j - 2] + 1)
            row.append(cost)
        prev2, prev = prev, row
    return prev[-1]


def did_you_mean(word: str, known: Sequence[str], *, then: str = "",
                 otherwise: str | None = None, written: str = "{}") -> str | None:  # fmt: skip
    """The hint for a word that is not one of `known`: "Did you mean 'x'?" (x the nearest known
    word, as `written` writes it) and then `then`; with no word near, `then`, or `otherwise`
    when there is no `then`. The one "did you mean" of the lab."""
    near = nearest(word, known)
    if near is None:
        return then or otherwise
    return f"Did you mean '{written.format(near)}'?" + (f" {then}" if then else "")


def show_value(value: Any) -> str:
    """A value as the user would have written it (in an error message)."""
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    return repr(value)


def type_name(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    return f"a {type(value).__name__}"
