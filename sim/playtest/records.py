"""Playtest records: the games a designer's group played, as the lab reads them from any of its
formats (the lab's CSV, the BG Stats app's export, BoardGameGeek's plays), checked once here.

A reader turns its file into `Row`s, one per seat of a game, each saying where it came from
(a line of the file, or a play of an app's export), and hands them to `records(...)`, which
checks every game as a whole and builds the `Records`: the rows as a polars table (one row
per seat) and its games (one row per game). Every check names the file, the row (or play),
the column and a fix, on one line (a SimError): a game whose rows disagree on the player
count, two winners with different scores, a seat out of range, a cooperative table that won
and lost at once, an unknown ruleset, a file that holds no game.

Seats are numbered from 1 (the start player) in every file and from 0 in the tables, as the
lab stores them. A column the reader does not know (`turns`, `outcome`, `missiles_bought`, ...)
is kept as text in `extra`: the fit compares it with the game's stored column of that name,
per game or per seat, once it knows the game's columns (sim/playtest/facts.py).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from sim.errors import ConfigError, SimError

MAX_CHARACTERS = 20_000_000  # a record file is a few kilobytes; far above any real one
DEFAULT_GROUP = "all"  # the group of the games whose records name none


# the columns of the records' two tables, with their types (the game's columns first in both)
GAME_COLUMNS = {"game": pl.Int64, "game_id": pl.String, "group": pl.String,
                "ruleset": pl.String, "players": pl.Int64}  # fmt: skip
SEATS_COLUMNS = {**GAME_COLUMNS, "seat": pl.Int64, "player": pl.String, "score": pl.Float64,
                 "won": pl.Boolean, "where": pl.String, "line": pl.Int64}  # fmt: skip
GAMES_COLUMNS = {**GAME_COLUMNS, "rows": pl.Int64, "date": pl.String, "where": pl.String,
                 "line": pl.Int64}  # fmt: skip


@dataclass(frozen=True)
class Row:
    """One seat of one game, as a reader found it. `where` says where it came from ("line 7",
    "play 4417"); `line` is the file's line for a SimError (None for an app's play)."""

    where: str
    line: int | None
    game: str  # the game's id in the file
    seat: int | None  # 1 = the start player; None when the file does not say
    score: float | None
    won: bool
    player: str | None = None
    group: str | None = None
    date: str | None = None
    ruleset: str | None = None
    players: int | None = None  # the table's size, when a seat's row may be missing
    extra: Mapping[str, str] = field(default_factory=dict)  # other columns, as text


@dataclass(frozen=True)
class Records:
    """A file's games: `seats` one row per recorded seat (SEATS_COLUMNS: `seat` 0 = the start
    player, null when unknown; then the extra columns as text), `games` one row per game
    (GAMES_COLUMNS). `game` is the game's index in the file (0..), the key the tables share;
    `file` the file read; `notes` what reading left out."""

    file: Path
    game: str  # the plug-in's name
    seats: pl.DataFrame
    games: pl.DataFrame
    extra: tuple[str, ...] = ()  # the extra columns, in the file's order
    notes: tuple[str, ...] = ()

    @property
    def groups(self) -> list[str]:
        """The groups, in the order the file first names them."""
        return list(dict.fromkeys(self.games.get_column("group").to_list()))

    def group(self, name: str) -> Records:
        """The records of one group."""
        if name not in self.groups:
            raise SimError(
                f"no group named '{name}' in the records",
                file=self.file,
                key="group",
                hint=f"Groups: {', '.join(self.groups)}.",
            )
        keep = pl.col("group") == name
        return Records(
            self.file,
            self.game,
            self.seats.filter(keep),
            self.games.filter(keep),
            self.extra,
            self.notes,
        )

    @property
    def named(self) -> bool:
        """Whether any seat names its player."""
        return self.seats.get_column("player").drop_nulls().len() > 0


def read_text(path: str | os.PathLike[str]) -> str:
    """A record file's text (UTF-8, a byte-order mark allowed), or a one-line SimError: no
    file, not text, too large, empty."""
    file = Path(path)
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise SimError("file not found", file=file, hint="Check the path.") from None
    except IsADirectoryError:
        raise SimError("a folder, not a record file", file=file) from None
    except OSError as exc:
        raise SimError(f"cannot read the file: {exc.strerror}", file=file) from None
    if len(data) > MAX_CHARACTERS:
        raise SimError(
            f"the file is {len(data):,} bytes long; at most {MAX_CHARACTERS:,} are read",
            file=file,
            hint="Is this the right file?",
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SimError(
            "not a UTF-8 text file",
            file=file,
            hint="Save it as UTF-8 text (CSV UTF-8 in a spreadsheet).",
        ) from None
    if "\x00" in text:
        raise SimError(
            "not a text file (it holds NUL bytes)", file=file, hint="Save it as UTF-8 text."
        )
    if not text.strip():
        raise SimError(
            "the file is empty",
            file=file,
            hint="`sim playtest template --game GAME` writes one to fill in.",
        )
    return text


def number(text: str | None) -> float | None:
    """A cell as a number (None when empty); ValueError when it is not one."""
    if text is None or not text.strip():
        return None
    value = float(text.strip())
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def records(
    rows: Sequence[Row],
    *,
    file: Path,
    game: Any,
    notes: Iterable[str] = (),
    extra: Sequence[str] = (),
) -> Records:
    """The rows checked game by game, as Records of the plug-in `game`."""
    from sim.measures.spec import for_game as measures
    from sim.plugins.base import player_counts

    if not rows:
        raise SimError(
            "the file holds no games",
            file=file,
            hint="`sim playtest template --game GAME` writes one to fill in.",
        )
    by_game: dict[str, list[Row]] = {}
    for row in rows:
        by_game.setdefault(row.game, []).append(row)
    check = _GameCheck(file, game, player_counts(game), measures(game).cooperative)
    for game_rows in by_game.values():
        check.game(game_rows)
    check.rulesets(rows)
    return _tables(by_game, file=file, game=game.name, notes=tuple(notes), extra=tuple(extra))


class _GameCheck:
    """Every check of a game as a whole: its rows agree on what belongs to the game."""

    def __init__(self, file: Path, game: Any, counts: tuple[int, ...], cooperative: bool):
        self.file, self.plugin, self.counts, self.cooperative = file, game, counts, cooperative

    def fail(self, row: Row, key: str, message: str, hint: str) -> SimError:
        return SimError(
            f"{row.where}: {message}" if row.line is None else message,
            file=self.file,
            line=row.line,
            key=key,
            hint=hint,
        )

    def game(self, rows: list[Row]) -> None:
        first = rows[0]
        name = f"game '{first.game}'"
        for key in ("players", "ruleset", "group"):
            values = [getattr(r, key) for r in rows]
            given = [v for v in values if v is not None]
            for row, value in zip(rows, values, strict=True):
                if value is not None and value != given[0]:
                    raise self.fail(
                        row,
                        key,
                        f"the rows of {name} disagree on {key}: "
                        f"{given[0]!r} on one row, {value!r} on this one",
                        f"Give every row of a game the same {key}.",
                    )
        players = next((r.players for r in rows if r.players is not None), len(rows))
        if players not in self.counts:
            raise self.fail(
                first,
                "players",
                f"{name} has {players} players; "
                f"{self.plugin.name} is played by {_counts(self.counts)}",
                "Check the game's rows (one row per seat), or its `players`.",
            )
        if len(rows) > players:
            raise self.fail(
                rows[players],
                "players",
                f"{name} has {len(rows)} rows for {players} players",
                "Give each seat of a game one row.",
            )
        self._seats(rows, name, players)
        self._winners(rows, name)

    def _seats(self, rows: list[Row], name: str, players: int) -> None:
        taken: dict[int, Row] = {}
        for row in rows:
            if row.seat is None:
                continue
            if not 1 <= row.seat <= players:
                raise self.fail(
                    row,
                    "seat",
                    f"seat {row.seat} is out of range: {name} has {players} players",
                    f"Number the seats 1..{players}, 1 for the start player.",
                )
            if row.seat in taken:
                raise self.fail(
                    row,
                    "seat",
                    f"{name} has two rows for seat {row.seat}",
                    "Give each seat of a game one row.",
                )
            taken[row.seat] = row

    def _winners(self, rows: list[Row], name: str) -> None:
        winners = [r for r in rows if r.won]
        if self.cooperative:
            for row in rows:
                if row.won != rows[0].won:
                    raise self.fail(
                        row,
                        "won",
                        f"{name} is won on one row and lost on "
                        "another; the table wins or loses together",
                        "Give every row of a cooperative game the table's result (1 or 0).",
                    )
            return
        scores = {r.score for r in winners}
        if len(winners) > 1 and (None in scores or len(scores) > 1):
            raise self.fail(
                winners[1],
                "won",
                f"{name} has {len(winners)} winners with "
                "different scores; a shared win is a tie at the top",
                "Mark the one winner with 1 and the others with 0 (or give tied "
                "winners their equal scores).",
            )

    def rulesets(self, rows: Sequence[Row]) -> None:
        """Every ruleset the rows name loads (a preset of the game, or a file beside the
        records)."""
        seen: set[str] = set()
        for row in rows:
            if row.ruleset is None or row.ruleset in seen:
                continue
            seen.add(row.ruleset)
            try:
                load_ruleset(self.plugin, row.ruleset, self.file)
            except ConfigError as err:
                raise self.ruleset_error(row, err) from None

    def ruleset_error(self, row: Row, err: ConfigError) -> SimError:
        presets = ", ".join(self.plugin.presets)
        fix = (
            f"Name a preset of {self.plugin.name} ({presets}) or a ruleset file beside the records."
        )
        if err.file is not None and err.file != str(self.file):  # the ruleset file is at fault
            return self.fail(
                row,
                "ruleset",
                f"ruleset {row.ruleset!r} cannot be read ({' '.join(str(err).split())})",
                fix,
            )
        hint = err.hint or fix
        return self.fail(row, "ruleset", f"ruleset {row.ruleset!r}: {err.message}", hint)


def load_ruleset(plugin: Any, name: str, file: Path) -> Any:
    """A ruleset a record names: a preset of the game, or a file (relative to the records')."""
    from sim.plugins import is_ruleset_file

    if is_ruleset_file(name) and not os.path.isabs(name):
        beside = file.parent / name
        if beside.exists():
            name = str(beside)
    return plugin.load_ruleset(name, (), source=str(file))


def _counts(counts: tuple[int, ...]) -> str:
    return f"{counts[0]} to {counts[-1]}" if len(counts) > 1 else str(counts[0])


def _tables(
    by_game: Mapping[str, list[Row]],
    *,
    file: Path,
    game: str,
    notes: tuple[str, ...],
    extra: tuple[str, ...],
) -> Records:
    from sim.plugins import get_game

    first_preset = get_game(game).presets[0]
    seat_rows, game_rows = [], []
    for index, rows in enumerate(by_game.values()):
        first = rows[0]
        players = next((r.players for r in rows if r.players is not None), len(rows))
        common = {
            "game": index,
            "game_id": first.game,
            "group": next((r.group for r in rows if r.group), DEFAULT_GROUP),
            "ruleset": next((r.ruleset for r in rows if r.ruleset), first_preset),
            "players": players,
        }
        game_rows.append(
            {
                **common,
                "rows": len(rows),
                "date": first.date,
                "where": first.where,
                "line": first.line,
            }
        )
        for row in rows:
            seat_rows.append(
                {
                    **common,
                    "seat": None if row.seat is None else row.seat - 1,
                    "player": row.player or None,
                    "score": row.score,
                    "won": row.won,
                    "where": row.where,
                    "line": row.line,
                    **{name: row.extra.get(name) for name in extra},
                }
            )
    seats = pl.DataFrame(seat_rows, schema={**SEATS_COLUMNS, **dict.fromkeys(extra, pl.String)})
    games = pl.DataFrame(game_rows, schema=GAMES_COLUMNS)
    return Records(file, game, seats, games, extra, notes)
