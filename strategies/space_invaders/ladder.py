"""The Space Invaders team-skill ladder as plain data, read by the plug-in and the reports
without loading a compiled strategy: its levels, weakest first, and the continuous skill
(`skilled`'s `skill`: each decision the planner's with that chance, else the naive player's;
skilled.py) with the levels that are points on it. docs/games/space_invaders/strategies.md."""

LADDER = ("naive", "tactical", "planner")  # weakest first
KNOB = ("skilled", "skill")  # (strategy, parameter) of the continuous skill, 0..1
POINTS = {"naive": 0.0, "planner": 1.0}  # levels on the knob (tactical is not one)
