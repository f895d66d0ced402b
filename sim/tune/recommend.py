"""The recommendation by the model (sim/tune/region.py), not by the best noisy trial: after the
search's best candidates are confirmed, the model fitted to every candidate names the best
setting, which is confirmed (replayed at full size) if it was not; the model fitted again
with it chooses a few near-optimal alternatives far apart in the knobs from its region,
confirmed too, and a last fit with them gives the interval on each knob's optimum, the
region and the check against the confirmation. When those confirmations move the model's
optimum so far that its first best is no longer in the region, the refitted best is
recommended instead (confirmed with alternatives of its own; at most MAX_MOVES times), so that
the recommendation always lies in the region the report draws. Where the model misses the
confirmation at its own best, it is not trusted: the confirmation's ranking of every confirmed
candidate (the search's best and the model's) decides, and tune.json says so (`by`). Among
settings the model finds equally good, the one nearest the printed rules (the preset's own
values) is recommended."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import optuna

from sim.errors import ConfigError
from sim.plugins import get_game
from sim.runner.options import RunOptions
from sim.runner.pool import WorkerPool
from sim.tune.confirm import Confirmed, confirm_one, ranked_confirmed
from sim.tune.knobs import show_values
from sim.tune.model_data import Sums, locate_tune, modelled
from sim.tune.region import Located, optimum_digits
from sim.tune.search import candidate_key
from sim.tune.spec import Tune

MAX_LISTED = 2000  # region settings written out one by one (the report draws them)
MAX_MOVES = 2  # refits that may move the recommendation out of a region it left
NOT_PLAYED = -1  # the trial of a setting the model proposed and the study never played


def printed_values(tune: Tune) -> dict[str, Any]:
    """Each knob's value in the preset the experiment names (the printed rules), before the
    experiment's own `rules:`."""
    arm = tune.experiment.arms[0]
    values = get_game(tune.experiment.game).load_ruleset(arm.ruleset_ref).values
    out = {}
    for knob in tune.knobs:
        value = values.get(knob.key)
        out[knob.name] = value[knob.index] if knob.index is not None and value else value
    return out


