"""A tune from Python: open its folder, search (or resume), confirm the best candidates and
write the recommendation (`run_tune`); what `sim tune` runs (sim/commands/tune.py prints it)."""

from __future__ import annotations

import contextlib
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sim.compiling import console_notice, quiet_notice
from sim.faults import Fault
from sim.plugins import get_game
from sim.plugins.base import prepare
from sim.runner import default_jobs
from sim.runner.options import RunOptions
from sim.runner.pool import local_pool
from sim.storage import read_manifest
from sim.tune.confirm import Confirmed, confirm, crossings, overall, write_overlay
from sim.tune.folder import TRIALS, open_tune_folder, read_summary, write_summary
from sim.tune.journal import STUDY, storage
from sim.tune.knobs import plain_names, show_values
from sim.tune.progress import TuneProgress
from sim.tune.recommend import recommend
from sim.tune.search import open_study, planned_trials, sampler_kind, search
from sim.tune.spec import Tune
from sim.tune.targets import objective_names


def run_tune(tune: Tune, *, root: Path, options: RunOptions, show: bool = True, console: Any = None,
             stop_after_chunks: int | None = None) -> dict[str, Any]:  # fmt: skip
    """Search, confirm and write tune.json and recommended.yaml; returns the summary.
    Every trial plays on one pool of workers, started before the compile check and kept for
    the whole tune, so that the short runs of the rungs do not each start workers of their
    own. `stop_after_chunks` (tests) stops as a Ctrl-C would after that many chunks."""
    lock = open_tune_folder(root, tune, fresh=options.fresh)
    began = time.perf_counter()
    planned = planned_trials(tune)
    progress = None
    pool = None
    try:
        pool = local_pool(options.jobs or default_jobs(), backend=options.backend,
                          games=[tune.experiment.game])  # fmt: skip
        _prepare(tune, show=show, console=console)
        study = open_study(root, tune)
        progress = TuneProgress(tune, steps=planned + tune.search.confirm,
                                done=len(study.trials), console=console, show=show)  # fmt: skip
        on_chunk = _chunk_counter(progress, stop_after_chunks)
        ended = search(tune, study, root=root, options=options,
                       on_trial=lambda note: progress.trial(note, planned), on_chunk=on_chunk,
                       on_ended=lambda why: progress.line(f"search: {why}"),
                       pool=pool)  # fmt: skip
        confirmed = confirm(tune, study, root=root, options=options, on_chunk=on_chunk,
                            on_candidate=progress.confirming, pool=pool)  # fmt: skip
        confirmed, model = recommend(tune, study, confirmed, root=root, options=options,
                                     on_candidate=progress.confirming_model, on_chunk=on_chunk,
                                     pool=pool)  # fmt: skip
        found = crossings(tune, confirmed, root=root)
        overlay = write_overlay(root, tune, confirmed[0])
        summary = _summary(tune, root, study, confirmed, found, overlay)
        summary["search"]["ended"] = ended
        write_summary(root, {**summary, "model": model})
        _record_session(root, began, progress, finished=True)
    except BaseException:
        with contextlib.suppress(Fault):  # a disk that refuses it: the fault on its way says so
            _record_session(root, began, progress, finished=False)
        raise
    finally:
        if progress is not None:
            progress.stop()
        if pool is not None:
            pool.close()
        lock.release()
    return read_summary(root)


def _prepare(tune: Tune, *, show: bool, console: Any) -> None:
    """Compile (or load) what the lineups need once, before the first trial, saying so."""
    lineup = list(dict.fromkeys(spec for arm in tune.experiment.arms for spec in arm.lineup))
    notice = console_notice(console) if show else quiet_notice
    prepare(get_game(tune.experiment.game), lineup, notice=notice)


