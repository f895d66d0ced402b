"""The alien-raid skill ladder as plain data, read by the plug-in and the reports without
loading a compiled strategy: its captains, weakest first, and the continuous skill
(`skilled`'s `skill`: each decision the strong captain's with that chance, else the naive
one's; skilled.py) with the captains that are points on it.
docs/games/alien_raid/strategies.md."""

LADDER = ("random", "naive", "value", "planner", "strong")  # weakest first
KNOB = ("skilled", "skill")  # (strategy, parameter) of the continuous skill, 0..1
POINTS = {"naive": 0.0, "strong": 1.0}  # captains on the knob (value, planner are not)
