"""Playtest records from the apps people log their plays in, the game chosen by its name there:

- the BG Stats app's JSON export: `games` (id, name), `players` (id, name, isAnonymous) and
  `plays`, each with `gameRefId`, `playDate` and `playerScores` (playerRefId, score, winner,
  startPlayer, seatOrder);
- BoardGameGeek's plays XML (the XML API's `plays` of a user): `<play id date quantity
  incomplete>` with `<item name objectid/>` and `<players><player name startposition score
  win/></players>`.

A seat is the player's place from the start player on: BG Stats' seat order turned so that
the start player sits first (only the start player's seat when there is no seat order),
BoardGameGeek's start position. A play that does not say is read without seats (its other
facts still count). Plays BoardGameGeek marks incomplete are left out, and said so.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sim.config.words import did_you_mean
from sim.errors import SimError
from sim.playtest.records import Records, Row, number, read_text, records

_DECLARATION = re.compile(r"<!(DOCTYPE|ENTITY)", re.IGNORECASE)
# how to get a file each reader takes: the fix every refusal of its file names
_BGSTATS_FIX = "Export the plays from BG Stats as JSON."
_BGG_FIX = "Use the plays XML as BoardGameGeek writes it."


def read_bgstats(path: str | os.PathLike[str], game: Any, name: str | None = None) -> Records:
    """The plays of one game (`name` as the app calls it) from a BG Stats JSON export."""
    file = Path(path)
    try:
        data = json.loads(read_text(file))
    except (json.JSONDecodeError, RecursionError) as err:
        reason = getattr(err, "msg", "nested too deep")
        raise SimError(f"not a JSON file ({reason})", file=file, hint=_BGSTATS_FIX) from None
    if not isinstance(data, dict) or not isinstance(data.get("plays"), list):
        raise SimError("not a BG Stats export: it has no list of `plays`", file=file, key="plays",
                       hint=_BGSTATS_FIX)  # fmt: skip
    games = {_ref(g.get("id")): str(g.get("name", "")) for g in _items(data, "games", file)}
    people = {_ref(p.get("id")): p for p in _items(data, "players", file)}
    chosen = _choose(name, game, games.values(), file, key="games")
    wanted = {ref for ref, title in games.items() if title.strip().lower() == chosen}
    rows: list[Row] = []
    for i, play in enumerate(data["plays"]):
        if isinstance(play, dict) and _ref(play.get("gameRefId")) in wanted - {None}:
            rows += _bgstats_play(play, i + 1, people, file)
    return records(rows, file=file, game=game)


def _ref(value: Any) -> int | str | None:
    """An id the export refers to (a number or a text; anything else refers to nothing)."""
    return value if isinstance(value, int | str) and not isinstance(value, bool) else None


def _items(data: dict, key: str, file: Path) -> list[dict]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise SimError(f"`{key}` is not a list of records", file=file, key=key, hint=_BGSTATS_FIX)
    return value


def _bgstats_play(play: dict, index: int, people: dict, file: Path) -> list[Row]:
    where = f"play {index}"
    scores = play.get("playerScores")
    if not isinstance(scores, list) or not all(isinstance(s, dict) for s in scores):
        raise _fail(
            file,
            where,
            "playerScores",
            "no list of player scores",
            "Each play lists its players' scores.",
        )
    seats = _bgstats_seats(scores)
    rows = []
    for k, entry in enumerate(scores):
        person = people.get(_ref(entry.get("playerRefId")), {})
        named = isinstance(person, dict) and not person.get("isAnonymous")
        rows.append(
            Row(
                where=where,
                line=None,
                game=str(play.get("uuid") or where),
                seat=seats[k],
                score=_number(entry.get("score"), file, where, "score"),
                won=_flag(entry.get("winner"), file, where, "winner"),
                player=str(person.get("name")) if named and person.get("name") else None,
                date=str(play["playDate"]) if play.get("playDate") else None,
            )
        )
    return rows


def _bgstats_seats(scores: list[dict]) -> list[int | None]:
    """Seats from 1 at the start player: the seat order turned to start there; without a seat
    order only the start player's seat is known."""
    starts = [k for k, s in enumerate(scores) if s.get("startPlayer") in (True, 1)]
    orders = [s.get("seatOrder") for s in scores]
    if all(isinstance(o, int) and not isinstance(o, bool) for o in orders) and (
        len(set(orders)) == len(orders)
    ):
        around = sorted(range(len(scores)), key=lambda k: orders[k])
        if starts:
            turn = around.index(starts[0])
            around = around[turn:] + around[:turn]
        seats: list[int | None] = [None] * len(scores)
        for place, k in enumerate(around):
            seats[k] = place + 1
        return seats
    return [1 if k == (starts[0] if starts else -1) else None for k in range(len(scores))]


