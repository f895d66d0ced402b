"""The lab's own playtest CSV: one row per seat per game (docs/playtest.md).

    game,seat,player,score,won,group,date,ruleset,players,turns,outcome
    g1,1,Anna,42,1,tuesday,2026-03-03,guardians,4,88,victory
    g1,2,Ben,35,0,tuesday,2026-03-03,guardians,4,88,victory

`game` (an id, any text), `seat` (1 = the start player), `score` and `won` (1 or 0; in a
cooperative game the table's result on every row) are required; `player` (a name), `group`,
`date`, `ruleset` (a preset or a ruleset file beside the records; default the game's first
preset) and `players` (the table's size, when a seat's row is missing) are optional, and any
other column is compared with the game's stored column of that name (`turns`, `rounds`,
`outcome`, `missiles_bought`, ...). `template(game)` writes the header and two example games.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path
from typing import Any

from sim.errors import SimError
from sim.playtest.records import Records, Row, number, read_text, records

REQUIRED = ("game", "seat", "score", "won")
OPTIONAL = ("player", "group", "date", "ruleset", "players")
WON = {"1": True, "0": False, "true": True, "false": False, "yes": True, "no": False}


def read_csv(path: str | os.PathLike[str], game: Any) -> Records:
    """The records of a lab CSV file, checked (a one-line SimError naming the file, the line,
    the column and a fix if not)."""
    file = Path(path)
    text = read_text(file)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
        columns = _columns(header, file)
        rows = [
            row
            for row in (_row(cells, columns, reader.line_num, file) for cells in reader)
            if row is not None
        ]
    except csv.Error as err:
        raise SimError(
            f"not a CSV table ({err})",
            file=file,
            line=reader.line_num,
            hint="Save it as CSV, one row per seat per game.",
        ) from None
    extra = [name for name in columns if name not in (*REQUIRED, *OPTIONAL)]
    return records(rows, file=file, game=game, extra=extra)


def _columns(header: list[str], file: Path) -> dict[str, int]:
    """Column name -> its position (names lower-cased; columns without a name left out)."""
    columns: dict[str, int] = {}
    for i, raw in enumerate(header):
        name = raw.strip().lower()
        if not name:
            continue
        if name in columns:
            raise SimError(
                f"the column '{name}' is named twice",
                file=file,
                line=1,
                key=name,
                hint="Name each column once.",
            )
        columns[name] = i
    missing = [name for name in REQUIRED if name not in columns]
    if missing:
        hint = (
            "The first line names the columns: "
            + ",".join((*REQUIRED, *OPTIONAL))
            + "; `sim playtest template --game GAME` writes one."
        )
        raise SimError(
            f"no column {', '.join(missing)} in the first line",
            file=file,
            line=1,
            key=missing[0],
            hint=hint,
        )
    return columns


def _row(cells: list[str], columns: dict[str, int], line: int, file: Path) -> Row | None:
    """A line of the table as a Row; None for an empty line."""
    if not any(cell.strip() for cell in cells):
        return None
    width = max(columns.values()) + 1
    if any(cell.strip() for cell in cells[width:]):
        raise SimError(
            f"the line has {len(cells)} cells; the first line names {width} columns",
            file=file,
            line=line,
            hint="Quote a cell that holds a comma, or name the column in the first line.",
        )

    def cell(name: str) -> str | None:
        i = columns.get(name)
        text = cells[i].strip() if i is not None and i < len(cells) else ""
        return text or None

    def fail(name: str, message: str, hint: str) -> SimError:
        return SimError(message, file=file, line=line, key=name, hint=hint)

    game = cell("game")
    if game is None:
        raise fail("game", "no game id", "Give every row the id of its game (any text).")
    return Row(
        where=f"line {line}",
        line=line,
        game=game,
        seat=_whole(cell("seat"), "seat", fail, required=True),
        score=_score(cell("score"), fail),
        won=_won(cell("won"), fail),
        player=cell("player"),
        group=cell("group"),
        date=cell("date"),
        ruleset=cell("ruleset"),
        players=_whole(cell("players"), "players", fail, required=False),
        extra={
            name: cells[i].strip()
            for name, i in columns.items()
            if name not in (*REQUIRED, *OPTIONAL) and i < len(cells) and cells[i].strip()
        },
    )


def _whole(text: str | None, name: str, fail, *, required: bool) -> int | None:
    if text is None:
        if required:
            raise fail(
                name, f"no {name}", "Give the seat: 1 for the start player, 2 for the next, ..."
            )
        return None
    try:
        value = number(text)
    except ValueError:
        value = None
    if value is None or not value.is_integer() or value < 1:
        raise fail(
            name,
            f"{name} {text!r} is not a whole number of at least 1",
            "Seats run 1, 2, ... (1 = the start player); players count the table.",
        )
    return int(value)


def _score(text: str | None, fail) -> float | None:
    try:
        return number(text)
    except ValueError:
        raise fail(
            "score",
            f"the score {text!r} is not a number",
            "Write the final score as a number (a decimal point, no thousands "
            "separator), or leave the cell empty when it is not known.",
        ) from None


def _won(text: str | None, fail) -> bool:
    found = WON.get((text or "").lower())
    if found is None:
        raise fail(
            "won",
            f"won is {text!r}, not 1 or 0",
            "Write 1 for a winner and 0 otherwise (in a cooperative game the table's "
            "result on every row).",
        )
    return found


def template(game: Any) -> str:
    """The CSV template of `game`: the header (with the game's length columns and `outcome`
    when it has outcomes) and two example games to replace."""
    from sim.measures.spec import for_game as measures
    from sim.plugins.base import outcomes, player_counts

    spec = measures(game)
    ends = outcomes(game) or ()
    length = list(spec.length)
    header = [
        *REQUIRED[:2],
        "player",
        *REQUIRED[2:],
        "group",
        "date",
        "ruleset",
        "players",
        *length,
        *(["outcome"] if ends else []),
    ]
    players = 4 if 4 in player_counts(game) else player_counts(game)[-1]
    names = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn"]
    lines = [",".join(header)]
    for g, date in ((1, "2026-03-03"), (2, "2026-03-10")):
        for seat in range(1, players + 1):
            won = (g == 1) if spec.cooperative else (seat == g)
            score = 30 - 3 * ((seat - g) % players) if not spec.cooperative else 400
            row = {
                "game": f"example-{g}",
                "seat": seat,
                "player": names[(seat + g) % players],
                "score": score,
                "won": int(won),
                "group": "tuesday",
                "date": date,
                "ruleset": game.presets[0],
                "players": players,
            }
            lines.append(",".join(str(row.get(col, "")) for col in header))
    return "\n".join(lines) + "\n"
