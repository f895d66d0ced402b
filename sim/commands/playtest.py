"""What `sim playtest template` and `sim playtest fit` do, behind the thin commands in
sim/cli.py (docs/playtest.md): a template written; a fit run (Ctrl-C or SIGTERM keeps the
lab's games played, the same command resumes them), its answers printed verdict first, and
its report built."""

from __future__ import annotations

from typing import Any

import typer

from sim.commands.signals import stopping


def template_command(*, game: str, out: str | None) -> None:
    from sim.errors import SimError
    from sim.paths import check_file_target
    from sim.playtest.lab_csv import template
    from sim.plugins import get_game
    from sim.storage import write_atomic

    text = template(get_game(game, source="--game"))
    if out is None:
        typer.echo(text, nl=False)
        return
    target = check_file_target(out, key="--out")
    if target.exists():
        raise SimError("the file exists; the template never overwrites records", file=target,
                       key="--out", hint="Give a new file name.")  # fmt: skip
    write_atomic(target, text.encode("utf-8"), what="the playtest template")
    typer.echo(f"template written to {target}: one row per seat per game (docs/playtest.md)")


def fit_command(*, file: str, game: str, out: str, report: bool, options: dict[str, Any]) -> None:
    from sim.playtest.fit import fit

    def note(text: str) -> None:
        typer.echo(f"note: {text}", err=True)

    with stopping(f"the lab's games played so far are kept in {out}; the same command "
                  "resumes.", catch=(KeyboardInterrupt,)):  # fmt: skip
        data = fit(file, game, out=out, on_note=note, **options)
    for text in data["notes"]:
        note(text)
    for group, answer in data["groups"].items():
        typer.echo(f"\n{group} ({answer['games']} games)")
        for sentence in answer["sentences"]:
            typer.echo(f"  {sentence}")
        for player, rated in (answer.get("players") or {}).items():
            s = rated["skill"]
            typer.echo(f"  {player} ({rated['games']} games): skill {s['estimate']:.2f} "
                       f"({s['low']:.2f} to {s['high']:.2f})")  # fmt: skip
    typer.echo(f"\nfit: {out}/fit.yaml")
    if report:
        from sim.playtest.report import build

        typer.echo(f"report: {build(out)}")
