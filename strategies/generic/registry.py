"""The generic players by name, as plain data, and their classes, imported when asked for: the
plug-in lists the names without loading a search."""

from __future__ import annotations

from importlib import import_module

# name -> "module:Class" under strategies.generic
BUILTIN = {"random": "random:Random", "greedy": "greedy:Greedy", "mcts": "mcts:MCTS"}


def classes() -> dict[str, type]:
    """name -> the strategy class."""
    found = {}
    for name, target in BUILTIN.items():
        module, _, cls = target.partition(":")
        found[name] = getattr(import_module(f"strategies.generic.{module}"), cls)
    return found
