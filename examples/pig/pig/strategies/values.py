"""Exact win probabilities in Pig by value iteration (Neller & Presser 2004, "Maximizing the
Probability of Winning"), vectorised with numpy over (my score i, the opponent's score j).

P[i, j, k] is the probability that the player to move, with banked score i, the opponent's j
and turn total k, wins. Rolling is worth (1/faces) * ((1 - S[j, i]) + sum over the other
faces r of P[i, j, k + r]) (the bust face hands the opponent the move at (j, i)); holding is
worth 1 - S[j, i + k], where S[i, j] = P[i, j, 0] is the value at the start of a turn (whose
first roll is compulsory) and S[j, m] = 0 for m >= goal (the opponent has lost). One pass
(`_turn`) computes P for every k from the top down given the opponent's S, each k at once
over all (i, j); passes repeat until S changes by less than `TOLERANCE`.

The optimal player takes the better of the two (`optimal_table`); a pair of roll tables is
evaluated exactly the same way with each decision read from its table (`first_player_wins`).
"""

from __future__ import annotations

import numpy as np

from pig.ruleset import Rules

TOLERANCE = 1e-12  # largest change of a start-of-turn value between passes at convergence
MAX_PASSES = 100_000  # far beyond what any ruleset of the schema needs (a safety net)


def _turn(rules: Rules, other: np.ndarray, table: np.ndarray | None,
          decisions: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
    """The start-of-turn values S[i, j] of the player to move, given the opponent's `other`;
    each decision from `table` (a roll table), or the better one (optimal play), written to
    `decisions` if given."""
    goal, faces, gains = rules.goal, rules.faces, rules.gains
    span = max(gains) + 1  # the ring keeps P[:, :, k + 1 .. k + span - 1]
    after_hold = np.zeros((2 * goal + faces, goal))
    after_hold[:goal] = other.T  # [i + k, j] = the opponent's S[j, i + k]
    busted = 1.0 - other.T  # [i, j] = 1 - S[j, i]
    ring = np.ones((span, goal, goal))  # beyond the goal: 1 (holding wins)
    for k in range(goal - 1, 0, -1):
        roll = (busted + sum(ring[(k + r) % span] for r in gains)) / faces
        hold = 1.0 - after_hold[k : k + goal]
        rolls = roll > hold if table is None else table[:, :, k] != 0
        if decisions is not None:
            decisions[:, :, k] = rolls
        ring[k % span] = np.where(rolls, roll, hold)
    return (busted + sum(ring[r % span] for r in gains)) / faces  # k = 0: the compulsory roll


def _converge(step, start: list[np.ndarray]) -> list[np.ndarray]:
    values = start
    for _ in range(MAX_PASSES):
        new = step(values)
        change = max(float(np.abs(a - b).max()) for a, b in zip(new, values, strict=True))
        values = new
        if change < TOLERANCE:
            return values
    raise RuntimeError(f"value iteration did not converge in {MAX_PASSES} passes")


def optimal_values(rules: Rules) -> np.ndarray:
    """S[i, j] under optimal play by both players (the same policy: the game is symmetric)."""
    half = np.full((rules.goal, rules.goal), 0.5)
    return _converge(lambda v: [_turn(rules, v[0], None)], [half])[0]


def optimal_table(rules: Rules) -> np.ndarray:
    """The optimal roll table: roll where rolling wins strictly more often than holding."""
    table = np.zeros((rules.goal,) * 3, np.uint8)
    _turn(rules, optimal_values(rules), None, decisions=table)
    return table


def pair_values(rules: Rules, first: np.ndarray, second: np.ndarray) -> list[np.ndarray]:
    """[S_first, S_second]: each player's start-of-turn values when the two roll tables play
    each other (S_first[i, j]: the first player to move with i against j)."""
    half = np.full((rules.goal, rules.goal), 0.5)

    def step(v: list[np.ndarray]) -> list[np.ndarray]:
        a = _turn(rules, v[1], first)
        return [a, _turn(rules, a, second)]

    return _converge(step, [half, half.copy()])


def first_player_wins(rules: Rules, first: np.ndarray, second: np.ndarray) -> float:
    """The exact probability that the first player (seat 0, table `first`) wins the game:
    from 0 against the second player's head start."""
    return float(pair_values(rules, first, second)[0][0, rules.head_start])
