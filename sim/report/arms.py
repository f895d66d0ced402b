"""Arms named in words: what an arm changes against another (the baseline), said with a game's
phrasebook ("the mine moves 2 cells"), the arm's key beside it. Nothing here knows a game: the
phrasebook (rule key -> how to say a value) comes from the section."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sim.report.context import LINEUP as SEATS  # the column of named arms that change the players
from sim.report.context import Context
from sim.report.plain import Plain

Phrasebook = Mapping[str, Callable[[Any], str]]


def differences(ctx: Context, arm: str, base: str) -> dict[str, tuple[Any, Any]]:
    """key -> (baseline value, arm value) for every stored setting the arm changes."""
    a, b = ctx.arm_values(arm), ctx.arm_values(base)
    return {k: (b.get(k), a[k]) for k in a if k != "arm" and a.get(k) != b.get(k)}


def seat_change(old: Any, new: Any) -> str:
    """'greedy plays instead of miner' from two comma-joined lineups."""
    before = [s.strip() for s in str(old or "").split(",")]
    after = [s.strip() for s in str(new or "").split(",")]
    if len(before) != len(after):
        return f"players {new}"
    swaps = list(
        dict.fromkeys(
            f"{n} plays instead of {o}" for o, n in zip(before, after, strict=True) if o != n
        )
    )
    return ", ".join(swaps) or "the same players"


def phrase(key: str, value: Any, phrases: Phrasebook, plain: Plain | None = None) -> str:
    """A setting in words: the game's phrase for the key, else its plain name and value."""
    say = phrases.get(key)
    if say is not None:
        return say(value)
    return (plain or Plain()).when(key, value)


def describe(ctx: Context, arm: str, base: str, phrases: Phrasebook) -> str:
    """The arm's differences from `base` in words; '' when nothing stored differs."""
    parts = []
    for key, (old, new) in differences(ctx, arm, base).items():
        said = seat_change(old, new) if key == SEATS else phrase(key, new, phrases, ctx.plain)
        parts.append(said)
    return "; ".join(parts)


def named(ctx: Context, arm: str, base: str, phrases: Phrasebook) -> str:
    """'the mine moves 2 cells (mine_step_2)': words first, the key beside them."""
    if arm == base:
        return f"the baseline ({arm})"
    words = describe(ctx, arm, base, phrases)
    return f"{words} ({arm})" if words and words != arm else arm
