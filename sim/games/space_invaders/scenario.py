"""Executable scenarios for Space Invaders: a position, where each launch lands, and the
position expected after the resolution, the advance or the whole round
(docs/games/space_invaders/rules.md,
section Scenarios). `run_file` plays one and prints the resulting position in the
scenario format; `check_file` returns the differences from its `expect:` ('' if none).

Landings are given, not drawn: the engine reads them from the script in launch order, so a
scenario tests the rules alone. A landing is a cell ("B2": its card's centre), a point
between cells ("B2+C2": the middle of their centres, on both cards), a cell with an offset in
mm ({at: B2, dx: 41, dy: 0}), `ufo`, `planet`, `off_table`, `miss` or [x, y] in mm.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

import numpy as np
import yaml

from sim.config import check_keys, validate
from sim.errors import ConfigError
from sim.games.base import Scenarios
from sim.games.space_invaders import layout as L
from sim.games.space_invaders import position as P
from sim.games.space_invaders.board import cell_center_x, cell_center_y, ufo_center_x
from sim.games.space_invaders.data import CARD_SCHEMA, ICONS
from sim.games.space_invaders.engine import begin_turn, power_of, step
from sim.games.space_invaders.params import to_params
from sim.games.space_invaders.rounds import advance_phase, begin_round, end_round
from sim.games.space_invaders.ruleset import load_ruleset
from sim.scenarios import ScenarioError, entries_diff, expectation_diff, read_scenario

TOP_KEYS = (
    "name",
    "game",
    "ruleset",
    "rules",
    "players",
    "seed",
    "cards",
    "board",
    "deck",
    "planet",
    "ufo",
    "last_round",
    "start_seat",
    "seats",
    "turns",
    "rounds",
    "assault",
    "stop",
    "expect",
)
CARD_FIELDS = {key: CARD_SCHEMA[key] for key in ("speed", "damage", "icon")}
CARD_DEFAULTS = {"speed": 1, "damage": 1, "icon": "none"}
SEAT_KEYS = ("powers", "active", "card")
TOKEN_KEYS = (
    "level",
    "land",
    "relaunch",
    "called",
    "three_tries",
    "redirect",
    "extra",
    "wave",
    "bonus",
)
STOPS = ("resolve", "advance", "round")


def _keys(data: Any, allowed: tuple[str, ...], path: str, where: str) -> None:
    check_keys(data, allowed, file=path, where=where, error=ScenarioError)


class Scenario:
    """A parsed scenario: the start position, the scripted round(s), the expectation."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.data = data = read_scenario(path, TOP_KEYS)
        self.name = str(data.get("name", path))
        self.ruleset = load_ruleset(
            str(data.get("ruleset", "space-invaders")), data.get("rules") or {}, source=path
        )
        self.n = self._int("players", 2, 1, L.MAX_SEATS)
        self.stop = data.get("stop", "round")
        if self.stop not in STOPS:
            raise ScenarioError(f"must be one of {', '.join(STOPS)}", file=path, key="stop")
        self.names: list[str] = []  # card instance -> its name
        self.kinds: list[tuple[int, int, int]] = []  # card instance -> speed, damage, icon
        self.card_types = self._cards()
        self.p = to_params(self.ruleset.values, self.n, scripted=True)
        self.s = np.zeros(L.STATE_SIZE, np.int32)
        self._position()
        self.rounds = self._rounds()
        self.script = self._script()
        self.expect = data.get("expect") or {}
        _keys(
            self.expect,
            ("board", "deck", "hits", "seats", "results", "error", *P.summary(self.s)),
            path,
            "expect.",
        )

    # --- parsing the position ---------------------------------------------------------------

    def _int(self, key: str, default: int, low: int, high: int) -> int:
        value = self.data.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ScenarioError(f"must be a whole number in {low}..{high}", file=self.path, key=key)
        return value

    def _cards(self) -> dict[str, tuple[int, int, int]]:
        cards = self.data.get("cards") or {}
        if not isinstance(cards, Mapping):
            raise ScenarioError(
                "must map card names to {speed, damage, icon}", file=self.path, key="cards"
            )
        out = {}
        for name, spec in cards.items():
            where = f"cards.{name}."
            _keys(spec, tuple(CARD_FIELDS), self.path, where)
            try:
                card = validate({**CARD_DEFAULTS, **spec}, CARD_FIELDS)
            except ConfigError as err:
                raise ScenarioError(err.message, file=self.path, key=f"{where}{err.key}",
                                    hint=err.hint) from None  # fmt: skip
            out[str(name)] = (card["speed"], card["damage"], ICONS[card["icon"]])
        return out

    def _instance(self, name: Any, key: str) -> int:
        """A new card of the named kind; returns its card number (index + 1)."""
        if str(name) not in self.card_types:
            raise ScenarioError(
                f"unknown card {name!r}",
                file=self.path,
                key=key,
                hint="Name it under cards: first.",
            )
        self.names.append(str(name))
        self.kinds.append(self.card_types[str(name)])
        return len(self.names)

    def _position(self) -> None:
        s, d = self.s, self.data
        text = d.get("board", "")
        lines = [line.split() for line in str(text).strip("\n").splitlines()] if text else []
        if len(lines) != L.ROWS or any(len(line) != L.COLS for line in lines):
            raise ScenarioError(
                "must be 4 lines of 5 cells, the top row first",
                file=self.path,
                key="board",
                hint="'.' for an empty space",
            )
        for row, line in enumerate(lines):
            for col, name in enumerate(line):
                if name != ".":
                    s[L.S_BOARD + row * L.COLS + col] = self._instance(name, "board")
        deck = d.get("deck") or []
        if not isinstance(deck, list):
            raise ScenarioError("must be a list of card names", file=self.path, key="deck")
        for i, name in enumerate(deck):
            s[L.S_DECK + i] = self._instance(name, f"deck[{i}]")
        s[L.S_DECK_LEN] = len(deck)
        p = self.p
        p[L.P_N_CARDS] = len(self.kinds)
        for i, (speed, damage, icon) in enumerate(self.kinds):
            p[L.P_CARD_SPEED + i], p[L.P_CARD_DAMAGE + i], p[L.P_CARD_ICON + i] = (
                speed,
                damage,
                icon,
            )
        s[L.S_N_SEATS] = self.n
        s[L.S_PLANET] = self._int("planet", int(p[L.P_PLANET_START]), 0, L.TRACK_MAX)
        s[L.S_UFO] = self._int("ufo", int(p[L.P_UFO_START]), 0, L.TRACK_MAX)
        s[L.S_START_SEAT] = self._int("start_seat", 0, 0, self.n - 1)
        s[L.S_LAST_ROUND] = bool(d.get("last_round", False))
        seats = d.get("seats") or [{}] * self.n
        if not isinstance(seats, list) or len(seats) != self.n:
            raise ScenarioError(f"must list {self.n} seats", file=self.path, key="seats")
        for seat, spec in enumerate(seats):
            self._seat(seat, spec or {})

    def _seat(self, seat: int, spec: Mapping[str, Any]) -> None:
        where = f"seats[{seat}]"
        _keys(spec, SEAT_KEYS, self.path, where + ".")
        powers = spec.get("powers", ["plain"] * 3)
        if (
            not isinstance(powers, list)
            or len(powers) != 3
            or any(x not in L.POWER_NAMES for x in powers)
        ):
            raise ScenarioError(
                "must be 3 power names (levels 1-3)",
                file=self.path,
                key=f"{where}.powers",
                hint=", ".join(L.POWER_NAMES),
            )
        base = L.S_PLAYERS + seat * L.PL_SIZE
        for k, power in enumerate(powers):
            self.s[base + L.PL_POWER + k] = L.POWER_NAMES.index(power)
        for key, field, default in (
            ("active", L.PL_ACTIVE, [2, 0, 0]),
            ("card", L.PL_CARD, [1, 2, 2]),
        ):
            counts = spec.get(key, default)
            if not isinstance(counts, list) or len(counts) != 3:
                raise ScenarioError(
                    "must be 3 counts (levels 1-3)", file=self.path, key=f"{where}.{key}"
                )
            for k, count in enumerate(counts):
                self.s[base + field + k] = count

    # --- the script ---------------------------------------------------------------------------

    def _rounds(self) -> list[list[list[dict[str, Any]]]]:
        d = self.data
        if "turns" in d and "rounds" in d:
            raise ScenarioError(
                "give turns (one round) or rounds, not both", file=self.path, key="rounds"
            )
        rounds = d.get("rounds", [d.get("turns") or []])
        if not isinstance(rounds, list):
            raise ScenarioError("must be a list of rounds", file=self.path, key="rounds")
        out = []
        for r, turns in enumerate(rounds):
            if not isinstance(turns, list):
                raise ScenarioError("must be a list of turns", file=self.path, key=f"rounds[{r}]")
            round_ = []
            for t, tokens in enumerate(turns):
                where = f"rounds[{r}][{t}]" if "rounds" in d else f"turns[{t}]"
                if not isinstance(tokens, list):
                    raise ScenarioError("a turn is a list of tokens", file=self.path, key=where)
                for k, token in enumerate(tokens):
                    _keys(token, TOKEN_KEYS, self.path, f"{where}[{k}].")
                round_.append(
                    [{**token, "_where": f"{where}[{k}]"} for k, token in enumerate(tokens)]
                )
            out.append(round_)
        return out

    def point(self, spec: Any, where: str) -> tuple[float, float]:
        """A landing spec as (x, y) mm."""
        p = self.p
        if (
            isinstance(spec, list)
            and len(spec) == 2
            and all(isinstance(v, int | float) for v in spec)
        ):
            return float(spec[0]), float(spec[1])
        if isinstance(spec, Mapping) and "at" in spec:
            x, y = self.point(spec["at"], where)
            return x + float(spec.get("dx", 0)), y + float(spec.get("dy", 0))
        named = {
            "ufo": (ufo_center_x(p), 0.5 * (p[L.P_UFO_Y0] + p[L.P_UFO_Y1])),
            "planet": (p[L.P_BOARD_W] / 2, p[L.P_PLANET_LINE] / 3),
            "off_table": (p[L.P_BOARD_W] / 2, -500.0),
            "miss": (5.0, p[L.P_BOARD_H] - 5.0),
        }
        if isinstance(spec, str) and spec in named:
            return named[spec]
        cells = [P.parse_cell(c) for c in str(spec).split("+")]
        if cells and all(c is not None for c in cells):
            xs = [cell_center_x(p, c) for c in cells]
            ys = [cell_center_y(p, c) for c in cells]
            return sum(xs) / len(xs), sum(ys) / len(ys)
        raise ScenarioError(
            f"bad landing {spec!r}",
            file=self.path,
            key=where,
            hint="a cell (B2), cells (B2+C2), {at: B2, dx: 40}, ufo, planet, "
            "off_table, miss or [x, y]",
        )

    def _power(self, seat: int, level: int) -> int:
        return int(power_of(self.s, self.p, seat, level))

    def _script(self) -> np.ndarray:
        """Every landing in launch order: each token's launches (and an immediate bonus shot),
        then the turn's called-shot bonus shots, round after round, then the final assault."""
        points = []
        start = int(self.s[L.S_START_SEAT])
        for r, round_ in enumerate(self.rounds):
            for k, tokens in enumerate(round_):
                seat = (start + r + k) % self.n
                later = []
                for token in tokens:
                    lands = token.get("land", [])
                    lands = lands if isinstance(lands, list) and not _is_xy(lands) else [lands]
                    points += [self.point(x, token["_where"] + ".land") for x in lands]
                    if "bonus" in token:
                        bonus = self.point(token["bonus"], token["_where"] + ".bonus")
                        level = token.get("level", 1)
                        if self._power(seat, level) == L.CALLED_SHOT:
                            later.append(bonus)
                        else:
                            points.append(bonus)
                points += later
        points += [
            self.point(x, f"assault[{i}]") for i, x in enumerate(self.data.get("assault") or [])
        ]
        return np.array(points, np.float64).reshape(-1, 2)

    # --- playing ------------------------------------------------------------------------------

    def play(self) -> tuple[str | None, list[list[str]]]:
        """Play the scripted rounds up to `stop`; (refusal or None, each turn's landings)."""
        from sim.random_streams import seed_streams

        s, p = self.s, self.p
        w = np.zeros(L.WORK_SIZE, np.float64)
        a = np.zeros(L.ACTION_SIZE, np.float64)
        rng = np.zeros(L.STREAMS, np.uint64)
        seed_streams(rng, self._int("seed", 0, 0, 2**62))
        scale = np.ones(self.n, np.float64)
        log = np.zeros((0, L.LOG_SIZE), np.float64)
        crashed = np.zeros(L.N_CELLS, np.int32)
        results: list[list[str]] = []
        last = len(self.rounds) - 1
        for r, round_ in enumerate(self.rounds):
            begin_round(s)
            start = int(s[L.S_START_SEAT])
            for k in range(self.n):
                if s[L.S_ROUND_OVER] or s[L.S_STATUS] != L.RUNNING:
                    break
                if k >= len(round_):
                    if r == last and self.stop == "resolve":
                        break
                    raise ScenarioError(
                        f"round {r + 1} lists no turn for seat {(start + k) % self.n}",
                        file=self.path,
                        key="turns" if "turns" in self.data else "rounds",
                        hint="list every seat's turn, or stop: resolve",
                    )
                err = self._turn((start + k) % self.n, round_[k], w, a, rng, scale, log)
                results.append(self._landings())
                if err != L.OK:
                    return L.ERROR_NAMES[err], results
            if r == last and self.stop == "resolve":
                break
            if r == last and self.stop == "advance" and not s[L.S_ROUND_OVER]:
                advance_phase(s, p, rng, crashed)
                break
            err = end_round(s, p, w, rng, self.script, scale, log, crashed)
            if err != L.OK:
                return L.ERROR_NAMES[err], results
        used = int(s[L.S_SCRIPT_POS])
        if used < len(self.script):
            raise ScenarioError(
                f"{len(self.script) - used} scripted landing(s) were not used "
                f"(the engine launched {used} times)",
                file=self.path,
                hint="the rules took fewer launches than the script lists",
            )
        return None, results

    def _turn(self, seat, tokens, w, a, rng, scale, log) -> int:
        s, p = self.s, self.p
        begin_turn(s, seat)
        chosen = 0
        while s[L.S_PHASE] != L.PH_DONE:
            phase = int(s[L.S_PHASE])
            a[:] = 0.0
            a[L.A_CALLED] = -1.0
            a[L.A_RES :] = -1.0
            a[L.A_AIM_X], a[L.A_AIM_Y] = p[L.P_BOARD_W] / 2, p[L.P_BOARD_H] / 2
            a[L.A_SHOOTER_X] = p[L.P_BOARD_W] / 2
            if phase == L.PH_CHOOSE:
                if chosen >= len(tokens):
                    raise ScenarioError(
                        f"seat {seat} has more active tokens than its turn lists",
                        file=self.path,
                        key=self._turn_key(tokens),
                    )
                self._choose(seat, tokens[chosen], a)
                chosen += 1
            elif phase == L.PH_RELAUNCH_Q:
                a[L.A_YES] = bool(tokens[int(s[L.S_CUR])].get("relaunch", False))
            elif phase == L.PH_RESOLVE:
                for t in range(int(s[L.S_TOKENS])):
                    self._resolve_choices(t, tokens[t], a)
            err = step(s, p, w, a, rng, self.script, scale[seat], log)
            if err != L.OK:
                return err
        if chosen < len(tokens):
            raise ScenarioError(
                f"the turn lists {len(tokens)} tokens; seat {seat} launched {chosen}",
                file=self.path,
                key=self._turn_key(tokens),
            )
        return L.OK

    def _turn_key(self, tokens) -> str:
        return tokens[0]["_where"].rsplit("[", 1)[0] if tokens else "turns"

    def _cell(self, value: Any, where: str) -> int:
        cell = P.parse_cell(value)
        if cell is None:
            raise ScenarioError(
                f"not a cell: {value!r}",
                file=self.path,
                key=where,
                hint="cells are A1..E4, row 1 the top",
            )
        return cell

    def _choose(self, seat: int, token: Mapping[str, Any], a: np.ndarray) -> None:
        left = [int(self.s[L.S_PLAYERS + seat * L.PL_SIZE + L.PL_LEFT + k]) for k in range(3)]
        a[L.A_LEVEL] = token.get("level", next((k + 1 for k in range(3) if left[k]), 1))
        if "called" in token:
            a[L.A_CALLED] = self._cell(token["called"], token["_where"] + ".called")
        a[L.A_THREE] = bool(token.get("three_tries", False))

    def _resolve_choices(self, t: int, token: Mapping[str, Any], a: np.ndarray) -> None:
        base = L.A_RES + t * L.RES_SIZE
        where = token["_where"]
        redirect = token.get("redirect") or {}
        if not isinstance(redirect, Mapping):
            raise ScenarioError(
                "must map landed cells to cells", file=self.path, key=f"{where}.redirect"
            )
        mask = int(self.s[L.S_TK + t * L.TK_SIZE + L.TK_CELLS])
        slot = 0
        for cell in range(L.N_CELLS):
            if (mask >> cell) & 1:
                target = redirect.get(P.cell_name(cell))
                if target is not None and slot < 4:
                    a[base + L.RES_REDIRECT + slot] = self._cell(target, f"{where}.redirect")
                slot += 1
        if "extra" in token:
            a[base + L.RES_EXTRA] = self._cell(token["extra"], f"{where}.extra")
        if "wave" in token:
            a[base + L.RES_WAVE] = self._cell(token["wave"], f"{where}.wave")

    def _landings(self) -> list[str]:
        s = self.s
        return [
            L.LANDING_NAMES[int(s[L.S_TK + t * L.TK_SIZE + L.TK_RESULT])]
            for t in range(int(s[L.S_TOKENS]))
        ]

    # --- the result ---------------------------------------------------------------------------

    def result(self, error: str | None, results: list[list[str]]) -> dict[str, Any]:
        s = self.s
        state: dict[str, Any] = {
            "board": P.board_text(s, self.names),
            "deck": P.deck_names(s, self.names),
            "hits": P.hits_text(s),
            **P.summary(s),
            "seats": [P.seat_info(s, seat) for seat in range(self.n)],
            "results": results,
        }
        if error is not None:
            state["error"] = error
        return state


