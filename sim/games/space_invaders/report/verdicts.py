"""The Space Invaders questions' verdicts (sim/stats/verdict.py): is a level harder than the
one below, does a power or a change of the data move the win rate. Each against its
tolerance (the experiment's `tolerances`, sim/stats/tolerances.py)."""

from __future__ import annotations

from sim.stats.interval_columns import interval_in
from sim.stats.tolerances import Tolerance
from sim.stats.verdict import Verdict, all_of, equivalence, positive


def step_verdict(r: dict, tol: Tolerance) -> Verdict:
    """Is the higher level harder? Its win-rate change below zero (shown), or at most the
    tolerance below (shown no harder), or not settled."""
    return positive(-r["diff"], -r["diff_high"], -r["diff_low"], tol.value, games=r["games"])


def none_moves(rows: list[dict], key: str, tol: Tolerance) -> Verdict:
    """Whether no row's change (`key`, with its interval) moves the win rate beyond the
    tolerance."""
    return all_of(equivalence(*interval_in(r, key), tol.value,
                              games=r["games"]) for r in rows)  # fmt: skip
