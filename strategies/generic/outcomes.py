"""What the generic players read of any state: a seat's share of a finished game's win (a
shared win splits it), every seat's at once, and whether the game hides anything."""

from __future__ import annotations

from sim.plain.game import State, overrides


def shares(state: State, players: int) -> list[float]:
    """Each seat's share of the win of a finished game: 1/k to each of k winners."""
    winners = state.winners()
    out = [0.0] * players
    for seat in winners:
        out[seat] = 1.0 / len(winners)
    return out


def share(state: State, seat: int) -> float:
    """`seat`'s share of the win of a finished game."""
    winners = state.winners()
    return 1.0 / len(winners) if seat in winners else 0.0


def has_hidden(state: State) -> bool:
    """Whether the game hides something from a seat (its state writes `resample`)."""
    return overrides(state, "resample")


def has_value(state: State) -> bool:
    """Whether the game gives a heuristic (its state writes `value`)."""
    return overrides(state, "value")
