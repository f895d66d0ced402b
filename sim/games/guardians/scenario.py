"""Executable scenarios: a position, some turns, the expected result (format:
docs/games/guardians/scenarios.md).

`run_file` plays a scenario and returns the resulting state in the scenario format;
`check_file` compares it with the file's `expect:` and returns a readable diff ('' if equal).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import yaml

from sim.config.files import check_keys
from sim.games.guardians import layout as L
from sim.games.guardians.board import rebuild_occupancy
from sim.games.guardians.ruleset import load_ruleset
from sim.games.guardians.scenario_checks import check_position
from sim.games.guardians.session import CHAR_CELLS, STATUS_NAMES, GameSession, Turn
from sim.plugins.base import Scenarios
from sim.scenarios import ScenarioError, read_scenario, scenario_ruleset

TOP_KEYS = ("name", "game", "ruleset", "rules", "board", "players", "pile", "aside", "to_move",
            "turns", "expect")  # fmt: skip
PLAYER_KEYS = ("reserve", "level", "missile", "power_up", "status", "score")
TURN_KEYS = ("move", "reenter", "buy", "pay", "missile", "power_up_at", "mine", "mine_reenter")
EXPECT_KEYS = ("board", "players", "pile", "aside", "status", "winners", "to_move", "error")
RESERVE_TOKENS = (1, 2, 3, 4, 5, 10)  # a token's value in a reserve or a payment: 10 a ship part
PILE_TOKENS = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, "[": L.SHIP_L, "]": L.SHIP_R}


class Scenario:
    """A parsed scenario: the starting session, the turns, and the expectation."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.data = data = read_scenario(path, TOP_KEYS)
        self.name = str(data.get("name", path))
        ruleset = scenario_ruleset(data, path, load_ruleset, "guardians")
        self.ruleset_name = str(data.get("ruleset", "guardians"))
        self.rules = data.get("rules") or {}
        self.session = _build_session(data, ruleset, path)
        self.turns = [_parse_turn(t, path, i) for i, t in enumerate(data.get("turns") or [])]
        self.expect = data.get("expect") or {}
        if not isinstance(self.expect, Mapping):
            raise ScenarioError("must be a mapping", file=path, key="expect")
        check_keys(self.expect, EXPECT_KEYS, file=path, where="expect.", error=ScenarioError)

    def make_moves(self) -> str | None:
        """Play the turns; the refusal of the last turn, if any."""
        for i, turn in enumerate(self.turns):
            error = self.session.play_turn(self.session.action(turn))
            if error is not None:
                if i != len(self.turns) - 1:
                    raise ScenarioError(
                        f"turn {i + 1} was refused ({error}) but more turns follow",
                        file=self.path,
                        key=f"turns[{i}]",
                        hint="a refused turn must be the last one; expect it with `error:`",
                    )
                return error
        return None


def result_state(scenario: Scenario, error: str | None) -> dict[str, Any]:
    game = scenario.session
    state: dict[str, Any] = {
        "board": game.board_text(),
        "players": game.players(),
        "pile": game.pile(),
        "aside": game.aside(),
        "status": game.status,
        "winners": game.winners(),
        "to_move": game.to_move,
    }
    if error is not None:
        state["error"] = error
    return state


def run_file(path: str) -> str:
    scenario = Scenario(path)
    error = scenario.make_moves()
    doc: dict[str, Any] = {"name": scenario.name, "ruleset": scenario.ruleset_name}
    if scenario.rules:
        doc["rules"] = dict(scenario.rules)
    doc.update(result_state(scenario, error))
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, width=100)


def check_file(path: str) -> str:
    scenario = Scenario(path)
    error = scenario.make_moves()
    return diff(scenario.expect, result_state(scenario, error))


def scenarios() -> Scenarios:
    """The plug-in's `scenarios`: `sim scenario` for files with `game: guardians`."""
    return Scenarios(run_file=run_file, check_file=check_file)


