"""Exact values of Pig for the plain-Python Pig's tests: the optimal player's roll table and
the exact chance to win of each decision (roll or hold) at every position, from the compiled
Pig's value iteration (examples/pig: numpy, no compiled code), and the optimal policy as a
plain-game strategy (`tests.examples.pig_exact:Optimal`)."""

from __future__ import annotations

import functools

import numpy as np
from pig.ruleset import Rules
from pig.strategies.values import optimal_table, optimal_values

from sim.plain import Strategy


@functools.cache
def roll_table(goal: int, faces: int, bust: int) -> np.ndarray:
    """The optimal policy's roll table [my score, the opponent's, the turn total]."""
    return optimal_table(Rules(goal, faces, bust, head_start=0, turn_cap=1))


class Optimal(Strategy):
    """The policy that maximises the chance to win (Neller & Presser 2004)."""

    def choose(self, state, actions, chance):
        table = roll_table(state.goal, state.faces, state.bust)
        me = state.to_move
        return "roll" if table[state.banked[me], state.banked[1 - me], state.turn_total] else "hold"


@functools.cache
def decision_values(goal: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """(roll, hold): the exact chance to win, both players optimal from then on, of rolling
    and of holding at each position [i, j, k] of the printed die (k < goal - i)."""
    start = optimal_values(Rules(goal, 6, 1, head_start=0, turn_cap=1))
    after_hold = np.zeros((2 * goal + 7, goal))
    after_hold[:goal] = start.T  # [i + k, j] = the opponent's S[j, i + k]
    busted = 1.0 - start.T
    best = np.ones((goal, goal, goal + 7))  # beyond the goal: holding wins
    roll, hold = np.zeros((goal,) * 3), np.zeros((goal,) * 3)
    for k in range(goal - 1, 0, -1):
        roll[:, :, k] = (busted + sum(best[:, :, k + r] for r in range(2, 7))) / 6
        hold[:, :, k] = 1.0 - after_hold[k : k + goal]
        best[:, :, k] = np.maximum(roll[:, :, k], hold[:, :, k])
    return roll, hold
