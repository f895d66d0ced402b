"""How an answer says a verdict (sim/stats/verdict.py): the tolerance beside it, the games that
would likely settle it, and the answer's kind on the page.

Kinds: 'finding' (an effect is shown), 'within' (the effect is shown to lie within the
tolerance: no effect, fair, the same, priced right), 'unsettled' (not settled at this size),
'info' (a plain fact)."""

from __future__ import annotations

import math
from typing import Any

from sim.report.answers import Answer, Count, Label, Part, sentence
from sim.stats.tolerances import Tolerance
from sim.stats.verdict import Outcome, Verdict, all_of

FINDING, WITHIN, UNSETTLED, INFO = "finding", "within", "unsettled", "info"


def kind(verdict: Verdict | None, *, claim_is_effect: bool = False) -> str:
    """The answer's kind: an equivalence claim that holds is 'within'; a claim of an effect
    (verdict.positive) that holds is a 'finding', its opposite 'within'."""
    if verdict is None:
        return INFO
    if verdict.outcome is Outcome.UNSETTLED:
        return UNSETTLED
    shown_effect = verdict.holds if claim_is_effect else verdict.opposite
    return FINDING if shown_effect else WITHIN


def open_ones(verdicts: list[Verdict]) -> Verdict | None:
    """The open ones together, with the games that would settle them all (None when every
    one is settled)."""
    found = [v for v in verdicts if not v.settled]
    return all_of(found) if found else None


def each(verdicts: list[Verdict]) -> tuple[Verdict, str]:
    """The verdict and kind of an answer that tells several questions at once (one per
    option, per table...): a 'finding' when some effect is shown; the verdict open while any
    question is open (so the settle stop plays on for it), else the family's."""
    open_ = open_ones(verdicts)
    family = all_of(verdicts)
    shown = any(v.opposite for v in verdicts)
    verdict = open_ if open_ is not None else family
    return verdict, FINDING if shown else kind(verdict)


def said(verdict: Verdict, holds: str, opposite: str) -> str:
    """A verdict in a few words: `holds`, `opposite` or 'not settled' (for a family, pass
    all_of(verdicts): the opposite when any is shown false, holds when every one holds)."""
    return holds if verdict.holds else opposite if verdict.opposite else "not settled"


def settle_open(verdicts: list[Verdict]) -> list[Part] | None:
    """'; about 8,000 games per arm would likely settle it for the ones not settled' (None when
    every one is settled)."""
    open_ = open_ones(verdicts)
    if open_ is None:
        return None
    return sentence("; ", to_settle(open_), " for the ones not settled")


def tolerance(tol: Tolerance) -> list[Part]:
    """' (tolerance ±1 pp)'."""
    return [" (tolerance ", Label(tol.text()), ")"]


def to_settle(verdict: Verdict) -> list[Part]:
    """'about 12,000 games per arm would likely settle it' (or why more games may not)."""
    if verdict.games_to_settle is None:
        if math.isnan(verdict.low) or math.isnan(verdict.high):
            return ["no interval can be computed from these games"]
        if math.isfinite(verdict.low) and math.isfinite(verdict.high):
            return ["it lies so near the edge of its tolerance that more games alone would "
                    "hardly settle it"]  # fmt: skip
        return ["its interval is open-ended, so more games alone may not settle it (try a "
                "wider range)"]  # fmt: skip
    return sentence("about ", Count(verdict.games_to_settle, "games per arm"),
                    " would likely settle it")  # fmt: skip


def not_settled(what: str, tol: Tolerance) -> list[Part]:
    """'Not settled at this size whether <what> (tolerance ±1 pp)'."""
    return sentence(f"Not settled at this size whether {what}", tolerance(tol))


def judged(verdict: Verdict, tolerance: Tolerance | None, key: str, question: str,
           parts: list[Part], **told: Any) -> Answer:  # fmt: skip
    """An answer of the kind its verdict says (`kind`), read against `tolerance`; `told`: its
    headline, category, quality, section."""
    return Answer(key, question, parts, kind=kind(verdict), verdict=verdict, tolerance=tolerance,
                  **told)  # fmt: skip
