"""The toy games of toys.py registered as plug-ins for the test that asks for one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sim import plugins
from sim.plain import PlainGame, PlainPlugin, plug_in


@pytest.fixture
def registered() -> Iterator:
    """`registered(game)` registers a toy's plug-in until the test ends, and returns it."""
    added: list[str] = []

    def register(game: PlainGame | type[PlainGame]) -> PlainPlugin:
        plugin = plug_in(game)
        plugins._GAMES.pop(plugin.name, None)
        plugins.register(plugin)
        added.append(plugin.name)
        return plugin

    yield register
    for name in added:
        plugins._GAMES.pop(name, None)
