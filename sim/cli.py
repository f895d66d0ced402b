"""The `sim` command line. Commands are thin: they parse options and call keyword-only
helpers; domain errors (SimError) become a one-line message and exit code 2 (74 for a fault
of the machine) here only.

Commands are listed in `sim --help` by what a newcomer does first: look at a game, run
experiments, search rule values, measure speed. Each command's first docstring paragraph is
its one line there; the rest is its own --help. Every command is made by
sim.commands.style (switches shown without a type, common slips explained)."""

from __future__ import annotations

import functools
import inspect
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import typer

from sim.commands.style import SimGroup, command
from sim.compile_cache import CompileCacheWarning
from sim.errors import SimError

if TYPE_CHECKING:
    from sim.runner.options import RunOptions

LOOK, EXPERIMENTS, VALUES, SPEED = (
    "Look at a game", "Run experiments", "Search rule values", "Measure speed",
)  # fmt: skip

app = typer.Typer(
    help="Board-game balance lab: play a game's rules millions of times with players of graded "
    "skill, and report with intervals. Every command takes any installed game (--game, or a "
    "preset's name alone); `sim games` lists them.",
    cls=SimGroup,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
rules_app = typer.Typer(help="List a game's presets; show the rules one plays, key by key.",
                        cls=SimGroup, no_args_is_help=True)  # fmt: skip
scenario_app = typer.Typer(help="Check the engine against the executable rule scenarios.",
                           cls=SimGroup, no_args_is_help=True)  # fmt: skip
playtest_app = typer.Typer(help="Fit the lab's players to your group's playtest records.",
                           cls=SimGroup, no_args_is_help=True)  # fmt: skip


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


def _version(show: bool) -> None:
    if show:
        from sim.commands.games import version_text

        typer.echo(version_text())
        raise typer.Exit()


@app.callback()
def main_options(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True,
        help="Print the lab's version and the installed games' versions, and exit.",
    ),
) -> None:  # fmt: skip
    pass


GAME_OPTION = typer.Option(
    None, "--game", help="Game (default: the game of the preset named, else guardians)."
)
SET_OPTION = typer.Option(
    [], "--set", help="Override a rule key: KEY=VALUE, one word (repeatable)."
)
# how a run is played and stored (sim run, sim tournament)
JOBS_OPTION = typer.Option(None, "--jobs", "-j", help="Worker processes (default: all cores).")
CHUNK_SIZE_OPTION = typer.Option(20_000, "--chunk-size", help="Games per part file.")
FRESH_OPTION = typer.Option(False, "--fresh", help="Delete stored results and start over.")
BACKEND_OPTION = typer.Option("local", "--backend", help="local (worker processes) or dask.")
ADDRESS_OPTION = typer.Option(None, "--address", help="Dask scheduler, e.g. tcp://HOST:8786.")
# what an experiment file is read with (sim run, sim tune, sim screen)
EXPERIMENT_SET_OPTION = typer.Option(
    [], "--set", help="Override an experiment or rule key: KEY=VALUE, one word (repeatable)."
)
SEED_OPTION = typer.Option(None, "--seed", help="Root seed (overrides the file).")
ARM_GAMES_OPTION = typer.Option(None, "--games", help="Games per arm (overrides the file).")
NO_REPORT_OPTION = typer.Option(False, "--no-report", help="Do not build the report.")
# where the report goes (sim run, sim tune, sim screen): docs/results.md, "Where things go"
REPORT_DIR_OPTION = typer.Option(
    None, "--report-dir",
    help="Report folder (default reports/<name>; with --out DIR, DIR/report).",
)  # fmt: skip


@dataclass(frozen=True)
class ExperimentTail:
    """The options every experiment command (run, tune, screen, sensitivity) ends with."""

    backend: str
    address: str | None
    seed: int | None
    report: bool
    report_dir: str | None

    def options(self, **how: Any) -> RunOptions:
        """How the run is played and stored: `how` (jobs, out, ...) on this backend."""
        from sim.runner.options import RunOptions

        return RunOptions(**how, backend=self.backend, address=self.address)


