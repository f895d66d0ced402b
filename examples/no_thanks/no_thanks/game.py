"""The rules of No Thanks!, against the lab's plain-Python interface (sim.plain): a table of
play as a state. Every rule and ruling with its rulebook line: rules.md beside this package.

One card lies face up with the chips paid onto it. The player to move either takes it, with
its chips, and turns up the next card (and decides again), or pays a chip onto it and the
turn passes left; a player without chips must take. When the last card is taken, each card
counts its number, a run of consecutive cards only its lowest, each chip one point off; the
fewest points win. Nine cards are set aside unseen: nobody knows which cards will come.

The lab's scores are higher-is-better, so a seat's score is its points negated.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from typing import NamedTuple

from sim.plain import Chance, State

TAKE, PASS = "take", "pass"
CARDS_IN_PLAY = 24  # the printed game's deck after the set-aside cards
BOTH, ONLY_TAKE = (TAKE, PASS), (TAKE,)


def points(cards: list[int], chips: int) -> int:
    """The rulebook's count: each card its number, a run of consecutive cards only its
    lowest, minus the chips. `cards` sorted."""
    return sum(c for i, c in enumerate(cards) if i == 0 or cards[i - 1] != c - 1) - chips


class View(NamedTuple):
    """What a seat sees (R4, R5): the card on offer and its chips, the cards left to turn
    up, everyone's cards, the chips (every seat's when they are open, else its own; None
    for a count it cannot see) and the seat to move."""

    offer: int
    pot: int
    cards_left: int
    taken: tuple[tuple[int, ...], ...]
    chips: tuple[int | None, ...]
    to_move: int


@dataclass
class Table(State):
    deck: list[int]  # face down, the next card first (hidden)
    set_aside: list[int]  # out of the game, unseen (hidden)
    offer: int  # the face-up card; 0 once the last card is taken
    chips: list[int]
    taken: list[list[int]]  # each seat's cards, sorted
    open_chips: bool = True
    ties: str = "share"  # (R9) a tie shares the win; "chips": the most chips among the tied
    pot: int = 0
    to_move: int = 0
    said: str = ""  # what the last action did, for `sim play`

    def actions(self) -> tuple[str, ...]:
        return BOTH if self.chips[self.to_move] else ONLY_TAKE  # no chip: it must take (R6)

    def apply(self, action: str, chance: Chance) -> None:
        seat = self.to_move
        if action == PASS:
            if not self.chips[seat]:
                raise ValueError("a player without chips must take the card")
            self.chips[seat] -= 1
            self.pot += 1
            self.said = f"pays a chip on {self.offer} ({self.pot} on it)"
            self.to_move = (seat + 1) % len(self.chips)
            return
        bisect.insort(self.taken[seat], self.offer)
        self.chips[seat] += self.pot
        self.said = f"takes {self.offer} and {self.pot} chips"
        self.pot = 0
        self.offer = self.deck.pop(0) if self.deck else 0  # the taker decides again (R7)

    def over(self) -> bool:
        return self.offer == 0

    def scores(self) -> list[int]:
        return [-points(cards, chips) for cards, chips in zip(self.taken, self.chips, strict=True)]

    def winners(self) -> list[int]:
        scores = self.scores()
        tied = [seat for seat, score in enumerate(scores) if score == max(scores)]
        if self.ties == "chips" and len(tied) > 1:
            most = max(self.chips[seat] for seat in tied)
            tied = [seat for seat in tied if self.chips[seat] == most]
        return tied

    def copy(self) -> Table:
        return Table(list(self.deck), list(self.set_aside), self.offer, list(self.chips),
                     [list(cards) for cards in self.taken], self.open_chips, self.ties,
                     self.pot, self.to_move, self.said)  # fmt: skip

    def observation(self, seat: int) -> View:
        if self.open_chips:
            chips = tuple(self.chips)
        else:  # R4: a seat sees its own count only
            chips = tuple(c if k == seat else None for k, c in enumerate(self.chips))
        return View(self.offer, self.pot, len(self.deck), tuple(map(tuple, self.taken)), chips,
                    self.to_move)  # fmt: skip

    def resample(self, seat: int, chance: Chance) -> Table:
        """The cards nobody has seen, the deck and those set aside, dealt again."""
        twin = self.copy()
        unseen = twin.deck + twin.set_aside
        chance.shuffle(unseen)
        twin.deck, twin.set_aside = unseen[: len(self.deck)], unseen[len(self.deck) :]
        return twin

    def value(self, seat: int) -> float:
        """A guess at `seat`'s share of the win from the points as they stand, a chip counted
        at more than its point while cards remain (it can still refuse one: 2 points at the
        start, 1 at the end), shares falling off by e for every 8 points behind."""
        return self.values()[seat]

    def values(self) -> list[float]:
        """Every seat's `value`: the standing is the same for all (the search asks for all)."""
        worth = 1.0 + len(self.deck) / CARDS_IN_PLAY
        standing = [worth * chips - points(cards, 0)
                    for cards, chips in zip(self.taken, self.chips, strict=True)]  # fmt: skip
        top = max(standing)
        weights = [math.exp((s - top) / 8) for s in standing]
        total = sum(weights)
        return [weight / total for weight in weights]

    def show(self) -> str:
        upcoming = f"; {self.offer} turned up" if self.offer and "takes" in self.said else ""
        return self.said + upcoming

    def seat_stats(self) -> dict[str, list[int]]:
        return {"cards": [len(cards) for cards in self.taken], "chips": list(self.chips)}
