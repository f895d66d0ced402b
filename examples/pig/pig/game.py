"""One game of Pig in plain Python: the rules (rules.py) driven by the players' roll tables
and the dice. This is the reference the compiled loop (kernel.py) is checked against, the game
`sim play` shows, and the pure-Python speed that `sim bench --game pig` reports."""

from __future__ import annotations

from pig import rules as R
from pig.policy import rolls_again
from pig.ruleset import Rules


def play(rules: Rules, tables, dice, *, log: bool = False) -> R.State:
    """A whole game: seat k decides with tables[k]; dice roll the faces."""
    state = R.new_game(rules, log=log)
    while not R.over(state, rules):
        play_turn(state, rules, tables[state.to_move], dice)
    return state


def play_turn(state: R.State, rules: Rules, table, dice) -> None:
    """The player to move rolls or holds as `wants_roll` says until the turn ends."""
    seat = state.to_move
    while state.to_move == seat:
        if wants_roll(state, rules, table):
            R.roll(state, rules, dice.roll(rules.faces))
        else:
            R.hold(state, rules)


def wants_roll(state: R.State, rules: Rules, table) -> bool:
    """Whether the player to move rolls: the first roll of a turn is compulsory; after it,
    every player holds where holding wins, and elsewhere the player's table decides."""
    seat, total = state.to_move, state.turn_total
    mine, theirs = state.scores[seat], state.scores[1 - seat]
    if total == 0:
        return True
    return not R.holding_wins(mine, total, rules.goal) and rolls_again(table, mine, theirs, total)
