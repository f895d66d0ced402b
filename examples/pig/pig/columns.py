"""The names of the columns Pig stores besides the lab's own (README.md, "Stored columns"),
written once for the loops that fill them, the report and the measures that read them. Light:
names only."""

from __future__ import annotations

from sim.plugins import trajectory

BUSTS = "busts"  # per seat: turns lost to the bust face
NO_CHOICE = "no_choice_turns"  # per seat: turns without a real choice (rules.holding_wins)
TURNS_PLAYED = "turns_played"  # per seat: turns it played
# what the quality section reads per seat: how the game went, and the turns without a choice
QUALITY = (*trajectory.SEAT_COLUMNS, NO_CHOICE, TURNS_PLAYED)
