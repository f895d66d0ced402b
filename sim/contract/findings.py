"""What `sim check` found: each failure with its seed, step and the `sim play` command that
plays that game again, what held and what could not be checked; in words as the command
prints it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


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
