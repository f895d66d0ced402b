"""The per-seat columns of alien-raid results, named once: the engine's simulate_chunk writes them
(chunks.py) and the report reads them (report/). Light: plain names and offsets."""

from sim.games.alien_raid import layout as L
from sim.plugins import trajectory

# per-seat counters copied from the captain's block of the state: column -> PL_* field
SEAT_FIELDS = {
    "humans_play": L.PL_HUMANS_PLAY,
    "task_humans": L.PL_TASK_HUMANS,
    "repaid": L.PL_REPAID,
    "spent": L.PL_SPENT,
    "credits_taken": L.PL_CREDITS_TAKEN,
    "attacks": L.PL_ATTACKS,
    "conquests": L.PL_CONQUESTS,
    "battles": L.PL_BATTLES,
    "battles_won": L.PL_BATTLES_WON,
    "retreats": L.PL_RETREATS,
    "ships_lost": L.PL_SHIPS_LOST,
    "compensations": L.PL_COMPS_RECEIVED,
    "raids": L.PL_RAIDS,
    "raid_humans": L.PL_RAID_HUMANS,
    "catches": L.PL_CATCHES,
    "catches_won": L.PL_CATCHES_WON,
    "catch_humans": L.PL_CATCH_HUMANS,
    "catch_retreats": L.PL_CATCH_RETREATS,
    "army_losses": L.PL_ARMY_LOSSES,
    "stations_used": L.PL_STATIONS_USED,
    "comp_humans": L.PL_COMP_HUMANS,
    "trophies": L.PL_TROPHIES_TAKEN,
    "transfers": L.PL_TRANSFERS,
    "tasks_first": L.PL_TASKS_FIRST,
    "tasks_second": L.PL_TASKS_SECOND,
    "cities": L.PL_N_WON,
    "probe_bought": L.PL_PROBE_BOUGHT,
    "probe_turn": L.PL_PROBE_TURN,
    "probe_price": L.PL_PROBE_PRICE,
    "rp_armies": L.PL_RP_ARMIES,
    "rp_fleet": L.PL_RP_FLEET,
    "rp_raid": L.PL_RP_RAID,
    "rp_catch": L.PL_RP_CATCH,
    "rp_choice": L.PL_RP_CHOICE,
    "rp_humans": L.PL_RP_HUMANS,
    "rp_lost": L.PL_RP_LOST,
    "rp_turn": L.PL_RP_TURN,
    "cp_turn": L.PL_CP_TURN,
    "cp_took": L.PL_CP_TOOK,
    "bonus_held": L.PL_BONUS_HELD,
    "repaid_early": L.PL_REPAID_EARLY,
}
PROBE_CARD = "probe_card"  # the card a purchase probe offered ('' none)
BOUGHT, OFFERED = "bought_", "offered_"  # + a card's column name: its purchases and offers


def card_column(prefix: str, card: str) -> str:
    """A card's column: card_column(BOUGHT, 'new-york') -> 'bought_new_york'."""
    return prefix + card.replace("-", "_")


# how the game went (sim/plugins/trajectory.py; a step is a turn of the whole table): per game,
# then per seat
GAME_TRAJECTORY = trajectory.GAME_COLUMNS
SEAT_TRAJECTORY = trajectory.SEAT_COLUMNS
