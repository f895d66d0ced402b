"""Plain words for what a report names: a rule key by its plain name (the game's ruleset schema,
`Field.plain`), a setting as "the re-entry price 5", an arm as the settings that tell it apart.
The key itself stays in tables and tooltips; sentences and headings use these words.

Keys outside a game's schema are the experiment's own (players, preset, the lineup, the skill
level); a key no schema names (a catalog's open keys, results from a game this machine lacks)
is said as itself."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sim.config.fields import Field
from sim.report import fmt

# the experiment's own keys: how a setting of each is said
_OWN = {
    "players": lambda v: f"{fmt.value(v)} players",
    "ruleset": lambda v: f"preset {v}",
    "seats.all": lambda v: f"every seat {v}",
    "skill": lambda v: f"at {v}",
}
_OWN_NAMES = {"players": "players", "ruleset": "preset", "seats.all": "every seat's strategy",
              "skill": "skill level"}  # fmt: skip


class Plain:
    """A game's plain words, from its ruleset schema (key -> Field)."""

    def __init__(self, schema: Mapping[str, Field] | None = None, prefixes: tuple[str, ...] = ()):
        self.schema = dict(schema or {})
        # the prefixes of keys a data file defines (<prefix><section>.<entry>.<field>)
        self.prefixes = prefixes

    def name(self, key: str) -> str:
        """'the re-entry price' for collision.reentry_cost, 'the cruiser's price' for a data
        file's catalog.ships.cruiser.price; the key when none is known."""
        field = self.schema.get(key)
        if field is not None and field.plain:
            return field.plain
        if any(key.startswith(p) for p in self.prefixes) and key.count(".") >= 2:
            entry, what = key.rsplit(".", 2)[1:]
            return f"the {entry}'s {what.replace('_', ' ')}"
        return _OWN_NAMES.get(key, key)

    def setting(self, key: str, value: Any) -> str:
        """A key at a value in words: 'the re-entry price 5', 'without the mine', 'the token a
        shot steals: highest', '4 players'."""
        if key in _OWN:
            return _OWN[key](value)
        field = self.schema.get(key)
        name = self.name(key)
        if field is not None and field.kind == "bool" or isinstance(value, bool):
            return f"with {name}" if value else f"without {name}"
        if field is not None and field.kind in ("choice", "str"):
            return f"{name}: {value}"
        return f"{name} {fmt.value(value)}"

    def when(self, key: str, value: Any) -> str:
        """The setting as a clause: 'the re-entry price is 5', 'the game has no mine'."""
        field = self.schema.get(key)
        if key in _OWN or (field is not None and field.kind == "bool") or isinstance(value, bool):
            return f"playing {self.setting(key, value)}"
        return f"{self.name(key)} is {fmt.value(value)}"

    def settings(self, values: Mapping[str, Any]) -> str:
        """Several settings: 'the re-entry price 5, at strong'."""
        return ", ".join(self.setting(k, v) for k, v in values.items())

    def label(self, values: Mapping[str, Any]) -> str:
        """Several settings as a table's or a chart's name for an arm: as `settings`, with a
        skill level by its name alone ('the re-entry price 5, strong'; 'casual' under an
        "arm" column, not 'at casual')."""
        return ", ".join(str(v) if k == "skill" else self.setting(k, v) for k, v in values.items())


def for_game(game: str, preset: str) -> Plain:
    """The plain words of `game` (its schema read from `preset`, as its plug-in loads it); bare
    keys when the game or the preset cannot be loaded here."""
    from sim.report.data import ruleset_for

    return of_ruleset(ruleset_for(game, preset) if game and preset else None)


def of_ruleset(ruleset: Any) -> Plain:
    """The plain words of a loaded ruleset's family (its schema and a data file's open keys);
    bare keys for none."""
    family = getattr(ruleset, "family", None)
    if family is None:
        return Plain()
    return Plain(family.schema, tuple(getattr(family, "open", ())))
