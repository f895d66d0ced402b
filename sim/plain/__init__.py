"""Plain-Python games: a designer's game written as a state and its rules, no numba needed
(docs/adding-a-game.md, "The plain path"). `PlainGame` and `State` are the interface,
`Chance` the seeded dice, `Strategy` a player of the designer's own, and `plug_in(game)` the
plug-in every command of the lab plays it through."""

from sim.plain.chance import Chance
from sim.plain.game import Action, PlainGame, State, Strategy
from sim.plain.plugin import PlainPlugin, plug_in

__all__ = ["Action", "Chance", "PlainGame", "PlainPlugin", "State", "Strategy", "plug_in"]
