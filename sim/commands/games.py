"""`sim games` and `sim --version`: what is installed, read from each game's plug-in (its light
object: presets, strategy names, ladder and report sections, nothing compiled)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as installed_version
from typing import Any

import typer

DISTRIBUTION = "board-game-balance-lab"


def version_text() -> str:
    """'board-game-balance-lab 0.1.0' and each installed game's behaviour version."""
    from sim.plugins import game_names, get_game
    from sim.plugins.base import version

    try:
        lab = installed_version(DISTRIBUTION)
    except PackageNotFoundError:  # run from a source tree that was never installed
        lab = "(not installed)"
    games = ", ".join(f"{name} {version(get_game(name))}" for name in game_names())
    return f"{DISTRIBUTION} {lab}\ngames (behaviour versions): {games}"


def print_games(name: str | None) -> None:
    """Every installed game (or the one named), as `sim games` lists them."""
    from sim.errors import SimError
    from sim.plugins import game_names, get_game

    if name and name not in game_names():
        raise SimError(f"no installed game is called {name!r}",
                       hint=f"Installed: {', '.join(game_names())}.")  # fmt: skip
    names = [name] if name else list(game_names())
    for i, game_name in enumerate(names):
        if i:
            typer.echo("")
        typer.echo("\n".join(describe(get_game(game_name))))
    if not name:
        typer.echo("\nA preset's name alone names its game (sim play --ruleset PRESET); "
                   "otherwise --game NAME, or `game:` in an experiment.")  # fmt: skip


def describe(game: Any) -> list[str]:
    """The lines of one game: its name and title, players, presets with their titles,
    strategies, ladder and continuous skill, outcomes, report sections."""
    from sim.plugins.base import outcomes, part, player_counts, strategy_names

    counts = player_counts(game)
    players = f"{min(counts)}-{max(counts)}" if len(counts) > 1 else str(counts[0])
    lines = [f"{game.name}: {game.title} ({players} players)", "  presets:"]
    width = max(len(p) for p in game.presets)
    lines += [f"    {p:{width}s}  {game.load_ruleset(p).title}" for p in game.presets]
    ladder = tuple(part(game, "skills"))
    others = [s for s in strategy_names(game) if s not in ladder]
    lines.append(f"  strategies: {', '.join(others) or '-'}")
    if ladder:
        lines.append(f"  skill ladder (weakest first): {', '.join(ladder)}")
    knob = part(game, "skill_knob")
    if knob is not None:
        points = ", ".join(f"{level} {at:g}" for level, at in part(game, "skill_points").items())
        on = f" ({points})" if points else ""
        lines.append(f"  continuous skill: {{name: {knob[0]}, {knob[1]}: 0..1}}{on}; "
                     "sim calibrate finds it")  # fmt: skip
    found = outcomes(game)
    if found:
        lines.append(f"  outcomes: {', '.join(found)}")
    sections = list(part(game, "report_sections"))
    lines.append(f"  report sections: {', '.join(sections) or '(the overview only)'}")
    return lines


__all__ = ["describe", "print_games", "version_text"]
