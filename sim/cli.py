"""The `sim` command line. Commands are thin: they parse options and call keyword-only
helpers; domain errors (SimError) become exit code 2 with a one-line message here only."""

from __future__ import annotations

import functools
import sys
import warnings
from collections.abc import Callable
from typing import Any

import typer

from sim.compile_cache import CompileCacheWarning
from sim.errors import SimError

app = typer.Typer(
    help="Board-game balance lab: play a game's rules millions of times with players of graded "
    "skill, and report with intervals. Rules, scenarios, experiments, reports; every command "
    "takes any installed game (--game, or a preset's name alone).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
rules_app = typer.Typer(help="Rulesets: presets and effective rules.", no_args_is_help=True)
scenario_app = typer.Typer(help="Executable rule scenarios.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")
app.add_typer(scenario_app, name="scenario")


def domain_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Print a SimError as one line on stderr and exit instead of a traceback: 2 for a
    mistake in the command or its files, FAULT_EXIT (74) for a fault of the machine (a write
    refused, a lost cluster: sim.faults)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except SimError as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(getattr(err, "exit_code", 2)) from None

    return wrapper


def _show_warning(message: Any, category: type[Warning], *args: Any, **kwargs: Any) -> None:
    """The lab's own warnings as one `warning:` line on stderr; others as Python shows them."""
    if issubclass(category, CompileCacheWarning):
        typer.echo(f"warning: {message}", err=True)
    else:
        _python_show_warning(message, category, *args, **kwargs)


_python_show_warning, warnings.showwarning = warnings.showwarning, _show_warning


GAME_OPTION = typer.Option(
    None, "--game", help="Game plug-in (default: the game of the preset named, else guardians)."
)
SET_OPTION = typer.Option([], "--set", help="Override a ruleset key: KEY=VALUE (repeatable).")
# how a run is played and stored (sim run, sim tournament)
JOBS_OPTION = typer.Option(None, "--jobs", "-j", help="Worker processes (default: all cores).")
CHUNK_SIZE_OPTION = typer.Option(20_000, "--chunk-size", help="Games per part file.")
FRESH_OPTION = typer.Option(False, "--fresh", help="Delete stored results and start over.")
BACKEND_OPTION = typer.Option("local", "--backend", help="local (worker processes) or dask.")
ADDRESS_OPTION = typer.Option(None, "--address", help="Dask scheduler, e.g. tcp://HOST:8786.")
# what an experiment file is read with (sim run, sim tune, sim screen)
EXPERIMENT_SET_OPTION = typer.Option(
    [], "--set", help="Override an experiment or rule key: KEY=VALUE (repeatable)."
)
SEED_OPTION = typer.Option(None, "--seed", help="Root seed (overrides the file).")
NO_REPORT_OPTION = typer.Option(False, "--no-report", help="Do not build the report.")


@rules_app.command("show")
@domain_errors
def rules_show(
    name: str = typer.Argument(..., help="Preset name or path to a ruleset YAML file."),
    overrides: list[str] = SET_OPTION,
    game: str = GAME_OPTION,
) -> None:
    """Print the effective ruleset NAME (a preset of any installed game, or a file) with the
    overrides applied."""
    from sim.plugins import game_for

    ruleset = game_for(game, name, key=None).load_ruleset(name, overrides, source="--set")
    typer.echo(ruleset.to_yaml(), nl=False)


@rules_app.command("list")
@domain_errors
def rules_list(game: str = GAME_OPTION) -> None:
    """List the presets of a game."""
    from sim.plugins import game_for

    plugin = game_for(game, None)
    for name in plugin.presets:
        typer.echo(f"{name:28s} {plugin.load_ruleset(name).title}")


@scenario_app.command("run")
@domain_errors
def scenario_run(file: str = typer.Argument(..., help="Scenario YAML file.")) -> None:
    """Play a scenario's turns and print the resulting state in the scenario format."""
    from sim.scenarios import run_scenario

    typer.echo(run_scenario(file), nl=False)


@scenario_app.command("check")
@domain_errors
def scenario_check(
    files: list[str] = typer.Argument(..., help="Scenario YAML files."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print failures only."),
) -> None:
    """Compare each scenario's result with its `expect:`; exit 1 on any mismatch."""
    from sim.scenarios import check_scenario

    failed = 0
    for file in files:
        diff = check_scenario(file)
        if diff:
            failed += 1
            typer.echo(f"FAIL {file}\n{diff}")
        elif not quiet:
            typer.echo(f"ok   {file}")
    typer.echo(f"{len(files) - failed} passed, {failed} failed")
    if failed:
        raise typer.Exit(1)


@app.command("play")
@domain_errors
def play(
    strategies: str = typer.Option(
        None, help="Comma-separated strategies, one per seat (default: the game's demo)."
    ),
    ruleset: str = typer.Option(None, help="Preset name or ruleset file (default the first)."),
    overrides: list[str] = SET_OPTION,
    seed: int = typer.Option(0, help="The game's seed: the same seed gives the same game."),
    html_file: str = typer.Option("", "--html", help="Also write a page to step through."),
    from_results: str = typer.Option("", "--from-results", help="Replay a game of a run."),
    index: int = typer.Option(-1, "--index", help="With --from-results: the game index."),
    arm: str = typer.Option("", help="With --from-results: the arm (default: the first)."),
    game: str = typer.Option(
        None,
        "--game",
        help="Game plug-in (default: the game of --ruleset, else guardians); with "
        "--from-results, the game index too.",
    ),
) -> None:
    """Print one game turn by turn: the board, who did what, scores, the outcome."""
    from sim.compiling import console_notice
    from sim.errors import SimError
    from sim.paths import check_file_target
    from sim.watch import replay_game, watch_game, write_page

    if html_file:  # before the game is played and printed
        check_file_target(html_file, key="--html")
    notice = console_notice()
    if from_results:
        if index < 0 and game is not None and game.isdigit():  # the older spelling: --game N
            index = int(game)
        if index < 0:
            raise SimError(
                "--from-results needs a game index", key="--index", hint="e.g. --index 17"
            )
        watched = replay_game(results=from_results, index=index, arm=arm, notice=notice)
    else:
        watched = watch_game(game=game, strategies=strategies, ruleset=ruleset,
                           overrides=overrides, seed=seed, notice=notice)  # fmt: skip
    typer.echo(watched.heading)
    typer.echo(watched.watch.text, nl=False)
    if html_file:
        from sim.faults import keeping

        with keeping(lambda: "the game, printed above"):
            typer.echo(f"page written to {write_page(watched, html_file)}")


@app.command("bench")
@domain_errors
def bench(
    quick: bool = typer.Option(False, "--quick", help="A short run (under a minute or two)."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON only."),
    presets: str = typer.Option("", help="Comma-separated presets (default: the game's plan)."),
    strategies: str = typer.Option("", help="Comma-separated strategies (default: built-ins)."),
    out: str = typer.Option(
        None, help="Where the full run writes its figures (default bench/results-GAME.json)."
    ),
    game: str = GAME_OPTION,
) -> None:
    """Measure a game: games per second on one core per preset and strategy (as its plug-in's
    bench plan says), worker scaling, and in the full run compile times and a whole run;
    print a table and write bench/results-GAME.json."""
    import json
    from pathlib import Path

    from sim.bench import run_bench, table
    from sim.plugins import game_for

    chosen = [p for p in presets.split(",") if p]
    plugin = game_for(game, chosen[0] if chosen else None, key="--presets")
    result = run_bench(plugin.name, quick=quick, presets=chosen,
                       strategies=[s for s in strategies.split(",") if s])  # fmt: skip
    out = out or f"bench/results-{plugin.name}.json"
    if as_json:
        typer.echo(json.dumps(result.as_dict(), indent=1))
        return
    typer.echo(table(result))
    if not quick:
        from sim.faults import keeping, writing

        with keeping(lambda: "the figures, printed above"), writing("the bench's figures", out):
            Path(out).parent.mkdir(parents=True, exist_ok=True)
            Path(out).write_text(json.dumps(result.as_dict(), indent=1) + "\n")
        typer.echo(f"figures written to {out}")


@app.command("run")
@domain_errors
def run_experiment(
    file: str = typer.Argument(..., help="Experiment YAML file (see docs/results.md)."),
    overrides: list[str] = EXPERIMENT_SET_OPTION,
    games: int = typer.Option(None, "--games", help="Games per arm (overrides the file)."),
    jobs: int = JOBS_OPTION,
    chunk_size: int = CHUNK_SIZE_OPTION,
    out: str = typer.Option(None, "--out", help="Results folder (default results/<name>)."),
    fresh: bool = FRESH_OPTION,
    backend: str = BACKEND_OPTION,
    address: str = ADDRESS_OPTION,
    seed: int = SEED_OPTION,
    no_report: bool = NO_REPORT_OPTION,
    report_dir: str = typer.Option(
        None, "--report-dir", help="Default reports/<name>; with --out DIR, DIR/report."
    ),
) -> None:
    """Play an experiment's arms and store every game; resumes an interrupted run."""
    from sim.commands.run import run_command
    from sim.runner.options import RunOptions

    options = RunOptions(jobs=jobs, chunk_size=chunk_size, out=out, fresh=fresh, backend=backend,
                      address=address)  # fmt: skip
    run_command(file=file, overrides=overrides, games=games, seed=seed,
                report=not no_report, report_dir=report_dir, options=options)  # fmt: skip


@app.command("tune")
@domain_errors
def tune(
    file: str = typer.Argument(..., help="Tune YAML file: an experiment plus tune/targets."),
    overrides: list[str] = EXPERIMENT_SET_OPTION,
    games: int = typer.Option(None, "--games", help="Confirmation games per arm."),
    trials: int = typer.Option(None, "--trials", help="Candidates to try (overrides the file)."),
    jobs: int = JOBS_OPTION,
    out: str = typer.Option(None, "--out", help="Tune folder (default results/<name>)."),
    fresh: bool = typer.Option(False, "--fresh", help="Delete the stored tune; start over."),
    backend: str = BACKEND_OPTION,
    address: str = ADDRESS_OPTION,
    seed: int = SEED_OPTION,
    no_report: bool = NO_REPORT_OPTION,
    report_dir: str = typer.Option(None, "--report-dir", help="Default: <out>/report."),
) -> None:
    """Search rule values that meet the file's targets, confirm the best at full size and
    write the recommended rules; resumes a stopped tune."""
    from sim.commands.tune import tune_command
    from sim.runner.options import RunOptions

    options = RunOptions(jobs=jobs, out=out, fresh=fresh, backend=backend, address=address)
    tune_command(file=file, overrides=overrides, games=games, seed=seed, trials=trials,
                 options=options, report=not no_report, report_dir=report_dir)  # fmt: skip


@app.command("screen")
@domain_errors
def screen(
    file: str = typer.Argument(..., help="Tune YAML file (its targets; `tune:` optional)."),
    overrides: list[str] = EXPERIMENT_SET_OPTION,
    games: int = typer.Option(None, "--games", help="Games per arm (overrides the file)."),
    jobs: int = JOBS_OPTION,
    out: str = typer.Option(None, "--out", help="Results folder (default results/<name>_screen)."),
    fresh: bool = FRESH_OPTION,
    backend: str = BACKEND_OPTION,
    address: str = ADDRESS_OPTION,
    seed: int = SEED_OPTION,
    no_report: bool = NO_REPORT_OPTION,
    report_dir: str = typer.Option(None, "--report-dir", help="Default: <out>/report."),
) -> None:
    """Move every numeric rule key (or screen.keys) one step each way on the same seeds and
    rank the keys by their effect on each target, with intervals and a tornado chart."""
    from sim.commands.tune import screen_command
    from sim.runner.options import RunOptions

    options = RunOptions(jobs=jobs, out=out, fresh=fresh, backend=backend, address=address)
    screen_command(file=file, overrides=overrides, games=games, seed=seed, options=options,
                   report=not no_report, report_dir=report_dir)  # fmt: skip


@app.command("tournament")
@domain_errors
def tournament(
    strategies: str = typer.Option(..., "--strategies", help="Comma-separated strategy names."),
    players: int = typer.Option(4, "--players", help="Players at the table."),
    games: int = typer.Option(10_000, "--games", help="Games (rounded up to whole rotations)."),
    ruleset: str = typer.Option(None, "--ruleset", help="Preset or ruleset file."),
    overrides: list[str] = SET_OPTION,
    seed: int = typer.Option(0, "--seed", help="Root seed."),
    jobs: int = JOBS_OPTION,
    chunk_size: int = CHUNK_SIZE_OPTION,
    out: str = typer.Option(None, "--out", help="Results folder."),
    fresh: bool = FRESH_OPTION,
    backend: str = BACKEND_OPTION,
    address: str = ADDRESS_OPTION,
    game: str = GAME_OPTION,
) -> None:
    """Play strategies against each other in every seat arrangement and rank them."""
    from sim.commands.tournament import tournament_command
    from sim.runner.options import RunOptions

    options = RunOptions(jobs=jobs, chunk_size=chunk_size, out=out, fresh=fresh, backend=backend,
                      address=address)  # fmt: skip
    tournament_command(strategies=strategies, players=players, games=games, game=game,
                       ruleset=ruleset, overrides=overrides, seed=seed,
                       options=options)  # fmt: skip


@app.command("calibrate")
@domain_errors
def calibrate(
    target: str = typer.Option(
        ..., "--target", help="An outcome's rate or a column's mean, e.g. raid=0.20."
    ),
    players: int = typer.Option(4, "--players", help="Players at the table."),
    ruleset: str = typer.Option(
        None, "--ruleset", help="Preset or ruleset file (default: the game's first preset)."
    ),
    overrides: list[str] = SET_OPTION,
    games: int = typer.Option(2000, "--games", help="Games per skill played (the same seeds)."),
    seed: int = typer.Option(0, "--seed", help="Root seed of the games."),
    observed: int = typer.Option(0, "--observed-games", help="Games behind the figure, if known."),
    game: str = GAME_OPTION,
) -> None:
    """Find the continuous skill at which a table reproduces an observed figure: an outcome's
    rate, or the mean of a per-game or per-seat column."""
    from sim.lab.calibrate import calibrate as find
    from sim.lab.calibrate import describe

    cal = find(players=players, target=target, ruleset=ruleset, rules=overrides, games=games,
               seed=seed, observed_games=observed or None, game=game)  # fmt: skip
    typer.echo(describe(cal))


@app.command("report")
@domain_errors
def report(
    results_dir: str = typer.Argument(None, help="Results folder written by `sim run`."),
    out: str = typer.Option(
        None,
        "--out",
        help="Report folder (default reports/<name> for results/<name>, "
        "else report/ inside the results folder).",
    ),
    compare: tuple[str, str] | None = typer.Option(
        None, "--compare", help="Two results folders A B: their answers side by side."
    ),
) -> None:
    """Build the report of a results folder: index.html, report.md, tables/*.csv; or, with
    --compare A B, one page with both runs' answers and their differences."""
    if compare:
        from sim.report.compare import build_comparison

        if results_dir is not None:
            raise SimError(
                "give either a results folder or --compare A B, not both",
                hint="sim report --compare results/before results/after",
            )
        index = build_comparison(dir_a=compare[0], dir_b=compare[1], report_dir=out)
        typer.echo(f"comparison: {index}")
        return
    if results_dir is None or not results_dir.strip():  # "" would read the current folder
        raise SimError("no results folder given", hint="sim report results/<name>")
    from sim import lab

    typer.echo(f"report: {lab.report(results_dir, out)}")
    note = lab.open_results(results_dir).incomplete
    if note:
        typer.echo(f"warning: the run is incomplete ({note}); the report covers the games "
                   "stored so far", err=True)  # fmt: skip


def main() -> None:  # pragma: no cover - console entry point
    sys.exit(app())
