"""Rulesets, the card catalog, the geometry and the dexterity presets: presets load, the
printed chart reaches the engine, and every bad input names its file, key and a fix."""

import numpy as np
import pytest

from sim.errors import ConfigError
from sim.games.space_invaders import layout as L
from sim.games.space_invaders.params import setup_numbers, to_params
from sim.games.space_invaders.ruleset import PRESETS, load_ruleset

CHART = {  # lines 134-167: (deck, planet, UFO) by players and level
    2: [(25, 20, 2), (28, 20, 3), (33, 15, 5), (37, 10, 7)],
    3: [(30, 20, 3), (34, 20, 4), (40, 15, 7), (45, 10, 9)],
    4: [(40, 20, 4), (45, 20, 6), (50, 15, 9), (60, 10, 12)],
}
LEVELS = ("training", "standard", "expert", "elite")


@pytest.mark.parametrize("preset", PRESETS)
def test_presets_load_and_round_trip(preset, tmp_path):
    ruleset = load_ruleset(preset)
    path = tmp_path / "copy.yaml"
    path.write_text(ruleset.to_yaml())
    again = load_ruleset(str(path))
    assert dict(again.values) == dict(ruleset.values)
    assert again.fingerprint() == ruleset.fingerprint()


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", range(4))
def test_the_printed_chart_sets_up_the_game(players, level):
    ruleset = load_ruleset("space-invaders", {"setup.level": LEVELS[level]})
    deck, planet, ufo = CHART[players][level]
    assert setup_numbers(ruleset.values, players) == {"deck": deck, "planet": planet, "ufo": ufo}
    p = to_params(ruleset.values, players)
    assert (p[L.P_DECK], p[L.P_PLANET_START], p[L.P_UFO_START]) == (deck, planet, ufo)
    assert p[L.P_START_ACTIVE] == (3 if players == 2 else 2)  # lines 116, 122


def test_a_one_player_game_uses_its_hands_chart():
    ruleset = load_ruleset("space-invaders", {"setup.solo_hands": 3})
    assert setup_numbers(ruleset.values, 1) == {"deck": 34, "planet": 20, "ufo": 4}


def test_custom_health_and_chart_numbers():
    ruleset = load_ruleset("space-invaders", {"setup.ufo_health": 20, "setup.planet_health": 8})
    assert setup_numbers(ruleset.values, 2)["ufo"] == 20
    assert setup_numbers(ruleset.values, 2)["planet"] == 8
    # a chart number a tune moves (experiments/tune_invaders_chart.yaml): the level's own
    charted = load_ruleset("space-invaders", {"chart.deck_2p": [25, 42, 33, 37]})
    assert setup_numbers(charted.values, 2)["deck"] == 42  # standard: the second level
    assert setup_numbers(charted.values, 3)["deck"] == 34  # other player counts as printed


def test_geometry_and_dexterity_are_filled_and_sweepable():
    base = load_ruleset("space-invaders")
    assert base["geometry.token_diameter_mm"] == 20
    assert base["dexterity.spread_mm"] > 0
    child = base.with_overrides({"dexterity.skill": "child"})
    assert child["dexterity.spread_mm"] > base["dexterity.spread_mm"]
    compact = base.with_overrides({"geometry.file": "compact"})
    assert compact["geometry.card_width_mm"] == 57
    assert compact.fingerprint() != base.fingerprint()
    token = base.with_overrides({"geometry.token_diameter_mm": 30})
    assert to_params(token.values, 2)[L.P_TOKEN_R] == 15
    fast = base.with_overrides({"catalog.file": "fast"})
    assert fast["catalog.digest"] != base["catalog.digest"]


