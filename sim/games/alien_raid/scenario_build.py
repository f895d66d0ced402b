"""Reading an alien-raid scenario: the position (captains, the tops of the decks, the dice),
and the captains' decisions as a script for the compiled game (format:
docs/games/alien_raid/scenarios.md).
Every mistake is a ScenarioError naming the file and the key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sim.config.files import check_keys as config_check_keys
from sim.config.words import did_you_mean
from sim.games.alien_raid import layout as L
from sim.games.alien_raid.params import Names
from sim.games.alien_raid.script import ANYWHERE, PLAN_FUEL, S_REFUSE, S_VALUES, SCRIPT_WIDTH
from sim.scenarios import ScenarioError

CAPTAIN_KEYS = ("name", "humans", "ships", "stations", "cards", "new_cards", "credits", "cities")
PHASES = {
    "redraw": L.PH_REDRAW,
    "credit": L.PH_CREDIT,
    "buy": L.PH_BUY,
    "plan": L.PH_PLAN,
    "station_transfer": L.PH_STATION_TRANSFER,
    "ship_transfer": L.PH_SHIP_TRANSFER,
    "fight": L.PH_FIGHT,
    "boost": L.PH_BOOST,
    "lose": L.PH_LOSE_SHIP,
    "trophy": L.PH_TROPHY,
    "reward": L.PH_REWARD,
    "scan": L.PH_SCAN,
    "army": L.PH_ARMY,
    "cash": L.PH_CASH,
    "repay": L.PH_REPAY,
}
SEAT_PHASES = ("redraw", "credit", "buy", "plan", "station_transfer", "ship_transfer", "cash",
               "repay")  # fmt: skip
YES = {"yes": 1, "no": 0, "fight": 1, "retreat": 0, "catch": 1, "raid": 0, True: 1, False: 0}


class Reader:
    """Names to ids, with errors that name the scenario file and key."""

    def __init__(self, path: str, names: Names, captains: list[str]) -> None:
        self.path = path
        self.n = names
        self.captains = captains
        self.spaces: dict[tuple[int, str], int] = {}  # (turn, city name) -> board space

    def fail(self, message: str, key: str, hint: str | None = None) -> ScenarioError:
        return ScenarioError(message, file=self.path, key=key, hint=hint)

    def pick(self, value: Any, known: tuple[str, ...], what: str, key: str) -> int:
        if isinstance(value, str) and value in known:
            return known.index(value)
        raise self.fail(f"unknown {what} {value!r}", key, did_you_mean(str(value), known))

    def model(self, value: Any, key: str) -> int:
        return self.pick(value, self.n.models, "ship or station", key)

    def city(self, value: Any, key: str) -> int:
        return self.pick(value, self.n.cities, "city", key)

    def seat(self, value: Any, key: str) -> int:
        if (
            isinstance(value, int)
            and not isinstance(value, bool)
            and 0 <= value < len(self.captains)
        ):
            return value
        if value in self.captains:
            return self.captains.index(value)
        raise self.fail(f"unknown captain {value!r}", key, f"Captains: {', '.join(self.captains)}.")

    def space(self, turn: int, value: Any, key: str) -> int:
        """A city of that turn's board by name, or a 1-based space number."""
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= L.MAX_BOARD:
            return value - 1
        if isinstance(value, str) and (turn, value) in self.spaces:
            return self.spaces[(turn, value)]
        raise self.fail(
            f"{value!r} is not on the board in turn {turn}",
            key,
            "List it in decks.cities (the top cards are dealt first).",
        )

    def yes(self, value: Any, key: str) -> int:
        if isinstance(value, str | bool) and value in YES:
            return YES[value]
        raise self.fail(
            f"expected one of {', '.join(str(k) for k in YES if isinstance(k, str))}, "
            f"got {value!r}",
            key,
        )

    def whole(self, value: Any, key: str, low: int, high: int) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return value
        raise self.fail(f"expected a whole number {low}..{high}, got {value!r}", key)

    def count(self, value: Any, key: str) -> int:
        return self.whole(value, key, 0, 100)

    def mapping(self, value: Any, key: str) -> Mapping:
        if not isinstance(value, Mapping):
            raise self.fail("expected a mapping", key)
        return value

    def items(self, value: Any, key: str) -> list:
        if not isinstance(value, list):
            value = [value]
        return value


