"""The rules of the coin race, one small function each (a toy: plain Python, no compiling).

Seats take turns. On its turn a player either steps (flips a coin: heads moves it one square)
or dashes (flips two coins: two heads move it `race.dash_gain` squares, anything else nothing).
The first to reach `race.length` wins; a game that reaches `race.turn_cap` turns ends in `cap`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

STEP, DASH = "step", "dash"
OUTCOMES = ("finished", "cap")


@dataclass
class State:
    positions: list[int]
    dashes: list[int]
    to_move: int = 0
    turns: int = 0
    winner: int | None = None
    log: list[str] = field(default_factory=list)


def new_game(players: int) -> State:
    return State(positions=[0] * players, dashes=[0] * players)


def move(state: State, rules, choice: str, rng: np.random.Generator) -> None:
    """The player to move steps or dashes; then the next seat is to move."""
    seat = state.to_move
    if choice == DASH:
        gain = rules["race.dash_gain"] if rng.random() < 0.5 and rng.random() < 0.5 else 0
        state.dashes[seat] += 1
    else:
        gain = 1 if rng.random() < 0.5 else 0
    state.positions[seat] += gain
    state.turns += 1
    did = "dashes" if choice == DASH else "steps"
    state.log.append(f"seat {seat + 1} {did}: +{gain} to square {state.positions[seat]}")
    if state.positions[seat] >= rules["race.length"]:
        state.winner = seat
    state.to_move = (seat + 1) % len(state.positions)


def over(state: State, rules) -> bool:
    return state.winner is not None or state.turns >= rules["race.turn_cap"]


def outcome(state: State) -> str:
    return "finished" if state.winner is not None else "cap"
