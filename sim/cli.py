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


def main() -> None:  # pragma: no cover - console entry point
    sys.exit(app())
