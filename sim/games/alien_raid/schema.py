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
from sim.rulesets import switch as _flag

_HUMANS = {"kind": "int", "min": 0, "max": 10_000_000}
_BY_PLAYERS = {"kind": "int_list", "length": 4}  # for 2, 3, 4 and 5 players


def _humans(slot: int, doc: str, *, plain: str) -> Field:
    return Field(**_HUMANS, slot=slot, doc=doc, plain=plain)


# Each key with its plain name (how a report, a tune or a compare page says it in a sentence;
# the key itself stays in tables).
SCHEMA: Schema = {
    "game.turns": Field("int", min=1, max=20, slot=L.P_TURNS, doc="turns of a game",
                        plain="the turns of a game"),
    "game.start_humans": _humans(L.P_START_HUMANS, "humans of every captain at the start",
                                 plain="the starting humans"),
    "game.red_from_turn": Field("int", min=1, max=21, slot=L.P_RED_FROM_TURN,
                                doc="first turn of the red decks",
                                plain="the red decks' first turn"),
    "game.cities_per_turn": Field(**_BY_PLAYERS, min=1, max=L.MAX_BOARD,
                                  slot=L.P_CITIES_PER_TURN + 2,
                                  doc="cities dealt per turn for 2, 3, 4, 5 players",
                                  plain="cities per turn"),
    "game.tasks_per_players": Field(**_BY_PLAYERS, min=0, max=L.MAX_TASKS,
                                    slot=L.P_TASKS_PER_PLAYERS + 2,
                                    doc="tasks in play for 2, 3, 4, 5 players",
                                    plain="tasks in play"),
    "fuel.start": Field("int", min=0, max=40, slot=L.P_FUEL_START,
                        doc="fuel limit of the first turn", plain="the first turn's fuel"),
    "fuel.step": Field("int", min=0, max=10, slot=L.P_FUEL_STEP, doc="fuel added every turn",
                       plain="fuel added per turn"),
    "fuel.max": Field("int", min=0, max=60, slot=L.P_FUEL_MAX,
                      doc="the fuel limit never exceeds this", plain="the fuel limit"),
    "hand.ships": Field("int", min=1, max=L.MAX_HAND, slot=L.P_HAND_SHIPS,
                        doc="ships a captain may hold", plain="ships in hand"),
    "hand.stations": Field("int", min=0, max=L.MAX_STATIONS, slot=L.P_HAND_STATIONS,
                           doc="orbital stations a captain may hold", plain="stations in hand"),
    "buy.max": Field("int", min=0, max=L.MAX_DRAWN, slot=L.P_BUY_MAX,
                     doc="cards bought per turn (of the two drawn)", plain="cards bought per turn"),
    "buy.station_redraw": Field("choice", choices=("off", "once", "repeat"), slot=L.P_REDRAW,
                                doc="two stations drawn: draw two more",
                                plain="the station redraw"),
    "credit.amount": _humans(L.P_CREDIT_AMOUNT, "humans a credit gives", plain="a credit's humans"),
    "credit.repay": _humans(L.P_CREDIT_REPAY, "humans repaid per credit",
                            plain="a credit's repayment"),
    "credit.humans_below": _humans(L.P_CREDIT_HUMANS, "a credit needs fewer humans than this",
                                   plain="the credit's humans threshold"),
    "credit.ships_below": Field("int", min=0, max=L.MAX_HAND + 1, slot=L.P_CREDIT_SHIPS,
                                doc="... and fewer ships than this",
                                plain="the credit's ships threshold"),
    "credit.condition": _flag(L.P_CREDIT_INCLUSIVE, "strict or inclusive thresholds",
                              ("less_than", "no_more_than"), "no_more_than",
                              plain="the credit's thresholds"),
    "credit.cards": Field("int", min=0, max=100, slot=L.P_CREDIT_CARDS,
                          doc="credits in a game (0 = unlimited)", plain="credits per game"),
    # the engine reads the choice's index: layout.REPAY_END, REPAY_EARLIEST, REPAY_CHOICE
    "credit.repay_when": Field("choice", choices=("end", "earliest", "choice"),
                               slot=L.P_CREDIT_REPAY_WHEN,
                               doc="by the end when chosen, only at the end, or at once",
                               plain="when credits are repaid"),
    "compensation.keep": _flag(L.P_COMP_NEXT_TURN_ONLY, "compensation cards expire or not",
                               ("forever", "next_turn"), "next_turn", plain="compensation cards"),
    "compensation.bonus_humans": _flag(L.P_BONUS_AT_ONCE, "bonus humans cashed when chosen",
                                       ("when_chosen", "at_once"), "at_once", plain="bonus humans"),
    "battle.losers_order": _flag(L.P_LOSERS_WEAKEST_FIRST, "losers lose and draw in this order",
                                 ("seat", "weakest_first"), "weakest_first",
                                 plain="the losers' order"),
    "battle.first_of_equals": _flag(L.P_EQUAL_BY_SEAT, "equal powers: who decides first",
                                    ("coin", "seat"), "seat",
                                    plain="who decides first among equals"),
    "fight.stations_to": _flag(L.P_BOOST_ANYONE, "who may play stations after a roll",
                               ("behind", "anyone"), "anyone", plain="who may play stations"),
    "fight.jam": _flag(L.P_JAM_BOOSTS, "what a jammer turns off",
                       ("bonuses", "bonuses_and_boosts"), "bonuses_and_boosts",
                       plain="what a jammer turns off"),
    "reward.lost_catch_card": _flag(L.P_LOST_CATCH_KEEPS, "a catch lost to an army",
                                    ("discarded", "kept"), "kept", plain="a lost catch's card"),
    "tasks.first": _humans(L.P_TASK_FIRST, "reward of a task's first place",
                           plain="a task's first reward"),
    "tasks.second": _humans(L.P_TASK_SECOND, "reward of a task's second place",
                            plain="a task's second reward"),
    "tasks.first_tie": _flag(L.P_TASK_HALF_EACH, "tied first places share both rewards",
                             ("split", "half_each"), "half_each", plain="tied first places"),
    "tasks.zero_counts": _flag(L.P_TASK_ZERO_COUNTS,
                               "a captain without a city of the task may place",
                               plain="a captain without the task's city"),
    "tasks.round_down_to": Field("int", min=1, max=100_000, slot=L.P_ROUND_TO,
                                 doc="shares rounded down to this", plain="the rounding of shares"),
    "end.tie": _flag(L.P_TIE_MOST_CITIES, "equal humans: shared win or tie-break",
                     ("share", "most_cities"), "most_cities", plain="a tie on humans"),
    "catalog.file": Field("str", doc="the card list: a shipped catalog's name or a YAML path",
                          plain="the card catalog"),
}  # fmt: skip


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
