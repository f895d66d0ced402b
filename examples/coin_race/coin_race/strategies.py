"""The coin race's players: `steady` always steps; `bold` dashes when it is behind."""

from __future__ import annotations

from coin_race.rules import DASH, STEP, State


def steady(state: State, seat: int) -> str:
    return STEP


def bold(state: State, seat: int) -> str:
    leader = max(state.positions)
    return DASH if state.positions[seat] < leader else STEP


STRATEGIES = {"steady": steady, "bold": bold}
SKILLS = ("steady", "bold")  # weakest first
