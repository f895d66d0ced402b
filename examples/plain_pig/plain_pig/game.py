"""Pig in plain Python: the whole game for the lab, against its plain interface (sim.plain).

Two players take turns. A turn is a run of die rolls: a face other than the bust face adds to
the turn total; the bust face ends the turn and loses the turn total. After any roll that did
not bust, the player may hold instead: the turn total is banked and the turn passes. The
first roll of a turn is compulsory. The first to bank `goal.points` wins; the second player
may start with a head start. (The rules and rulings: examples/pig/README.md.)

The dice are the lab's stream (`chance.die`), rolled as the compiled Pig rolls them, so the
same seed and the same decisions play the same game in both.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path

from sim.config.fields import Field
from sim.plain import Chance, PlainGame, State, Strategy, plug_in
from sim.rulesets import RulesetFamily

ROLL, HOLD = "roll", "hold"
FIRST_ROLL, EITHER = (ROLL,), (ROLL, HOLD)
HOLD_AT = 20


@functools.cache
def turn_worth(faces: int, bust: int) -> list[float]:
    """What holding at 20 banks on average from each turn total 0..20 (from 20 on: the turn
    total itself): a roll busts 1 time in `faces`, else adds its face."""
    worth = [float(k) for k in range(HOLD_AT + faces + 1)]
    for k in range(HOLD_AT - 1, -1, -1):
        worth[k] = sum(0.0 if face == bust else worth[k + face]
                       for face in range(1, faces + 1)) / faces  # fmt: skip
    return worth[: HOLD_AT + 1]


@dataclass
class Pig(State):
    goal: int
    faces: int
    bust: int
    turn_cap: int
    banked: list[int]
    to_move: int = 0
    turn_total: int = 0
    turns: int = 0
    busts: tuple[int, int] = (0, 0)
    said: tuple[int, int] = (0, 0)  # the last face rolled (0: a hold) and the turn total

    def actions(self) -> tuple[str, ...]:
        return FIRST_ROLL if self.turn_total == 0 else EITHER

    def apply(self, action: str, chance: Chance) -> None:
        seat = self.to_move
        face = chance.die(self.faces) if action == ROLL else 0
        if face == self.bust:
            self.busts = (self.busts[0] + (seat == 0), self.busts[1] + (seat == 1))
            self.turn_total = 0
        else:
            self.turn_total += face
        self.said = (face, self.turn_total)
        if face == self.bust or action == HOLD or self.banked[seat] + self.turn_total >= self.goal:
            self.banked[seat] += self.turn_total  # a hold (where holding wins, everyone holds)
            self.turn_total, self.turns, self.to_move = 0, self.turns + 1, 1 - seat

    def over(self) -> bool:
        return max(self.banked) >= self.goal or self.turns >= self.turn_cap

    def scores(self) -> list[int]:
        return self.banked

    def winners(self) -> list[int]:
        return [seat for seat in (0, 1) if self.banked[seat] >= self.goal]

    def outcome(self) -> str:
        return "win" if max(self.banked) >= self.goal else "cap"

    def copy(self) -> Pig:
        return Pig(self.goal, self.faces, self.bust, self.turn_cap, list(self.banked),
                   self.to_move, self.turn_total, self.turns, self.busts,
                   self.said)  # fmt: skip

    def value(self, seat: int) -> float:
        """A guess at `seat`'s chance to win: whoever needs fewer turns of about 8 points
        (what holding at 20 banks on average) to reach the goal is ahead; the player to move
        counts what holding at 20 would bank from its turn total (`turn_worth`)."""
        turn = turn_worth(self.faces, self.bust)
        mover, total = self.to_move, self.turn_total
        got = [self.banked[k] + (turn[min(total, HOLD_AT)] if k == mover else 0) for k in (0, 1)]
        need = [(self.goal - got[k]) / 8 for k in (0, 1)]
        lead = need[1 - seat] - need[seat]
        return 1.0 / (1.0 + math.exp(-lead / math.sqrt(1.0 + (need[0] + need[1]) / 4)))

    def show(self) -> str:
        face, total = self.said
        return (
            "bust"
            if face == self.bust
            else f"{face}, turn total {total}"
            if face
            else f"banks {total}"
        )

    def seat_stats(self) -> dict[str, tuple[int, int]]:
        return {"busts": self.busts}


class Hold(Strategy):
    """Roll until the turn total reaches `at` ("hold at 20": Neller & Presser 2004)."""

    PARAMS = {"at": 20}

    def choose(self, state: Pig, actions, chance) -> str:
        return ROLL if state.turn_total < self.params["at"] else HOLD


class PigGame(PlainGame):
    name = "plain-pig"
    title = "Pig (plain Python)"
    version = 1
    player_counts = (2,)
    outcomes = ("win", "cap")
    strategies = {"hold": Hold}
    demo_lineup = "club,hold"
    search_budget = 1000
    scoring_event, scoring_event_words = 20, "one hold at 20 points"
    rulesets = RulesetFamily(
        schema={
            "goal.points": Field(
                "int", min=2, max=1000, doc="the first to bank this many wins", plain="the goal"
            ),
            "die.faces": Field(
                "int", min=2, max=20, doc="a fair die numbered 1..faces", plain="the die's faces"
            ),
            "die.bust": Field(
                "int", min=1, max=20, doc="the face that ends the turn", plain="the bust face"
            ),
            "start.head_start": Field(
                "int",
                min=0,
                max=999,
                doc="the second player's points",
                plain="the second player's head start",
            ),
            "safety.turn_cap": Field(
                "int", min=1, max=10**7, doc="turns before outcome `cap`", plain="the turn cap"
            ),
        },
        presets=("plain-pig", "plain-piglet"),
        folder=Path(__file__).resolve().parent / "rulesets",
    )

    def start(self, rules, players: int, chance: Chance) -> Pig:
        return Pig(rules["goal.points"], rules["die.faces"], rules["die.bust"],
                   rules["safety.turn_cap"], [0, rules["start.head_start"]])  # fmt: skip


GAME = plug_in(PigGame)
