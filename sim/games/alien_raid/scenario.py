"""Executable alien-raid scenarios: a position, the hidden cards and dice fixed, the captains'
decisions, the expected result (format: docs/games/alien_raid/scenarios.md).

`run_file` plays a scenario and returns the result in the scenario format; `check_file`
compares it with the file's `expect:` and returns a readable diff ('' when it matches).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

import numpy as np
import yaml

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.events import Narrator
from sim.games.alien_raid.params import names, to_params
from sim.games.alien_raid.ruleset import check_players, load_ruleset
from sim.games.alien_raid.scenario_build import (
    CAPTAIN_KEYS,
    Reader,
    ScenarioError,
    check_keys,
    script_rows,
)
from sim.games.alien_raid.script import AWAITING, MISSED, S_REFUSE, S_TURN, S_USED
from sim.plugins.base import Scenarios
from sim.scenarios import entries_diff, expectation_diff, read_scenario, scenario_ruleset

TOP_KEYS = (
    "name",
    "game",
    "source",
    "ruleset",
    "rules",
    "seed",
    "turn",
    "tasks",
    "captains",
    "decks",
    "dice",
    "credits_left",
    "turns",
    "score",
    "decisions",
    "expect",
)
DECK_KEYS = ("ships", "red_ships", "cities", "armies", "compensations")
EXPECT_KEYS = ("captains", "events", "no_events", "error", "winners", "discard", "turn", "unasked")
__all__ = ["ScenarioError", "check_file", "run_file", "scenarios"]


def pl(seat: int, field: int) -> int:
    return L.S_PLAYERS + seat * L.PL_SIZE + field


class Scenario:
    def __init__(self, path: str) -> None:
        from sim.games.alien_raid.decide import make_ctx
        from sim.games.alien_raid.script import SCRIPT_KIND
        from sim.games.alien_raid.state import new_game
        from sim.random_streams import seed_streams

        self.path = path
        self.data = data = read_scenario(path, TOP_KEYS)
        self.ruleset = scenario_ruleset(data, path, load_ruleset, "alien-raid")
        self.names = names(self.ruleset.values)
        captains = data.get("captains") or []
        if not isinstance(captains, list) or not 2 <= len(captains) <= L.MAX_PLAYERS:
            raise ScenarioError("expected a list of 2 to 5 captains", file=path, key="captains")
        labels = [
            str(c.get("name", f"seat {i}")) if isinstance(c, Mapping) else ""
            for i, c in enumerate(captains)
        ]
        self.r = Reader(path, self.names, labels)
        check_players(self.ruleset, len(captains))
        self.p = to_params(self.ruleset.values)
        self.s = np.zeros(L.STATE_SIZE, np.int32)
        self.rng = np.zeros(L.STREAMS, np.uint64)
        seed_streams(self.rng, self.r.whole(data.get("seed", 0), "seed", 0, 2**62))
        new_game(self.s, self.p, len(captains), self.rng)
        self._position(captains)
        self.s[L.S_CHECKING] = 1  # every kept figure checked against one made anew
        ctx = make_ctx((), 1, script_rows(self.r, data.get("decisions")))
        ctx[0][:] = SCRIPT_KIND  # every captain answers from the script
        self.ctx = ctx
        self.log = np.zeros((L.MAX_EVENTS + 1, L.EV_SIZE), np.int32)
        self.expect = data.get("expect") or {}
        check_keys(self.r.mapping(self.expect, "expect"), EXPECT_KEYS, path, "expect.")

    # --- the position ----------------------------------------------------------------------

    def _position(self, captains: list) -> None:
        s, p, r, d = self.s, self.p, self.r, self.data
        turn = r.whole(d.get("turn", 1), "turn", 1, L.MAX_TURN)
        s[L.S_TURN] = turn
        if turn > p[L.P_RED_FROM_TURN]:  # the blue ships were set aside at the red turn
            s[L.S_BLUE_TOP] = s[L.S_BLUE_END]
        if "credits_left" in d:
            s[L.S_CREDITS_LEFT] = r.whole(d["credits_left"], "credits_left", 0, 100)
        named = r.items(d.get("tasks", []), "tasks")  # no task unless the scenario names one
        tasks = [r.pick(t, self.names.tasks, "task", "tasks") for t in named]
        s[L.S_TASKS : L.S_TASKS + len(tasks)] = tasks
        s[L.S_N_TASKS] = len(tasks)
        for seat, c in enumerate(captains):
            self._captain(seat, r.mapping(c, f"captains[{seat}]"))
        decks = r.mapping(d.get("decks") or {}, "decks")
        check_keys(decks, DECK_KEYS, self.path, "decks.")
        self._decks(decks, turn)
        dice = d.get("dice") or []
        if len(dice) > L.MAX_DICE or any(not isinstance(x, int) or not 1 <= x <= 6 for x in dice):
            raise r.fail(f"expected at most {L.MAX_DICE} dice, each 1..6", "dice")
        s[L.S_DICE_N] = len(dice)
        s[L.S_DICE : L.S_DICE + len(dice)] = dice

    def _captain(self, seat: int, c: Mapping) -> None:
        s, r = self.s, self.r
        key = f"captains[{seat}]"
        check_keys(c, CAPTAIN_KEYS, self.path, key + ".")
        humans = c.get("humans", int(self.p[L.P_START_HUMANS]))
        s[pl(seat, L.PL_HUMANS)] = r.whole(humans, f"{key}.humans", -(10**8), 10**8)
        s[pl(seat, L.PL_CREDITS)] = r.whole(c.get("credits", 0), f"{key}.credits", 0, 100)
        ships = [
            r.model(m, f"{key}.ships") for m in r.items(c.get("ships", ["training-saucer"]), key)
        ]
        stations = [r.model(m, f"{key}.stations") for m in r.items(c.get("stations", []), key)]
        if len(ships) > L.MAX_HAND or len(stations) > L.MAX_STATIONS:
            raise r.fail("too many ships or stations", key)
        for i in range(L.MAX_HAND):
            s[pl(seat, L.PL_HAND + i)] = ships[i] if i < len(ships) else -1
        for i in range(L.MAX_STATIONS):
            s[pl(seat, L.PL_STATIONS + i)] = stations[i] if i < len(stations) else -1
        for field, name in ((L.PL_COMPS, "cards"), (L.PL_COMPS_NEW, "new_cards")):
            for card in r.items(c.get(name, []), f"{key}.{name}"):
                s[
                    pl(
                        seat,
                        field
                        + r.pick(card, self.names.comps, "compensation card", f"{key}.{name}"),
                    )
                ] += 1
        cities = [r.city(x, f"{key}.cities") for x in r.items(c.get("cities", []), key)]
        s[pl(seat, L.PL_WON) : pl(seat, L.PL_WON) + len(cities)] = cities
        s[pl(seat, L.PL_N_WON)] = len(cities)

    def _decks(self, decks: Mapping, turn: int) -> None:
        s, p, names = self.s, self.p, self.names
        red = turn >= p[L.P_RED_FROM_TURN]
        top, end = (L.S_RED_TOP, L.S_RED_END) if red else (L.S_BLUE_TOP, L.S_BLUE_END)
        # key, deck, its top and end, what a card is, the card names
        stacks = [("ships", L.S_SHIPS, top, end, "ship or station", names.models)]
        if not red:  # the red deck's top, for a scenario that reaches the red turns
            stacks.append(("red_ships", L.S_SHIPS, L.S_RED_TOP, L.S_RED_END, "ship or station",
                           names.models))  # fmt: skip
        stacks += [
            ("cities", L.S_CITY_DECK, L.S_CITY_TOP, L.S_CITY_END, "city", names.cities),
            ("armies", L.S_ARMY_DECK, L.S_ARMY_TOP, L.S_ARMY_END, "army card", names.armies),
            ("compensations", L.S_COMP_DECK, L.S_COMP_TOP, L.S_COMP_END, "compensation",
             names.comps),
        ]  # fmt: skip
        stacked = {key: self._stack(decks, key, *deck) for key, *deck in stacks}
        per_turn = p[L.P_CITIES_PER_TURN + s[L.S_N_PLAYERS]]
        for i, c in enumerate(stacked["cities"]):
            self.r.spaces[(turn + i // per_turn, names.cities[c])] = i % per_turn

    def _stack(self, decks: Mapping, key: str, base: int, top: int, end: int, what: str,
               known: tuple[str, ...]) -> list[int]:  # fmt: skip
        """Bring the cards the scenario lists under decks.<key> to the top of the deck
        s[base+s[top]:base+s[end]], in order; returns them."""
        cards = [self.r.pick(x, known, what, f"decks.{key}")
                 for x in self.r.items(decks.get(key, []), key)]  # fmt: skip
        deck = self.s[base + self.s[top] : base + self.s[end]]
        for i, card in enumerate(cards):
            where = [j for j in range(i, len(deck)) if deck[j] == card]
            if not where:
                raise self.r.fail(
                    f"no {known[card]!r} left in that deck for card {i + 1}",
                    f"decks.{key}",
                    "Check the deck's colour, the player count's tags and the counts.",
                )
            j = where[0]
            deck[i], deck[j] = deck[j], deck[i]
        return cards

    # --- playing and the result --------------------------------------------------------------

    def make_moves(self) -> None:
        from sim.games.alien_raid.kernel import SCENARIO_TYPES, compiled, play_scenario

        turns = self.r.whole(self.data.get("turns", 1), "turns", 0, L.MAX_TURN)
        score = self.r.yes(self.data.get("score", False), "score")
        compiled(play_scenario, SCENARIO_TYPES)(self.s, self.p, self.rng, self.ctx, self.log,
                                                turns, score)  # fmt: skip

    def events(self) -> list[str]:
        army_attack = [int(self.p[L.P_ARMY_ATTACK + a]) for a in range(len(self.names.armies))]
        return Narrator(self.names, self.r.captains, army_attack).lines(self.log)

    def result(self) -> dict[str, Any]:
        from sim.games.alien_raid.scoring import winners_mask

        s, n = self.s, self.names
        out: dict[str, Any] = {
            "captains": [self._captain_state(k) for k in range(s[L.S_N_PLAYERS])]
        }
        out["turn"] = int(s[L.S_TURN])
        out["discard"] = sorted(
            m for i, m in enumerate(n.models) for _ in range(s[L.S_SHIP_DISCARD + i])
        )
        if s[L.S_STATUS] == L.OVER:
            mask = winners_mask(s, self.p)
            out["winners"] = [self.r.captains[k] for k in range(s[L.S_N_PLAYERS]) if mask >> k & 1]
        if s[L.S_ERROR] != L.OK:
            out["error"] = L.ERROR_NAMES[s[L.S_ERROR]]
        if s[L.S_DICE_SHORT]:
            out["error"] = "dice_exhausted"
        out["events"] = self.events()
        script = self.ctx[2]
        unasked = [self._row_text(row) for row in script if row[S_USED] == 0 and row[S_TURN] > 0]
        if unasked:
            out["unasked"] = unasked
        missed = [
            f"{self._row_text(row)}: expected the refusal {L.ERROR_NAMES[row[S_REFUSE]]}"
            for row in script
            if row[S_USED] in (AWAITING, MISSED)
        ]
        if missed:
            out["refusals_missed"] = missed
        return out

    def _row_text(self, row: np.ndarray) -> str:
        """A scripted decision the game never asked for (the scenario expects something else)."""
        from sim.games.alien_raid.scenario_build import PHASES

        phase = next(k for k, v in PHASES.items() if v == row[3])
        who = self.r.captains[row[2]] if row[2] >= 0 else "the winner"
        where = f" at space {row[4] + 1}" if row[4] >= 0 else ""  # -1 none, -2 anywhere
        return f"turn {row[1]}: {who}, {phase}{where}"

    def _captain_state(self, seat: int) -> dict[str, Any]:
        s, n = self.s, self.names

        def cards(field: int) -> list[str]:
            return [c for k, c in enumerate(n.comps) for _ in range(s[pl(seat, field + k)])]

        return {
            "name": self.r.captains[seat],
            "humans": int(s[pl(seat, L.PL_HUMANS)]),
            "ships": [
                n.models[m]
                for m in s[pl(seat, L.PL_HAND) : pl(seat, L.PL_HAND) + L.MAX_HAND]
                if m >= 0
            ],
            "stations": [
                n.models[m]
                for m in s[pl(seat, L.PL_STATIONS) : pl(seat, L.PL_STATIONS) + L.MAX_STATIONS]
                if m >= 0
            ],
            "cards": cards(L.PL_COMPS),
            "new_cards": cards(L.PL_COMPS_NEW),
            "credits": int(s[pl(seat, L.PL_CREDITS)]),
            "cities": [
                n.cities[c]
                for c in s[pl(seat, L.PL_WON) : pl(seat, L.PL_WON) + s[pl(seat, L.PL_N_WON)]]
            ],
        }


def run_file(path: str) -> str:
    scenario = Scenario(path)
    scenario.make_moves()
    doc = {"name": scenario.data.get("name", path), **scenario.result()}
    return yaml.safe_dump(doc, sort_keys=False, width=100, allow_unicode=True)


def check_file(path: str) -> str:
    scenario = Scenario(path)
    scenario.make_moves()
    return diff(scenario.expect, scenario.result())


def scenarios() -> Scenarios:
    """The plug-in's `scenarios`: `sim scenario` for files with `game: alien-raid`."""
    return Scenarios(run_file=run_file, check_file=check_file)


