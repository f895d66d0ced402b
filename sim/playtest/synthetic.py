"""Playtest records written from the lab's own players at known skills, in the lab's CSV: the
truth a fit must recover (tests/test_playtest_fit.py, the coverage in docs/playtest.md) and
each game's example record file (`sim playtest example`).

    text = lab_records("guardians", skills={"Anna": 0.75, "Ben": 0.0}, games=60, players=4)

With `skills` a number, every seat plays the knob at that skill; with a mapping, each named
player plays at theirs, the players seated in turn (every player in every seat equally
often). Seeds come from `seed` alone (a stream of its own, apart from the fit's).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from sim.playtest.candidates import candidates_of

Skill = float | str  # a point on the knob, or a ladder level's name


def lab_records(
    game: str | Any,
    *,
    skills: Skill | Mapping[str, Skill],
    games: int,
    players: int,
    seed: int = 1000,
    ruleset: str | None = None,
    rules: Mapping[str, Any] | None = None,
    columns: Sequence[str] = (),
    group: str | None = None,
) -> str:
    """The CSV of `games` games of the lab's players (see the module doc): a skill is a point
    on the knob, or a level of the ladder by its name (a game without a knob). `columns` the
    stored columns written too (per game or per seat), `rules` rule values the games are
    played with (not written: a fit must find them); with a `group` its games' ids begin
    with its name."""
    from sim.plugins import get_game
    from sim.seeds import game_seeds, root_keys

    plugin = get_game(game) if isinstance(game, str) else game
    cands = candidates_of(plugin)
    preset = ruleset or plugin.presets[0]
    rs = plugin.load_ruleset(preset, dict(rules or {}), source="lab_records")
    if isinstance(skills, Mapping):
        names = list(skills)
        lineup = [_spec(cands, skills[n]) for n in names]
        table = (np.arange(players)[None, :] + np.arange(games)[:, None]) % len(names)
    else:
        names = []
        lineup = [_spec(cands, skills)]
        table = np.zeros((games, players), np.int64)
    seeds = game_seeds(root_keys(seed), 0, games)
    chunk = plugin.simulate_chunk(rs, players, lineup, np.ascontiguousarray(table, np.int64), seeds)
    header = ["game", "seat", "player", "score", "won", "ruleset", *columns]
    if group:
        header.append("group")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for g in range(games):
        for k in range(players):
            row = g * players + k
            values = {
                "game": f"{group or 'g'}-{g + 1}",
                "seat": k + 1,
                "player": names[table[g, k]] if names else "",
                "score": _plain(chunk.seats["score"][row]),
                "won": int(chunk.seats["win_share"][row] > 0),
                "ruleset": preset,
                "group": group or "",
            }
            for column in columns:
                source = (
                    chunk.games[column][g] if column in chunk.games else (chunk.seats[column][row])
                )
                values[column] = _plain(source)
            writer.writerow([values[c] for c in header])
    return out.getvalue()


def _spec(cands: Any, skill: Skill) -> Any:
    return cands.spec(level=skill) if isinstance(skill, str) else cands.spec(float(skill))


def _plain(value: Any) -> Any:
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _games(text: str) -> dict[str, list[dict[str, str]]]:
    rows = list(csv.DictReader(io.StringIO(text)))
    out: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        out.setdefault(row["game"], []).append(row)
    return out


def as_bgstats(text: str, title: str) -> str:
    """A lab CSV as a BG Stats export of the game `title` (players by name, seats as the seat
    order with the start player flagged)."""
    import json

    games = _games(text)
    names = sorted({r["player"] for rows in games.values() for r in rows if r["player"]})
    people = [{"id": i + 1, "name": n, "isAnonymous": False} for i, n in enumerate(names)]
    anonymous = len(people) + 1
    people.append({"id": anonymous, "name": "Anonymous player", "isAnonymous": True})
    ids = {n: i + 1 for i, n in enumerate(names)}
    plays = []
    for k, (game, rows) in enumerate(games.items()):
        scores = [
            {
                "playerRefId": ids.get(r["player"], anonymous),
                "score": r["score"],
                "winner": r["won"] == "1",
                "startPlayer": r["seat"] == "1",
                "seatOrder": int(r["seat"]) - 1,
            }
            for r in rows
        ]
        plays.append(
            {
                "uuid": f"{game}-{k}",
                "playDate": f"2026-03-{k % 28 + 1:02d} 20:00:00",
                "gameRefId": 1,
                "playerScores": scores,
            }
        )
    data = {"games": [{"id": 1, "name": title}], "players": people, "plays": plays}
    return json.dumps(data, indent=1) + "\n"


def as_bgg(text: str, title: str) -> str:
    """A lab CSV as BoardGameGeek's plays XML of the game `title`."""
    from xml.sax.saxutils import quoteattr

    lines = ['<?xml version="1.0" encoding="utf-8"?>', '<plays username="group" userid="1">']
    for k, (_game, rows) in enumerate(_games(text).items()):
        lines.append(
            f'  <play id="{1000 + k}" date="2026-03-{k % 28 + 1:02d}" quantity="1" '
            'length="0" incomplete="0" nowinstats="0" location="">'
        )
        lines.append(f'    <item name={quoteattr(title)} objecttype="thing" objectid="1"/>')
        lines.append("    <players>")
        for r in rows:
            lines.append(
                f'      <player username="" userid="0" name={quoteattr(r["player"])} '
                f'startposition="{r["seat"]}" color="" score="{r["score"]}" new="0" '
                f'rating="0" win="{r["won"]}"/>'
            )
        lines += ["    </players>", "  </play>"]
    lines.append("</plays>")
    return "\n".join(lines) + "\n"
