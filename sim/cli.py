"""The `sim` command line. Commands are thin: they parse options and call keyword-only
helpers; domain errors (SimError) become exit code 2 with a one-line message here only."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

import typer

from sim.errors import SimError

app = typer.Typer(
    help="Balance lab for the Guardians of Space family: rules, scenarios, experiments, reports.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
rules_app = typer.Typer(help="Rulesets: presets and effective rules.", no_args_is_help=True)
scenario_app = typer.Typer(help="Executable rule scenarios.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")
app.add_typer(scenario_app, name="scenario")


def domain_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Print a SimError as one line on stderr and exit 2 instead of a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except SimError as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(2) from None

    return wrapper


GAME_OPTION = typer.Option("guardians", "--game", help="Game plugin.")
SET_OPTION = typer.Option([], "--set", help="Override a ruleset key: KEY=VALUE (repeatable).")


@rules_app.command("show")
@domain_errors
def rules_show(
    name: str = typer.Argument(..., help="Preset name or path to a ruleset YAML file."),
    overrides: list[str] = SET_OPTION,
    game: str = GAME_OPTION,
) -> None:
    """Print the effective ruleset NAME with the overrides applied."""
    from sim.games import get_game

    ruleset = get_game(game).load_ruleset(name, overrides, source="--set")
    typer.echo(ruleset.to_yaml(), nl=False)


@rules_app.command("list")
@domain_errors
def rules_list(game: str = GAME_OPTION) -> None:
    """List the presets of a game."""
    from sim.games import get_game

    plugin = get_game(game)
    for name in plugin.presets:
        typer.echo(f"{name:28s} {plugin.load_ruleset(name).title}")


@scenario_app.command("run")
@domain_errors
def scenario_run(file: str = typer.Argument(..., help="Scenario YAML file.")) -> None:
    """Play a scenario's turns and print the resulting state in the scenario format."""
    from sim.games.guardians.scenario import run_file

    typer.echo(run_file(file), nl=False)


@scenario_app.command("check")
@domain_errors
def scenario_check(
    files: list[str] = typer.Argument(..., help="Scenario YAML files."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print failures only."),
) -> None:
    """Compare each scenario's result with its `expect:`; exit 1 on any mismatch."""
    from sim.games.guardians.scenario import check_file

    failed = 0
    for file in files:
        diff = check_file(file)
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
        "greedy,greedy", help="Comma-separated strategies, one per seat (2-4 players)."
    ),
    ruleset: str = typer.Option("guardians", help="Preset name or ruleset file."),
    overrides: list[str] = SET_OPTION,
    seed: int = typer.Option(0, help="The game's seed: the same seed gives the same game."),
    html_file: str = typer.Option("", "--html", help="Also write a page to step through."),
    from_results: str = typer.Option("", "--from-results", help="Replay a game of a run."),
    game_index: int = typer.Option(-1, "--game", help="With --from-results: the game index."),
    arm: str = typer.Option("", help="With --from-results: the arm (default: the first)."),
    game: str = typer.Option("guardians", "--game-plugin", help="Game plugin."),
) -> None:
    """Print one game turn by turn: the board, who did what, scores, the outcome."""
    from pathlib import Path

    from sim.errors import SimError
    from sim.games.base import StrategySpec
    from sim.games.guardians.watch import page, transcript, watch

    if game == "alien-raid" and not from_results:  # the alien-raid plug-in (issue 18)
        return _watch_plugin(game, ruleset, overrides, strategies, seed, html_file)
    if from_results:
        from sim.games import get_game
        from sim.results import replay

        if game_index < 0:
            raise SimError("--from-results needs a game", key="--game", hint="e.g. --game 17")
        which = int(arm) if arm.isdigit() else (arm or None)
        stored = replay(from_results, game_index, which)
        plugin = get_game(stored.game_name)
        rules = plugin.load_ruleset(stored.ruleset_ref, stored.overrides, source=from_results)
        lineup, seed = list(stored.seats), stored.seed
        typer.echo(f"{from_results}: arm {stored.arm!r}, game {stored.game}")
    else:
        from sim.games import get_game

        rules = get_game(game).load_ruleset(ruleset, overrides, source="--set")
        lineup = [StrategySpec(name.strip()) for name in strategies.split(",") if name.strip()]
        plugin = get_game(game)
        for spec in lineup:
            plugin.check_strategy(spec, source="--strategies")
    if not 2 <= len(lineup) <= 4:
        raise SimError("a game needs 2-4 players", key="--strategies", hint="e.g. greedy,expert")
    frames, final = watch(rules, lineup, seed)
    typer.echo(f"{rules.title}, seed {seed}")
    typer.echo(transcript(frames, lineup, final), nl=False)
    if html_file:
        title = f"{rules.title}, seed {seed}"
        Path(html_file).write_text(page(frames, lineup, final, title))
        typer.echo(f"page written to {html_file}")