_TAIL = (("backend", "str", BACKEND_OPTION), ("address", "str", ADDRESS_OPTION),
         ("seed", "int", SEED_OPTION), ("no_report", "bool", NO_REPORT_OPTION),
         ("report_dir", "str", REPORT_DIR_OPTION))  # fmt: skip


def experiment_tail(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command taking `tail: ExperimentTail` the options --backend, --address, --seed,
    --no-report and --report-dir, after its own (the order `--help` lists them in)."""
    own = [p for p in inspect.signature(fn).parameters.values() if p.name != "tail"]
    added = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=option,
                               annotation=kind) for name, kind, option in _TAIL]  # fmt: skip

    @functools.wraps(fn)
    def wrapper(**kwargs: Any) -> Any:
        tail = ExperimentTail(backend=kwargs.pop("backend"), address=kwargs.pop("address"),
                              seed=kwargs.pop("seed"), report=not kwargs.pop("no_report"),
                              report_dir=kwargs.pop("report_dir"))  # fmt: skip
        return fn(**kwargs, tail=tail)

    wrapper.__signature__ = inspect.Signature([*own, *added])  # type: ignore[attr-defined]
    annotations = {k: v for k, v in fn.__annotations__.items() if k != "tail"}
    wrapper.__annotations__ = {**annotations, **{name: kind for name, kind, _ in _TAIL}}
    return wrapper


# --- look at a game ---------------------------------------------------------------------------


@command(app, "games", panel=LOOK)
@domain_errors
def games(
    name: str = typer.Argument(None, help="One game (default: every installed game)."),
) -> None:
    """List the installed games: presets, strategies, ladder, report sections.

    Everything an experiment or a command can name for each game: its presets (with their
    titles), its strategies, its skill ladder (weakest first) and continuous skill, and the
    report sections an experiment's `report:` key takes."""
    from sim.commands.games import print_games

    print_games(name)


@command(app, "play", panel=LOOK)
@domain_errors
def play(
    strategies: str = typer.Option(
        None, help="Comma-separated strategies, one per seat (default: the game's demo)."
    ),
    ruleset: str = typer.Option(None, help="Preset name or ruleset file (default: the first)."),
    overrides: list[str] = SET_OPTION,
    seed: int = typer.Option(0, help="The game's seed: the same seed gives the same game."),
    html_file: str = typer.Option("", "--html", help="Also write a page to step through."),
    from_results: str = typer.Option("", "--from-results", help="Replay a game of a run."),
    index: int = typer.Option(
        None, "--index", help="With --from-results: the game's index in its arm (from 0).",
        show_default=False,
    ),
    arm: str = typer.Option("", help="With --from-results: the arm (default: the first)."),
    game: str = typer.Option(None, "--game",
                             help="Game (default: the game of --ruleset, else guardians)."),
) -> None:  # fmt: skip
    """Watch one game turn by turn: the board, who did what, the outcome.

    The text starts with a legend of the board's signs; --html writes a page that steps
    through the same game. The same seed always plays the same game, as in `sim run`."""
    from sim.commands.play import play_command

    play_command(strategies=strategies, ruleset=ruleset, overrides=overrides, seed=seed,
                 html_file=html_file, from_results=from_results, index=index, arm=arm,
                 game=game)  # fmt: skip


app.add_typer(rules_app, name="rules", rich_help_panel=LOOK)
app.add_typer(scenario_app, name="scenario", rich_help_panel=LOOK)


@command(rules_app, "show")
@domain_errors
def rules_show(
    name: str = typer.Argument(..., help="Preset name or path to a ruleset YAML file."),
    overrides: list[str] = SET_OPTION,
    game: str = GAME_OPTION,
) -> None:
    """Print the effective rules of a preset or file, every key with its value.

    A preset of any installed game, or a file, with the overrides applied; a key's comment
    says what its value means (where 0 or a word stands for a rule, the comment says so)."""
    from sim.plugins import game_for

    ruleset = game_for(game, name, key=None).load_ruleset(name, overrides, source="--set")
    typer.echo(ruleset.to_yaml(comments=True), nl=False)


@command(rules_app, "list")
@domain_errors
def rules_list(
    game: str = typer.Option(None, "--game", help="The game (default: guardians)."),
) -> None:
    """List a game's presets with their titles."""
    from sim.plugins import game_for

    plugin = game_for(game, None)
    for name in plugin.presets:
        typer.echo(f"{name:28s} {plugin.load_ruleset(name).title}")


@command(scenario_app, "run")
@domain_errors
def scenario_run(file: str = typer.Argument(..., help="Scenario YAML file.")) -> None:
    """Play a scenario's turns and print the resulting state in the scenario format."""
    from sim.scenarios import run_scenario

    typer.echo(run_scenario(file), nl=False)


@command(scenario_app, "check")
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


@command(app, "check", panel=LOOK)
@domain_errors
def check(
    game: str = typer.Argument(..., help="An installed game (sim rules list shows its presets)."),
    games: int = typer.Option(200, "--games", help="Random games to check."),
    seed: int = typer.Option(0, "--seed", help="The first game's seed (then seed+1, ...)."),
    players: int = typer.Option(None, "--players", help="Seats (default: the fewest it takes)."),
    strategies: str = typer.Option("", help="Comma-separated players (default: random)."),
) -> None:
    """Check a game's contract on many random games.

    Each game ends within its cap, replays from its seed, keeps copies apart, offers only
    actions its rules accept and shows no seat what it may not see; each failure prints the
    `sim play` command that plays that game again."""
    from sim.contract import check_game, describe

    contract = check_game(game, games=games, seed=seed, players=players,
                          strategies=[s for s in strategies.split(",") if s])  # fmt: skip
    typer.echo(describe(contract))
    if not contract.ok:
        raise typer.Exit(1)


# --- run experiments --------------------------------------------------------------------------


@command(app, "run", panel=EXPERIMENTS)
@domain_errors
@experiment_tail
def run_experiment(
    file: str = typer.Argument(..., help="Experiment YAML file (see docs/results.md)."),
    overrides: list[str] = EXPERIMENT_SET_OPTION,
    games: int = ARM_GAMES_OPTION,
    jobs: int = JOBS_OPTION,
    chunk_size: int = CHUNK_SIZE_OPTION,
    out: str = typer.Option(None, "--out", help="Results folder (default results/<name>)."),
    fresh: bool = FRESH_OPTION,
    *,
    tail: ExperimentTail,
) -> None:
    """Play an experiment's arms, store every game and build the report.

    Results go to results/<name>/ (--out), the report to reports/<name>/ (--report-dir; with
    --out DIR, DIR/report/). The same command again resumes an interrupted run; a folder
    holding more games than asked is reported whole (--fresh starts over)."""
    from sim.commands.run import run_command

    options = tail.options(jobs=jobs, chunk_size=chunk_size, out=out, fresh=fresh)
    run_command(file=file, overrides=overrides, games=games, seed=tail.seed,
                report=tail.report, report_dir=tail.report_dir, options=options)  # fmt: skip


@command(app, "report", panel=EXPERIMENTS)
@domain_errors
def report(
    results_dir: str = typer.Argument(None, help="Results folder written by `sim run`."),
    report_dir: str = typer.Option(
        None, "--report-dir",
        help="Report folder (default reports/<name> for results/<name>, else report/ inside "
        "the results folder).",
    ),
    out: str = typer.Option(None, "--out", hidden=True, help="The older name of --report-dir."),
    compare: tuple[str, str] | None = typer.Option(
        None, "--compare", help="Two results folders A B: their answers side by side."
    ),
) -> None:  # fmt: skip
    """Build the report of a results folder again, from its stored games alone.

    index.html, report.md, tables/*.csv and figures/*.png; or, with --compare A B, one page
    with both runs' answers and their differences."""
    from sim.commands.report import report_command

    if out is not None and report_dir is not None:
        raise SimError("give the report folder once", key="--report-dir",
                       hint="--out is the older name of --report-dir.")  # fmt: skip
    report_command(results_dir=results_dir, report_dir=report_dir or out, compare=compare)


@command(app, "tournament", panel=EXPERIMENTS)
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
    """Rank strategies head to head, every seat arrangement equally often.

    Prints each strategy's win share with its interval and a skill rating, and whether each
    neighbour in the ranking is told apart from the next."""
    from sim.commands.tournament import tournament_command
    from sim.runner.options import RunOptions

    options = RunOptions(jobs=jobs, chunk_size=chunk_size, out=out, fresh=fresh, backend=backend,
                      address=address)  # fmt: skip
    tournament_command(strategies=strategies, players=players, games=games, game=game,
                       ruleset=ruleset, overrides=overrides, seed=seed,
                       options=options)  # fmt: skip


@command(app, "calibrate", panel=EXPERIMENTS)
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
    """Find the skill at which a table reproduces an observed figure.

    The figure is an outcome's rate (raid=0.20) or the mean of a per-game or per-seat column;
    the answer is a point on the game's continuous skill, with its interval, its place on the
    ladder and how to seat it in an experiment."""
    from sim.lab.calibrate import calibrate as find
    from sim.lab.calibrate import describe

    cal = find(players=players, target=target, ruleset=ruleset, rules=overrides, games=games,
               seed=seed, observed_games=observed or None, game=game)  # fmt: skip
    typer.echo(describe(cal))


app.add_typer(playtest_app, name="playtest", rich_help_panel=EXPERIMENTS)


# --- search rule values -----------------------------------------------------------------------


@command(app, "tune", panel=VALUES)
@domain_errors
@experiment_tail
def tune(
    file: str = typer.Argument(..., help="Tune YAML file: an experiment plus tune/targets."),
    overrides: list[str] = EXPERIMENT_SET_OPTION,
    games: int = typer.Option(None, "--games", help="Confirmation games per arm."),
    trials: int = typer.Option(None, "--trials", help="Candidates to try (overrides the file)."),
    jobs: int = JOBS_OPTION,
    out: str = typer.Option(None, "--out", help="Tune folder (default results/<name>)."),
    fresh: bool = typer.Option(False, "--fresh", help="Delete the stored tune; start over."),
    *,
    tail: ExperimentTail,
) -> None:
    """Search rule values that meet your targets, and confirm the best.

    The best candidates are replayed at full size with 95% intervals and a verdict per
    target; the recommended rules are written beside the study. Resumes a stopped tune."""
    from sim.commands.tune import tune_command

    options = tail.options(jobs=jobs, out=out, fresh=fresh)
    tune_command(file=file, overrides=overrides, games=games, seed=tail.seed, trials=trials,
                 options=options, report=tail.report, report_dir=tail.report_dir)  # fmt: skip


@command(app, "screen", panel=VALUES)
@domain_errors
@experiment_tail
def screen(
    file: str = typer.Argument(..., help="Tune YAML file (its targets; `tune:` optional)."),
    overrides: list[str] = EXPERIMENT_SET_OPTION,
    games: int = ARM_GAMES_OPTION,
    jobs: int = JOBS_OPTION,
    out: str = typer.Option(None, "--out", help="Results folder (default results/<name>_screen)."),
    fresh: bool = FRESH_OPTION,
    *,
    tail: ExperimentTail,
) -> None:
    """Rank the rule keys by how much they move your targets.

    Every numeric rule key (or screen.keys) is moved one step each way on the same seeds;
    the keys are ranked by their effect on each target, with intervals and a tornado chart."""
    from sim.commands.tune import screen_command

    options = tail.options(jobs=jobs, out=out, fresh=fresh)
    screen_command(file=file, overrides=overrides, games=games, seed=tail.seed, options=options,
                   report=tail.report, report_dir=tail.report_dir)  # fmt: skip


@command(app, "sensitivity", panel=VALUES)
@domain_errors
@experiment_tail
def sensitivity(
    file: str = typer.Argument(..., help="Tune YAML file (its targets; `sensitivity:` optional)."),
    overrides: list[str] = EXPERIMENT_SET_OPTION,
    jobs: int = JOBS_OPTION,
    out: str = typer.Option(
        None, "--out", help="Results folder (default results/<name>_sensitivity)."
    ),
    fresh: bool = FRESH_OPTION,
    *,
    tail: ExperimentTail,
) -> None:
    """Say how much of each target's variation the rules explain, and how much is luck.

    Morris screening of every numeric rule key and the seed, then Sobol indices with intervals
    on the keys that matter: each key alone, its interactions, and the share left to luck."""
    from sim.commands.sensitivity import sensitivity_command

    options = tail.options(jobs=jobs, out=out, fresh=fresh)
    sensitivity_command(file=file, overrides=overrides, seed=tail.seed, options=options,
                        report=tail.report, report_dir=tail.report_dir)  # fmt: skip


# --- measure speed ----------------------------------------------------------------------------


@command(app, "bench", panel=SPEED)
@domain_errors
def bench(
    quick: bool = typer.Option(
        False, "--quick", help="A short run: fewer games, no compile times nor whole run."
    ),
    games: int = typer.Option(
        None,
        "--games",
        help="Games per measured rate (default 2,000 with --quick, else 5,000).",
        show_default=False,
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON only."),
    presets: str = typer.Option("", help="Comma-separated presets (default: the game's plan)."),
    strategies: str = typer.Option("", help="Comma-separated strategies (default: built-ins)."),
    out: str = typer.Option(
        None, help="Where the full run writes its figures (default bench/results-GAME.json)."
    ),
    game: str = GAME_OPTION,
) -> None:
    """Measure how fast a game plays on this machine.

    Games per second on one core per preset and strategy (as the game's bench plan says),
    worker scaling, and in the full run compile times and a whole run; prints a table and
    writes bench/results-GAME.json."""
    from sim.commands.bench import bench_command

    bench_command(quick=quick, as_json=as_json, presets=presets, strategies=strategies,
                  out=out, game=game, games=games)  # fmt: skip


@command(playtest_app, "template")
@domain_errors
def playtest_template(
    game: str = typer.Option(..., "--game", help="The game the records are of."),
    out: str = typer.Option(None, "--out", help="Write the template here (default: print it)."),
) -> None:
    """Write the lab's CSV for a game's records.

    The header and two example games to replace with your own."""
    from sim.commands.playtest import template_command

    template_command(game=game, out=out)


@command(playtest_app, "fit")
@domain_errors
def playtest_fit(
    file: str = typer.Argument(
        ...,
        help="Records: the lab's CSV, a BG Stats export (.json) or BoardGameGeek's plays (.xml).",
    ),
    game: str = typer.Option(..., "--game", help="The game the records are of."),
    out: str = typer.Option(
        ..., "--out", help="The fit's folder: fit.yaml, the lab's games, the report."
    ),
    fmt: str = typer.Option(None, "--format", help="csv, bgstats or bgg (default: by suffix)."),
    name: str = typer.Option(
        None, "--name", help="The game's name in an app's export (default: the game's title)."
    ),
    group: str = typer.Option(None, "--group", help="Fit one group of the records only."),
    games: int = typer.Option(1000, "--games", help="The lab's games per candidate skill."),
    seed: int = typer.Option(0, "--seed", help="Root seed of the lab's games."),
    jobs: int = JOBS_OPTION,
    no_report: bool = NO_REPORT_OPTION,
    no_players: bool = typer.Option(
        False, "--no-players", help="Do not fit the named players (faster)."
    ),
) -> None:
    """Fit each group of your records to the lab's skill ladder.

    Each group is fitted to the game's continuous skill; every fact the records hold is
    checked against the lab's players at that skill, and the named players are fitted."""
    from sim.commands.playtest import fit_command

    options = {"fmt": fmt, "name": name, "group": group, "games": games, "seed": seed,
               "jobs": jobs, "players": not no_players}  # fmt: skip
    fit_command(file=file, game=game, out=out, report=not no_report, options=options)


def main() -> None:  # pragma: no cover - console entry point
    sys.exit(app())
