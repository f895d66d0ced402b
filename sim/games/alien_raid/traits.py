"""The catalog's small language: what a card's text says, as codes for the compiled rules.

Ship traits (a list per ship):
    invulnerable                     the ship is never destroyed (the training saucer, FAQ)
    transfer                         after the reveal the ship may move to another city
    +3 attack                        always
    +3 attack if <cond> [and <cond>] when every condition holds ("-3 attack ..." too)
Conditions:
    city is <type> | city is not <type> | city in <region> | city not in <region>
    city is red | city is blue       the city's deck
    with <class> | without <class>   another ship of that class in the group (or none)
    alone | group of <n> or more     the group's size
    vs army | vs captain             catching (army) or battling another captain
Station effects (stations are used once per turn, rulebook line 150):
    +3 attack to one of your ships   after the roll, in a fight (the Paris example)
    jam one enemy ship               after the roll: its printed attack bonuses are off
    move one enemy ship to another city      after the reveal (FAQ: stations play first)
    -1 attack to every enemy ship    after the roll, in a battle between captains
    discard one army card            when catching, before the first army fight
    +2 fuel                          every turn
Compensation effects: +2 fuel | +20000 humans | take the city | +3 attack to one of your ships
Tasks count the city cards a condition holds for: city is <type> | city in <region> | any city
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from sim.config.words import did_you_mean
from sim.games.alien_raid import layout as L

DECK_COLOURS = ("blue", "red")


class LanguageError(ValueError):
    """A card text the language does not know; `hint` suggests the closest form."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


@dataclass(frozen=True)
class Vocabulary:
    """The words a catalog declares: city regions and types, ship classes."""

    regions: tuple[str, ...]
    types: tuple[str, ...]
    classes: tuple[str, ...]


@dataclass(frozen=True)
class Trait:
    kind: str  # attack | invulnerable | transfer
    value: int = 0
    conditions: tuple[tuple[int, int], ...] = ()


_ATTACK = re.compile(r"^([+-]\d+) attack(?: if (.+))?$")
_GROUP = re.compile(r"^group of (\d+) or more$")
_SIGNED = re.compile(r"^\+(\d+) (fuel|humans)$")
_BOOST = re.compile(r"^\+(\d+) attack to one of your ships$")
_WEAKEN = re.compile(r"^-(\d+) attack to every enemy ship$")

TRAIT_FORMS = ("invulnerable", "transfer", "+N attack", "+N attack if <condition>")
CONDITION_FORMS = (
    "city is <type>",
    "city is not <type>",
    "city in <region>",
    "city not in <region>",
    "city is red",
    "city is blue",
    "with <class>",
    "without <class>",
    "alone",
    "group of <n> or more",
    "vs army",
    "vs captain",
)
STATION_FORMS = (
    "+N attack to one of your ships",
    "jam one enemy ship",
    "move one enemy ship to another city",
    "-N attack to every enemy ship",
    "discard one army card",
    "+N fuel",
)
# the phrases that take no argument, and their codes
_CONDITION_PHRASES = {"alone": L.C_ALONE, "vs army": L.C_VS_ARMY, "vs captain": L.C_VS_CAPTAIN}
_STATION_PHRASES = {
    "jam one enemy ship": L.ST_JAM,
    "move one enemy ship to another city": L.ST_TRANSFER,
    "discard one army card": L.ST_SCAN,
}
COMP_FORMS = ("+N fuel", "+N humans", "take the city", "+N attack to one of your ships")


def _unknown(what: str, text: str, forms: Sequence[str]) -> LanguageError:
    hint = did_you_mean(text, forms, then=f"Known forms: {', '.join(forms)}.")
    return LanguageError(f"unknown {what} '{text}'", hint)


def _words(text: object) -> str:
    if not isinstance(text, str):
        raise LanguageError(f"expected a text, got {text!r}")
    return " ".join(text.strip().lower().split())


