"""The verdict vocabulary: the few words every report, `--compare` page, `sim tune` and `sim
screen` say a verdict (sim/stats/verdict.py) with, defined once (docs/reports.md, "The verdict
vocabulary").

A difference is read against the designer's tolerance, in its own units:

- *beyond tolerance*: its whole 95% interval lies beyond the tolerance: the difference is a
  finding ("differs", "depends on skill", "skill decides", "too cheap", "missed");
- *within tolerance*: its whole interval lies inside: it is none worth the name ("the same",
  "fair", "priced right", "no effect", "met"), even when it is real (its interval excludes
  zero): "the levels differ by 0.4 (0.1 to 0.7) points, within the ±1 point tolerance";
- *not settled*: neither; when real, "the levels differ by 0.9 (0.3 to 1.5) points, not settled
  whether beyond the ±1 point tolerance", with the games per arm that would likely settle it.

Kinds of an answer on the page: 'finding' (beyond), 'within', 'unsettled', 'info' (a plain
fact: the answer claims nothing)."""

from __future__ import annotations

import math
from typing import Any

from sim.report.answers import Answer, Count, Label, Part, sentence
from sim.stats.tolerances import Tolerance
from sim.stats.verdict import Outcome, Verdict, all_of

FINDING, WITHIN, UNSETTLED, INFO = "finding", "within", "unsettled", "info"

# The shared words: a scorecard's verdict column, the compare page, tune and screen tables.
BEYOND_WORD, WITHIN_WORD, OPEN_WORD = "beyond tolerance", "within tolerance", "not settled"
MET_WORD, MISSED_WORD = "met", "missed"  # a target (sim tune): within / beyond its band
DEPENDS_WORD, SAME_WORD = "depends on skill", "the same at every level"  # across skill levels
_SIDES = {FINDING: BEYOND_WORD, WITHIN: WITHIN_WORD, UNSETTLED: OPEN_WORD}


def kind(verdict: Verdict | None, *, claim_is_effect: bool = False) -> str:
    """'finding' when the difference lies beyond the tolerance, 'within' when inside it,
    'unsettled' otherwise ('info' without a verdict). An equivalence claim (`equivalence`,
    `in_band`) holds within the tolerance; a claim of an effect (`positive`) beyond it."""
    if verdict is None:
        return INFO
    if verdict.outcome is Outcome.UNSETTLED:
        return UNSETTLED
    beyond = verdict.holds if claim_is_effect else verdict.opposite
    return FINDING if beyond else WITHIN


def word(verdict: Verdict | None, *, claim_is_effect: bool = False) -> str:
    """'beyond tolerance', 'within tolerance' or 'not settled' ('' without a verdict)."""
    return _SIDES.get(kind(verdict, claim_is_effect=claim_is_effect), "")


def pick(verdict: Verdict, beyond: str, within: str, unsettled: str = OPEN_WORD, *,
         claim_is_effect: bool = False) -> str:  # fmt: skip
    """The words for the verdict's side: `beyond`, `within` or `unsettled`."""
    found = kind(verdict, claim_is_effect=claim_is_effect)
    return beyond if found == FINDING else within if found == WITHIN else unsettled


def versus(verdict: Verdict, tol: Tolerance, *, claim_is_effect: bool = False) -> list[Part]:
    """How a figure stands against its tolerance, said after it: ', beyond the ±1 pp
    tolerance', ', within the ±1 pp tolerance' or ', not settled whether beyond the ±1 pp
    tolerance'."""
    found = kind(verdict, claim_is_effect=claim_is_effect)
    said = {FINDING: ", beyond the ", WITHIN: ", within the "}.get(
        found, ", not settled whether beyond the "
    )
    return [said, Label(tol.text()), " tolerance"]


def each(verdicts: list[Verdict]) -> tuple[Verdict, str]:
    """The verdict and kind of an answer that tells several questions at once (one per
    option, per table...): a 'finding' when some difference lies beyond its tolerance; the
    verdict open while any question is open (so the settle stop plays on for it), else the
    family's."""
    open_ = open_ones(verdicts)
    family = all_of(verdicts)
    shown = any(v.opposite for v in verdicts)
    verdict = open_ if open_ is not None else family
    return verdict, FINDING if shown else kind(verdict)


def open_ones(verdicts: list[Verdict]) -> Verdict | None:
    """The open ones together, with the games that would settle them all (None when every
    one is settled)."""
    found = [v for v in verdicts if not v.settled]
    return all_of(found) if found else None


def said(verdict: Verdict, holds: str, opposite: str) -> str:
    """A verdict in a few words: `holds`, `opposite` or 'not settled' (for a family, pass
    all_of(verdicts): the opposite when any is shown false, holds when every one holds)."""
    return holds if verdict.holds else opposite if verdict.opposite else OPEN_WORD


def settle_open(verdicts: list[Verdict]) -> list[Part] | None:
    """'About 8,000 games per arm would likely settle the ones not settled.' (None when every
    one is settled)."""
    open_ = open_ones(verdicts)
    if open_ is None:
        return None
    return settle_sentence(open_, "the ones not settled")


def tolerance(tol: Tolerance) -> list[Part]:
    """' (tolerance ±1 pp)'."""
    return [" (tolerance ", Label(tol.text()), ")"]


def to_settle(verdict: Verdict, what: str = "it") -> list[Part]:
    """'about 12,000 games per arm would likely settle it' (or why more games may not)."""
    if verdict.games_to_settle is None:
        if math.isnan(verdict.low) or math.isnan(verdict.high):
            return ["no interval can be computed from these games"]
        if math.isfinite(verdict.low) and math.isfinite(verdict.high):
            return [f"{_its(what)} estimate lies so near the edge of its tolerance that more "
                    f"games alone would hardly settle {what}"]  # fmt: skip
        return [f"{_its(what)} interval is open-ended, so more games alone may not settle "
                f"{what} (try a wider range)"]  # fmt: skip
    return sentence("about ", Count(verdict.games_to_settle, "games per arm"),
                    f" would likely settle {what}")  # fmt: skip


def settle_sentence(verdict: Verdict | None, what: str = "it") -> list[Part]:
    """'About 12,000 games per arm would likely settle it.' ([] for a settled verdict)."""
    if verdict is None or verdict.settled:
        return []
    parts = to_settle(verdict, what)
    first = parts[0]
    if isinstance(first, str):
        parts = [first[:1].upper() + first[1:], *parts[1:]]
    return [*parts, "."]


def not_settled(what: str, tol: Tolerance) -> list[Part]:
    """'Not settled at this size whether <what> (tolerance ±1 pp)'."""
    return sentence(f"Not settled at this size whether {what}", tolerance(tol))


def _its(what: str) -> str:
    return "its" if what == "it" else "their"


def judged(verdict: Verdict, tolerance: Tolerance | None, key: str, question: str,
           parts: list[Part], **told: Any) -> Answer:  # fmt: skip
    """An answer of the kind its verdict says (`kind`), read against `tolerance`; `told`: its
    headline, category, quality, section, rows...; unless told otherwise, its `more` says the
    games that would likely settle an open verdict."""
    told.setdefault("more", settle_sentence(verdict))
    return Answer(key, question, parts, kind=kind(verdict), verdict=verdict, tolerance=tolerance,
                  **told)  # fmt: skip
