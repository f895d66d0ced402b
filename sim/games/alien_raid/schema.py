"""Every alien-raid rule key: its type, range, meaning and the engine's params slot it is read
from (docs/games/alien_raid/rules.md gives the rulebook line and the ruling behind each), and the
checks across keys.

The card catalog is data a ruleset names (`catalog.file`); every field of every card becomes a
key `catalog.<section>.<card>.<field>` (catalog.py), so it is set like a rule key. Light:
plain names and offsets, nothing compiled.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from sim.config.fields import Field, Schema
from sim.games.alien_raid import layout as L
from sim.rulesets import named

_HUMANS = {"kind": "int", "min": 0, "max": 10_000_000}
_BY_PLAYERS = {"kind": "int_list", "length": 4}  # for 2, 3, 4 and 5 players


def _humans(slot: int, doc: str) -> Field:
    return Field(**_HUMANS, slot=slot, doc=doc)


def _flag(slot: int, doc: str, choices: tuple[str, ...] = (), flag: str = "") -> Field:
    """A switch the engine reads as 1 or 0 at `slot`: a bool, or a choice equal to `flag`."""
    if choices:
        return Field("choice", choices=choices, flag=flag, slot=slot, doc=doc)
    return Field("bool", slot=slot, doc=doc)


SCHEMA: Schema = {
    "game.turns": Field("int", min=1, max=20, slot=L.P_TURNS, doc="turns of a game"),
    "game.start_humans": _humans(L.P_START_HUMANS, "humans of every captain at the start"),
    "game.red_from_turn": Field("int", min=1, max=21, slot=L.P_RED_FROM_TURN,
                                doc="first turn of the red decks"),
    "game.cities_per_turn": Field(**_BY_PLAYERS, min=1, max=L.MAX_BOARD,
                                  slot=L.P_CITIES_PER_TURN + 2,
                                  doc="cities dealt per turn for 2, 3, 4, 5 players"),
    "game.tasks_per_players": Field(**_BY_PLAYERS, min=0, max=L.MAX_TASKS,
                                    slot=L.P_TASKS_PER_PLAYERS + 2,
                                    doc="tasks in play for 2, 3, 4, 5 players"),
    "fuel.start": Field("int", min=0, max=40, slot=L.P_FUEL_START,
                        doc="fuel limit of the first turn"),
    "fuel.step": Field("int", min=0, max=10, slot=L.P_FUEL_STEP, doc="fuel added every turn"),
    "fuel.max": Field("int", min=0, max=60, slot=L.P_FUEL_MAX,
                      doc="the fuel limit never exceeds this"),
    "hand.ships": Field("int", min=1, max=L.MAX_HAND, slot=L.P_HAND_SHIPS,
                        doc="ships a captain may hold"),
    "hand.stations": Field("int", min=0, max=L.MAX_STATIONS, slot=L.P_HAND_STATIONS,
                           doc="orbital stations a captain may hold"),
    "buy.max": Field("int", min=0, max=L.MAX_DRAWN, slot=L.P_BUY_MAX,
                     doc="cards bought per turn (of the two drawn)"),
    "buy.station_redraw": Field("choice", choices=("off", "once", "repeat"), slot=L.P_REDRAW,
                                doc="two stations drawn: draw two more"),
    "credit.amount": _humans(L.P_CREDIT_AMOUNT, "humans a credit gives"),
    "credit.repay": _humans(L.P_CREDIT_REPAY, "humans repaid per credit"),
    "credit.humans_below": _humans(L.P_CREDIT_HUMANS, "a credit needs fewer humans than this"),
    "credit.ships_below": Field("int", min=0, max=L.MAX_HAND + 1, slot=L.P_CREDIT_SHIPS,
                                doc="... and fewer ships than this"),
    "credit.condition": _flag(L.P_CREDIT_INCLUSIVE, "strict or inclusive thresholds",
                              ("less_than", "no_more_than"), "no_more_than"),
    "credit.cards": Field("int", min=0, max=100, slot=L.P_CREDIT_CARDS,
                          doc="credits in a game (0 = unlimited)"),
    # the engine reads the choice's index: layout.REPAY_END, REPAY_EARLIEST, REPAY_CHOICE
    "credit.repay_when": Field("choice", choices=("end", "earliest", "choice"),
                               slot=L.P_CREDIT_REPAY_WHEN,
                               doc="by the end when chosen, only at the end, or at once"),
    "compensation.keep": _flag(L.P_COMP_NEXT_TURN_ONLY, "compensation cards expire or not",
                               ("forever", "next_turn"), "next_turn"),
    "compensation.bonus_humans": _flag(L.P_BONUS_AT_ONCE, "bonus humans cashed when chosen",
                                       ("when_chosen", "at_once"), "at_once"),
    "battle.losers_order": _flag(L.P_LOSERS_WEAKEST_FIRST, "losers lose and draw in this order",
                                 ("seat", "weakest_first"), "weakest_first"),
    "battle.first_of_equals": _flag(L.P_EQUAL_BY_SEAT, "equal powers: who decides first",
                                    ("coin", "seat"), "seat"),
    "fight.stations_to": _flag(L.P_BOOST_ANYONE, "who may play stations after a roll",
                               ("behind", "anyone"), "anyone"),
    "fight.jam": _flag(L.P_JAM_BOOSTS, "what a jammer turns off",
                       ("bonuses", "bonuses_and_boosts"), "bonuses_and_boosts"),
    "reward.lost_catch_card": _flag(L.P_LOST_CATCH_KEEPS, "a catch lost to an army",
                                    ("discarded", "kept"), "kept"),
    "tasks.first": _humans(L.P_TASK_FIRST, "reward of a task's first place"),
    "tasks.second": _humans(L.P_TASK_SECOND, "reward of a task's second place"),
    "tasks.first_tie": _flag(L.P_TASK_HALF_EACH, "tied first places share both rewards",
                             ("split", "half_each"), "half_each"),
    "tasks.zero_counts": _flag(L.P_TASK_ZERO_COUNTS,
                               "a captain without a city of the task may place"),
    "tasks.round_down_to": Field("int", min=1, max=100_000, slot=L.P_ROUND_TO,
                                 doc="shares rounded down to this"),
    "end.tie": _flag(L.P_TIE_MOST_CITIES, "equal humans: shared win or tie-break",
                     ("share", "most_cities"), "most_cities"),
    "catalog.file": Field("str", doc="the card list: a shipped catalog's name or a YAML path"),
}  # fmt: skip

# Each key's name in a sentence (reports, tunes, compare pages); the key stays in tables.
SCHEMA = named(SCHEMA, {
    "game.turns": "the turns of a game", "game.start_humans": "the starting humans",
    "game.red_from_turn": "the red decks' first turn", "game.cities_per_turn": "cities per turn",
    "game.tasks_per_players": "tasks in play", "fuel.start": "the first turn's fuel",
    "fuel.step": "fuel added per turn", "fuel.max": "the fuel limit",
    "hand.ships": "ships in hand", "hand.stations": "stations in hand",
    "buy.max": "cards bought per turn", "buy.station_redraw": "the station redraw",
    "credit.amount": "a credit's humans", "credit.repay": "a credit's repayment",
    "credit.humans_below": "the credit's humans threshold",
    "credit.ships_below": "the credit's ships threshold",
    "credit.condition": "the credit's thresholds", "credit.cards": "credits per game",
    "credit.repay_when": "when credits are repaid", "compensation.keep": "compensation cards",
    "compensation.bonus_humans": "bonus humans", "battle.losers_order": "the losers' order",
    "battle.first_of_equals": "who decides first among equals",
    "fight.stations_to": "who may play stations", "fight.jam": "what a jammer turns off",
    "reward.lost_catch_card": "a lost catch's card", "tasks.first": "a task's first reward",
    "tasks.second": "a task's second reward", "tasks.first_tie": "tied first places",
    "tasks.zero_counts": "a captain without the task's city",
    "tasks.round_down_to": "the rounding of shares", "end.tie": "a tie on humans",
    "catalog.file": "the card catalog",
})  # fmt: skip


def cross_key_problems(values: Mapping[str, Any]) -> Iterator[tuple[tuple[str, ...], str]]:
    """Rules broken by a combination of keys: (the keys involved, what is wrong)."""
    if values["fuel.max"] < values["fuel.start"]:
        yield (
            ("fuel.max", "fuel.start"),
            f"fuel.max ({values['fuel.max']}) is below fuel.start ({values['fuel.start']})",
        )
    last = values["game.turns"] + 1
    if values["game.red_from_turn"] > last:
        yield (("game.red_from_turn", "game.turns"),
               f"game.red_from_turn is after the last turn: at most game.turns + 1 ({last}), "
               "which never uses the red decks")  # fmt: skip