def _choose(word: str, known: Sequence[str], what: str) -> int:
    if word in known:
        return known.index(word)
    hint = did_you_mean(word, known, otherwise=f"Known {what}s: {', '.join(known)}.")
    raise LanguageError(f"unknown {what} '{word}'", hint)


def parse_condition(text: str, vocab: Vocabulary) -> tuple[int, int]:
    """One condition as (L.C_* code, argument)."""
    t = _words(text)
    if t in _CONDITION_PHRASES:
        return _CONDITION_PHRASES[t], 0
    if t in ("city is red", "city is blue"):
        return L.C_CITY_DECK, 1 + DECK_COLOURS.index(t.rsplit(" ", 1)[1])
    if m := _GROUP.match(t):
        return L.C_GROUP_AT_LEAST, int(m.group(1))
    for prefix, code, words, what in (
        ("city is not ", L.C_CITY_NOT_TYPE, vocab.types, "city type"),
        ("city is ", L.C_CITY_TYPE, vocab.types, "city type"),
        ("city not in ", L.C_CITY_NOT_REGION, vocab.regions, "region"),
        ("city in ", L.C_CITY_REGION, vocab.regions, "region"),
        ("without ", L.C_WITHOUT, vocab.classes, "ship class"),
        ("with ", L.C_WITH, vocab.classes, "ship class"),
    ):
        if t.startswith(prefix):
            return code, _choose(t[len(prefix) :], words, what)
    raise _unknown("condition", t, CONDITION_FORMS)


def parse_trait(text: str, vocab: Vocabulary) -> Trait:
    t = _words(text)
    if t in ("invulnerable", "transfer"):
        return Trait(t)
    m = _ATTACK.match(t)
    if not m:
        raise _unknown("trait", t, TRAIT_FORMS)
    conditions = (
        tuple(parse_condition(c, vocab) for c in m.group(2).split(" and ")) if m.group(2) else ()
    )
    if len(conditions) > L.MAX_CONDS:
        raise LanguageError(
            f"a trait takes at most {L.MAX_CONDS} conditions, got {len(conditions)}"
        )
    return Trait("attack", int(m.group(1)), conditions)


def parse_station(text: str) -> tuple[int, int]:
    """A station's effect as (L.ST_* code, value)."""
    t = _words(text)
    if t in _STATION_PHRASES:
        return _STATION_PHRASES[t], 0
    if m := _BOOST.match(t):
        return L.ST_BOOST, int(m.group(1))
    if m := _WEAKEN.match(t):
        return L.ST_WEAKEN, int(m.group(1))
    m = _SIGNED.match(t)
    if m and m.group(2) == "fuel":
        return L.ST_FUEL, int(m.group(1))
    raise _unknown("station effect", t, STATION_FORMS)


def parse_compensation(text: str) -> tuple[int, int]:
    """A compensation card's effect as (L.CP_* code, value)."""
    t = _words(text)
    if t == "take the city":
        return L.CP_TROPHY, 0
    if m := _BOOST.match(t):
        return L.CP_ATTACK, int(m.group(1))
    if m := _SIGNED.match(t):
        return (L.CP_FUEL if m.group(2) == "fuel" else L.CP_HUMANS), int(m.group(1))
    raise _unknown("compensation effect", t, COMP_FORMS)


_CITY_CONDITIONS = (
    L.C_CITY_TYPE,
    L.C_CITY_NOT_TYPE,
    L.C_CITY_REGION,
    L.C_CITY_NOT_REGION,
    L.C_CITY_DECK,
)


def parse_task(text: str, vocab: Vocabulary) -> tuple[int, int]:
    """What a task counts: a city condition (L.C_NONE for any city)."""
    t = _words(text)
    if t == "any city":
        return L.C_NONE, 0
    code, arg = parse_condition(t, vocab)
    if code not in _CITY_CONDITIONS:
        raise LanguageError(
            f"a task counts city cards: '{t}' is not about a city",
            "For example 'city in europe' or 'city is scientific'.",
        )
    return code, arg
