"""The card catalog: strict validation (card name, file and line in every error), the assumed
catalog agrees with the rulebook's component counts, and any field is a rule override."""

from pathlib import Path

import pytest

from sim.errors import ConfigError
from sim.games.alien_raid import catalog as C
from sim.games.alien_raid.ruleset import load_ruleset

ASSUMED = Path(C.__file__).with_name("rulesets") / "catalog-assumed.yaml"


def values():
    return load_ruleset("alien-raid").values


def count(section, where=lambda name: True):
    v = values()
    return sum(v[f"catalog.{section}.{n}.count"] for n in C.cards(v, section) if where(n))


def test_the_assumed_catalog_is_marked_as_an_assumption():
    v = values()
    assert v["catalog.assumed"] is True
    assert "ASSUMED CATALOG" in ASSUMED.read_text()


def test_component_counts_of_the_rulebook():
    v = values()
    deck = lambda n: v[f"catalog.ships.{n}.deck"]  # noqa: E731
    assert count("ships") == 105  # line 12: 105 cards with alien ships
    assert count("ships", lambda n: deck(n) == "start") == 5  # a training saucer per colour
    assert count("ships", lambda n: deck(n) == "blue") == count("ships", lambda n: deck(n) == "red")
    assert count("armies") == 20  # line 11
    assert count("compensations") == 20  # line 15
    assert len(C.cards(v, "tasks")) == 9  # line 13
    cities = C.cards(v, "cities")
    assert len(cities) == 60  # line 10
    for players, per_turn in ((2, 3), (3, 4), (4, 5), (5, 6)):  # line 84
        kept, needed = C.cities_needed(v, players, per_turn, 10)
        assert kept == needed  # line 76: every city is played by the end of turn 10
        for colour in ("blue", "red"):  # blue for turns 1-5, red for 6-10
            n = sum(
                1
                for c in cities
                if v[f"catalog.cities.{c}.deck"] == colour
                and C.min_players(v[f"catalog.cities.{c}.tag"]) <= players
            )
            assert n == 5 * per_turn
    untagged_tasks = [t for t in C.cards(v, "tasks") if v[f"catalog.tasks.{t}.tag"] == "none"]
    assert len(untagged_tasks) >= 3  # 2 players draw 3 tasks (line 60)


def test_the_examples_cards():
    v = values()
    assert v["catalog.ships.training-saucer.fuel"] == 1  # line 226
    assert "invulnerable" in v["catalog.ships.training-saucer.traits"]  # FAQ 373-379
    assert v["catalog.ships.tripod.fuel"] == 3  # line 226
    assert v["catalog.cities.paris.type"] == "scientific"  # Paris example
    assert v["catalog.cities.seoul.type"] == "scientific"  # Seoul example


def write(tmp_path, text):
    path = tmp_path / "cards.yaml"
    path.write_text(text)
    return path


def small_catalog(**changes):
    text = ASSUMED.read_text()
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize(
    ("old", "new", "key", "message"),
    [
        ("region: europe, type: scientific, raid: 10000",
         "region: europa, type: scientific, raid: 10000",
         "cities.paris.region", "got 'europa'. Did you mean 'europe'?"),
        ('"+4 attack if alone"', '"+4 attack if lonely"', "ships.cruiser.traits[0]",
         "unknown condition 'lonely'"),
        ("traits: [transfer, ", "traits: [teleport, ", "ships.jump-tripod.traits[0]",
         "unknown trait 'teleport'"),
        ("class: cruiser, deck: blue", "class: crusier, deck: blue", "ships.cruiser.class",
         "got 'crusier'. Did you mean 'cruiser'?"),
        ('effect: "jam one enemy ship"', 'effect: "jam two enemy ships"',
         "stations.jammer.effect", "unknown station effect"),
        ("counts: city in europe}", "counts: city in europ}", "tasks.europe.counts",
         "unknown region 'europ'"),
        ("attack: 12}", "attak: 12}", "armies.army.attak", "unknown key. Did you mean 'attack'?"),
    ],
)  # fmt: skip
def test_a_bad_card_is_refused_with_its_name_and_line(tmp_path, old, new, key, message):
    """The error names the file and line, the key (section, card and field) and the fix."""
    text = small_catalog(**{old: new})
    path = write(tmp_path, text)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if new in row)
    with pytest.raises(ConfigError) as err:
        C.load_catalog(path)
    shown = str(err.value)
    assert shown.startswith(f"{path}:{line}: key '{key}': ")
    assert message in shown


def test_a_missing_field_and_an_unknown_section(tmp_path):
    with pytest.raises(ConfigError, match="key 'ships.cruiser': missing fields: fuel"):
        C.load_catalog(write(tmp_path, small_catalog(**{", attack: 9, fuel: 4,": ", attack: 9,"})))
    with pytest.raises(ConfigError, match="key 'armys': unknown key. Did you mean 'armies'?"):
        C.load_catalog(write(tmp_path, small_catalog(**{"\narmies:\n": "\narmys:\n"})))


def test_any_card_field_is_an_override():
    r = load_ruleset("alien-raid", ["catalog.ships.cruiser.price=40000"])
    assert r["catalog.ships.cruiser.price"] == 40000
    assert r.fingerprint() != load_ruleset("alien-raid").fingerprint()
    r = load_ruleset("alien-raid", {"catalog.ships.cruiser.traits": ["+5 attack if alone"]})
    assert r["catalog.ships.cruiser.traits"] == ("+5 attack if alone",)


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("catalog.ships.cruiser.prize=1", "unknown card field"),
        ("catalog.ships.cruiser.price=-5", "expected an integer"),
        ('catalog.ships.cruiser.traits=["+5 attack if city is scientifc"]', "unknown city type"),
        ("catalog.cities.paris.region=atlantis", "got 'atlantis'"),
    ],
)
def test_bad_overrides_name_the_key(override, message):
    with pytest.raises(ConfigError) as err:
        load_ruleset("alien-raid", [override])
    assert message in str(err.value)
    assert "catalog." in str(err.value)


def test_a_designer_catalog_replaces_the_assumed_one(tmp_path):
    path = write(tmp_path, small_catalog(**{"assumed: true": "assumed: false"}))
    ruleset = tmp_path / "mine.yaml"
    ruleset.write_text(f"extends: alien-raid\nname: mine\ncatalog: {{file: {path}}}\n")
    r = load_ruleset(str(ruleset))
    assert r["catalog.assumed"] is False
    assert r["catalog.file"] == str(path)


@pytest.mark.parametrize("word", ["regions", "types", "classes"])
def test_an_empty_vocabulary_is_refused_before_any_card(tmp_path, word):
    """The card fields' choices are the catalog's words: an empty list of them is the
    catalog's mistake, named with its key, not a failure to build the cards' schema."""
    text = ASSUMED.read_text()
    line = next(row for row in text.splitlines() if row.startswith(f"{word}:"))
    with pytest.raises(ConfigError, match=f"key '{word}': expected 1 to \\d+ distinct {word}"):
        C.load_catalog(write(tmp_path, text.replace(line, f"{word}: []")))
