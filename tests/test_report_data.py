"""What the report reads besides the results: a preset's values, through the game's plug-in."""

from sim.report.data import preset_value


def test_a_preset_value_comes_from_the_games_plugin():
    assert preset_value("guardians", "guardians", "missile.cost") == 10
    assert preset_value("space-invaders", "space-invaders", "setup.rows") == 4
    assert preset_value("space-invaders", "space-invaders-three-rows", "setup.rows") == 3
    assert preset_value("alien-raid", "alien-raid", "catalog.file") == "assumed"
    assert preset_value("space-invaders", "space-invaders", "chart.deck_2p") == [25, 28, 33, 37]
    assert preset_value("space-invaders", "no-such-preset", "setup.rows") is None
    assert preset_value("space-invaders", "space-invaders", "no.such.key") is None
