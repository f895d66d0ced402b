"""The rules of Pig, one small function each, in plain Python (README.md, "Rules").

Two players take turns. A turn is a run of die rolls: a face other than the bust face adds to
the turn total; the bust face ends the turn and the turn total is lost. After any roll that
did not bust, the player may hold instead of rolling again: the turn total is banked and the
turn passes. The first roll of a turn is compulsory (there is nothing to hold before it). A
player who banks `goal.points` or more wins. The second player may start with a head start.

These functions are the reference: `sim play` and the scenarios use them, and the compiled
loop (kernel.py) is checked against them game for game (tests/examples/test_pig_engine.py).
Besides the score, the state records how the game went: every seat's score after each round
(`rounds`, for the trajectory columns, course.py) and the turns in which a player had no real
choice (`no_choice_turns`, see `holding_wins`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pig.ruleset import Rules

OUTCOMES = ("win", "cap")  # somebody banked the goal; the safety cap on turns was reached


class IllegalMove(Exception):
    """A move the rules forbid (holding before the turn's first roll, moving after the end)."""


@dataclass
class State:
    scores: list[int]  # banked points per seat
    to_move: int = 0
    turn_total: int = 0  # points rolled this turn, not yet banked
    turns: int = 0  # turns ended so far (by a bust or a hold)
    rolls: int = 0
    busts: list[int] = field(default_factory=lambda: [0, 0])  # turns lost to the bust face
    # turns in which every decision the player faced was to hold and win, or none (the
    # compulsory first roll busted): the player could play the turn only one way
    no_choice_turns: list[int] = field(default_factory=lambda: [0, 0])
    chose: bool = False  # the turn in progress has offered a real choice
    rounds: list[list[int]] = field(default_factory=list)  # scores at the start, after each round
    winner: int | None = None
    log: list[str] | None = None  # what happened, when the game is watched


def new_game(rules: Rules, *, log: bool = False) -> State:
    """Seat 0 to move; seat 1 starts with the head start."""
    scores = [0, rules.head_start]
    return State(scores=scores, rounds=[list(scores)], log=[] if log else None)


def holding_wins(mine: int, turn_total: int, goal: int) -> bool:
    """Whether holding now banks the goal. Every player then holds (the roll tables say so,
    policy.py), so a decision where holding wins is no real choice; any other decision after
    a roll that did not bust is one (rolling on and holding lead to different games)."""
    return mine + turn_total >= goal


def roll(state: State, rules: Rules, face: int) -> None:
    """The player to move rolls `face`: the bust face loses the turn total and ends the turn;
    any other face adds to the turn total."""
    _check_not_over(state)
    seat = state.to_move
    state.rolls += 1
    if face == rules.bust:
        lost = f", loses {state.turn_total}" if state.turn_total else ""
        _say(state, f"seat {seat + 1} rolls {face}: bust{lost}")
        state.busts[seat] += 1
        _end_turn(state)
        return
    state.turn_total += face
    if not holding_wins(state.scores[seat], state.turn_total, rules.goal):
        state.chose = True
    _say(state, f"seat {seat + 1} rolls {face}: turn total {state.turn_total}")


def hold(state: State, rules: Rules) -> None:
    """The player to move banks the turn total; banking the goal wins."""
    _check_not_over(state)
    if state.turn_total == 0:
        raise IllegalMove("the first roll of a turn is compulsory: there is nothing to hold")
    seat = state.to_move
    if holding_wins(state.scores[seat], state.turn_total, rules.goal):
        state.winner = seat
    state.scores[seat] += state.turn_total
    _say(state, f"seat {seat + 1} holds {state.turn_total}: score {state.scores[seat]}")
    _end_turn(state)


def over(state: State, rules: Rules) -> bool:
    return state.winner is not None or state.turns >= rules.turn_cap


def outcome(state: State) -> str:
    return "win" if state.winner is not None else "cap"


def _end_turn(state: State) -> None:
    seat = state.to_move
    if not state.chose:
        state.no_choice_turns[seat] += 1
    if seat == 1:  # a round is over: both seats have played it
        state.rounds.append(list(state.scores))
    state.turn_total, state.chose = 0, False
    state.turns += 1
    state.to_move = 1 - seat


def _check_not_over(state: State) -> None:
    if state.winner is not None:
        raise IllegalMove(f"the game is over: seat {state.winner + 1} has won")


def _say(state: State, line: str) -> None:
    if state.log is not None:
        state.log.append(line)