def recommend(tune: Tune, study: optuna.Study, confirmed: list[Confirmed], *, root: Path,
              options: RunOptions, on_candidate: Callable[[int, int, dict], None] | None = None,
              on_chunk: Callable[[Any], None] | None = None, pool: WorkerPool | None = None
              ) -> tuple[list[Confirmed], dict[str, Any]]:  # fmt: skip
    """(the confirmed candidates, the recommendation first, then the alternatives, then the
    rest; what the model found, for tune.json)."""
    printed = printed_values(tune)
    why = modelled(tune)
    read: Sums = {}  # each candidate's games read once, whatever the fits
    first = None if why else locate_tune(tune, study, confirmed, root=root, prefer=printed,
                                         alternatives=tune.search.alternatives,
                                         read=read)  # fmt: skip
    if first is None:
        why = why or "too few candidates near the best to fit a model"
        return confirmed, {"printed": printed, "fitted": False, "why": why}
    have = {candidate_key(c.values): c for c in confirmed}

    def confirmed_first(wanted: list[dict[str, Any]]) -> list[Confirmed]:
        """Confirm those of `wanted` not confirmed yet; the confirmed, `wanted` first."""
        fresh = [v for v in wanted if candidate_key(v) not in have]
        for rank, values in enumerate(fresh, start=1):
            if on_candidate is not None:
                on_candidate(rank, len(fresh), values)
            try:
                have[candidate_key(values)] = confirm_one(
                    tune, _trial_of(study, tune, values), values, root=root, options=options,
                    on_chunk=on_chunk, pool=pool)  # fmt: skip
            except ConfigError:
                continue  # a combination the rules refuse: not a setting to recommend
        head = [have[candidate_key(v)] for v in wanted if candidate_key(v) in have]
        return head + [c for c in have.values() if all(c is not h for h in head)]

    def refit(ordered: list[Confirmed], last: Located) -> Located:
        return locate_tune(tune, study, ordered, root=root, prefer=printed,
                           alternatives=tune.search.alternatives, read=read) or last  # fmt: skip

    def settle(best: dict[str, Any], last: Located) -> tuple[list[dict], list[Confirmed], Located]:
        """The best confirmed first: the refit with it chooses the alternatives, confirmed in
        turn, and the fit with them all gives the interval and the region."""
        second = refit(confirmed_first([best]), last)
        alternatives = _others(best, second.alternatives)
        ordered = confirmed_first([best, *alternatives])
        return alternatives, ordered, refit(ordered, second)

    best = first.best
    alternatives, ordered, final = settle(best, first)
    for _ in range(MAX_MOVES):
        # the confirmations moved the model's optimum so far that its best is no longer in
        # the region: recommend (and confirm) the refitted best instead, with its alternatives
        if candidate_key(best) in {candidate_key(r) for r in final.region}:
            break
        best = final.best
        alternatives, ordered, final = settle(best, final)
    if candidate_key(ordered[0].values) != candidate_key(best):
        best = ordered[0].values  # the rules refused the refitted best: the last confirmed
    chosen = sum(candidate_key(v) in have for v in alternatives)
    found = _json(tune, best, first, final, printed, chosen)
    missed = {candidate_key(c["values"]) for c in final.checks if not c["agrees"]}
    if candidate_key(best) in missed:
        # the model misses what the confirmation measured at its own best: the confirmation's
        # ranking of every confirmed candidate decides (the search's best, or the model's)
        ranked = ranked_confirmed(tune, list(have.values()))
        if ranked[0] is not ordered[0]:  # the model's best stays on show, as an alternative
            ordered = [ranked[0], *(c for c in ordered if c is not ranked[0])]
            found["alternatives"] = chosen + 1
        found["by"] = "confirmation"
    return ordered, found


def _others(best: Mapping[str, Any], settings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`settings` without `best`."""
    return [v for v in settings if candidate_key(v) != candidate_key(best)]


def _trial_of(study: optuna.Study, tune: Tune, values: Mapping[str, Any]) -> int:
    key = candidate_key(values)
    for t in study.get_trials(deepcopy=False):
        if set(t.params) >= {k.name for k in tune.knobs} and \
                candidate_key({k.name: t.params[k.name] for k in tune.knobs}) == key:  # fmt: skip
            return t.number
    return NOT_PLAYED


def _json(tune: Tune, best: Mapping[str, Any], first: Located, final: Located,
          printed: dict[str, Any], alternatives: int) -> dict[str, Any]:  # fmt: skip
    region = final.region
    ranges = {}
    for knob in tune.knobs:
        seen = [r[knob.name] for r in region]
        ranges[knob.name] = ([min(seen), max(seen)] if knob.numeric else
                             list(dict.fromkeys(seen)))  # fmt: skip
    return {
        "fitted": True,
        "by": "model",  # or "confirmation": the model misses the confirmation at its best
        "printed": printed,
        "best": dict(best),
        "best_label": show_values(tune.knobs, best),
        "first_best": first.best,  # the first fit's (on the search's games and the confirmed)
        "score": first.score,
        "refitted_best": final.best,
        "alternatives": alternatives,
        "intervals": {k: list(v) for k, v in final.intervals.items()},
        "optimum": {k: list(v) for k, v in final.optimum.items()},
        "optimum_digits": {k.name: optimum_digits(k) for k in tune.knobs if k.numeric},
        "region": {"settings": len(region), "met": final.region_met,
                   "evaluated": final.settings, "ranges": ranges,
                   "listed": region if len(region) <= MAX_LISTED else []},
        "checks": final.checks,
        "agrees": final.agrees,
        "neighbourhood": final.neighbourhood,
        "terms": final.terms,
    }  # fmt: skip
