"""The Guardians of Space report's words: how to say a rule change, an outcome and a metric.

RULES turns a rule key and its value into words for arm names ("the mine moves 2 cells");
OUTCOMES says how a game ended; TERMS defines every metric an answer names (shown on hover on
the page, and as a footnote in report.md). The definitions follow docs/games/guardians/rules.md and
docs/results.md; the mine's explosions follow the engine's counting (see MINE_EXPLOSIONS).
"""

from __future__ import annotations

from typing import Any

from sim.report import fmt
from sim.report.answers import Term


def _cells(v: Any) -> str:
    return f"the mine moves {fmt.value(v)} cell{'' if v == 1 else 's'}"


RULES = {
    "mine.enabled": lambda v: "the game has the mine" if v else "the game has no mine",
    "mine.step": _cells,
    "shot.steal": lambda v: f"a shot steals the {v} token",
    "missile.cost": lambda v: f"the missile costs {fmt.value(v)}",
    "upgrade.cost": lambda v: f"an upgrade costs {fmt.value(v)}",
    "power_up.cost": lambda v: f"a power-up costs {fmt.value(v)}",
    "board.start_rows": lambda v: f"{fmt.value(v)} starting rows",
    "players": lambda v: f"{v} players",
    "ruleset": lambda v: f"preset {v}",
    "seats.all": lambda v: f"every seat plays {v}",
    "end.turn_cap": lambda v: f"turn cap {fmt.value(v)}",
}

# outcome -> how a game that ended so is said ("82% of the games were ...")
OUTCOMES = {
    "raid": "lost by everybody to a raid",
    "cap": "cut at the turn cap",
    "stall": "ended in a stall",
    "victory": "won by clearing the board",
}
NO_WINNER = {k: OUTCOMES[k] for k in ("raid", "cap")}  # outcomes in which nobody wins

MINE_EXPLOSIONS = (
    "Invaders destroyed by the mine. The mine goes off in two ways: a player moves it into an "
    "invader, or an invader descends onto the mine where it stands (it was placed at setup). "
    "Such a descent is counted for the player whose turn brought it about (a shot emptying a "
    "column, a missile, the end of the turn), so players who never move the mine have "
    "explosions too."
)

TERMS = {
    "win share": "A player's share of a game's win: 1 for the sole winner, 1/k for each of k "
    "tied winners, 0 otherwise (and 0 for everybody when nobody wins), averaged over games.",
    "fair share": "The win share every seat would have if the seat did not matter: the share "
    "of games with a winner divided by the number of players.",
    "pp": "Percentage points: the difference between two percentages (50% to 52% is +2 pp).",
    "invaders' wins": "The raid rate: the share of games the invaders win by reaching the planet; "
    "every player loses such a game.",
    "game length": "Player turns per game (a round is one turn of every player).",
    "mine explosions": MINE_EXPLOSIONS,
    "win-share uplift": "The buyer's win share minus the fair share (the game's wins / players): "
    "how much more than an equal player the buying strategy wins.",
    "break-even price": "The price at which buying stops paying: the buyer's win-share uplift, "
    "smoothed to be monotone in the price, crosses zero there.",
    "seat advantage": "A seat's win share minus the fair share, over the games with a winner.",
    "turn cap": "A safety limit on the number of turns (end.turn_cap); a game stopped there has "
    "no winner.",
}


def term(name: str, text: str | None = None) -> Term:
    """The term `name` (its text may differ, e.g. a plural), with its definition."""
    return Term(text or name, TERMS[name])


# metric labels of the comparison tables -> definition (shown on hover in the tables)
METRICS = {
    "invaders win (raid rate)": TERMS["invaders' wins"],
    "board cleared (victory rate)": "Share of games that end with no invader on the board.",
    "stalled (stall rate)": "Share of games that end after a full round of shots without a hit.",
    "cut at the turn cap": TERMS["turn cap"],
    "game length (turns)": "Player turns per game.",
    "game length (rounds)": "Completed rounds per game (every player plays once a round).",
    "total score of the table (points)": "Sum of every player's points at the end of a game.",
    "winner's score (points)": "Points of the winner at the end (games with a winner only).",
    "first player's win share": TERMS["win share"] + " For the player in seat 1.",
    "mine explosions per game": MINE_EXPLOSIONS,
    "mine explosions per game (all players)": MINE_EXPLOSIONS,
}


def metric_definition(label: str) -> str:
    """The definition of a comparison table's metric label ('' if none is known)."""
    if label in METRICS:
        return METRICS[label]
    if label.startswith("score of seat"):
        return "Points this seat holds at the end of a game."
    if label.startswith("win share of"):
        return TERMS["win share"]
    if label.endswith("per game (all players)"):
        return "Summed over every player of a game, averaged over games."
    return ""
