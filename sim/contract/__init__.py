"""`sim check GAME`: the contract every installed game must keep, checked on many random games
from many seeds. A plain-Python game (sim/plain/) shows its state and its rules step by step,
so each game is checked at every step (plain.py); a compiled game shows only whole games, so
what its plug-in exposes is checked (engine.py), and the report says what is not.

Each failure names the seed and, where known, the step, and the `sim play` command that plays
that very game again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sim.errors import ConfigError
from sim.games import get_game
from sim.games.base import StrategySpec, player_counts, strategy_names


@dataclass(frozen=True)
class Failure:
    seed: int
    step: int | None  # the decision (from 1; 0: the start) where it showed; None: the game
    message: str
    command: str  # `sim play ...` that plays the game again


@dataclass
class Contract:
    """What was checked, what failed, what could not be checked."""

    game: str
    games: int
    players: int
    lineup: tuple[str, ...]
    passed: list[str] = field(default_factory=list)  # each check that held, in words
    failures: list[Failure] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)  # what this game does not let us check

    @property
    def ok(self) -> bool:
        return not self.failures


MAX_SHOWN = 10  # failures printed in full; the rest are counted


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


def replay_command(game: str, lineup: Sequence[str], seed: int) -> str:
    """The `sim play` command that plays the game of `seed` again."""
    return f"sim play --game {game} --strategies {','.join(lineup)} --seed {seed}"


def describe(contract: Contract) -> str:
    """The contract's result as `sim check` prints it: failures first, then what held and
    what was not checked."""
    lines = [f"{contract.game}: {contract.games} games, {contract.players} players "
             f"({', '.join(contract.lineup)})"]  # fmt: skip
    for failure in contract.failures[:MAX_SHOWN]:
        where = "the game" if failure.step is None else f"step {failure.step}"
        where += " (the start)" if failure.step == 0 else ""
        lines += [f"FAIL seed {failure.seed}, {where}: {failure.message}",
                  f"     play it again: {failure.command}"]  # fmt: skip
    if len(contract.failures) > MAX_SHOWN:
        lines.append(f"... and {len(contract.failures) - MAX_SHOWN} more failures")
    lines += [f"ok   {check}" for check in contract.passed]
    lines += [f"not checked: {what}" for what in contract.unchecked]
    verdict = "passed" if contract.ok else f"FAILED ({len(contract.failures)} failures)"
    lines.append(f"{contract.game}: contract {verdict}")
    return "\n".join(lines)
