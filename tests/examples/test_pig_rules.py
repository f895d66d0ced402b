"""Pig's rules traced by hand (examples/pig/pig/rules.py), and its dice: the lab's random
stream, the same in plain Python as compiled."""

from __future__ import annotations

import numpy as np
import pytest
from pig import rules as R
from pig.course import rows, summary
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
    assert (s.scores, s.rounds) == ([0, 5], [[0, 5]])


def _play(s: R.State, rules: Rules, moves) -> None:
    for move in moves:
        if move == "hold":
            R.hold(s, rules)
        else:
            R.roll(s, rules, move)


def test_the_lead_is_read_after_each_round():
    """The trajectory columns (course.py): the scores after each round, when both seats have
    played it; a lead taken and lost inside a round is not a change."""
    s = R.new_game(PIG)
    rounds = [  # (seat 1's moves, seat 2's moves): the scores after the round
        ((4, "hold"), (4, "hold")),  # 4-4: a tie, nobody leads
        ((2, "hold"), (5, "hold")),  # 6-9: seat 2 leads (seat 1 led 6-4 inside the round)
        ((1,), (6, 2, "hold")),  # 6-17: seat 2 still leads
        ((6, 6, 6, "hold"), (1,)),  # 24-17: seat 1 leads, a change
        ((5, "hold"), (6, 6, "hold")),  # 29-29: a tie neither counts nor forgets
        ((1,), (3, "hold")),  # 29-32: seat 2 leads, a change
    ]
    for first, second in rounds:
        _play(s, PIG, first)
        _play(s, PIG, second)
    assert s.rounds == [[0, 0], [4, 4], [6, 9], [6, 17], [24, 17], [29, 29], [29, 32]]
    lead_changes, at = summary(s)
    assert lead_changes == 2
    #   six rounds: a third is round 2, half round 3, two thirds round 4, before the last 5
    assert at == {"score_third": [6, 9], "score_half": [6, 17], "score_two_thirds": [24, 17],
                  "score_before_last_round": [29, 29]}  # fmt: skip


def test_a_round_cut_short_by_a_win_ends_the_track_and_forced_turns_are_counted():
    rules = Rules.of(RULESETS.load("pig", {"goal.points": 10}))
    s = R.new_game(rules)
    _play(s, rules, (6, "hold"))  # seat 1: 6 < 10, rolling on was a real choice
    _play(s, rules, (1,))  # seat 2 busts on the compulsory roll: no decision at all
    _play(s, rules, (4, "hold"))  # seat 1: 6 + 4 = 10, holding wins: no real choice
    assert (s.winner, s.turns, s.rounds) == (0, 3, [[0, 0], [6, 0]])
    assert rows(s) == [[0, 0], [6, 0], [10, 0]]  # round 2, cut short: the final scores
    #   two rounds: a third is the start, half, two thirds and before the last are round 1
    assert summary(s) == (0, {"score_third": [0, 0], "score_half": [6, 0],
                              "score_two_thirds": [6, 0],
                              "score_before_last_round": [6, 0]})  # fmt: skip
    assert s.no_choice_turns == [1, 1]


def test_a_turn_that_offers_a_real_choice_before_holding_wins_counts_as_a_choice():
    rules = Rules.of(RULESETS.load("pig", {"goal.points": 10}))
    s = R.new_game(rules)
    _play(s, rules, (5, 5, "hold"))  # 5: a real choice; 10: holding wins
    assert (s.winner, s.no_choice_turns) == (0, [0, 0])


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