def _is_xy(value: Any) -> bool:
    return len(value) == 2 and all(isinstance(v, int | float) for v in value)


def scenarios() -> Scenarios:
    """This game's scenario format, for `sim scenario` (the plug-in's `scenarios`)."""
    return Scenarios(run_file=run_file, check_file=check_file)


def run_file(path: str) -> str:
    """Play a scenario; its resulting position in the scenario format."""
    scenario = Scenario(path)
    state = scenario.result(*scenario.play())
    doc = {"name": scenario.name, **state}
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, width=100)


def check_file(path: str) -> str:
    """Differences between the scenario's `expect:` and what the engine did ('' if none)."""
    scenario = Scenario(path)
    return diff(scenario.expect, scenario.result(*scenario.play()))


def diff(expect: Mapping[str, Any], got: Mapping[str, Any]) -> str:
    """Readable lines for every expected key that differs ('' when all match)."""
    return expectation_diff(expect, got, compare=_COMPARE)


def _board_diff(want: Any, have: str) -> list[str]:
    """The two boards side by side (spacing does not count)."""
    if _rows(want) == _rows(have):
        return []
    body = "\n".join(f"    {w:<16}|  {h}" for w, h in zip(_rows(want), _rows(have), strict=False))
    return [f"  board: expected (left) vs got (right)\n{body}"]


def _deck_diff(want: Any, have: list[str]) -> list[str]:
    """The deck as a multiset: its order after a shuffle is not the rules' business."""
    expected, got = sorted(map(str, want or [])), sorted(map(str, have))
    return [] if expected == got else [f"  deck: expected {expected}, got {got}"]


def _hits_diff(want: Any, have: dict[str, int]) -> list[str]:
    same = {str(k).upper(): v for k, v in (want or {}).items()} == have
    return [] if same else [f"  hits: expected {want!r}, got {have!r}"]


_COMPARE = {
    "seats": partial(entries_diff, "seats"),
    "board": _board_diff,
    "deck": _deck_diff,
    "hits": _hits_diff,
}


def _rows(text: Any) -> list[str]:
    return [" ".join(line.split()) for line in str(text or "").strip().splitlines()]


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(
    str,
    lambda d, text: d.represent_scalar(
        "tag:yaml.org,2002:str", text, style="|" if "\n" in text else None
    ),
)
_Dumper.add_representer(
    list,
    lambda d, items: d.represent_sequence(
        "tag:yaml.org,2002:seq", items, flow_style=all(not isinstance(x, dict) for x in items)
    ),
)
