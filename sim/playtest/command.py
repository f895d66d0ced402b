"""`sim playtest`: a group's playtest records in, the lab's players fitted to them
(docs/playtest.md). Thin commands over sim.playtest; errors are one line (exit code 2), a
stopped fit keeps the games played (the same command resumes them, exit code 130)."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="Playtest records: the lab's players fitted to your group's games.", no_args_is_help=True
)

GAME = typer.Option(..., "--game", help="The game the records are of.")
INTERRUPTED_EXIT = 130


def _errors(fn):
    """A SimError as one line on stderr and exit code 2, never a traceback (as sim.cli)."""
    from sim.errors import SimError

    def wrapper(**kwargs):
        try:
            return fn(**kwargs)
        except SimError as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(2) from None

    return wrapper


@app.command("template")
def template(
    game: str = GAME,
    out: str = typer.Option(None, "--out", help="Write the template here (default: print it)."),
) -> None:
    """Write the lab's CSV for a game's records: the header and two example games to replace."""
    _errors(_template)(game=game, out=out)


def _template(*, game: str, out: str | None) -> None:
    from sim.games import get_game
    from sim.paths import check_file_target
    from sim.playtest.lab_csv import template as make

    text = make(get_game(game, source="--game"))
    if out is None:
        typer.echo(text, nl=False)
        return
    target = check_file_target(out, key="--out")
    if target.exists():
        from sim.errors import SimError

        raise SimError(
            "the file exists; the template never overwrites records",
            file=target,
            key="--out",
            hint="Give a new file name.",
        )
    target.write_text(text, encoding="utf-8")
    typer.echo(f"template written to {target}: one row per seat per game (docs/playtest.md)")


@app.command("fit")
def fit(
    file: str = typer.Argument(
        ...,
        help="Records: the lab's CSV, a BG Stats export (.json) or BoardGameGeek's plays (.xml).",
    ),
    game: str = GAME,
    out: str = typer.Option(
        ..., "--out", help="Folder for fit.yaml, the lab's games and the report."
    ),
    fmt: str = typer.Option(None, "--format", help="csv, bgstats or bgg (default: by suffix)."),
    name: str = typer.Option(
        None, "--name", help="The game's name in an app's export (default: the game's title)."
    ),
    group: str = typer.Option(None, "--group", help="Fit one group of the records only."),
    games: int = typer.Option(1000, "--games", help="The lab's games per candidate skill."),
    seed: int = typer.Option(0, "--seed", help="Root seed of the lab's games."),
    jobs: int = typer.Option(None, "--jobs", "-j", help="Worker processes (default: all cores)."),
    no_report: bool = typer.Option(False, "--no-report", help="Do not build the report."),
    no_players: bool = typer.Option(
        False, "--no-players", help="Do not fit the named players (faster)."
    ),
) -> None:
    """Fit each group of the records to the game's continuous skill, check every fact the
    records hold against the lab's players at that skill, and rate the named players."""
    options = {"fmt": fmt, "name": name, "group": group, "games": games, "seed": seed,
               "jobs": jobs, "players": not no_players}  # fmt: skip
    _errors(_fit)(file=file, game=game, out=out, report=not no_report, options=options)


def _fit(*, file: str, game: str, out: str, report: bool, options: dict) -> None:
    from sim.playtest.fit import fit as run_fit
    from sim.runner.execute import Interrupted

    def note(text: str) -> None:
        typer.echo(f"note: {text}", err=True)

    try:
        data = run_fit(file, game, out=out, on_note=note, **options)
    except (Interrupted, KeyboardInterrupt):
        typer.echo(
            "\nstopped: the lab's games played so far are kept in the folder; the same "
            "command resumes.",
            err=True,
        )
        raise typer.Exit(INTERRUPTED_EXIT) from None
    for text in data["notes"]:
        note(text)
    for group_name, answer in data["groups"].items():
        typer.echo(f"\n{group_name} ({answer['games']} games)")
        for sentence in answer["sentences"]:
            typer.echo(f"  {sentence}")
        for player, rated in (answer.get("players") or {}).items():
            s = rated["skill"]
            typer.echo(
                f"  {player} ({rated['games']} games): skill {s['estimate']:.2f} "
                f"({s['low']:.2f} to {s['high']:.2f})"
            )
    typer.echo(f"\nfit: {out}/fit.yaml")
    if report:
        from sim.playtest.report import build

        typer.echo(f"report: {build(out)}")
