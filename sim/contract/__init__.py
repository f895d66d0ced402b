"""`sim check GAME`: the contract every installed game must keep, checked on many random games
from many seeds. A plain-Python game (sim/plain/) shows its state and its rules step by step,
so each game is checked at every step (plain.py); a compiled game shows only whole games, so
what its plug-in exposes is checked (engine.py), and the report says what is not.

Each failure names the seed and, where known, the step, and the `sim play` command that plays
that very game again.
"""

from __future__ import annotations

from collections.abc import Sequence

from sim.contract.findings import Contract, describe
from sim.errors import ConfigError
from sim.plugins import get_game
from sim.plugins.base import StrategySpec, player_counts, strategy_names

__all__ = ["Contract", "check_game", "describe"]


def check_game(name: str, *, games: int = 200, seed: int = 0, players: int | None = None,
               strategies: Sequence[str] = ()) -> Contract:  # fmt: skip
    """The contract of the installed game `name` on `games` games from seeds seed, seed+1, ...
    with `players` seats (default: the fewest it takes) played by `strategies` (default:
    random in every seat where the game has it)."""
    plugin = get_game(name, source="--game")
    counts = player_counts(plugin)
    players = players or min(counts)
    if players not in counts:
        raise ConfigError(f"{plugin.title} is not played by {players} players", key="--players",
                          hint=f"It takes {', '.join(map(str, counts))}.")  # fmt: skip
    if games < 1:
        raise ConfigError("check at least one game", key="--games")
    lineup = _lineup(plugin, players, strategies)
    from sim.plain.plugin import plain_game

    plain = plain_game(plugin)
    if plain is not None:
        from sim.contract.plain import check_plain

        return check_plain(plugin, plain, games=games, seed=seed, lineup=lineup)
    from sim.contract.engine import check_engine

    return check_engine(plugin, games=games, seed=seed, lineup=lineup)


def _lineup(plugin, players: int, strategies: Sequence[str]) -> tuple[str, ...]:
    names = list(strategies) or ["random" if "random" in strategy_names(plugin) else
                                 (plugin.skills or strategy_names(plugin))[0]]  # fmt: skip
    for name in names:
        plugin.check_strategy(StrategySpec(name), source="--strategies")
    return tuple(names[k % len(names)] for k in range(players))
