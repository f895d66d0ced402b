"""What the tune's report reads: tune.json (the confirmation, the recommendation, the sessions)
and the study's journal (every trial, its values at each rung). No engine, no game: a tune
folder copied from another machine gives the same report."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import optuna
from optuna.trial import FrozenTrial, TrialState

from sim.errors import SimError
from sim.report.answers import Estimate
from sim.tune.folder import read_summary
from sim.tune.journal import INVALID, STUDY, rung_evaluations, storage


@dataclass(frozen=True)
class TrialRow:
    number: int
    params: dict[str, Any]
    state: str  # complete | pruned | invalid
    rungs: dict[int, dict[str, Any]]  # games -> evaluation as stored

    @property
    def last(self) -> tuple[int, dict[str, Any]] | None:
        """(games, evaluation) at the highest rung it reached."""
        if not self.rungs:
            return None
        top = max(self.rungs)
        return top, self.rungs[top]


EVERY_GAME = "every game"  # where a tune of one arm at no skill level measures its targets


@dataclass(frozen=True)
class TuneData:
    root: Path
    summary: dict[str, Any]
    trials: list[TrialRow]

    @property
    def knobs(self) -> list[str]:
        return list(self.summary["knobs"])

    @property
    def targets(self) -> list[dict[str, Any]]:
        return list(self.summary["targets"])

    @property
    def confirmed(self) -> list[dict[str, Any]]:
        return list(self.summary["confirmed"])

    @property
    def name(self) -> str:
        return str(self.summary["tune"]["name"])

    # plain words for sentences, headings and pictures; the keys stay in the tables

    def knob_name(self, knob: str) -> str:
        """'the missile's price' for missile.cost (the schema's plain name, when the tune
        recorded it), else the key."""
        return (self.summary.get("knob_names") or {}).get(knob, knob)

    def setting(self, values: Mapping[str, Any]) -> str:
        """'the missile's price 13, the upgrade's price 31' for {missile.cost: 13, ...}."""
        return ", ".join(f"{self.knob_name(k)} {number(values[k])}" for k in values)

    def candidate_words(self, candidate: Mapping[str, Any]) -> str:
        """A candidate's setting in plain words, its knobs in the tune's order."""
        values = candidate.get("values") or {}
        if not values:
            return str(candidate["label"])
        return self.setting({k: values[k] for k in self.knobs if k in values})

    def place(self, arm: str) -> str:
        """Where a target is measured, in words: the skill level alone when the tune plays one
        arm ('club' for 'default@club'), else the arm and its level ('missile (club)'); an arm
        played at no skill level by its name, and the lone arm of an experiment that names
        none ('default') as what it is: every game."""
        base, at, level = arm.rpartition("@")
        one_arm = len({a.rpartition("@")[0] for a in self.summary.get("arms", [arm])}) == 1
        if not at:
            return EVERY_GAME if one_arm else arm
        return level if one_arm else f"{base} ({level})"

    def target_name(self, target: Mapping[str, Any]) -> str:
        """The designer's name of a target ('the buyer's uplift'), else its measure's label."""
        return str(target.get("name") or target.get("label") or target["measure"])


def target_estimate(key: str, target: Mapping[str, Any], place: Mapping[str, Any],
                    name: str) -> Estimate:  # fmt: skip
    """A target's value at one place with its 95% interval, in the target's units (a share in
    percent, or in points when the target is a signed difference)."""
    if target["unit"] == "share":
        unit = "pp" if target["signed"] else "pct"
    else:
        unit = "num"
    digits = 1 if unit != "num" else (0 if abs(place["value"]) >= 100 else 2)
    return Estimate(key, name, place["value"], place["low"], place["high"], unit=unit,
                    digits=digits, signed=unit == "pp")  # fmt: skip


def number(v: Any) -> str:
    """A knob's value as a designer writes it: a whole number in full ('65000', not
    '6.5e+04'), another to four significant digits."""
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() else f"{v:.4g}"
    return str(v)


def load_tune_data(root: str | Path) -> TuneData:
    root = Path(root)
    summary = read_summary(root)
    if "confirmed" not in summary:
        raise SimError("holds no finished tune (no confirmation in tune.json)", file=root,
                       hint="Run `sim tune FILE --out` this folder to finish it.")  # fmt: skip
    study = optuna.load_study(study_name=STUDY, storage=storage(root))
    return TuneData(root, summary, [_row(t) for t in study.get_trials(deepcopy=False)])


def _row(t: FrozenTrial) -> TrialRow:
    state = {TrialState.COMPLETE: "complete", TrialState.PRUNED: "pruned"}.get(t.state)
    if state is None:
        state = "invalid" if INVALID in t.user_attrs else t.state.name.lower()
    return TrialRow(t.number, dict(t.params), state, rung_evaluations(t))
