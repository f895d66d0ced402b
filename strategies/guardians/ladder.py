"""The Guardians skill ladder as plain data, read by the plug-in and the reports without
loading a compiled strategy: its levels, weakest first, and the continuous skill the levels
below the master are points on (`skilled`'s `skill`, 0 novice .. 1; skilled.py says how a
point sets every trait). docs/games/guardians/strategies.md measures it."""

KNOB = ("skilled", "skill")  # (strategy, parameter) of the continuous skill, 0..1
KNOB_PARAMS = {"shop": 1}  # the knob playing the whole game as people do: it shops as its level
POINTS = {"novice": 0.0, "casual": 0.25, "club": 0.5, "strong": 0.75}  # levels on the knob
LADDER = (*POINTS, "master")  # weakest first; the master is a search of its own (master.py)
