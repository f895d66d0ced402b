"""What `sim play` does, behind the thin command in sim/cli.py: play (or replay) one game through
sim.watch and print it, and write its page."""

from __future__ import annotations

import typer

from sim.errors import SimError


def play_command(*, strategies: str | None, ruleset: str | None, overrides: list[str],
                 seed: int, html_file: str, from_results: str, index: int | None, arm: str,
                 game: str | None) -> None:  # fmt: skip
    from sim.compiling import console_notice
    from sim.paths import check_file_target
    from sim.watch import replay_game, watch_game, write_page

    if html_file:  # before the game is watched and printed
        check_file_target(html_file, key="--html")
    notice = console_notice()
    if from_results:
        if index is None and game is not None and game.isdigit():  # the older spelling: --game N
            index = int(game)
        if index is None or index < 0:
            raise SimError("--from-results needs a game's index in its arm, from 0",
                           key="--index", hint="For example --index 17.")  # fmt: skip
        watched = replay_game(results=from_results, index=index, arm=arm, notice=notice)
    else:
        if index is not None:
            raise SimError("--index picks a stored game: give --from-results too", key="--index",
                           hint="E.g. --from-results results/what_if --index 17.")  # fmt: skip
        watched = watch_game(game=game, strategies=strategies, ruleset=ruleset,
                             overrides=overrides, seed=seed, notice=notice)  # fmt: skip
    typer.echo(watched.heading)
    typer.echo(watched.watch.text, nl=False)
    if html_file:
        from sim.faults import keeping

        with keeping(lambda: "the game, printed above"):
            typer.echo(f"page written to {write_page(watched, html_file)}")