def diff(expect: Mapping[str, Any], got: Mapping[str, Any]) -> str:
    """Readable lines for every expected key that differs ('' when all match): a refusal or a
    scripted decision never asked for that the scenario did not expect come first."""
    lines = [f"  not refused as expected: {m}" for m in got.get("refusals_missed", [])]
    if "unasked" not in expect and "unasked" in got:
        lines += [f"  scripted decision never asked: {u}" for u in got["unasked"]]
    events = got["events"]
    compare = {
        "captains": partial(entries_diff, "captains"),
        "events": _missing_events,
        "no_events": lambda want, _: [f"  event not expected: {w!r}" for w in _texts(want)
                                      if any(w in e for e in events)],
    }  # fmt: skip
    found = expectation_diff(expect, got, compare=compare, refused="the game stopped")
    return "\n".join([*lines, found] if found else lines)


def _missing_events(want: list[str], got: list[str]) -> list[str]:
    """Every expected line must be part of an event, in this order."""
    i = 0
    for w in _texts(want):
        while i < len(got) and w not in got[i]:
            i += 1
        if i == len(got):
            return [
                f"  event not found (in order): {w!r}",
                "  events were:",
                *(f"    {e}" for e in got),
            ]
        i += 1
    return []


def _texts(want: Any) -> list[str]:
    """Expected event texts: a list of them (one text alone counts as a list of one)."""
    return [str(w) for w in (want if isinstance(want, list) else [want])]
