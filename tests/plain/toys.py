"""Small plain-Python games for the tests of sim/plain/, each a few lines:

- `Race`: players in turn add 1 or 2 to a shared count; whoever brings it to the target wins
  (perfect information, no chance; from a count a multiple of 3 below the target the player
  to move loses against perfect play);
- `Coin`: a coin is flipped face down; the player guesses heads or tails and wins on a right
  guess (hidden from the only seat: any honest player wins half the time);
- `Dice`: each seat rolls a die per turn and adds it to its score, or stops; the game is
  decided after three rounds (chance, a real choice each turn).

`broken(kind)` makes a game that breaks one rule of the contract (sim check must find it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from sim.config.fields import Field
from sim.plain import PlainGame, State, Strategy
from sim.rulesets import RulesetFamily

FOLDER = Path(__file__).resolve().parent / "rulesets"


@dataclass
class RaceState(State):
    target: int
    count: int = 0
    to_move: int = 0
    players: int = 2
    last: int = -1  # the seat that moved last

    def actions(self):
        return (1, 2) if self.count + 2 <= self.target else (1,)

    def apply(self, action, chance):
        self.count += action
        self.last, self.to_move = self.to_move, (self.to_move + 1) % self.players

    def over(self):
        return self.count >= self.target

    def scores(self):
        return [1 if self.over() and seat == self.last else 0 for seat in range(self.players)]

    def copy(self):
        return RaceState(self.target, self.count, self.to_move, self.players, self.last)

    def describe(self, action):
        return f"add {action}"


class Race(PlainGame):
    name, title = "race-toy", "Race to a count"
    player_counts = (2, 3)
    search_budget = 200
    rulesets = RulesetFamily(
        schema={"race.target": Field("int", min=1, max=1000, doc="the count to reach")},
        presets=("race-toy",),
        folder=FOLDER,
    )

    def start(self, rules, players, chance):
        return RaceState(rules["race.target"], players=players)


@dataclass
class CoinState(State):
    coin: str = ""  # hidden from the seat until the end
    guess: str = ""
    to_move: int = 0

    def actions(self):
        return ("heads", "tails")

    def apply(self, action, chance):
        self.guess = action

    def over(self):
        return bool(self.guess)

    def scores(self):
        return [1 if self.guess == self.coin else 0]

    def winners(self):
        return [0] if self.guess == self.coin else []

    def copy(self):
        return CoinState(self.coin, self.guess)

    def observation(self, seat):
        return self.guess

    def resample(self, seat, chance):
        return CoinState(chance.pick(("heads", "tails")), self.guess)


class Coin(PlainGame):
    name, title = "coin-toy", "Guess the coin"
    player_counts = (1,)
    search_budget = 50
    rulesets = RulesetFamily(
        schema={"coin.sides": Field("int", min=2, max=2, doc="a coin")},
        presets=("coin-toy",),
        folder=FOLDER,
    )

    def start(self, rules, players, chance):
        return CoinState(chance.pick(("heads", "tails")))


@dataclass
class DiceState(State):
    scores_: list = field(default_factory=lambda: [0, 0])
    stopped: list = field(default_factory=lambda: [False, False])
    turns: int = 0
    to_move: int = 0

    def actions(self):
        return ("roll", "stop")

    def apply(self, action, chance):
        seat = self.to_move
        if action == "roll":
            self.scores_[seat] += chance.die(6)
        else:
            self.stopped[seat] = True
        self.turns += 1
        self.to_move = 1 - seat

    def over(self):
        return self.turns >= 6 or all(self.stopped)

    def scores(self):
        return self.scores_

    def copy(self):
        return DiceState(list(self.scores_), list(self.stopped), self.turns, self.to_move)


class Dice(PlainGame):
    name, title = "dice-toy", "Three rounds of dice"
    search_budget = 50
    rulesets = RulesetFamily(
        schema={"dice.faces": Field("int", min=6, max=6, doc="a six-sided die")},
        presets=("dice-toy",),
        folder=FOLDER,
    )

    def start(self, rules, players, chance):
        return DiceState()


class Always(Strategy):
    """Plays the action named `pick` (an index into the legal actions)."""

    PARAMS = {"pick": 0}

    def choose(self, state, actions, chance):
        return actions[int(self.params["pick"]) % len(actions)]


# --- games that break the contract ----------------------------------------------------------


@dataclass
class SharedCopy(RaceState):
    history: list = field(default_factory=list)

    def apply(self, action, chance):
        super().apply(action, chance)
        self.history.append(action)

    def copy(self):  # shares the history list: playing on the original changes the copy
        return SharedCopy(self.target, self.count, self.to_move, self.players, self.last,
                          self.history)  # fmt: skip


@dataclass
class OffersTooMuch(RaceState):
    def actions(self):
        return (1, 2, 3)

    def apply(self, action, chance):
        if self.count + action > self.target:
            raise ValueError(f"{self.count} + {action} passes the target")
        super().apply(action, chance)

    def copy(self):
        return OffersTooMuch(self.target, self.count, self.to_move, self.players, self.last)


@dataclass
class NeverEnds(RaceState):
    def apply(self, action, chance):
        self.to_move = 1 - self.to_move  # the count never moves

    def copy(self):
        return NeverEnds(self.target, self.count, self.to_move, self.players, self.last)


@dataclass
class OutsideChance(RaceState):
    def apply(self, action, chance):
        super().apply(random.choice((1, 2)), chance)  # not the lab's stream: no replay

    def copy(self):
        return OutsideChance(self.target, self.count, self.to_move, self.players, self.last)


@dataclass
class Peeks(CoinState):
    def observation(self, seat):
        return (self.guess, self.coin)  # shows the seat the hidden coin

    def resample(self, seat, chance):
        return Peeks(chance.pick(("heads", "tails")), self.guess)

    def copy(self):
        return Peeks(self.coin, self.guess)


@dataclass
class ValuesDisagree(RaceState):
    def value(self, seat):
        return self.count / self.target if seat == self.to_move else 0.5

    def values(self):  # the seats the other way round
        return [self.value(self.players - 1 - seat) for seat in range(self.players)]

    def copy(self):
        return ValuesDisagree(self.target, self.count, self.to_move, self.players, self.last)


BROKEN = {"shared-copy": (Race, SharedCopy), "offers-too-much": (Race, OffersTooMuch),
          "never-ends": (Race, NeverEnds), "outside-chance": (Race, OutsideChance),
          "peeks": (Coin, Peeks), "values-disagree": (Race, ValuesDisagree)}  # fmt: skip


def broken(kind: str) -> PlainGame:
    """A game whose state breaks one rule of the contract (`BROKEN`)."""
    base, state_class = BROKEN[kind]

    class Broken(base):  # type: ignore[valid-type, misc]
        name = f"broken-{kind}"
        max_steps = 500

        def start(self, rules, players, chance):
            made = base.start(self, rules, players, chance)
            return state_class(**vars(made))

    return Broken()
