"""No Thanks! as a plug-in: its rule keys and presets, how a game starts, the game's own
player, and the plug-in object `sim` finds through the entry point (the rest, every command
and the generic players, comes from the lab: sim.plain.plug_in)."""

from __future__ import annotations

from pathlib import Path

from no_thanks.game import Table
from no_thanks.players import Thrifty
from sim.config.fields import Field
from sim.plain import Chance, PlainGame, plug_in
from sim.rulesets import RulesetFamily


def _enough_cards(values):
    if values["cards.highest"] - values["cards.lowest"] + 1 - values["cards.set_aside"] < 1:
        yield ("cards.set_aside",), "at least one card must be left to play"


class NoThanks(PlainGame):
    name = "no-thanks"
    title = "No Thanks!"
    version = 1
    player_counts = (3, 4, 5, 6, 7)
    strategies = {"thrifty": Thrifty}
    demo_lineup = "club,casual,thrifty"
    search_budget = 1000
    scoring_event, scoring_event_words = 8, "about one card of the middle of the deck, 8 points"
    rulesets = RulesetFamily(
        schema={
            "cards.lowest": Field(
                "int", min=1, max=200, doc="the lowest card of the deck", plain="the lowest card"
            ),
            "cards.highest": Field(
                "int", min=2, max=200, doc="the highest card", plain="the highest card"
            ),
            "cards.set_aside": Field(
                "int", min=0, max=199, doc="cards set aside unseen", plain="the cards set aside"
            ),
            "chips.per_player": Field(
                "int_list",
                min=0,
                max=1000,
                length=5,
                doc="each player's chips at 3, 4, 5, 6, 7 players",
                plain="the chips a player starts with",
            ),
            "chips.open": Field("bool", doc="every seat sees every chip count", plain="open chips"),
            "end.ties": Field(
                "choice",
                choices=("share", "chips"),
                doc="a tie shares the win, or the most chips break it",
                plain="how a tie ends",
            ),
        },  # fmt: skip
        presets=("no-thanks", "no-thanks-secret-chips"),
        folder=Path(__file__).resolve().parent / "rulesets",
        cross_checks=_enough_cards,
    )

    def start(self, rules, players: int, chance: Chance) -> Table:
        cards = list(range(rules["cards.lowest"], rules["cards.highest"] + 1))
        chance.shuffle(cards)  # (R2) the set-aside cards are dealt off unseen
        deck, aside = cards[rules["cards.set_aside"] :], cards[: rules["cards.set_aside"]]
        chips = rules["chips.per_player"][players - 3]
        return Table(deck[1:], aside, deck[0], [chips] * players, [[] for _ in range(players)],
                     rules["chips.open"], rules["end.ties"])  # fmt: skip


GAME = plug_in(NoThanks)
