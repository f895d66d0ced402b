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


def lab_records(
    game: str | Any,
    *,
    skills: float | Mapping[str, float],
    games: int,
    players: int,
    seed: int = 1000,
    ruleset: str | None = None,
    rules: Mapping[str, Any] | None = None,
    columns: Sequence[str] = (),
    group: str | None = None,
    level: str | None = None,
) -> str:
    """The CSV of `games` games of the lab's players (see the module doc); `columns` the
    stored columns written too (per game or per seat), `rules` rule values the games are
    played with (not written: a fit must find them), `level` a ladder level every seat plays
    (a game without a knob)."""
    from sim.games import get_game
    from sim.runner.seeds import game_seeds, root_keys

    plugin = get_game(game) if isinstance(game, str) else game
    cands = candidates_of(plugin)
    preset = ruleset or plugin.presets[0]
    rs = plugin.load_ruleset(preset, dict(rules or {}), source="lab_records")
    if isinstance(skills, Mapping):
        names = list(skills)
        lineup = [cands.spec(float(skills[n])) for n in names]
        table = (np.arange(players)[None, :] + np.arange(games)[:, None]) % len(names)
    else:
        names = []
        lineup = [cands.spec(float(skills), level)]
        table = np.zeros((games, players), np.int64)
    seeds = game_seeds(root_keys(seed), 0, games)
    chunk = plugin.play_chunk(rs, players, lineup, np.ascontiguousarray(table, np.int64), seeds)
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
                "game": f"g{g + 1}",
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


def _plain(value: Any) -> Any:
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
