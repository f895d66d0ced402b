"""A playtest fit's group, or a named player, as a level of an experiment (docs/playtest.md;
the experiment language's part of `sim playtest`, which writes fit.yaml):

    skills: [casual, {fit: results/playtest/fit.yaml}, {fit: results/playtest/fit.yaml,
                                                         group: tuesday}]
    seats: [{fit: results/playtest/fit.yaml, player: Anna}, club, club, club]

A `skills:` entry `{fit: FILE}` (or `{fit: FILE, group: G}`) repeats every arm at the group's
fitted skill: a seat named `skill` becomes the game's knob at that skill (its other parameters
kept), the fitted skill rules (Space Invaders' dexterity) apply to every arm at that level,
and the level is named as the reports say it, "your group (fitted from 42 games)". A seat
`{fit: FILE, player: P}` is the knob at P's fitted skill (any other key a parameter of it).
A game without a knob seats the ladder's level the group was fitted to. Read from fit.yaml
alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from sim.errors import ConfigError

KEYS = ("fit", "group", "player")


@dataclass(frozen=True)
class FitLevel:
    """A fitted group as a level: `name` (the reports' words), the seat it gives a seat named
    `skill` (`seat(entry)`), and the rule values every arm at it plays."""

    name: str
    knob: tuple[str, str] | None
    skill: float
    level: str | None  # a ladder level (a game without a knob)
    rules: Mapping[str, Any] = field(default_factory=dict)

    def seat(self, entry: Any) -> Any:
        """A seat entry named `skill` (a name, or a mapping with `name: skill`) at this level."""
        params = {k: v for k, v in entry.items() if k != "name"} if isinstance(entry, dict) else {}
        if self.knob is None:
            return {"name": self.level, **params} if params else self.level
        return {"name": self.knob[0], **params, self.knob[1]: self.skill}


def is_fit(entry: Any) -> bool:
    return isinstance(entry, Mapping) and "fit" in entry


def read_fit(
    entry: Mapping[str, Any], *, game: str, base: Path | None, where: str
) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """(fit.yaml, the group's name, its answer) for an entry `{fit: FILE, group: G, ...}`;
    ConfigError (naming `where`) for a file that is not a fit of this game or a group it does
    not hold."""
    ref = entry["fit"]
    if not isinstance(ref, str) or not ref.strip():
        raise ConfigError(
            "expected the path of a fit.yaml",
            key=where,
            hint="For example {fit: results/playtest/fit.yaml}.",
        )
    path = Path(ref)
    if not path.is_absolute() and base is not None:
        path = base / path
    if path.is_dir():
        path = path / "fit.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        raise ConfigError(
            "no fit to read",
            file=str(path),
            key=where,
            hint="sim playtest fit FILE --game G --out DIR writes one.",
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("groups"), dict) or not data["groups"]:
        raise ConfigError("not a fit written by sim playtest fit", file=str(path), key=where)
    if data.get("game") != game:
        raise ConfigError(
            f"a fit of {data.get('game')!r}, not of {game!r}",
            file=str(path),
            key=where,
            hint="Fit the records of this game.",
        )
    groups = data["groups"]
    group = entry.get("group")
    if group is None:
        if len(groups) > 1 and "player" not in entry:
            raise ConfigError(
                f"the fit holds {len(groups)} groups",
                file=str(path),
                key=where,
                hint=f"Name one: group: {next(iter(groups))} (groups: {', '.join(groups)}).",
            )
        group = next(iter(groups))
        if "player" in entry:
            holding = [g for g, a in groups.items() if entry["player"] in (a.get("players") or {})]
            group = holding[0] if holding else group
    if group not in groups:
        raise ConfigError(
            f"the fit holds no group '{group}'",
            file=str(path),
            key=where,
            hint=f"Groups: {', '.join(groups)}.",
        )
    return data, str(group), groups[group]


def fit_level(entry: Mapping[str, Any], *, game: str, base: Path | None, where: str) -> FitLevel:
    """The level a `skills:` entry `{fit: FILE, group: G}` names."""
    unknown = [k for k in entry if k not in ("fit", "group", "player")]
    if unknown:
        raise ConfigError(
            f"unknown key '{unknown[0]}' in a fit's level",
            key=where,
            hint="A level takes fit and group.",
        )
    if "player" in entry:
        raise ConfigError(
            "a level is a group's; a player is a seat",
            key=where,
            hint="Seat the player instead: seats: [{fit: FILE, player: NAME}, ...].",
        )
    data, group, answer = read_fit(entry, game=game, base=base, where=where)
    knob = data.get("knob")
    name = str(answer.get("label") or f"your group (fitted from {answer['games']} games)")
    return FitLevel(
        name,
        (knob["strategy"], knob["parameter"]) if knob else None,
        float(answer["skill"]["estimate"]),
        answer.get("level"),
        dict(answer.get("rules") or {}),
    )


def player_seat(entry: Mapping[str, Any], *, game: str, base: Path | None, where: str) -> Any:
    """The seat a `{fit: FILE, player: NAME}` entry names: the knob at the player's skill."""
    data, group, answer = read_fit(entry, game=game, base=base, where=where)
    player = entry.get("player")
    players = answer.get("players") or {}
    if player not in players:
        known = ", ".join(players) or "none"
        raise ConfigError(
            f"group '{group}' of the fit has no named player {player!r}",
            key=where,
            hint=f"Its named players: {known}.",
        )
    knob = data.get("knob")
    if not knob:
        raise ConfigError("this game's fit places no players (no continuous skill)", key=where)
    params = {k: v for k, v in entry.items() if k not in KEYS}
    skill = float(players[player]["skill"]["estimate"])
    return {"name": knob["strategy"], **params, knob["parameter"]: skill}