def _watch_plugin(game, ruleset, overrides, strategies, seed, html_file) -> None:
    """`sim play` for a plug-in that watches its own games (`plugin.watch`)."""
    from pathlib import Path

    from sim.games import get_game
    from sim.games.base import StrategySpec, player_counts

    plugin = get_game(game)
    ruleset = plugin.presets[0] if ruleset == "guardians" else ruleset  # the option's default
    rules = plugin.load_ruleset(ruleset, overrides, source="--set")
    lineup = [StrategySpec(name.strip()) for name in strategies.split(",") if name.strip()]
    for spec in lineup:
        plugin.check_strategy(spec, source="--strategies")
    if len(lineup) not in player_counts(plugin):
        raise SimError(f"{game} takes {player_counts(plugin)} players", key="--strategies")
    watched = plugin.watch(rules, lineup, seed)
    typer.echo(f"{rules.title}, seed {seed}\n{watched.text}", nl=False)
    if html_file:
        Path(html_file).write_text(watched.html(f"{rules.title}, seed {seed}"))
        typer.echo(f"page written to {html_file}")


@app.command("bench")
@domain_errors
def bench(
    quick: bool = typer.Option(False, "--quick", help="A short run (under a minute)."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON only."),
    presets: str = typer.Option("", help="Comma-separated presets (default: all)."),
    strategies: str = typer.Option("", help="Comma-separated strategies (default: built-ins)."),
    out: str = typer.Option("bench/results.json", help="Where the full run writes its figures."),
) -> None:
    """Measure the game loop per preset and strategy, worker scaling, compile times and a
    million-game run; print a table and write bench/results.json."""
    import json
    from pathlib import Path

    from sim.bench import run_bench, table
    from sim.games import get_game
    from strategies.guardians.dispatch import ORDER

    chosen_presets = presets.split(",") if presets else list(get_game("guardians").presets)
    chosen = strategies.split(",") if strategies else list(ORDER)
    if quick:
        chosen_presets = chosen_presets[:1] if not presets else chosen_presets
    result = run_bench(quick=quick, presets=chosen_presets, strategies=chosen)
    if as_json:
        typer.echo(json.dumps(result.as_dict(), indent=1))
        return
    typer.echo(table(result))
    if not quick:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(json.dumps(result.as_dict(), indent=1) + "\n")
        typer.echo(f"figures written to {out}")


@app.command("run")
@domain_errors
def run_experiment(
    file: str = typer.Argument(..., help="Experiment YAML file (see docs/results.md)."),
    overrides: list[str] = typer.Option(
        [], "--set", help="Override an experiment or rule key: KEY=VALUE (repeatable)."
    ),
    games: int = typer.Option(None, "--games", help="Games per arm (overrides the file)."),
    jobs: int = typer.Option(None, "--jobs", "-j", help="Worker processes (default: all cores)."),
    chunk_size: int = typer.Option(20_000, "--chunk-size", help="Games per part file."),
    out: str = typer.Option(None, "--out", help="Results folder (default results/<name>)."),
    fresh: bool = typer.Option(False, "--fresh", help="Delete stored results and start over."),
    backend: str = typer.Option("local", "--backend", help="local (joblib) or dask."),
    address: str = typer.Option(None, "--address", help="Dask scheduler, e.g. tcp://HOST:8786."),
    seed: int = typer.Option(None, "--seed", help="Root seed (overrides the file)."),
    no_report: bool = typer.Option(False, "--no-report", help="Do not build the report."),
    report_dir: str = typer.Option(None, "--report-dir", help="Default reports/<name>."),
) -> None:
    """Play an experiment's arms and store every game; resumes an interrupted run."""
    from sim.runner.commands import run_command

    run_command(
        file=file, overrides=overrides, games=games, jobs=jobs, chunk_size=chunk_size, out=out,
        fresh=fresh, backend=backend, address=address, seed=seed, report=not no_report,
        report_dir=report_dir,
    )  # fmt: skip


@app.command("tournament")
@domain_errors
def tournament(
    strategies: str = typer.Option(..., "--strategies", help="Comma-separated strategy names."),
    players: int = typer.Option(4, "--players", help="Players at the table."),
    games: int = typer.Option(10_000, "--games", help="Games (rounded up to whole rotations)."),
    ruleset: str = typer.Option(None, "--ruleset", help="Preset or ruleset file."),
    overrides: list[str] = SET_OPTION,
    seed: int = typer.Option(0, "--seed", help="Root seed."),
    jobs: int = typer.Option(None, "--jobs", "-j", help="Worker processes (default: all cores)."),
    chunk_size: int = typer.Option(20_000, "--chunk-size", help="Games per part file."),
    out: str = typer.Option(None, "--out", help="Results folder."),
    fresh: bool = typer.Option(False, "--fresh", help="Delete stored results and start over."),
    backend: str = typer.Option("local", "--backend", help="local (joblib) or dask."),
    address: str = typer.Option(None, "--address", help="Dask scheduler, e.g. tcp://HOST:8786."),
    game: str = GAME_OPTION,
) -> None:
    """Play strategies against each other in every seat arrangement and rank them."""
    from sim.runner.commands import tournament_command

    tournament_command(
        strategies=strategies, players=players, games=games, game=game, ruleset=ruleset,
        overrides=overrides, seed=seed, jobs=jobs, chunk_size=chunk_size, out=out, fresh=fresh,
        backend=backend, address=address,
    )  # fmt: skip


@app.command("report")
@domain_errors
def report(
    results_dir: str = typer.Argument(..., help="Results folder written by `sim run`."),
    out: str = typer.Option(None, "--out", help="Report folder (default reports/<name>)."),
) -> None:
    """Build the report of a results folder: index.html, report.md, tables/*.csv."""
    from sim.report import build_report

    index = build_report(results_dir=results_dir, report_dir=out)
    typer.echo(f"report: {index}")


def main() -> None:  # pragma: no cover - console entry point
    sys.exit(app())
