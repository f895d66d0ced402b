"""Compiled helpers the game loops share to seat a game's players."""

from sim.jit import jit_inline


@jit_inline
def seat_players(g, n_players, seat_lineup, lineup_policy, lineup_params, which, params):
    """Seat game g's players: seat k plays lineup row j = seat_lineup[g, k], so its policy
    slot which[k] = lineup_policy[j] and its parameters params[k] = lineup_params[j]."""
    for seat in range(n_players):
        j = seat_lineup[g, seat]
        which[seat] = lineup_policy[j]
        for k in range(lineup_params.shape[1]):
            params[seat, k] = lineup_params[j, k]
