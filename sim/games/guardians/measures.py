"""What Guardians tells the lab's measures (the plug-in's `measures()` part): one scoring event
is one token taken (the most a token is worth under the arm's rules: a 5-eye monster, 5
points, or a ship half, `tokens.ship_part_points`), a turn without a real choice is one the
seat could play only one way (`no_choice_turns`, docs/results.md), and how each ending reads.
Light: no engine."""

from __future__ import annotations

from sim.games.guardians.columns import NO_CHOICE
from sim.measures.core import Settings
from sim.measures.spec import GameMeasures

EYES = 5  # the most eyes a monster token has
SHIP = "tokens.ship_part_points"


def token_points(settings: Settings) -> float:
    """The most one token is worth under the arm's rules (the printed rules' when the arm's
    are unknown)."""
    ship = settings.rules.get(SHIP)
    if ship is None:
        from sim.games.guardians.ruleset import load_ruleset

        ship = load_ruleset("guardians").values[SHIP]
    return float(max(EYES, int(ship)))


MEASURES = GameMeasures(
    scoring_event=token_points,
    scoring_event_words="one token taken, at its most valuable: a ship half or a 5-eye monster",
    no_choice=(NO_CHOICE, "turns_played"),
    no_choice_words="the seat could play its turn only one way (a destroyed fighter with no way "
    "back that turn; a fighter that cannot move, buy, or use a missile, power-up or the mine)",
    length=("turns", "rounds"),
    ends={
        "victory": "end with the board cleared",
        "stall": "end in a stall (a round without a hit)",
        "raid": "are lost by everybody to a raid",
        "cap": "are cut at the turn cap",
    },
)


def game_measures() -> GameMeasures:
    """The plug-in's `measures`."""
    return MEASURES