def check_keys(data: Any, allowed: tuple[str, ...], path: str, prefix: str) -> None:
    """Refuse a key not in `allowed` (or a value that is not a mapping), naming the file."""
    config_check_keys(data, allowed, file=path, where=prefix, error=ScenarioError)


def script_rows(r: Reader, decisions: Any) -> np.ndarray:
    """The decisions by turn and phase as script rows (sim/games/alien_raid/script.py). A
    turn's `refused:` answers come first: each must be refused with its error, and the
    decision is asked again."""
    rows: list[list[int]] = []
    if decisions is None:
        return np.zeros((1, SCRIPT_WIDTH), np.int32)
    for turn, phases in r.mapping(decisions, "decisions").items():
        key = f"decisions.{turn}"
        if not isinstance(turn, int) or isinstance(turn, bool):
            raise r.fail("expected a turn number", key)
        phases = r.mapping(phases, key)
        fuel = r.mapping(phases.get("fuel_cards") or {}, f"{key}.fuel_cards")
        refused = r.mapping(phases.get("refused") or {}, f"{key}.refused")
        for phase, value in refused.items():
            rows += _refused_rows(r, turn, _phase(r, phase, f"{key}.refused"), value,
                                  f"{key}.refused.{phase}")  # fmt: skip
        for phase, value in phases.items():
            if phase in ("fuel_cards", "refused"):
                continue
            rows += _phase_rows(r, turn, _phase(r, phase, key), value, fuel, f"{key}.{phase}")
    out = np.zeros((max(len(rows), 1), SCRIPT_WIDTH), np.int32)
    for i, row in enumerate(rows):
        out[i, : len(row)] = row
    return out


def _phase(r: Reader, phase: Any, key: str) -> str:
    if phase in PHASES:
        return phase
    raise r.fail("unknown decision", f"{key}.{phase}", did_you_mean(str(phase), list(PHASES)))


def _refused_rows(r: Reader, turn: int, phase: str, value: Any, key: str) -> list:
    """`refused: {<phase>: {<captain or city>: {error: <refusal>, answer: <as usual>}}}`:
    answers the rules must refuse, tried before the phase's own answers."""
    rows = []
    for who, spec in r.mapping(value, key).items():
        k = f"{key}.{who}"
        check_keys(r.mapping(spec, k), ("error", "answer"), r.path, k + ".")
        error = spec.get("error")
        if error not in L.ERROR_NAMES[1:]:
            raise r.fail("expected the refusal the rules give", f"{k}.error",
                         ", ".join(L.ERROR_NAMES[1:]))  # fmt: skip
        if "answer" not in spec:
            raise r.fail("expected the answer to refuse", f"{k}.answer")
        for row in _phase_rows(r, turn, phase, {who: spec["answer"]}, {}, key):
            row[S_REFUSE] = L.ERROR_NAMES.index(error)
            rows.append(row)
    return rows


def _row(turn: int, seat: int, phase: str, space: int, values: list[int]) -> list[int]:
    row = [0, turn, seat, PHASES[phase], space, 0, *values]
    return row + [-1] * (SCRIPT_WIDTH - len(row))


def _phase_rows(r: Reader, turn: int, phase: str, value: Any, fuel: Mapping, key: str) -> list:
    rows = []
    if phase in SEAT_PHASES:
        for who, what in r.mapping(value, key).items():
            seat = r.seat(who, f"{key}.{who}")
            space = ANYWHERE if phase == "cash" else -1
            values = _seat_values(r, turn, phase, what, fuel.get(who), f"{key}.{who}")
            rows.append(_row(turn, seat, phase, space, values))
        return rows
    for where, what in r.mapping(value, key).items():
        space = r.space(turn, where, f"{key}.{where}")
        k = f"{key}.{where}"
        if phase in ("reward", "army", "scan"):
            for i, item in enumerate(r.items(what, k)):
                v = item if phase == "scan" else r.yes(item, f"{k}[{i}]")
                v = (v - 1 if isinstance(v, int) else -1) if phase == "scan" else v
                rows.append(_row(turn, -1, phase, space, [v]))
        elif phase == "boost":
            for i, item in enumerate(r.items(what, k)):
                rows.append(_boost_row(r, turn, space, r.mapping(item, f"{k}[{i}]"), f"{k}[{i}]"))
        else:  # fight, lose, trophy: per captain
            for who, answer in r.mapping(what, k).items():
                seat = r.seat(who, f"{k}.{who}")
                for item in r.items(answer, f"{k}.{who}"):
                    v = (
                        r.model(item, f"{k}.{who}")
                        if phase == "lose"
                        else r.yes(item, f"{k}.{who}")
                    )
                    rows.append(_row(turn, seat, phase, space, [v]))
    return rows