def _chunk_counter(progress: TuneProgress, stop_after: int | None):
    seen = {"chunks": 0}

    def on_chunk(result: Any) -> None:
        progress.chunk(result)
        seen["chunks"] += 1
        if stop_after is not None and seen["chunks"] >= stop_after:
            raise KeyboardInterrupt

    return on_chunk


def _record_session(root: Path, began: float, progress: TuneProgress | None, *,
                    finished: bool) -> None:  # fmt: skip
    summary = read_summary(root)
    sessions = summary.setdefault("sessions", [])
    sessions.append({
        "ended": datetime.now(UTC).isoformat(timespec="seconds"),
        "wall_seconds": round(time.perf_counter() - began, 2),
        "games_played": progress.games if progress is not None else 0,
        "finished": finished,
    })  # fmt: skip
    write_summary(root, summary)


def kept(root: Path) -> str:
    """What a stopped tune keeps, read from its folder: "the study's 9 trials and 12,400 games
    of its candidates stored"."""
    import optuna

    try:
        trials = len(optuna.load_study(study_name=STUDY, storage=storage(root)).trials)
    except (KeyError, OSError, Fault):  # no study yet
        trials = 0
    counted = f"{trials} trial{'s' if trials != 1 else ''}"
    return f"the study's {counted} and {games_stored(root):,} games of its candidates stored"


def games_stored(root: Path) -> int:
    """Games stored in every candidate's folder (all arms)."""
    total = 0
    trials = root / TRIALS
    for folder in sorted(trials.iterdir()) if trials.is_dir() else []:
        manifest = read_manifest(folder) or {}
        total += sum(int(e.get("games") or 0) for e in manifest.get("arms", []))
    return total


def _summary(tune: Tune, root: Path, study: Any, confirmed: list[Confirmed], found: list,
             overlay: Path) -> dict[str, Any]:  # fmt: skip
    from optuna.trial import TrialState

    states = {s.name.lower(): len(study.get_trials(deepcopy=False, states=(s,)))
              for s in (TrialState.COMPLETE, TrialState.PRUNED, TrialState.FAIL)}  # fmt: skip
    summary = read_summary(root)
    summary.update({
        "knobs": [k.name for k in tune.knobs],
        "knob_names": plain_names(tune.experiment.arms[0].ruleset, [k.name for k in tune.knobs]),
        "targets": [t.as_json() for t in tune.targets],
        "objectives": objective_names(tune.targets, tune.places),
        "search": {"trials": len(study.trials), "states": states, "sampler": sampler_kind(tune),
                   "rungs": list(tune.search.rungs), "keep": tune.search.keep,
                   "objectives": tune.search.objectives},
        "games_per_arm": tune.games,
        "arms": [p.arm for p in tune.places],
        "confirmed": [_confirmed_json(tune, c) for c in confirmed],
        "recommended": {"values": confirmed[0].values, "rules": tune.rules(confirmed[0].values)},
        "crossings": [vars(c) for c in found],
        "games_stored": games_stored(root),
        "overlay": str(overlay),
    })  # fmt: skip
    return summary


def _confirmed_json(tune: Tune, c: Confirmed) -> dict[str, Any]:
    places = []
    for m, v in zip(c.evaluation.measured, c.verdicts, strict=True):
        t = tune.targets[m.target]
        places.append({"target": m.target, "measure": t.measure_at(m.place.level),
                       "arm": m.place.arm, "level": m.place.level, **m.value.as_dict(),
                       "miss": m.miss, "verdict": v.kind,
                       "games_to_settle": v.games_to_settle})  # fmt: skip
    verdicts = [overall([v for m, v in zip(c.evaluation.measured, c.verdicts, strict=True)
                         if m.target == i]) for i in range(len(tune.targets))]  # fmt: skip
    return {"trial": c.trial, "values": c.values, "label": show_values(tune.knobs, c.values),
            "score": c.evaluation.score, "objectives": list(c.evaluation.objectives),
            "places": places, "verdicts": verdicts}  # fmt: skip
