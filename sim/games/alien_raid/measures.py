"""What alien-raid tells the lab's measures (the plug-in's `measures()` part): one scoring
event is one raid of the richest city in the arm's card catalog (the most humans a conquest
brings without a catch), and how each ending reads. No count of turns without a choice: every
turn deals cities and every captain keeps its training saucer, so each captain chooses where
its ships attack every turn. Light: no engine."""

from __future__ import annotations

from sim.measures.core import Settings
from sim.measures.spec import GameMeasures

RAID = ("catalog.cities.", ".raid")


def richest_raid(settings: Settings) -> float:
    """The largest raid of a city card under the arm's rules (the printed preset's when the
    arm's are unknown)."""
    rules = settings.rules
    if not any(k.startswith(RAID[0]) for k in rules):
        from sim.games.alien_raid.ruleset import load_ruleset

        rules = load_ruleset("alien-raid").values
    raids = [float(v) for k, v in rules.items() if k.startswith(RAID[0]) and k.endswith(RAID[1])]
    return max(raids)


MEASURES = GameMeasures(
    scoring_event=richest_raid,
    scoring_event_words="one raid of the richest city in the card catalog",
    score_unit="humans",
    no_choice_words="every turn deals cities and every captain keeps its training saucer, so "
    "each captain chooses where its ships attack",
    length=("turns",),
    ends={"win": "have a single winner", "shared": "end in a shared win"},
)


def game_measures() -> GameMeasures:
    """The plug-in's `measures`."""
    return MEASURES
