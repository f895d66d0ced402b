"""What a Pig player is, for the engine: a roll table.

Every decision in Pig is made after a roll that did not bust, from three numbers: the
player's banked score i, the opponent's j, and the turn total k. A strategy is therefore a
table `rolls[i, j, k]` (uint8, shape goal x goal x goal, 1: roll again, 0: hold), built once
per ruleset by the strategy (pig/strategies/) and read here, by the plain-Python game and the
compiled loop alike. Where holding wins (rules.holding_wins) every player holds: the table says
0 there, and the game holds without asking it.
"""

from __future__ import annotations


def rolls_again(table, i: int, j: int, k: int) -> bool:
    """Whether the player with the table rolls again at (i, j, k), where holding does not
    win."""
    return table[i, j, k] != 0


def table_for(player, rules):
    """The roll table a ready player (sim.plugins.base.Player: the plug-in resolved its spec)
    plays by under `rules`: its strategy builds it."""
    return player.strategy.table(rules)