@pytest.mark.parametrize(
    ("overrides", "key", "words"),
    [
        ({"setup.level": "expret"}, "setup.level", "Did you mean"),
        ({"setup.levle": "expert"}, "setup.levle", "Did you mean 'setup.level'"),
        ({"catalog.file": "huge"}, "catalog.file", "Shipped"),
        ({"geometry.file": "nowhere.yaml"}, "geometry.file", "not found"),
        ({"dexterity.spread_mm": 10}, "dexterity.spread_mm", "dexterity.skill=custom"),
        ({"dexterity.skill": "custom"}, "dexterity.spread_mm", "give"),
        ({"setup.deck_size": 90}, "setup.deck_size", "catalog default has 60"),
        ({"geometry.card_width_mm": 90}, "geometry.card_width_mm", "beyond"),
    ],
)
def test_bad_overrides_name_the_key(overrides, key, words):
    with pytest.raises(ConfigError) as err:
        load_ruleset("space-invaders", overrides, source="--set")
    assert err.value.key == key
    assert words in str(err.value)


def _catalog(tmp_path, cards, powers=None):
    powers = powers or (
        "[called_shot, short_wave, adjacent_instead, ufo_relaunch]",
        "[relaunch, pierce, ufo_from_landing, long_wave]",
        "[heal, ufo_three_tries, extra_adjacent, heal]",
    )
    path = tmp_path / "cat.yaml"
    path.write_text(
        "cards:\n" + "".join(f"  - {c}\n" for c in cards) + "player_cards:\n"
        f"  level_1: {powers[0]}\n  level_2: {powers[1]}\n  level_3: {powers[2]}\n"
    )
    return path


@pytest.mark.parametrize(
    ("cards", "powers", "key", "line"),
    [
        (
            ["{count: 60, speed: 1, damage: 1}", "{count: 2, speed: 4, damage: 1}"],
            None,
            "cards[1].speed",
            3,
        ),
        (["{count: 60, speed: 1, damage: 1, icon: laser}"], None, "cards[0].icon", 2),
        (["{count: 60, speed: 1, damge: 1}"], None, "cards[0].damge", 2),
        (
            ["{count: 60, speed: 1, damage: 1}"],
            (
                "[called_shot, short_wave, adjacent_instead, pierce]",
                "[relaunch, pierce, ufo_from_landing, long_wave]",
                "[heal, heal, heal, heal]",
            ),
            "player_cards.level_1[3]",
            4,
        ),
    ],
)
def test_bad_catalogs_name_file_key_and_line(tmp_path, cards, powers, key, line):
    path = _catalog(tmp_path, cards, powers)
    with pytest.raises(ConfigError) as err:
        load_ruleset("space-invaders", {"catalog.file": str(path)})
    assert err.value.file == str(path)
    assert err.value.key == key
    assert err.value.line == line


def test_a_geometry_file_missing_keys_is_refused(tmp_path):
    path = tmp_path / "geo.yaml"
    path.write_text("card_width_mm: 63\n")
    with pytest.raises(ConfigError, match="missing keys") as err:
        load_ruleset("space-invaders", {"geometry.file": str(path)})
    assert err.value.file == str(path)


def test_a_catalog_edited_after_loading_is_noticed(tmp_path):
    path = _catalog(tmp_path, ["{count: 60, speed: 1, damage: 1}"])
    ruleset = load_ruleset("space-invaders", {"catalog.file": str(path)})
    copy = tmp_path / "rules.yaml"
    copy.write_text(ruleset.to_yaml())
    path.write_text(path.read_text().replace("speed: 1", "speed: 2"))
    with pytest.raises(ConfigError, match="content changed") as err:
        load_ruleset(str(copy))
    assert err.value.key == "catalog.digest"


def test_the_default_catalog_is_the_printed_60_cards_and_12_player_cards():
    p = to_params(load_ruleset("space-invaders").values, 2)
    assert p[L.P_N_CARDS] == 60  # line 19
    decks = p[L.P_POWER_DECK : L.P_POWER_DECK + 12].reshape(3, 4)
    for level, deck in enumerate(decks, start=1):
        assert all(L.POWER_LEVEL[int(x)] == level for x in deck)  # line 400
    assert len({int(x) for x in decks.ravel()}) == 11  # the 11 printed powers
    assert np.all(np.isin(p[L.P_CARD_SPEED : L.P_CARD_SPEED + 60], [1, 2, 3]))
    assert p[L.P_EXPLOSION + 16] == 1 and p[L.P_EXPLOSION + 15] == 0  # line 294
