"""Setup (lines 96-175), the round's end: the invaders advance (238-281), clean-up (283-304),
the last round (306-324), the final assault (326-341) and the printed score (343-372).

A round is: `begin_round`, then each seat's turn in turn order (engine.begin_turn/step), then
`end_round`, which runs the phases below in order. Each phase is also callable on its own
(scenarios stop after any of them).
"""

from sim.games.space_invaders import layout as L
from sim.games.space_invaders.advance import march
from sim.games.space_invaders.board import classify, ufo_center_x, ufo_center_y
from sim.games.space_invaders.engine import invaders_on_board, land, pl
from sim.games.space_invaders.resolve import clear_round_hits
from sim.jit import jit, jit_inline
from sim.random_streams import below, shuffle_range

# the printed score (lines 355-372)
WIN_POINTS = 100
UFO_HIT_POINTS = 20
BONUS_KILL_POINTS = 10
HEALTH_POINTS = 10
LEVEL_POINTS = (0, 0, 50, 100)  # training, standard, expert, elite


# --- setup -------------------------------------------------------------------------------


@jit
def refill(s, p):
    """Fill the empty spaces of the top two rows in play from the deck: the top row first,
    right to left from the health tracks (line 298)."""
    first = 4 - int(p[L.P_ROWS])  # the three-row variant leaves the top row empty (line 468)
    for row in range(first, first + 2):
        for col in range(L.COLS - 1, -1, -1):
            cell = row * L.COLS + col
            if s[L.S_BOARD + cell] == 0 and s[L.S_DECK_TOP] < s[L.S_DECK_LEN]:
                s[L.S_BOARD + cell] = s[L.S_DECK + s[L.S_DECK_TOP]]
                s[L.S_DECK + s[L.S_DECK_TOP]] = 0
                s[L.S_DECK_TOP] += 1


@jit_inline
def _check_last_round(s, p):
    """Six invaders or fewer after refilling: the next round is the last (line 308)."""
    if invaders_on_board(s) <= int(p[L.P_LAST_AT]):
        s[L.S_LAST_ROUND] = 1


@jit
def new_game(s, p, n_seats, rng):
    """Set the game up for `n_seats` players (or hands of a 1-player game, line 102)."""
    for i in range(L.STATE_SIZE):
        s[i] = 0
    s[L.S_N_SEATS] = n_seats
    n_cards = int(p[L.P_N_CARDS])
    for i in range(n_cards):
        s[L.S_DECK + i] = i + 1
    shuffle_range(rng, L.SHUFFLE, s, L.S_DECK, L.S_DECK + n_cards)  # line 132
    s[L.S_DECK_LEN] = int(p[L.P_DECK])
    for i in range(s[L.S_DECK_LEN], L.MAX_CARDS):
        s[L.S_DECK + i] = 0  # the extra cards go back in the box
    for level in range(L.LEVELS):  # one card of each level per player (line 111)
        taken = 0
        for seat in range(n_seats):
            pick = below(rng, L.SHUFFLE, L.CARDS_PER_LEVEL - seat)
            for j in range(L.CARDS_PER_LEVEL):
                if (taken >> j) & 1 == 0:
                    if pick == 0:
                        taken |= 1 << j
                        s[pl(seat, L.PL_POWER + level)] = int(p[L.P_POWER_DECK + level * 4 + j])
                        break
                    pick -= 1
    for seat in range(n_seats):  # lines 112-122
        for level in range(L.LEVELS):
            s[pl(seat, L.PL_CARD + level)] = int(p[L.P_PER_LEVEL + level])
        start = int(p[L.P_START_ACTIVE])
        s[pl(seat, L.PL_CARD)] -= start
        s[pl(seat, L.PL_ACTIVE)] = start
    s[L.S_PLANET] = int(p[L.P_PLANET_START])
    s[L.S_UFO] = int(p[L.P_UFO_START])
    s[L.S_STATUS] = L.RUNNING
    refill(s, p)  # 10 cards face up in the top two rows (line 139)
    _check_last_round(s, p)


@jit
def next_round(s, p):
    """Begin the next round, or end the game at the round cap (`end.round_cap`, a safety net
    the rulebook does not have: status CAP, scored as it stands). False when the game ended."""
    if s[L.S_ROUND] >= int(p[L.P_ROUND_CAP]):
        s[L.S_STATUS] = L.CAP
        score(s, p)
        return False
    begin_round(s)
    return True


@jit
def turn_seat(s, k):
    """The seat taking the k-th turn of the round: turn order starts at the holder of the
    turn token and goes left (line 300)."""
    return (s[L.S_START_SEAT] + k) % s[L.S_N_SEATS]


@jit
def begin_round(s):
    """Every player's active tokens are ready to launch (line 287)."""
    s[L.S_ROUND] += 1
    for seat in range(s[L.S_N_SEATS]):
        for level in range(L.LEVELS):
            s[pl(seat, L.PL_LEFT + level)] = s[pl(seat, L.PL_ACTIVE + level)]