def diff(expect: Mapping[str, Any], got: Mapping[str, Any]) -> str:
    """Readable lines for every expected key that differs ('' when all match)."""
    lines: list[str] = []
    if "error" not in expect and "error" in got:
        lines.append(f"  the last turn was refused: {got['error']}")
    for key, want in expect.items():
        have = got.get(key)
        if key == "players":
            lines += _player_diffs(want, got["players"])
        elif not _same(key, want, have):
            lines.append(_show_mismatch(key, want, have))
    return "\n".join(lines)


def _same(key: str, want: Any, have: Any) -> bool:
    if key == "board":
        return _board_rows(want) == _board_rows(have)
    if key == "error":
        return have is not None and (want == "illegal" or want == have)
    if key == "aside":
        return isinstance(want, list | None) and Counter(map(str, want or [])) == Counter(
            map(str, have)
        )
    if key == "pile":
        return isinstance(want, list | None) and [str(t) for t in want or []] == [
            str(t) for t in have
        ]
    return want == have


def _player_diffs(want: Any, have: list[dict]) -> list[str]:
    if not isinstance(want, list) or not all(isinstance(e, Mapping | None) for e in want):
        return [f"  players: expected {want!r} (a list of entries, one per seat), got {have!r}"]
    lines = []
    for seat, entry in enumerate(want):
        if seat >= len(have):
            lines.append(f"  players[{seat}]: no such seat")
            continue
        for key, value in (entry or {}).items():
            got = have[seat].get(key)
            if key == "reserve":  # a multiset of token values
                same = isinstance(value, list) and Counter(map(str, value)) == Counter(
                    map(str, got)
                )
            else:
                same = value == got
            if not same:
                lines.append(f"  players[{seat}].{key}: expected {value!r}, got {got!r}")
    return lines


def _show_mismatch(key: str, want: Any, have: Any) -> str:
    if key == "board":
        rows = zip(_board_rows(want), _board_rows(have), strict=False)
        body = "\n".join(f"    {w:<14}|  {h}" for w, h in rows)
        return f"  board: expected (left) vs got (right)\n{body}"
    return f"  {key}: expected {want!r}, got {have!r}"


def _board_rows(text: Any) -> list[str]:
    return [" ".join(line.split()) for line in str(text or "").strip().splitlines()]


# --- building the starting position ------------------------------------------------------


def _build_session(data: Mapping[str, Any], ruleset, path: str) -> GameSession:
    grid = _parse_board(data.get("board"), ruleset, path)
    letters = {ch for row in grid for ch in row if ch in "ABCD"}
    players = data.get("players")
    n = len(players) if players else ("ABCD".index(max(letters)) + 1 if letters else 0)
    if not 1 <= n <= L.MAX_PLAYERS:
        raise ScenarioError(
            "a scenario needs 1-4 players", file=path, key="players", hint="list one per seat"
        )
    game = GameSession(ruleset, n)
    _place_board(game, grid, n, path)
    for seat, entry in enumerate(players or [{}] * n):
        _set_player(game, seat, entry or {}, path)
    _set_pile(game, data.get("pile") or [], path)
    _set_aside(game, data.get("aside") or [], path)
    check_position(data, grid, ruleset, n, path, ScenarioError)
    to_move = data.get("to_move", 0)
    if not isinstance(to_move, int) or not 0 <= to_move < n:
        raise ScenarioError(f"must be a seat 0..{n - 1}", file=path, key="to_move")
    game.s[L.S_TO_MOVE] = to_move
    return game


