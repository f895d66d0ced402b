"""The per-seat columns of Space Invaders results, named once: the engine's simulate_chunk
writes them (chunks.py) and the report reads them (report/). Light: plain names and offsets."""

from sim.games.space_invaders import layout as L

# per-seat counters copied from the seat's block of the state: column -> PL_* field
SEAT_FIELDS = {
    "launches": L.PL_LAUNCHES,
    "planet_relaunches": L.PL_PLANET_RELAUNCHES,
    "power_relaunches": L.PL_POWER_RELAUNCHES,
    "landed": L.PL_LANDED,
    "kills": L.PL_KILLS,
    "ufo_hits": L.PL_UFO_HITS,
    "misses": L.PL_MISSES,
    "waves": L.PL_WAVES,
    "bonus_shots": L.PL_BONUS_SHOTS,
    "redirects": L.PL_REDIRECTS,
    "extras": L.PL_EXTRAS,
    "healed": L.PL_HEALED,
    "planet_stays": L.PL_PLANET_STAYS,
    "declined": L.PL_DECLINED,
}
# the seat's player-card power of each level (a solo player's hands joined with '+')
POWER_COLUMNS = tuple(f"power_{level + 1}" for level in range(L.LEVELS))
# active tokens of each level at the game's end
TOKEN_COLUMNS = tuple(f"tokens_{level + 1}" for level in range(L.LEVELS))
# every per-seat column besides the framework's (seat, strategy, score, win_share)
SEAT_COLUMNS = (*POWER_COLUMNS, *TOKEN_COLUMNS, *SEAT_FIELDS)
