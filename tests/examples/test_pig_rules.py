"""Pig's rules traced by hand (examples/pig/pig/rules.py), and its dice: the lab's random
stream, the same in plain Python as compiled."""

from __future__ import annotations

import numpy as np
import pytest
from pig import rules as R
from pig.dice import Dice
from pig.ruleset import RULESETS, Rules

from sim.errors import ConfigError
from sim.random_streams import below, seed_streams

PIG = Rules.of(RULESETS.load("pig"))


def test_a_turn_rolls_then_holds():
    s = R.new_game(PIG)
    #   seat 1 rolls 4, 6: turn total 10, nothing banked yet
    R.roll(s, PIG, 4)
    R.roll(s, PIG, 6)
    assert (s.scores, s.turn_total, s.to_move) == ([0, 0], 10, 0)
    #   seat 1 holds: 10 banked, seat 2 to move
    R.hold(s, PIG)
    assert (s.scores, s.turn_total, s.to_move, s.turns) == ([10, 0], 0, 1, 1)


def test_the_bust_face_loses_the_turn_total():
    s = R.new_game(PIG)
    s.scores = [30, 12]
    #   seat 1: 5, 6 (11), then 1: the 11 are lost, seat 2 to move
    for face in (5, 6, 1):
        R.roll(s, PIG, face)
    assert (s.scores, s.turn_total, s.to_move, s.busts) == ([30, 12], 0, 1, [1, 0])


def test_banking_the_goal_wins_but_reaching_it_unbanked_does_not():
    s = R.new_game(PIG)
    s.scores = [95, 40]
    R.roll(s, PIG, 6)  # 95 + 6 = 101 on the turn: not banked
    assert s.winner is None
    R.roll(s, PIG, 1)  # bust: the 6 are lost
    assert (s.scores, s.winner) == ([95, 40], None)
    R.roll(s, PIG, 3)  # seat 2 ...
    R.hold(s, PIG)
    R.roll(s, PIG, 5)  # seat 1: 95 + 5 = 100, banked
    R.hold(s, PIG)
    assert (s.scores, s.winner, R.outcome(s)) == ([100, 43], 0, "win")
    with pytest.raises(R.IllegalMove, match="the game is over"):
        R.roll(s, PIG, 2)


def test_the_first_roll_of_a_turn_is_compulsory():
    s = R.new_game(PIG)
    with pytest.raises(R.IllegalMove, match="compulsory"):
        R.hold(s, PIG)


def test_the_second_player_starts_with_the_head_start():
    rules = Rules.of(RULESETS.load("pig", {"start.head_start": 5}))
    s = R.new_game(rules)
    assert (s.scores, s.leader) == ([0, 5], 1)


def test_lead_changes_count_the_strict_lead_passing_between_seats():
    s = R.new_game(PIG)
    turns = [
        ((4, "hold"), 0),  # 4-0: seat 1 takes the lead (not a change)
        ((4, "hold"), 0),  # 4-4: a tie changes nothing
        ((2, "hold"), 0),  # 6-4: seat 1 still leads
        ((5, "hold"), 1),  # 6-9: seat 2 leads, a change
        ((1,), 1),  # seat 1 busts
        ((6, 2, "hold"), 1),  # 6-17
        ((6, 6, "hold"), 2),  # 18-17: seat 1 leads again
    ]
    for moves, leads in turns:
        for move in moves:
            if move == "hold":
                R.hold(s, PIG)
            else:
                R.roll(s, PIG, move)
        assert s.lead_changes == leads, (s.scores, moves)


def test_a_bust_face_other_than_1_makes_1_score():
    rules = Rules.of(RULESETS.load("pig", {"die.bust": 6}))
    assert rules.gains == (1, 2, 3, 4, 5)
    s = R.new_game(rules)
    R.roll(s, rules, 1)
    R.roll(s, rules, 6)
    assert (s.scores, s.turn_total, s.to_move) == ([0, 0], 0, 1)


def test_a_bust_face_off_the_die_is_refused_naming_the_key():
    with pytest.raises(ConfigError, match="die.bust"):
        RULESETS.load("pig", {"die.bust": 7})
    with pytest.raises(ConfigError, match="start.head_start"):
        RULESETS.load("pig", {"start.head_start": 100})


@pytest.mark.parametrize("faces", [2, 6, 20])
def test_the_dice_are_the_labs_random_stream(faces):
    """Python's dice roll what the compiled loop draws from stream 0 for the same seed."""
    for seed in (0, 1, 2**63 + 12345, 2**64 - 1):
        rng = np.zeros(1, np.uint64)
        seed_streams(rng, np.uint64(seed))
        dice = Dice(seed)
        assert [dice.roll(faces) for _ in range(200)] == [
            int(below(rng, 0, faces)) + 1 for _ in range(200)
        ]


def test_the_dice_roll_every_face_about_equally_often():
    dice = Dice(7)
    counts = np.bincount([dice.roll(6) for _ in range(60_000)], minlength=7)[1:]
    assert counts.min() > 9_500 and counts.max() < 10_500  # 10,000 +- 5 sd
