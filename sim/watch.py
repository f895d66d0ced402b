"""`sim play` watches one game: told turn by turn, from a lineup or replayed from stored
results.

Keyword-only helpers the command line calls; the game itself is told by its plug-in (`watch`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.errors import SimError
from sim.faults import writing
from sim.plugins import game_for, get_game
from sim.plugins.base import StrategySpec, Watch, part, player_counts, prepare, watch


@dataclass(frozen=True)
class Watched:
    heading: str  # what was played: the ruleset's title and the seed (and where it was stored)
    watch: Watch
    title: str  # for the page


def watch_game(
    *,
    game: str | None,
    strategies: str | None,
    ruleset: str | None,
    overrides: list[str],
    seed: int,
    notice: Any = None,
) -> Watched:
    """The game of `seed` with the comma-separated `strategies` in seats 0, 1, ...; the game is
    `game`, else the game of the preset `ruleset`, else the default game."""
    plugin = game_for(game, ruleset)
    if not 0 <= seed < 2**64:
        raise SimError(f"a seed is a whole number in 0..2**64-1, got {seed}", key="--seed",
                       hint="For example --seed 7.")  # fmt: skip
    names = strategies if strategies is not None else part(plugin, "demo_lineup")
    if not names:
        raise SimError(
            "name the players", key="--strategies", hint="e.g. --strategies greedy,expert"
        )
    lineup = [StrategySpec(name.strip()) for name in names.split(",") if name.strip()]
    for spec in lineup:
        plugin.check_strategy(spec, source="--strategies")
    _check_players(plugin, len(lineup))
    rules = plugin.load_ruleset(ruleset or plugin.presets[0], overrides, source="--set")
    return _watched(plugin, rules, lineup, seed, notice, heading=f"{rules.title}, seed {seed}")


def replay_game(*, results: str, index: int, arm: str, notice: Any = None) -> Watched:
    """Game `index` of a stored run (of `arm`, default the first), played again exactly."""
    from sim.results import replay

    which = int(arm) if arm.isdigit() else (arm or None)
    stored = replay(results, index, which)
    plugin = get_game(stored.game_name, source=results)
    rules = plugin.load_ruleset(stored.ruleset_ref, stored.overrides, source=results)
    heading = (f"{results}: arm {stored.arm!r}, game {stored.game}\n"
               f"{rules.title}, seed {stored.seed}")  # fmt: skip
    return _watched(plugin, rules, list(stored.seats), stored.seed, notice, heading=heading)


def _check_players(plugin: Any, n: int) -> None:
    counts = player_counts(plugin)
    if n not in counts:
        raise SimError(
            f"{plugin.title} is played by {min(counts)} to {max(counts)} players, not {n}",
            key="--strategies",
            hint="Name one strategy per seat.",
        )


def _watched(plugin, rules, lineup, seed, notice, *, heading: str) -> Watched:
    prepare(plugin, lineup, notice=notice)
    return Watched(heading=heading, watch=watch(plugin, rules, lineup, seed),
                  title=f"{rules.title}, seed {seed}")  # fmt: skip


def write_page(watched: Watched, path: str) -> Path:
    """The stepping page of `watched`, written to `path` (its folder must exist)."""
    target = Path(path)
    if not target.parent.is_dir():
        raise SimError("no such folder", file=target.parent, key="--html",
                       hint="Create it first, or write the page elsewhere.")  # fmt: skip
    with writing("the game's page", target):
        target.write_text(watched.watch.html(watched.title), encoding="utf-8")
    return target
