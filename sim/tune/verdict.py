"""A target's verdict: met, missed, or not settled at this size (the lab's verdict vocabulary,
sim/report/verdicts.py).

A target is a band [low, high] (a single value has low = high) and a tolerance, in the
measure's own units. This is the lab's three-valued verdict (sim/stats/verdict.py, `in_band`:
holds / the opposite holds / not settled at this size) applied to "the target is met": *met*
when the estimate's 95% interval lies inside the band widened by the tolerance on each side
(an equivalence test: two one-sided tests at 2.5% each), *missed* when it lies wholly outside
the band (a miss is shown), *not settled* otherwise, with the games per arm that would
likely settle it (from the current standard error; none when more games alone may not).
`judge` is the one place the tune asks for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.measures.core import Value
from sim.report import verdicts as words
from sim.stats.verdict import Outcome, in_band

MET, MISSED, UNSETTLED = words.MET_WORD, words.MISSED_WORD, words.OPEN_WORD
_WORDS = {Outcome.HOLDS: MET, Outcome.OPPOSITE: MISSED, Outcome.UNSETTLED: UNSETTLED}
_RANK = {MISSED: 0, UNSETTLED: 1, MET: 2}  # worse to better


def rank(kind: str) -> int:
    """A verdict's place from worse to better (missed < not settled < met); a word this
    vocabulary does not hold counts as not settled."""
    return _RANK.get(kind, _RANK[UNSETTLED])


@dataclass(frozen=True)
class TargetVerdict:
    kind: str  # MET | MISSED | UNSETTLED
    games_to_settle: int | None = None  # per arm, for UNSETTLED when it can be estimated

    def __str__(self) -> str:
        return self.kind


def judge(value: Value, low: float, high: float, tolerance: float) -> TargetVerdict:
    """The verdict on `value` against the band [low, high] +- tolerance."""
    v = in_band(value.value, value.low, value.high, (low, high), tolerance, games=value.n or None)
    return TargetVerdict(_WORDS[v.outcome], v.games_to_settle)


# An effect (sim screen): a difference against +-tolerance, in the vocabulary's words.
_EFFECT = {MET: words.WITHIN_WORD, MISSED: words.BEYOND_WORD, UNSETTLED: words.OPEN_WORD}


def judge_effect(value: Value, tolerance: float) -> str:
    """'within tolerance', 'beyond tolerance' or 'not settled': a difference from the baseline
    against +-tolerance."""
    return _EFFECT[judge(value, 0.0, 0.0, tolerance).kind]