def read_bgg(path: str | os.PathLike[str], game: Any, name: str | None = None) -> Records:
    """The plays of one game (`name` as BoardGameGeek calls it) from its plays XML."""
    file = Path(path)
    text = read_text(file)
    if _DECLARATION.search(text):
        raise SimError("the XML declares a DOCTYPE or entities, which a plays file never does",
                       file=file, hint=_BGG_FIX)  # fmt: skip
    try:
        root = ET.fromstring(text)
    except (ET.ParseError, ValueError) as err:
        raise SimError(f"not an XML file ({err})", file=file, hint=_BGG_FIX) from None
    plays = [root] if root.tag == "play" else list(root.iter("play"))
    if root.tag not in ("plays", "play"):
        raise SimError(
            f"not a BoardGameGeek plays file: its root is <{root.tag}>",
            file=file,
            hint="Use the plays XML of the XML API (<plays><play>...).",
        )
    titles = [_item_name(p) for p in plays]
    chosen = _choose(name, game, titles, file, key="item")
    rows: list[Row] = []
    notes: list[str] = []
    for play, title in zip(plays, titles, strict=True):
        if title.strip().lower() != chosen:
            continue
        where = f"play {play.get('id') or len(rows) + 1}"
        if play.get("incomplete") == "1":
            notes.append(f"{where} is marked incomplete: left out")
            continue
        if (play.get("quantity") or "1") not in ("0", "1"):
            notes.append(
                f"{where} records {play.get('quantity')} plays with one result: counted once"
            )
        rows += _bgg_play(play, where, file)
    return records(rows, file=file, game=game, notes=notes)


def _item_name(play: ET.Element) -> str:
    item = play.find("item")
    return str(item.get("name") or "") if item is not None else ""


def _bgg_play(play: ET.Element, where: str, file: Path) -> list[Row]:
    players = play.find("players")
    if players is None or not players.findall("player"):
        raise _fail(file, where, "players", "no players", "A play lists its players.")
    rows = []
    for person in players.findall("player"):
        start = (person.get("startposition") or "").strip()
        digits = re.match(r"\d+", start)
        rows.append(
            Row(
                where=where,
                line=None,
                game=where,
                seat=int(digits.group()) if digits else None,
                score=_number(person.get("score"), file, where, "score"),
                won=_flag(person.get("win"), file, where, "win"),
                player=(person.get("name") or person.get("username") or "").strip() or None,
                date=play.get("date") or None,
            )
        )
    return rows


def _choose(name: str | None, game: Any, titles: Iterable[str], file: Path, *, key: str) -> str:
    """The game's name as the file writes it, lower-cased: `name`, else the plug-in's title or
    name, else the file's one game."""
    known = list(dict.fromkeys(t.strip() for t in titles if t.strip()))
    lower = {t.lower(): t for t in known}
    wanted = [name] if name else [game.title, game.name]
    for candidate in wanted:
        if candidate.strip().lower() in lower:
            return candidate.strip().lower()
    if not name and len(known) == 1:
        return known[0].lower()
    listed = ", ".join(f"'{t}'" for t in known[:12]) or "none"
    then = f"Its games: {listed}. Name the game as the file does with --name."
    hint = did_you_mean(name or game.title, known, then=then)
    raise SimError(f"no plays of '{name or game.title}' in the file", file=file, key=key, hint=hint)


def _number(value: Any, file: Path, where: str, key: str) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value) if value == value and abs(value) != float("inf") else None
    try:
        return number(str(value))
    except ValueError:
        raise _fail(
            file,
            where,
            key,
            f"the score {str(value)[:40]!r} is not a number",
            "Give the final score as a number, or leave it empty.",
        ) from None


def _flag(value: Any, file: Path, where: str, key: str) -> bool:
    if value in (True, 1, "1", "true", "True"):
        return True
    if value in (False, 0, "0", "false", "False", None, ""):
        return False
    raise _fail(
        file,
        where,
        key,
        f"{key} is {str(value)[:40]!r}, not 1 or 0",
        "Mark a winner with 1 and the others with 0.",
    )


def _fail(file: Path, where: str, key: str, message: str, hint: str) -> SimError:
    return SimError(f"{where}: {message}", file=file, key=key, hint=hint)
