"""Plain words in a report: a rule key by its schema's plain name, a data file's open key
(alien-raid's catalog) by its entry and field, a skill level named alone where an arm is named
in a table or a chart ('casual' under an "arm" column, not 'at casual'), and the key itself
where no name is known."""

from __future__ import annotations

from sim.report.plain import for_game


def test_an_open_catalog_key_is_said_by_its_card_and_field():
    plain = for_game("alien-raid", "alien-raid")
    assert plain.name("catalog.ships.cruiser.price") == "the cruiser's price"
    assert plain.setting("catalog.ships.cruiser.price", 40000) == "the cruiser's price 40000"
    assert plain.name("catalog.file") != "catalog.file"  # a schema key keeps its own name
    assert plain.name("no.such.key") == "no.such.key"  # outside the open prefixes: as itself


def test_a_skill_level_names_an_arm_alone_in_a_table_and_with_at_in_a_sentence():
    plain = for_game("guardians", "guardians")
    assert plain.label({"skill": "casual"}) == "casual"
    assert plain.settings({"skill": "casual"}) == "at casual"
    both = {"players": 4, "skill": "club"}
    assert plain.label(both) == "4 players, club"
    assert plain.settings(both) == "4 players, at club"