def _boost_row(r: Reader, turn: int, space: int, item: Mapping, key: str) -> list[int]:
    check_keys(item, ("captain", "station", "card", "target", "ship"), r.path, key + ".")
    seat = r.seat(item.get("captain"), f"{key}.captain")
    if "station" in item:
        kind, model = 1, r.model(item["station"], f"{key}.station")
    else:
        kind, model = 2, r.pick(item.get("card"), r.n.comps, "compensation card", f"{key}.card")
    target = r.seat(item.get("target", seat), f"{key}.target")
    ship = r.model(item["ship"], f"{key}.ship") if "ship" in item else -1
    return _row(turn, seat, "boost", space, [kind, model, target if ship >= 0 else -1, ship])


def _seat_values(r: Reader, turn: int, phase: str, what: Any, fuel: Any, key: str) -> list[int]:
    if phase == "redraw":
        return [r.yes(what, key)]
    if phase in ("credit", "repay"):
        return [r.count(what, key)]
    if phase == "cash":
        return _cash_values(r, what, key)
    if phase == "buy":
        spec = what if isinstance(what, Mapping) else {"buy": what}
        check_keys(spec, ("buy", "room"), r.path, key + ".")
        buys = [r.model(m, f"{key}.buy") for m in r.items(spec.get("buy", []), key)]
        rooms = [r.model(m, f"{key}.room") for m in r.items(spec.get("room", []), key)]
        return (buys + [-1, -1])[:2] + (rooms + [-1, -1])[:2]
    if phase == "station_transfer":
        spec = r.mapping(what, key)
        check_keys(spec, ("captain", "ship", "to"), r.path, key + ".")
        return [
            1,
            r.seat(spec.get("captain"), f"{key}.captain"),
            r.model(spec.get("ship"), f"{key}.ship"),
            r.space(turn, spec.get("to"), f"{key}.to"),
        ]
    pairs: list[int] = []
    spec = r.mapping(what, key)
    if phase == "plan":  # city -> ships
        for where, ships in spec.items():
            space = r.space(turn, where, f"{key}.{where}")
            for m in r.items(ships, f"{key}.{where}"):
                pairs += [r.model(m, f"{key}.{where}"), space]
    else:  # ship_transfer: ship -> city
        for m, where in spec.items():
            pairs += [r.model(m, f"{key}.{m}"), r.space(turn, where, f"{key}.{m}")]
    values = [len(pairs) // 2, *pairs]
    if len(values) > PLAN_FUEL:
        raise r.fail("too many ships", key)
    values += [-1] * (PLAN_FUEL - len(values))
    if phase == "plan" and fuel:
        (card, count), *rest = r.mapping(fuel, key + ".fuel_cards").items()
        values += [r.pick(card, r.n.comps, "compensation card", key), r.count(count, key)]
    return values[: SCRIPT_WIDTH - S_VALUES]


def _cash_values(r: Reader, what: Any, key: str) -> list[int]:
    """Bonus-humans cards to cash, by compensation model: yes (-1: the default answer, every
    one held), no (none), or {card: count} (none of the others)."""
    if isinstance(what, Mapping):
        counts = [0] * L.MAX_COMP_MODELS
        for card, n in what.items():
            counts[r.pick(card, r.n.comps, "compensation card", key)] = r.count(n, f"{key}.{card}")
        return counts
    if r.yes(what, key):
        return [-1] * L.MAX_COMP_MODELS
    return [0] * L.MAX_COMP_MODELS