# --- the invaders advance --------------------------------------------------------------------


@jit_inline
def _icons_reached(s, p, before, after):
    """Explosion icons the tracker reached moving from `before` down to `after` (line 288)."""
    count = 0
    for h in range(max(after, 0), before):
        if h <= L.TRACK_MAX and p[L.P_EXPLOSION + h] != 0.0:
            if p[L.P_REINF_ONCE] != 0.0:
                if (s[L.S_ICONS_USED] >> h) & 1:
                    continue
                s[L.S_ICONS_USED] |= 1 << h
            count += 1
    return count


@jit
def advance_phase(s, p, rng, crashed):
    """Move the invaders; those reaching the planet damage it (lines 260-277) and go back into
    the deck, reshuffled; in the last round all move as speed 3, do double damage and are
    destroyed, and no reinforcements come (lines 310-314). Waiting tokens were removed first
    (line 224). Returns the damage done."""
    clear_round_hits(s)
    last = s[L.S_LAST_ROUND] != 0
    n = march(s, L.S_BOARD, p, last, crashed, 0)
    damage = 0
    for i in range(n):
        damage += int(p[L.P_CARD_DAMAGE + crashed[i] - 1])
    if last:
        damage *= int(p[L.P_LAST_MULT])
        s[L.S_CRASHED] += n
        if p[L.P_CRASH_SCORES] != 0.0:
            for i in range(n):
                if int(p[L.P_CARD_ICON + crashed[i] - 1]) & (L.ICON_SHIELD | L.ICON_TWO_HIT):
                    s[L.S_BONUS_KILLS] += 1
    else:
        for i in range(n):  # shuffled back into the deck (line 277)
            s[L.S_DECK + s[L.S_DECK_LEN]] = crashed[i]
            s[L.S_DECK_LEN] += 1
        s[L.S_RETURNED] += n
        if n > 0:
            shuffle_range(rng, L.SHUFFLE, s, L.S_DECK + s[L.S_DECK_TOP], L.S_DECK + s[L.S_DECK_LEN])
    before = s[L.S_PLANET]
    s[L.S_PLANET] = max(0, before - damage)
    s[L.S_DAMAGE] += before - s[L.S_PLANET]
    if not last and p[L.P_REINFORCE] != 0.0:
        s[L.S_PENDING_REINF] += _icons_reached(s, p, before, before - damage)
    if s[L.S_PLANET] <= 0:  # line 341
        s[L.S_STATUS] = L.PLANET_DESTROYED
        score(s, p)
    return damage


# --- clean up ----------------------------------------------------------------------------------


@jit
def cleanup_phase(s, p):
    """Reinforcements from the lowest level with tokens left (lines 288-294), refill the top
    rows (298), pass the turn token to the left (300), check for the last round (308)."""
    for seat in range(s[L.S_N_SEATS]):
        for _ in range(s[L.S_PENDING_REINF]):
            for level in range(L.LEVELS):
                if s[pl(seat, L.PL_CARD + level)] > 0:
                    s[pl(seat, L.PL_CARD + level)] -= 1
                    s[pl(seat, L.PL_ACTIVE + level)] += 1
                    s[L.S_REINFORCED] += 1
                    break
    s[L.S_PENDING_REINF] = 0
    refill(s, p)
    s[L.S_START_SEAT] = (s[L.S_START_SEAT] + 1) % s[L.S_N_SEATS]
    _check_last_round(s, p)


# --- the end -------------------------------------------------------------------------------


@jit
def score(s, p):
    """The printed score (lines 365-372), for the whole team."""
    points = UFO_HIT_POINTS * s[L.S_UFO_HITS] + BONUS_KILL_POINTS * s[L.S_BONUS_KILLS]
    points += HEALTH_POINTS * max(s[L.S_PLANET], 0)
    points += LEVEL_POINTS[int(p[L.P_LEVEL])]
    if s[L.S_STATUS] == L.VICTORY:
        points += WIN_POINTS
    s[L.S_SCORE] = points


@jit_inline
def _assault_tokens(s, p, seat):
    """Tokens a player launches in the final assault: all active ones (line 330); when the
    round ended early and P_FINAL_UNLAUNCHED, only those not launched yet."""
    if s[L.S_ROUND_OVER] != 0 and p[L.P_FINAL_UNLAUNCHED] != 0.0:
        return s[pl(seat, L.PL_LEFT)] + s[pl(seat, L.PL_LEFT + 1)] + s[pl(seat, L.PL_LEFT + 2)]
    return s[pl(seat, L.PL_ACTIVE)] + s[pl(seat, L.PL_ACTIVE + 1)] + s[pl(seat, L.PL_ACTIVE + 2)]


