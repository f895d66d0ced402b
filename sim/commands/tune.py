"""What `sim tune` and `sim screen` do, behind the thin commands in sim/cli.py: read the tune,
run it (sim.tune), print the recommendation with its intervals and verdicts (or the keys that
move the targets), and build the report."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer

from sim.commands.signals import stopping
from sim.faults import RESUME, keeping
from sim.runner.folder import results_root
from sim.runner.options import RunOptions
from sim.tune.knobs import show_values, span
from sim.tune.run import kept, run_tune
from sim.tune.spec import Tune, load_tune


def tune_command(*, file: str, overrides: Sequence[str], games: int | None, seed: int | None,
                 trials: int | None, options: RunOptions, report: bool,
                 report_dir: str | None) -> dict[str, Any]:  # fmt: skip
    options.check()
    tune = load_tune(file, overrides, games=games, seed=seed, trials=trials)
    root = results_root(options.out, tune.name)
    report_at = _report_dir(root, tune.name, report_dir) if report else None
    stopped = (f"the study and every candidate's games are kept in {root}. Run the same "
               "command again to resume.")  # fmt: skip
    with stopping(stopped), keeping(lambda: kept(root), then=RESUME):
        summary = run_tune(tune, root=root, options=options)
    if summary["search"].get("ended"):
        typer.echo(f"search: {summary['search']['ended']}")
    print_recommendation(tune, summary)
    typer.echo(f"recommended rules: {summary['overlay']}")
    if report_at is not None:
        from sim.tune.report import build_tune_report

        with keeping(lambda: f"the tune, done: its recommended rules in {summary['overlay']}"):
            typer.echo(f"report: {build_tune_report(root, report_at)}")
    return summary


def _report_dir(root: Path, name: str, report_dir: str | None) -> Path:
    """--report-dir, or where every command puts its report (sim.report.folder.default_dir):
    reports/<name> beside results/<name>, else report/ inside the folder --out names; --out
    is checked first, so that a file given as --out is blamed on --out."""
    from sim.paths import check_folder
    from sim.report.folder import check, default_dir

    check_folder(root, key="--out")
    return check(report_dir if report_dir is not None else default_dir(root, name),
                 key="--report-dir")  # fmt: skip


def print_recommendation(tune: Tune, summary: dict[str, Any]) -> None:
    best = summary["confirmed"][0]
    model = summary.get("model") or {}
    by = "the model's best" if model.get("by") == "model" else "the best confirmed"
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
    between = model.get("optimum") or {}
    for knob, (low, high) in model["intervals"].items():
        settings = f"{knob} {span(low, high, _number)}"
        if knob in between:  # sought to a tenth of the knob's step
            digits = (model.get("optimum_digits") or {}).get(knob, 1)
            est, lo, hi = (f"{v:,.{digits}f}" for v in between[knob])
            typer.echo(f"  where the optimum lies (95%): {knob} {est} ({lo} to {hi}); the "
                       f"settings that hold it: {span(low, high, _number)}")  # fmt: skip
        else:
            typer.echo(f"  where the optimum lies (95%): {settings}")
    region = model["region"]
    spans = "; ".join(f"{k} {span(*v)}" if len(v) == 2 and not isinstance(v[0], str)
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


def _number(x: float) -> str:
    """A knob's value: a whole number in full (135,000, not 1.35e+05), else 4 digits."""
    return f"{int(x):,}" if float(x).is_integer() else f"{x:.4g}"


def _value(target: Any, place: dict[str, Any]) -> str:
    """The value and its interval in the measure's units."""
    show = target.show
    return f"{show(place['value'])} ({show(place['low'])} to {show(place['high'])})"


def screen_command(*, file: str, overrides: Sequence[str], games: int | None,
                   seed: int | None, options: RunOptions, report: bool,
                   report_dir: str | None) -> dict[str, Any]:  # fmt: skip
    """`sim screen`: move every key a step each way, measure, rank, report."""
    from sim.tune.screen import moves, run_screen, write_summary

    options.check()
    tune = load_tune(file, overrides, games=games, seed=seed, needs_knobs=False)
    name = f"{tune.name}_screen"
    root = results_root(options.out, name)
    report_at = _report_dir(root, name, report_dir) if report else None
    chosen, notes = moves(tune)
    typer.echo(f"{tune.name}: {len(chosen)} moves of {len(tune.screen.keys)} keys and the "
               f"baseline, {tune.games:,} games each")  # fmt: skip
    with stopping(f"the games played are kept in {root}. Run the same command again to "
                  "resume."):  # fmt: skip
        run_screen(tune, chosen, root=root, options=options)
    with keeping(lambda: "every move's games, stored"):
        summary = write_summary(tune, chosen, notes, root=root)
    rows = summary["rows"]
    for i, target in enumerate(tune.targets):
        top = [r for r in rows if r["target"] == i][:5]
        typer.echo(f"{target.name or target.measure}: " + ", ".join(
            f"{r['key']} ({r['size']:.2g} tolerances{', ' + r['level'] if r['level'] else ''})"
            for r in top))  # fmt: skip
    for note in notes:
        typer.echo(f"note: {note}", err=True)
    if report_at is not None:
        from sim.tune.screen_report import build_screen_report

        with keeping(lambda: f"the screen, done: its ranking in {root / 'screen.json'}"):
            typer.echo(f"report: {build_screen_report(root, summary, report_at)}")
    return summary