def _parse_board(text: Any, ruleset, path: str) -> list[list[str]]:
    cols, rows = ruleset["board.columns"], ruleset["board.rows"]
    if not isinstance(text, str):
        hint = "write `board: |` and one line per row, top row first"
        raise ScenarioError("missing or not a text block", file=path, key="board", hint=hint)
    lines = [line.split() for line in text.strip("\n").splitlines()]
    if len(lines) != rows or any(len(line) != cols for line in lines):
        raise ScenarioError(
            f"must be {rows} lines of {cols} cells",
            file=path,
            key="board",
            hint="separate cells with spaces; '.' for an empty cell",
        )
    for line in lines:
        for ch in line:
            if ch not in CHAR_CELLS:
                raise ScenarioError(f"unknown cell {ch!r}", file=path, key="board",
                                    hint="cells: . 1-5 [ ] S M A-D")  # fmt: skip
        text_line = "".join(line)
        if text_line.replace("[]", "").count("[") or text_line.replace("[]", "").count("]"):
            raise ScenarioError("'[' must stand directly left of ']'", file=path, key="board")
    return lines[::-1]  # row 0 at the bottom


def _place_board(game: GameSession, grid: list[list[str]], n: int, path: str) -> None:
    s = game.s
    for r, line in enumerate(grid):
        for c, ch in enumerate(line):
            code = CHAR_CELLS[ch]
            if 1 <= code <= L.SHIP_DAMAGED:
                s[L.S_BOARD + r * L.MAX_COLS + c] = code
                s[L.S_COL_COUNT + c] += 1
                s[L.S_INVADERS] += 1
            elif code == L.MINE:
                s[L.S_BOARD + r * L.MAX_COLS + c] = code
                s[L.S_MINE_ALIVE], s[L.S_MINE_COL], s[L.S_MINE_ROW] = 1, c, r
            elif code >= L.FIGHTER:
                seat = code - L.FIGHTER
                if seat >= n:
                    raise ScenarioError(f"fighter {ch} but only {n} players", file=path,
                                        key="board")  # fmt: skip
                s[L.S_BOARD + r * L.MAX_COLS + c] = code
                base = L.S_PLAYERS + seat * L.PL_SIZE
                s[base + L.PL_COL], s[base + L.PL_ROW] = c, r
    for seat in range(n):
        base = L.S_PLAYERS + seat * L.PL_SIZE
        on_board = any("ABCD"[seat] in line for line in grid)
        s[base + L.PL_STATUS] = L.ACTIVE if on_board else L.DESTROYED
        if not on_board:
            s[base + L.PL_COL] = -1
        s[base + L.PL_LEVEL] = 1
    rebuild_occupancy(s)


def _set_player(game: GameSession, seat: int, entry: Any, path: str) -> None:
    where = f"players[{seat}]"
    if not isinstance(entry, Mapping):
        raise ScenarioError("must be a mapping", file=path, key=where)
    check_keys(entry, PLAYER_KEYS, file=path, where=where + ".", error=ScenarioError)
    base = L.S_PLAYERS + seat * L.PL_SIZE
    s = game.s
    for value in _token_values(entry.get("reserve") or [], path, f"{where}.reserve"):
        s[base + L.PL_RESERVE + (L.KIND_SHIP if value == 10 else value)] += 1
    level = entry.get("level", 1)
    if level not in (1, 2, 3):
        raise ScenarioError("must be 1, 2 or 3", file=path, key=f"{where}.level")
    s[base + L.PL_LEVEL] = level
    s[base + L.PL_MISSILE] = _choice(entry, "missile", ("none", "held", "used"), path, where)
    s[base + L.PL_POWER] = _choice(entry, "power_up", ("none", "charged", "used"), path, where)
    on_board = s[base + L.PL_COL] >= 0
    status = _choice(entry, "status", STATUS_NAMES, path, where, default=None)
    if status is not None:
        if (status == L.ACTIVE) != bool(on_board):
            raise ScenarioError(
                "an active fighter must be on the board, a destroyed or out one must not",
                file=path,
                key=f"{where}.status",
            )
        s[base + L.PL_STATUS] = status


def _choice(entry, key, names, path, where, default="none"):
    value = entry.get(key, default)
    if value is None:
        return None
    if value not in names:
        raise ScenarioError(f"must be one of {', '.join(names)}", file=path, key=f"{where}.{key}")
    return names.index(value)