@jit_inline
def _log_assault(s, w, log, seat, result):
    n = int(w[L.W_LOG_N])
    if n >= log.shape[0]:
        return
    row = log[n]
    row[L.LOG_KIND], row[L.LOG_SEAT], row[L.LOG_LEVEL] = L.KIND_ASSAULT, seat, 0
    row[L.LOG_AIM_X], row[L.LOG_AIM_Y] = w[L.W_AIM_X], w[L.W_AIM_Y]
    row[L.LOG_SHOOTER_X], row[L.LOG_SHOOTER_Y] = w[L.W_SHOOTER_X], w[L.W_SHOOTER_Y]
    row[L.LOG_X], row[L.LOG_Y] = w[L.W_LAND_X], w[L.W_LAND_Y]
    row[L.LOG_RESULT], row[L.LOG_CELLS], row[L.LOG_ROUND] = result, 0, s[L.S_ROUND]
    w[L.W_LOG_N] = n + 1


@jit_inline
def _assault_launch(s, p, w, rng, script, seat, scale, log):
    """One token at the UFO from straight below it, re-launched from the planet area like any
    launch (line 206). Returns the landing's result, or -1 when the script ran out."""
    ax, ay = ufo_center_x(p), ufo_center_y(p)
    streak = 0
    while True:
        if not land(s, p, w, rng, script, seat, ax, ay, ax, p[L.P_SHOOTER_Y], scale):
            return -1
        result, _ = classify(s, p, w[L.W_LAND_X], w[L.W_LAND_Y])
        _log_assault(s, w, log, seat, result)
        if result != L.IN_PLANET or p[L.P_PLANET_RELAUNCH] == 0.0:
            return result
        streak += 1
        if streak >= int(p[L.P_PLANET_STREAK]):
            return result


@jit
def final_assault(s, p, w, rng, script, scale, log):
    """In turn order each player launches their tokens, one at a time, at the UFO, without
    powers (lines 330-333): a player's tokens one after the other, as in a round's launch
    (ruling), or under P_ASSAULT_ROTATION one token a player going round the table. The UFO
    destroyed wins, else it does 20 damage: game over. The order cannot change the outcome:
    every launch lands where the seat's own random stream says, whenever it comes. Returns
    OK, or E_SCRIPT when a scenario runs out of landings."""
    s[L.S_ASSAULT] = 1
    n = s[L.S_N_SEATS]
    rotation = p[L.P_ASSAULT_ROTATION] != 0.0
    left = 0  # 8 bits a seat: tokens still to launch
    for seat in range(n):
        left |= _assault_tokens(s, p, seat) << (8 * seat)
    while left != 0 and s[L.S_STATUS] == L.RUNNING:
        for k in range(n):
            seat = turn_seat(s, k)
            while (left >> (8 * seat)) & 0xFF != 0 and s[L.S_STATUS] == L.RUNNING:
                left -= 1 << (8 * seat)
                result = _assault_launch(s, p, w, rng, script, seat, scale[seat], log)
                if result < 0:
                    return L.E_SCRIPT
                if result == L.IN_UFO:
                    s[L.S_UFO] -= 1
                    s[L.S_UFO_HITS] += 1
                    s[L.S_ASSAULT_HITS] += 1
                    s[pl(seat, L.PL_UFO_HITS)] += 1
                    if s[L.S_UFO] <= 0:  # line 332
                        s[L.S_STATUS] = L.VICTORY
                if rotation:
                    break
    if s[L.S_STATUS] == L.RUNNING:  # line 333
        before = s[L.S_PLANET]
        s[L.S_PLANET] = max(0, before - int(p[L.P_UFO_ATTACK]))
        s[L.S_DAMAGE] += before - s[L.S_PLANET]
        s[L.S_STATUS] = L.UFO_SURVIVED
    score(s, p)
    return L.OK


@jit
def end_game(s, p, w, rng, script, scale, log):
    """Every invader is gone: the UFO already destroyed wins (line 324), else the final
    assault decides."""
    if s[L.S_UFO] <= 0:
        s[L.S_STATUS] = L.VICTORY
        score(s, p)
        return L.OK
    return final_assault(s, p, w, rng, script, scale, log)


@jit
def end_round(s, p, w, rng, script, scale, log, crashed):
    """After the last player's turn (or the last invader's fall): advance, clean up, or end.
    Returns OK or E_SCRIPT."""
    if s[L.S_ROUND_OVER] != 0:  # line 322: the round ends at once
        clear_round_hits(s)
        return end_game(s, p, w, rng, script, scale, log)
    last = s[L.S_LAST_ROUND] != 0
    advance_phase(s, p, rng, crashed)
    if s[L.S_STATUS] != L.RUNNING:
        return L.OK
    if last:  # line 312: every invader crashed
        return end_game(s, p, w, rng, script, scale, log)
    cleanup_phase(s, p)
    return L.OK
