"""The columns a Guardians game stores besides the runner's: declared once, here.

The chunk player (chunks.py) fills them from the state, the report reads them (report/), and a
test checks that docs/results.md documents every one. Light: layout offsets only, no engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.games.guardians import layout as L
from sim.plugins import trajectory


@dataclass(frozen=True)
class SeatStat:
    """A per-seat count read from the player's block of the state at the end of the game."""

    column: str
    field: int  # the PL_* offset in the player's block
    per_game: str = ""  # what the table's total per game counts, in reports ('': not totalled)


SEAT_STATS = (
    SeatStat("level", L.PL_LEVEL),
    SeatStat("steals_made", L.PL_STEALS_MADE, "steals"),
    SeatStat("steals_suffered", L.PL_STEALS_SUFFERED),
    SeatStat("missiles_bought", L.PL_MISSILES_BOUGHT, "missiles bought"),
    SeatStat("missiles_fired", L.PL_MISSILES_FIRED, "missiles fired"),
    SeatStat("missile_points", L.PL_MISSILE_POINTS),
    SeatStat("upgrades_bought", L.PL_UPGRADES_BOUGHT, "upgrades bought"),
    SeatStat("power_ups_bought", L.PL_POWER_UPS_BOUGHT, "power-ups bought"),
    SeatStat("power_ups_used", L.PL_POWER_UPS_USED, "power-ups used"),
    SeatStat("points_paid", L.PL_POINTS_PAID, "points paid"),
    SeatStat("losses", L.PL_LOSSES, "fighters destroyed"),
    SeatStat("reentries", L.PL_REENTRIES, "re-entries"),
    SeatStat("mine_explosions", L.PL_MINE_EXPLOSIONS, "mine explosions"),
    SeatStat("shots", L.PL_SHOTS),
    SeatStat("hits", L.PL_HITS),
    SeatStat("turns_played", L.PL_TURNS),
)

# per kind of token (1..5-eye monsters, ship halves): held at the end, taken during the game
KIND_NAMES = ("", "1", "2", "3", "4", "5", "ship")
RESERVE_COLUMNS = tuple(f"reserve_{KIND_NAMES[k]}" for k in range(1, L.N_KINDS))
TAKEN_COLUMNS = tuple(f"taken_{KIND_NAMES[k]}" for k in range(1, L.N_KINDS))

# how the game went (sim/plugins/trajectory.py): per game, then per seat; and per seat the turns
# it could play only one way (engine.only_one_way)
GAME_TRAJECTORY = trajectory.GAME_COLUMNS
SEAT_TRAJECTORY = trajectory.SEAT_COLUMNS
NO_CHOICE = "no_choice_turns"
