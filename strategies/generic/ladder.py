"""The skill ladder of every plain-Python game, weakest first, as points on one continuous
knob: the search's `skill` (mcts.py), whose budget of simulations per decision grows from
1 (novice: the first simulation's action, at random) to the game's `search_budget` (master)
geometrically. Plain data: the plug-in and the reports read it without loading the search."""

KNOB = ("mcts", "skill")  # (strategy, parameter) of the continuous skill, 0..1
POINTS = {"novice": 0.0, "casual": 0.25, "club": 0.5, "strong": 0.75, "master": 1.0}
LADDER = tuple(POINTS)  # weakest first


def budget_at(skill: float, top: int) -> int:
    """Simulations per decision at `skill` (0..1): 1 at 0, `top` at 1, geometric between."""
    return max(1, round(top ** min(max(skill, 0.0), 1.0)))
