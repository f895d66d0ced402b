"""What `sim tune` does, behind the thin command in sim/cli.py: read the tune, open its
folder, search (or resume), confirm the best candidates, write the recommendation and the
report, and print the recommendation with its intervals and verdicts."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import typer

from sim.compiling import console_notice
from sim.games import get_game
from sim.runner import Interrupted, default_jobs
from sim.runner.commands import Playing, exit_code, sigterm_as_interrupt, stopped_by
from sim.runner.folder import results_root
from sim.runner.pool import local_pool
from sim.storage import read_manifest
from sim.tune.confirm import Confirmed, confirm, crossings, overall, write_overlay
from sim.tune.folder import TRIALS, open_tune_folder, read_summary, write_summary
from sim.tune.knobs import show_values
from sim.tune.progress import TuneProgress
from sim.tune.recommend import recommend
from sim.tune.search import open_study, planned_trials, sampler_kind, search
from sim.tune.spec import Tune, load_tune
from sim.tune.targets import objective_names


def tune_command(*, file: str, overrides: Sequence[str], games: int | None, seed: int | None,
                 trials: int | None, playing: Playing, report: bool,
                 report_dir: str | None) -> dict[str, Any]:  # fmt: skip
    playing.check()
    tune = load_tune(file, overrides, games=games, seed=seed, trials=trials)
    root = results_root(playing.out, tune.name)
    report_at = _report_dir(root, report_dir) if report else None
    with sigterm_as_interrupt() as caught:
        try:
            summary = run_tune(tune, root=root, playing=playing)
        except Interrupted:
            typer.echo(f"\n{stopped_by(caught)}: the study and every candidate's games are "
                       f"kept in {root}. Run the same command again to resume.",
                       err=True)  # fmt: skip
            raise typer.Exit(exit_code(caught)) from None
    print_recommendation(tune, summary)
    typer.echo(f"recommended rules: {summary['overlay']}")
    if report_at is not None:
        from sim.tune.report import build_tune_report

        typer.echo(f"report: {build_tune_report(root, report_at)}")
    return summary


def _report_dir(root: Path, report_dir: str | None) -> Path:
    from sim.report.folder import check

    return check(report_dir if report_dir is not None else root / "report", key="--report-dir")


def run_tune(tune: Tune, *, root: Path, playing: Playing, show: bool = True, console: Any = None,
             stop_after_chunks: int | None = None) -> dict[str, Any]:  # fmt: skip
    """Search, confirm and write tune.json and recommended.yaml; returns the summary.
    Every trial plays on one pool of workers, started before the compile check and kept for
    the whole tune, so that the short runs of the rungs do not each start workers of their
    own. `stop_after_chunks` (tests) stops as a Ctrl-C would after that many chunks."""
    lock = open_tune_folder(root, tune, fresh=playing.fresh)
    began = time.perf_counter()
    planned = planned_trials(tune)
    progress = None
    pool = None
    try:
        pool = local_pool(playing.jobs or default_jobs(), backend=playing.backend,
                          games=[tune.experiment.game])  # fmt: skip
        _prepare(tune, show=show, console=console)
        study = open_study(root, tune)
        progress = TuneProgress(tune, steps=planned + tune.search.confirm,
                                done=len(study.trials), console=console, show=show)  # fmt: skip
        on_chunk = _chunk_counter(progress, stop_after_chunks)
        search(tune, study, root=root, playing=playing,
               on_trial=lambda note: progress.trial(note, planned),
               on_chunk=on_chunk, pool=pool)  # fmt: skip
        confirmed = confirm(tune, study, root=root, playing=playing, on_chunk=on_chunk,
                            on_candidate=progress.confirming, pool=pool)  # fmt: skip
        confirmed, model = recommend(tune, study, confirmed, root=root, playing=playing,
                                     on_candidate=progress.confirming_model, on_chunk=on_chunk,
                                     pool=pool)  # fmt: skip
        found = crossings(tune, confirmed, root=root)
        overlay = write_overlay(root, tune, confirmed[0])
        summary = _summary(tune, root, study, confirmed, found, overlay)
        write_summary(root, {**summary, "model": model})
        _record_session(root, began, progress, finished=True)
    except BaseException:
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
    prepare = getattr(get_game(tune.experiment.game), "prepare", None)
    if prepare is None:
        return
    lineup = list(dict.fromkeys(spec for arm in tune.experiment.arms for spec in arm.lineup))
    prepare(lineup, notice=console_notice(console) if show else (lambda *a, **k: None))


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
        "targets": [_target_json(t) for t in tune.targets],
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


def _target_json(t: Any) -> dict[str, Any]:
    return {"measure": t.measure, "low": t.low, "high": t.high, "tolerance": t.tolerance,
            "unit": t.unit, "label": t.label, "combine": t.combine, "name": t.name,
            "wanted": t.wanted, "within": t.within, "signed": t.signed,
            "safe": t.safe}  # fmt: skip


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


def print_recommendation(tune: Tune, summary: dict[str, Any]) -> None:
    best = summary["confirmed"][0]
    model = summary.get("model") or {}
    by = "the model's best" if model.get("fitted") else "the best confirmed"
    typer.echo(f"recommended: {best['label']} ({by}; confirmed on {tune.games:,} games per arm; "
               f"{summary['games_stored']:,} games in all)")  # fmt: skip
    if model.get("printed"):
        typer.echo(f"  printed rules: {show_values(tune.knobs, model['printed'])}")
    for i, target in enumerate(tune.targets):
        typer.echo(f"  {target.name or target.measure}: wanted {target.wanted} within "
                   f"{target.within}: {best['verdicts'][i]}")  # fmt: skip
        for place in (p for p in best["places"] if p["target"] == i):
            typer.echo(f"    {place['arm']}: {_value(target, place)} {place['verdict']}")
    for c in summary["crossings"]:
        target = tune.targets[c["target"]]
        typer.echo(f"  {tune.knobs[0].name} where {target.measure} = {target.wanted} "
                   f"({c['arm']}): {c['estimate']:.3g} ({c['low']:.3g} to "
                   f"{c['high']:.3g})")  # fmt: skip
    _print_model(tune, summary, model)


def _print_model(tune: Tune, summary: dict[str, Any], model: dict[str, Any]) -> None:
    if not model.get("fitted"):
        if model.get("why"):
            typer.echo(f"  no model of the optimum: {model['why']}")
        return
    for knob, (low, high) in model["intervals"].items():
        typer.echo(f"  where the optimum lies (95%): {knob} {low:.4g} to {high:.4g}")
    region = model["region"]
    spans = "; ".join(f"{k} {v[0]} to {v[1]}" if len(v) == 2 and not isinstance(v[0], str)
                      else f"{k} {', '.join(map(str, v))}"
                      for k, v in region["ranges"].items())  # fmt: skip
    typer.echo(f"  region: {region['settings']:,} of the {region['evaluated']:,} settings near "
               f"the best do as well ({spans}); {region['met']:,} predicted to meet every "
               "target")  # fmt: skip
    misses = [c for c in model["checks"] if not c["agrees"]]
    if misses:
        where = show_values(tune.knobs, misses[0]["values"])
        typer.echo(f"  warning: the model misses the confirmation at {where} "
                   f"({misses[0]['place']}): read its interval with care")  # fmt: skip
    else:
        typer.echo("  the model agrees with the confirmation at every confirmed candidate")
    for j, alt in enumerate(summary["confirmed"][1 : 1 + model["alternatives"]], start=1):
        typer.echo(f"  alternative {j}: {alt['label']}: " + "; ".join(
            f"{t.name or t.measure} {v}" for t, v in zip(tune.targets, alt["verdicts"],
                                                         strict=True)))  # fmt: skip


def _value(target: Any, place: dict[str, Any]) -> str:
    """The value and its interval in the measure's units."""
    show = target.show
    return f"{show(place['value'])} ({show(place['low'])} to {show(place['high'])})"


