"""The search: an optuna study kept in the tune's folder, its trials played one at a time.

Each trial is a candidate (one value per knob) from the sampler: a grid in random order when
the trials can try every candidate (`grid`), else TPE for one objective (`tpe`) or NSGA-II
for several (`nsga2`, with `search.objectives: separate`); on request optuna's Gaussian-process
sampler (`gp`: a model of the score with a noise term, fitted to the trials that reached the
last rung; it needs torch, the `gp` extra). A candidate starts on the first
rung's games and goes on to the next rung only while it ranks among the best `keep` share of
the candidates measured at that rung so far (asynchronous successive halving, as optuna's
SuccessiveHalvingPruner; several objectives rank by Pareto front, then by the score). Every
rung is played on the same games (common random numbers), so candidates are ranked on the
same luck. A candidate the rules refuse (a combination of values no ruleset allows) is a
failed trial and costs no games. After the sampler's trials, polishing rounds step each knob
one value each way from the best candidate (`polishing_steps`), until a round leaves the best
where it was (at most POLISH_ROUNDS; not after a grid, which tried every candidate).

Resuming: the journal holds every trial, its values at each rung and its state. A trial
stopped mid-way is still running there; the next `sim tune` finishes it first (its games are
kept), then asks for new ones. The sampler of trial k is seeded by the root seed and k, so a
stopped and resumed tune makes the same study as one that ran straight through.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import optuna
from optuna.samplers import BaseSampler, BruteForceSampler, NSGAIISampler, TPESampler
from optuna.trial import FrozenTrial, Trial, TrialState

from sim.errors import ConfigError
from sim.runner.options import RunOptions
from sim.runner.pool import WorkerPool
from sim.tune.evaluate import Evaluation, measure, run_candidate
from sim.tune.journal import INVALID, POLISH, REPEAT, RUNG, STUDY, rung_evaluations, storage
from sim.tune.knobs import space_size
from sim.tune.spec import Tune
from sim.tune.targets import objective_names, pareto_fronts

FINISHED = (TrialState.COMPLETE, TrialState.PRUNED)
MAX_ASKS = 4  # trials per planned candidate at most, proposals of tried ones included
REPEATS_TO_STOP = 10  # proposals in a row of candidates already tried: the sampler has settled
POLISH_ROUNDS = 3


@dataclass(frozen=True)
class TrialNote:
    """What became of a trial (for the progress display)."""

    number: int
    values: dict[str, Any]
    state: str  # complete | pruned | invalid | repeat (answered from an earlier trial)
    evaluation: Evaluation | None = None
    reason: str = ""
    tried: int = 0  # distinct candidates in the study so far
    polish: int = 0  # its polishing round (0: the sampler's)


def sampler_kind(tune: Tune) -> str:
    kind = tune.search.sampler
    if kind != "auto":
        return kind
    if space_size(tune.knobs) <= tune.search.trials:
        return "grid"
    return "tpe" if n_objectives(tune) == 1 else "nsga2"


def planned_trials(tune: Tune) -> int:
    """search.trials, or every candidate once when the grid is smaller."""
    if sampler_kind(tune) == "grid":
        return int(min(tune.search.trials, space_size(tune.knobs)))
    return tune.search.trials


def n_objectives(tune: Tune) -> int:
    if tune.search.objectives == "combined":
        return 1
    return len(objective_names(tune.targets, tune.places))


def open_study(root: Path, tune: Tune) -> optuna.Study:
    study = optuna.create_study(storage=storage(root), study_name=STUDY, load_if_exists=True,
                                directions=["minimize"] * n_objectives(tune))  # fmt: skip
    return study


def make_sampler(tune: Tune, number: int) -> BaseSampler:
    """Trial `number`'s sampler, seeded by the root seed and the number."""
    seed = (tune.experiment.seed * 1_000_003 + number) % 2**32
    kind = sampler_kind(tune)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        if kind == "grid":
            return _Grid(seed=seed)
        if kind == "nsga2":
            size = max(4, min(50, tune.search.trials // 4))
            return NSGAIISampler(seed=seed, population_size=size)
        startup = max(4, tune.search.trials // 4)
        if kind == "gp":
            from optuna.samplers import GPSampler

            return GPSampler(seed=seed, n_startup_trials=startup, deterministic_objective=False)
        return TPESampler(seed=seed, multivariate=True, n_startup_trials=startup)


class _Grid(BruteForceSampler):
    """Every candidate once, in random order. The tune counts its trials itself: the base
    class would stop an optimize() loop when the grid is done, and there is none here."""

    def after_trial(self, study, trial, state, values) -> None:  # noqa: ANN001
        return None


def search(tune: Tune, study: optuna.Study, *, root: Path, options: RunOptions,
           on_trial: Callable[[TrialNote], None] | None = None,
           on_chunk: Callable[[Any], None] | None = None,
           on_ended: Callable[[str], None] | None = None,
           pool: WorkerPool | None = None) -> str:  # fmt: skip
    """Run (or resume) the study until it holds the planned trials (on the `pool`'s workers
    when the tune holds one). Returns why the sampler's trials ended early ("" when they did
    not): a proposal of a candidate already tried is answered from that trial, unplayed, and
    REPEATS_TO_STOP such proposals in a row end the sampler's trials (a sampler that keeps
    proposing what it has tried, as GP may on a grid, has settled), told to `on_ended`
    when it happens.

    Raises the runner's Interrupted when stopped: the trial being played stays running in the
    journal, with its games, and the next call finishes it."""
    distributions = {k.name: k.distribution() for k in tune.knobs}
    for frozen in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        # the trial a stopped tune was playing: the same trial, continued (its values too,
        # when it stopped before the journal held them all: asked again as they were asked)
        trial = Trial(study, frozen._trial_id)
        study.sampler = make_sampler(tune, frozen.number)
        for name in distributions.keys() - frozen.params.keys():
            trial._suggest(name, distributions[name])
        _run_trial(study, tune, trial, root=root, options=options, on_trial=on_trial,
                    on_chunk=on_chunk, pool=pool,
                    reported=set(frozen.intermediate_values))  # fmt: skip

    def ask_and_play() -> None:
        study.sampler = make_sampler(tune, len(study.trials))
        trial = study.ask(distributions)
        earlier = tried_before(study, trial)
        if earlier is not None:
            _answer_from(study, tune, trial, earlier, on_trial=on_trial)
            return
        _run_trial(study, tune, trial, root=root, options=options, on_trial=on_trial,
                    on_chunk=on_chunk, pool=pool)  # fmt: skip

    planned = planned_trials(tune)
    ended = ""
    while candidates_tried(study) < planned and len(study.trials) < MAX_ASKS * planned:
        if repeats_in_a_row(study) >= REPEATS_TO_STOP:
            proposed = {
                candidate_key(t.params)
                for t in study.get_trials(deepcopy=False)
                if POLISH not in t.user_attrs and t.state != TrialState.WAITING
            }
            ended = (f"the sampler proposed {REPEATS_TO_STOP} candidates in a row that it had "
                     f"tried before ({len(proposed)} distinct of {planned} planned): it has "
                     "settled, so its trials end here")  # fmt: skip
            if on_ended is not None:
                on_ended(ended)
            break
        ask_and_play()
    if sampler_kind(tune) == "grid":
        return ended  # every candidate was tried: nothing near the best is left
    while True:
        while study.get_trials(deepcopy=False, states=(TrialState.WAITING,)):
            ask_and_play()  # a polishing round's steps, queued
        steps = polishing_steps(study, tune)
        if not steps:
            return ended
        for values, round_ in steps:
            study.enqueue_trial(values, user_attrs={POLISH: round_})


def candidates_tried(study: optuna.Study) -> int:
    """Distinct candidates among the trials (a sampler may propose one again: that trial
    reuses its games and counts once)."""
    played = study.get_trials(deepcopy=False, states=(*FINISHED, TrialState.FAIL,
                                                      TrialState.RUNNING))  # fmt: skip
    return len({candidate_key(t.params) for t in played})


def candidate_key(params: Mapping[str, Any]) -> str:
    """The same text for the same knob values."""
    return repr(sorted(params.items()))


def tried_before(study: optuna.Study, trial: Trial) -> FrozenTrial | None:
    """The first finished (or refused) trial of the same candidate, if any."""
    key = candidate_key(trial.params)
    done = study.get_trials(deepcopy=False, states=(*FINISHED, TrialState.FAIL))
    return next((t for t in done if t.number != trial.number
                 and candidate_key(t.params) == key), None)  # fmt: skip


def repeats_in_a_row(study: optuna.Study) -> int:
    """How many of the sampler's last trials (polishing steps aside) were proposals of
    candidates tried before: read from the journal, so a tune resumed after its sampler
    settled, even after its polishing, does not ask it again."""
    count = 0
    for t in reversed(study.get_trials(deepcopy=False)):
        if POLISH in t.user_attrs:
            continue
        if REPEAT not in t.user_attrs:
            break
        count += 1
    return count


def _answer_from(study: optuna.Study, tune: Tune, trial: Trial, earlier: FrozenTrial, *,
                 on_trial) -> None:  # fmt: skip
    """Tell the sampler what the earlier trial of this candidate found (its rungs, its state,
    its values), without playing or measuring again."""
    trial.set_user_attr(REPEAT, earlier.number)
    for key, value in earlier.user_attrs.items():
        if key.startswith(RUNG) or key == INVALID:
            trial.set_user_attr(key, value)
    values = {k.name: trial.params[k.name] for k in tune.knobs}
    note = _note(study, on_trial, int(trial.user_attrs.get(POLISH, 0)))
    reason = f"trial {earlier.number + 1}'s answer, not played again"
    if earlier.state == TrialState.FAIL:
        study.tell(trial, state=TrialState.FAIL)
    else:
        if n_objectives(tune) == 1:
            for games, value in sorted(earlier.intermediate_values.items()):
                trial.report(value, games)
        if earlier.state == TrialState.PRUNED:
            study.tell(trial, state=TrialState.PRUNED)
        else:
            study.tell(trial, values=earlier.values)
    note(TrialNote(trial.number, values, "repeat", reason=reason))


def polishing_steps(study: optuna.Study, tune: Tune) -> list[tuple[dict[str, Any], int]]:
    """The next polishing round: one step each way along every knob from the best candidate
    so far (those not tried yet), or none when the last round left the best where it was or
    POLISH_ROUNDS are done. A sampler finds the region; a knob that moves one target only,
    beside targets that weigh more, is set right here. Every step is a trial like the others
    (rungs, common random numbers); the rounds are read from the study, so a resumed tune
    polishes as an uninterrupted one."""
    done = [t for t in study.get_trials(deepcopy=False) if t.state != TrialState.WAITING]
    last = max((int(t.user_attrs.get(POLISH, 0)) for t in done), default=0)
    best = best_candidate(done, tune)
    if best is None or last >= POLISH_ROUNDS:
        return []
    if last > 0:
        before = best_candidate([t for t in done if t.user_attrs.get(POLISH, 0) < last], tune)
        if before == best:
            return []
    tried = {candidate_key(t.params) for t in done}
    steps = []
    for knob in tune.knobs:
        grid = knob.grid()
        if grid is None or best[knob.name] not in grid:
            continue
        at = grid.index(best[knob.name])
        for j in (at - 1, at + 1):
            if 0 <= j < len(grid):
                values = {**best, knob.name: grid[j]}
                if candidate_key(values) not in tried:
                    tried.add(candidate_key(values))
                    steps.append((values, last + 1))
    return steps


def best_candidate(trials: Sequence[FrozenTrial], tune: Tune) -> dict[str, Any] | None:
    """The values of the best trial that reached the last rung (ranked there), or None."""
    top = ranked_at(trials, tune.search.rungs[-1], tune)
    return {k.name: top[0].params[k.name] for k in tune.knobs} if top else None


def ranked_at(trials: Sequence[FrozenTrial], games: int, tune: Tune) -> list[FrozenTrial]:
    """The finished trials whose highest rung is `games`, best first (ranked there)."""
    key = f"{RUNG}{games}"
    here = [t for t in trials if t.state in FINISHED and key in t.user_attrs
            and max(rung_evaluations(t)) == games]  # fmt: skip
    order = ranking([t.user_attrs[key]["objectives"] for t in here],
                    [t.user_attrs[key]["score"] for t in here], tune.search.objectives,
                    [t.number for t in here])  # fmt: skip
    return [here[i] for i in order]


def _run_trial(study: optuna.Study, tune: Tune, trial: Trial, *, root: Path,
                options: RunOptions, on_trial, on_chunk, pool: WorkerPool | None,
                reported: Collection[int] = ()) -> None:  # fmt: skip
    """Play a trial rung by rung (a resumed one replays no stored game, and its rungs
    `reported` before are not reported again)."""
    values = {k.name: trial.params[k.name] for k in tune.knobs}
    note = _note(study, on_trial, int(trial.user_attrs.get(POLISH, 0)))
    try:
        exp = tune.candidate(values)
    except ConfigError as err:
        trial.set_user_attr(INVALID, err.message)
        study.tell(trial, state=TrialState.FAIL)
        note(TrialNote(trial.number, values, "invalid", reason=err.message))
        return
    single = n_objectives(tune) == 1
    rungs = tune.search.rungs
    for games in rungs:
        run_candidate(exp, values, games, root=root, options=options, on_chunk=on_chunk, pool=pool)
        evaluation = measure(tune, values, games, root=root)
        trial.set_user_attr(f"{RUNG}{games}", evaluation.as_json())
        if single and games not in reported:
            trial.report(evaluation.score, games)
        if games != rungs[-1] and not promoted(study, tune, trial.number, evaluation):
            study.tell(trial, state=TrialState.PRUNED)
            note(TrialNote(trial.number, values, "pruned", evaluation))
            return
    study.tell(trial, values=[evaluation.score] if single else list(evaluation.objectives))
    note(TrialNote(trial.number, values, "complete", evaluation))


def _note(study: optuna.Study, on_trial, polish: int):
    """The trial's note, with the distinct candidates tried so far, to `on_trial`."""

    def note(found: TrialNote) -> None:
        if on_trial is not None:
            on_trial(replace(found, tried=candidates_tried(study), polish=polish))

    return note


def promoted(study: optuna.Study, tune: Tune, number: int, evaluation: Evaluation) -> bool:
    """Whether the trial ranks among the best `keep` share of the finished trials measured at
    this rung, itself included (at least the best one always goes on)."""
    key = f"{RUNG}{evaluation.games}"
    rows = [(t.number, t.user_attrs[key]["objectives"], t.user_attrs[key]["score"])
            for t in study.get_trials(deepcopy=False, states=FINISHED)
            if key in t.user_attrs and t.number != number]  # fmt: skip
    rows.append((number, list(evaluation.objectives), evaluation.score))
    order = ranking([r[1] for r in rows], [r[2] for r in rows], tune.search.objectives,
                    [r[0] for r in rows])  # fmt: skip
    allowed = max(1, math.floor(len(rows) * tune.search.keep))
    return order.index(len(rows) - 1) < allowed


def ranking(objectives: Sequence[Sequence[float]], scores: Sequence[float], mode: str,
            numbers: Sequence[int]) -> list[int]:  # fmt: skip
    """Indices best first: by Pareto front (separate objectives) or not at all (combined),
    then by score, then by trial number."""
    fronts = pareto_fronts(objectives) if mode == "separate" else [0] * len(scores)
    return sorted(range(len(scores)), key=lambda i: (fronts[i], scores[i], numbers[i]))
