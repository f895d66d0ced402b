"""A board-game balance lab: games as plug-ins (sim/games/), played in millions, reported
with intervals."""

from sim import compile_cache

__version__ = "0.1.0"

compile_cache.configure()