def screen_command(*, file: str, overrides: Sequence[str], games: int | None,
                   seed: int | None, playing: Playing, report: bool,
                   report_dir: str | None) -> dict[str, Any]:  # fmt: skip
    """`sim screen`: move every key a step each way, measure, rank, report."""
    from sim.tune.screen import effects, moves, play_screen, ranked

    playing.check()
    tune = load_tune(file, overrides, games=games, seed=seed, needs_knobs=False)
    root = results_root(playing.out, f"{tune.name}_screen")
    report_at = _report_dir(root, report_dir) if report else None
    chosen, notes = moves(tune)
    typer.echo(f"{tune.name}: {len(chosen)} moves of {len(tune.screen.keys)} keys and the "
               f"baseline, {tune.games:,} games each")  # fmt: skip
    with sigterm_as_interrupt() as caught:
        try:
            play_screen(tune, chosen, root=root, playing=playing)
        except Interrupted:
            typer.echo(f"\n{stopped_by(caught)}: the games played are kept in {root}. Run the "
                       "same command again to resume.", err=True)  # fmt: skip
            raise typer.Exit(exit_code(caught)) from None
    rows = ranked(effects(tune, chosen, root=root), tune)
    summary = {"name": tune.name, "file": tune.file, "games": tune.games,
               "keys": list(tune.screen.keys), "notes": notes, "rows": rows,
               "targets": [_target_json(t) for t in tune.targets]}  # fmt: skip
    (root / "screen.json").write_text(json.dumps(summary, indent=1, default=str) + "\n",
                                      encoding="utf-8")  # fmt: skip
    for i, target in enumerate(tune.targets):
        top = [r for r in rows if r["target"] == i][:5]
        typer.echo(f"{target.name or target.measure}: " + ", ".join(
            f"{r['key']} ({r['size']:.2g} tolerances{', ' + r['level'] if r['level'] else ''})"
            for r in top))  # fmt: skip
    for note in notes:
        typer.echo(f"note: {note}", err=True)
    if report_at is not None:
        from sim.tune.screen_report import build_screen_report

        typer.echo(f"report: {build_screen_report(root, summary, report_at)}")
    return summary
