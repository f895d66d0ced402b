"""Executable scenarios for Space Invaders: a position, where each launch lands, and the
position expected after the resolution, the advance or the whole round
(docs/games/space_invaders/scenarios.md). `run_file` plays one and prints the resulting
position in the scenario format; `check_file` returns the differences from its `expect:`
('' if none).

Landings are given, not drawn: the engine reads them from the script in launch order, so a
scenario tests the rules alone. A landing is a cell ("B2": its card's centre), a point
between cells ("B2+C2": the middle of their centres, on both cards), a cell with an offset in
mm ({at: B2, dx: 41, dy: 0}), `ufo`, `planet`, `off_table`, `miss` or [x, y] in mm.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import partial
from typing import Any

import numpy as np
import yaml

from sim.config.fields import validate
from sim.config.files import check_keys
from sim.errors import ConfigError
from sim.games.space_invaders import layout as L
from sim.games.space_invaders import position as P
from sim.games.space_invaders.board import cell_center_x, cell_center_y, ufo_center_x
from sim.games.space_invaders.columns import SEAT_FIELDS
from sim.games.space_invaders.data import CARD_SCHEMA, ICONS
from sim.games.space_invaders.engine import power_of
from sim.games.space_invaders.params import to_params
from sim.games.space_invaders.rounds import advance_phase, begin_round, end_round
from sim.games.space_invaders.ruleset import load_ruleset
from sim.games.space_invaders.scenario_turn import ScriptedTurn, check_token
from sim.plugins.base import Scenarios
from sim.scenarios import (
    ScenarioError,
    entries_diff,
    expectation_diff,
    read_scenario,
    scenario_ruleset,
)

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
    "so_far",
    "seats",
    "turns",
    "rounds",
    "assault",
    "stop",
    "expect",
)
CARD_FIELDS = {key: CARD_SCHEMA[key] for key in ("speed", "damage", "icon")}
CARD_DEFAULTS = {"speed": 1, "damage": 1, "icon": "none"}
SEAT_KEYS = ("powers", "active", "card", *SEAT_FIELDS)
STOPS = ("resolve", "advance", "round")


def _keys(data: Any, allowed: tuple[str, ...], path: str, where: str) -> None:
    check_keys(data, allowed, file=path, where=where, error=ScenarioError)


class Scenario:
    """A parsed scenario: the start position, the scripted round(s), the expectation."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.data = data = read_scenario(path, TOP_KEYS)
        self.name = str(data.get("name", path))
        self.ruleset = scenario_ruleset(data, path, load_ruleset, "space-invaders")
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
        self.refusals: list[str] = []  # refusals the turns' `try:` expected and got
        _keys(
            self.expect,
            ("board", "deck", "hits", "seats", "results", "error", "refused",
             *P.summary(self.s)),
            path,
            "expect.",
        )  # fmt: skip

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
        self._so_far(d.get("so_far") or {})
        seats = d.get("seats") or [{}] * self.n
        if not isinstance(seats, list) or len(seats) != self.n:
            raise ScenarioError(f"must list {self.n} seats", file=self.path, key="seats")
        for seat, spec in enumerate(seats):
            self._seat(seat, spec or {})

    def _count(self, value: Any, key: str, most: int = 10_000) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= most:
            raise ScenarioError(f"must be a whole number in 0..{most}", file=self.path, key=key)
        return value

    def _so_far(self, so_far: Any) -> None:
        """What the game counted before the scenario's position: earlier UFO hits, kills, the
        explosion icons already used (a scenario that starts mid-game)."""
        _keys(so_far, (*P.GAME_COUNTERS, "icons_used"), self.path, "so_far.")
        for name, field in P.GAME_COUNTERS.items():
            if name in so_far:
                self.s[field] = self._count(so_far[name], f"so_far.{name}")
        icons = so_far.get("icons_used") or []
        if not isinstance(icons, list) or any(
            not isinstance(h, int) or not 0 <= h <= L.TRACK_MAX for h in icons
        ):
            raise ScenarioError(
                f"must be a list of health spaces 0..{L.TRACK_MAX}",
                file=self.path,
                key="so_far.icons_used",
            )
        for h in icons:
            self.s[L.S_ICONS_USED] |= 1 << h

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
                self.s[base + field + k] = self._count(count, f"{where}.{key}", 7)
        for name, field in SEAT_FIELDS.items():
            if name in spec:
                self.s[base + field] = self._count(spec[name], f"{where}.{name}")

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
                round_.append(
                    [
                        check_token(token, f"{where}[{k}]", self.path)
                        for k, token in enumerate(tokens)
                    ]
                )
            out.append(round_)
        return out

    def point(self, spec: Any, where: str) -> tuple[float, float]:
        """A landing spec as (x, y) mm."""
        p = self.p
        if isinstance(spec, list) and _is_xy(spec):
            return float(spec[0]), float(spec[1])
        if isinstance(spec, Mapping) and "at" in spec:
            x, y = self.point(spec["at"], where)
            dx, dy = spec.get("dx", 0), spec.get("dy", 0)
            if _is_xy([dx, dy]):
                return x + float(dx), y + float(dy)
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
        assault = self.data.get("assault") or []
        if not isinstance(assault, list):
            raise ScenarioError("must be a list of landings", file=self.path, key="assault")
        points += [self.point(x, f"assault[{i}]") for i, x in enumerate(assault)]
        return np.array(points, np.float64).reshape(-1, 2)

    # --- playing ------------------------------------------------------------------------------

    def make_moves(self) -> tuple[str | None, list[list[str]]]:
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
                turn = ScriptedTurn(self, (start + k) % self.n, round_[k], self.refusals)
                err = turn.take(w, a, rng, scale, log)
                results.append(self._landings())
                if err is not None:
                    return err, results
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

    def cell(self, value: Any, where: str) -> int:
        cell = P.parse_cell(value)
        if cell is None:
            raise ScenarioError(
                f"not a cell: {value!r}",
                file=self.path,
                key=where,
                hint="cells are A1..E4, row 1 the top",
            )
        return cell

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
        if self.refusals:
            state["refused"] = list(self.refusals)
        return state


def _is_xy(value: Any) -> bool:
    """Two numbers (mm): a point, or an offset."""
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    return len(value) == 2 and numbers and all(math.isfinite(v) for v in value)


def scenarios() -> Scenarios:
    """This game's scenario format, for `sim scenario` (the plug-in's `scenarios`)."""
    return Scenarios(run_file=run_file, check_file=check_file)


def run_file(path: str) -> str:
    """Play a scenario; its resulting position in the scenario format."""
    scenario = Scenario(path)
    state = scenario.result(*scenario.make_moves())
    doc = {"name": scenario.name, **state}
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, width=100)


def check_file(path: str) -> str:
    """Differences between the scenario's `expect:` and what the engine did ('' if none)."""
    scenario = Scenario(path)
    return diff(scenario.expect, scenario.result(*scenario.make_moves()))


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
    expected, got = sorted(map(str, want if isinstance(want, list) else [want])), sorted(have)
    return [] if expected == got else [f"  deck: expected {expected}, got {got}"]


def _hits_diff(want: Any, have: dict[str, int]) -> list[str]:
    same = (
        isinstance(want, Mapping | None)
        and {str(k).upper(): v for k, v in (want or {}).items()} == have
    )
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
