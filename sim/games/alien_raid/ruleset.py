"""Alien-raid rulesets: the presets, and the card catalog's keys filled from its file.

A ruleset file is a YAML mapping of rule sections (``fuel: {max: 12}``) plus ``name``,
``title`` and ``extends``; ``rulesets/alien-raid.yaml`` holds every rule key and the other
preset extends it. Loading, validation, overrides and the immutable Ruleset are the toolkit's
(sim/rulesets.py). ``catalog.file`` names the card list; every field of every card is then
filled in as ``catalog.<section>.<card>.<field>`` (`fill_catalog`), and a ruleset or an
override that sets such a key changes that field (``catalog: {ships: {cruiser: {price:
40000}}}``, ``--set catalog.ships.cruiser.price=40000``), checked as strictly as the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sim.errors import ConfigError
from sim.games.alien_raid import catalog as C
from sim.games.alien_raid.schema import SCHEMA, cross_key_problems
from sim.rulesets import Ruleset, RulesetFamily

PRESETS = ("alien-raid", "alien-raid-other-readings")
DIGEST = "catalog.digest"  # the catalog's card order (the engine numbers cards in it)

Origin = Mapping[str, tuple[int, str]]


def fill_catalog(given: Mapping[str, Any], origin: Origin) -> dict[str, Any]:
    """The given values completed with the catalog file's keys; a catalog key given by a
    ruleset or an override changes that field. Errors name where the key at fault was set."""
    out = {key: value for key, value in given.items() if not _is_card_key(key)}
    path = C.catalog_path(given["catalog.file"], source=_where(origin, "catalog.file"))
    catalog = C.load_catalog(path)
    changed = {key.removeprefix(C.PREFIX): key for key in given if _is_card_key(key)}
    for bare, key in changed.items():
        if bare not in catalog:
            known = [C.PREFIX + k for k in catalog]
            raise C.card_key_error(key, known, _where(origin, key))
        catalog[bare] = given[key]
    if changed:
        latest = max(changed.values(), key=lambda k: origin.get(k, (-1, ""))[0])

        def fail(message: str, key: str, *, hint: str | None = None) -> ConfigError:
            source = _where(origin, changed.get(key, latest))
            return ConfigError(message, file=source, key=C.PREFIX + key, hint=hint)

        catalog = C.check(catalog, fail)
    out.update((C.PREFIX + key, value) for key, value in catalog.items())
    digest = C.order_digest(out)
    if DIGEST in given and given[DIGEST] != digest:
        raise ConfigError(
            f"the catalog's cards or their order changed (digest {digest}, the ruleset says "
            f"{given[DIGEST]})",
            file=_where(origin, DIGEST),
            key=DIGEST,
            hint="Delete the catalog.digest key to use the catalog file as it is.",
        )
    out[DIGEST] = digest
    return out


def _is_card_key(key: str) -> bool:
    """A key of the catalog's content (not catalog.file or the digest)."""
    return key.startswith(C.PREFIX) and key not in SCHEMA and key != DIGEST


def _where(origin: Origin, key: str) -> Any:
    """The file (or --set) that set `key`, None for a key filled from the catalog."""
    return origin.get(key, (-1, None))[1]


def check_players(ruleset: Ruleset, players: int) -> None:
    """Refuse a player count the catalog cannot deal every turn's cities for."""
    per_turn = ruleset["game.cities_per_turn"][players - 2]
    turns = ruleset["game.turns"]
    kept, needed = C.cities_needed(ruleset.values, players, per_turn, turns)
    if kept < needed:
        raise ConfigError(
            f"{players} players keep {kept} cities, but {turns} turns of {per_turn} cities "
            f"need {needed}",
            file=C.catalog_path(ruleset["catalog.file"], source=None),
            key="catalog.cities",
            hint="Add cities to the catalog, or lower game.cities_per_turn.",
        )


RULESETS = RulesetFamily(SCHEMA, PRESETS, Path(__file__).resolve().parent / "rulesets",
                         cross_key_problems, fill=fill_catalog, open=(C.PREFIX,))  # fmt: skip
load_ruleset = RULESETS.load

__all__ = ["PRESETS", "RULESETS", "SCHEMA", "Ruleset", "check_players", "load_ruleset"]