def _set_pile(game: GameSession, pile: Any, path: str) -> None:
    if not isinstance(pile, list) or len(pile) > L.MAX_TOKENS:
        raise ScenarioError("must be a list of tokens", file=path, key="pile")
    for i, token in enumerate(pile):
        if not isinstance(token, int | str) or token not in PILE_TOKENS:
            raise ScenarioError(f"bad token {token!r}", file=path, key=f"pile[{i}]",
                                hint='tokens are 1-5, "[" or "]"')  # fmt: skip
        game.s[L.S_PILE + i] = PILE_TOKENS[token]
    game.s[L.S_PILE_TOP], game.s[L.S_PILE_LEN] = 0, len(pile)


def _set_aside(game: GameSession, aside: Any, path: str) -> None:
    fields = {"[": L.S_ASIDE_L, "]": L.S_ASIDE_R, "[]": L.S_ASIDE_SHIPS}
    for i, item in enumerate(aside if isinstance(aside, list) else [aside]):
        if not isinstance(item, str) or item not in fields:
            raise ScenarioError(f"bad item {item!r}", file=path, key=f"aside[{i}]",
                                hint='use "[", "]" or "[]"')  # fmt: skip
        game.s[fields[item]] += 1


def _parse_turn(raw: Any, path: str, i: int) -> Turn:
    where = f"turns[{i}]"
    if not isinstance(raw, Mapping):
        raise ScenarioError("must be a mapping", file=path, key=where, hint="e.g. {move: [4, 1]}")
    check_keys(raw, TURN_KEYS, file=path, where=where + ".", error=ScenarioError)
    mine = raw.get("mine", "stay")
    if mine not in ("stay", "right"):
        raise ScenarioError("must be stay or right", file=path, key=f"{where}.mine")
    buy = raw.get("buy")
    if buy is not None and buy not in L.BUY_NAMES[1:]:
        raise ScenarioError("must be missile, upgrade or power_up", file=path, key=f"{where}.buy")
    return Turn(
        move=_cell(raw.get("move"), path, f"{where}.move"),
        reenter=_int(raw.get("reenter"), path, f"{where}.reenter"),
        buy=buy,
        pay=_token_values(raw["pay"], path, f"{where}.pay") if raw.get("pay") is not None else None,
        missile=bool(raw.get("missile", False)),
        power_up_at=_cell(raw.get("power_up_at"), path, f"{where}.power_up_at"),
        mine=mine == "right",
        mine_reenter=_int(raw.get("mine_reenter"), path, f"{where}.mine_reenter"),
    )


def _token_values(values: Any, path: str, key: str) -> tuple[int, ...]:
    """A reserve's or a payment's tokens by their values: 1-5 eyes, 10 a ship part."""
    if not isinstance(values, list):
        raise ScenarioError("must be a list of tokens", file=path, key=key,
                            hint="e.g. [5, 4, 3]; 10 is a ship part")  # fmt: skip
    for value in values:
        if value not in RESERVE_TOKENS:
            raise ScenarioError(f"bad token {value!r}", file=path, key=key,
                                hint="tokens are 1-5 (eyes) or 10 (a ship part)")  # fmt: skip
    return tuple(values)


def _cell(value: Any, path: str, key: str) -> tuple[int, int] | None:
    if value is None:
        return None
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(x, int) for x in value)):
        raise ScenarioError("must be [col, row]", file=path, key=key,
                            hint="col 1 is the left column, row 1 the bottom row")  # fmt: skip
    return value[0], value[1]


def _int(value: Any, path: str, key: str) -> int | None:
    if value is not None and not isinstance(value, int):
        raise ScenarioError("must be a whole number", file=path, key=key)
    return value


class _Dumper(yaml.SafeDumper):
    pass


def _str_block(dumper: yaml.SafeDumper, text: str):
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


def _flow_list(dumper: yaml.SafeDumper, items: list):
    flow = all(not isinstance(x, dict | list) for x in items)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", items, flow_style=flow)


_Dumper.add_representer(str, _str_block)
_Dumper.add_representer(list, _flow_list)
