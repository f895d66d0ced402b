"""What the report reads from files besides the results: a preset's printed values."""

from sim.report.data import preset_value


def test_a_preset_value_is_found_for_every_game_name():
    """A game named with a hyphen lives in a package named with an underscore."""
    assert preset_value("guardians", "guardians", "missile.cost") == 10
    assert preset_value("space-invaders", "space-invaders", "setup.rows") == 4
    assert preset_value("alien-raid", "alien-raid", "catalog.file") == "assumed"
    assert preset_value("space-invaders", "no-such-preset", "setup.rows") is None
