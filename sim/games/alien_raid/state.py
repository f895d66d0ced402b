"""The game's state as compiled functions: setup (rulebook lines 42-64), the decks, dice and
the event log. `s` is the state (int32, layout.S_*), `p` the params (int64)."""

import numpy as np

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import cf, mf
from sim.jit import jit, jit_inline
from sim.random_streams import below, shuffle_range

REFILL = L.MAX_SHIP_CARDS  # where a refilled ships deck is laid out in S_SHIPS


@jit_inline  # small: pasted (as a call numba compiled it once per mix of argument types)
def refused(s, err, seat):
    """Whether err refuses a decision; the game's first refusal is recorded with its seat
    (S_ERROR, S_ERROR_SEAT), which stops the game."""
    if err != L.OK and s[L.S_ERROR] == L.OK:
        s[L.S_ERROR] = err
        s[L.S_ERROR_SEAT] = seat
    return err != L.OK


@jit_inline
def pl(seat, field):
    """Index of field PL_* of `seat` in the state."""
    return L.S_PLAYERS + seat * L.PL_SIZE + field


@jit_inline
def touched(s, seat):
    """Captain `seat`'s public part (what observe._observe_block copies) changes: the next
    observation makes it anew, and its attack in a fight (fighting.fighter_total). Every
    write to those words has this beside it."""
    s[L.S_OBSERVED] &= ~(1 << seat)
    s[L.S_F_KEPT] &= ~(1 << seat)


@jit_inline
def kept_differs(s, seat):
    """Checking mode found a kept figure unlike the one made anew: the game stops (E_KEPT)."""
    if s[L.S_ERROR] == L.OK:
        s[L.S_ERROR] = L.E_KEPT
        s[L.S_ERROR_SEAT] = seat


# --- the event log -----------------------------------------------------------------------


@jit_inline
def recording(log):
    """Whether `log` keeps events: a log of one row (the game loop's) records nothing, so a
    figure computed only for an event is computed only when this holds."""
    return log.shape[0] > 1


@jit_inline
def emit(log, s, code, seat, space, v1, v2, v3, v4):
    """Append an event (row 0 of `log` holds the count; a log of one row records nothing).
    Pasted into its callers, it widens the figures to int64 for `_append`: a literal (-1, 0)
    or an int32 read from the state is a type of its own, and numba compiled the append once
    per mix (34 times)."""
    if recording(log):
        _append(log, s, np.int64(code), np.int64(seat), np.int64(space), np.int64(v1),
                np.int64(v2), np.int64(v3), np.int64(v4))  # fmt: skip


@jit
def _append(log, s, code, seat, space, v1, v2, v3, v4):
    n = log[0, 0]
    if n + 1 >= log.shape[0]:
        return
    row = n + 1
    log[row, 0], log[row, 1], log[row, 2], log[row, 3] = code, s[L.S_TURN], seat, space
    log[row, 4], log[row, 5], log[row, 6], log[row, 7] = v1, v2, v3, v4
    log[0, 0] = n + 1


# --- dice --------------------------------------------------------------------------------


@jit
def roll_die(s, rng):
    """One die: the next fixed die of a scenario, else a random one."""
    if s[L.S_DICE_POS] < s[L.S_DICE_N]:
        d = s[L.S_DICE + s[L.S_DICE_POS]]
        s[L.S_DICE_POS] += 1
        return d
    if s[L.S_DICE_N] > 0:
        s[L.S_DICE_SHORT] = 1  # a scenario needed more dice than it fixed
    return 1 + below(rng, L.GAME_STREAM, 6)


@jit
def roll_2d6(s, rng):
    a = roll_die(s, rng)
    return a + roll_die(s, rng)


# --- setup -------------------------------------------------------------------------------


@jit
def new_game(s, p, n_players, rng):
    """Lines 42-64: decks by player count, starting ships, humans, tasks."""
    s[:] = 0
    s[L.S_N_PLAYERS] = n_players
    s[L.S_TURN] = 1
    s[L.S_CREDITS_LEFT] = p[L.P_CREDIT_CARDS]
    for k in range(L.MAX_BOARD):
        s[L.S_BOARD + k] = -1
        s[L.S_BOARD_DEALT + k] = -1
    for seat in range(n_players):
        clear_player(s, seat)
        s[pl(seat, L.PL_HUMANS)] = p[L.P_START_HUMANS]
    build_ship_decks(s, p, rng)
    build_city_deck(s, p, n_players, rng)
    build_counted_deck(s, p, rng, L.P_N_ARMY_MODELS, L.P_ARMY_COUNT, L.S_ARMY_DECK, L.S_ARMY_TOP,
                       L.S_ARMY_END)  # fmt: skip
    build_counted_deck(s, p, rng, L.P_N_COMP_MODELS, L.P_COMP_COUNT, L.S_COMP_DECK, L.S_COMP_TOP,
                       L.S_COMP_END)  # fmt: skip
    deal_tasks(s, p, n_players, rng)
    deal_starting_ships(s, p, n_players)


@jit
def clear_player(s, seat):
    touched(s, seat)
    for i in range(L.MAX_HAND):
        s[pl(seat, L.PL_HAND + i)] = -1
        s[pl(seat, L.PL_TARGET + i)] = -1
    for i in range(L.MAX_STATIONS):
        s[pl(seat, L.PL_STATIONS + i)] = -1
    for i in range(L.MAX_DRAWN):
        s[pl(seat, L.PL_DRAWN + i)] = -1
    s[pl(seat, L.PL_PROBE_CARD)] = -1
    s[pl(seat, L.PL_RP_ARMIES)] = -1


@jit
def build_ship_decks(s, p, rng):
    """Blue cards, then red cards, each colour shuffled apart; stations shuffled in (line 56)."""
    n = 0
    for colour in (L.DECK_BLUE, L.DECK_RED):
        start = n
        for m in range(p[L.P_N_MODELS]):
            if mf(p, m, L.M_DECK) == colour:
                for _ in range(mf(p, m, L.M_COUNT)):
                    s[L.S_SHIPS + n] = m
                    n += 1
        shuffle_range(rng, L.GAME_STREAM, s[L.S_SHIPS :], start, n)
        if colour == L.DECK_BLUE:
            s[L.S_BLUE_TOP], s[L.S_BLUE_END] = start, n
        else:
            s[L.S_RED_TOP], s[L.S_RED_END] = start, n


@jit
def build_city_deck(s, p, n_players, rng):
    """Cities kept at this player count (line 44); blue shuffled on top of red (line 48)."""
    n = 0
    for colour in (L.DECK_BLUE, L.DECK_RED):
        start = n
        for c in range(p[L.P_N_CITIES]):
            if cf(p, c, L.CT_DECK) == colour and cf(p, c, L.CT_MIN_PLAYERS) <= n_players:
                s[L.S_CITY_DECK + n] = c
                n += 1
        shuffle_range(rng, L.GAME_STREAM, s[L.S_CITY_DECK :], start, n)
    s[L.S_CITY_TOP], s[L.S_CITY_END] = 0, n


@jit
def build_counted_deck(s, p, rng, n_models, counts, deck, top, end):
    """A shuffled deck of p[counts + m] copies of each of the p[n_models] card models, laid
    out at s[deck:], its top and end in s[top] and s[end]."""
    n = 0
    for m in range(p[n_models]):
        for _ in range(p[counts + m]):
            s[deck + n] = m
            n += 1
    shuffle_range(rng, L.GAME_STREAM, s[deck:], 0, n)
    s[top], s[end] = 0, n


@jit
def deal_tasks(s, p, n_players, rng):
    """Tasks kept at this player count, drawn at random; as many as game.tasks_per_players
    (line 60). Task i is the j-th kept task not drawn yet, j uniform."""
    kept = 0
    for t in range(p[L.P_N_TASK_MODELS]):
        kept += p[L.P_TASK_MIN_PLAYERS + t] <= n_players
    want = min(p[L.P_TASKS_PER_PLAYERS + n_players], kept, L.MAX_TASKS)
    for i in range(want):
        j = below(rng, L.GAME_STREAM, kept - i)
        for t in range(p[L.P_N_TASK_MODELS]):
            if p[L.P_TASK_MIN_PLAYERS + t] > n_players or _drawn(s, t, i):
                continue
            if j == 0:
                s[L.S_TASKS + i] = t
                break
            j -= 1
    s[L.S_N_TASKS] = want


@jit
def _drawn(s, t, i):
    for k in range(i):
        if s[L.S_TASKS + k] == t:
            return True
    return False


@jit
def deal_starting_ships(s, p, n_players):
    """Every captain's training saucer (line 52): one card of each starting model."""
    for seat in range(n_players):
        slot = 0
        for m in range(p[L.P_N_MODELS]):
            if mf(p, m, L.M_DECK) == L.DECK_START and mf(p, m, L.M_COUNT) > 0 and slot < L.MAX_HAND:
                s[pl(seat, L.PL_HAND + slot)] = m
                touched(s, seat)
                slot += 1


# --- drawing and discarding ----------------------------------------------------------------


@jit
def draw_ship(s, rng, red):
    """The top card of the ships deck in use, or -1. An empty deck is refilled from the
    discarded ships, shuffled (ruling, as for compensations: line 192), laid out in the second
    half of S_SHIPS (the first half holds the coloured decks as dealt)."""
    top, end = (L.S_RED_TOP, L.S_RED_END) if red else (L.S_BLUE_TOP, L.S_BLUE_END)
    return draw_top(
        s, rng, L.S_SHIPS, REFILL, 2 * L.MAX_SHIP_CARDS, L.S_SHIP_DISCARD, L.MAX_MODELS, top, end
    )


@jit
def draw_army(s, rng):
    """The top army card; an empty deck is the discarded armies shuffled (ruling)."""
    return draw_top(s, rng, L.S_ARMY_DECK, 0, L.MAX_ARMY_CARDS, L.S_ARMY_DISCARD,
                    L.MAX_ARMY_MODELS, L.S_ARMY_TOP, L.S_ARMY_END)  # fmt: skip


@jit
def draw_comp(s, rng):
    """The top compensation card; an empty deck is the discards shuffled (line 192)."""
    return draw_top(s, rng, L.S_COMP_DECK, 0, L.MAX_COMP_CARDS, L.S_COMP_DISCARD,
                    L.MAX_COMP_MODELS, L.S_COMP_TOP, L.S_COMP_END)  # fmt: skip


@jit
def draw_top(s, rng, deck, start, limit, discard, models, top, end):
    """The top card of the deck at s[deck + s[top] : deck + s[end]], or -1 if it and its
    discard pile (counts by model at `discard`) are empty. An empty deck is first refilled:
    the discards, shuffled, laid out from deck + start (at most up to deck + limit)."""
    if s[top] >= s[end]:
        n = start
        for m in range(models):
            while s[discard + m] > 0 and n < limit:
                s[deck + n] = m
                s[discard + m] -= 1
                n += 1
        shuffle_range(rng, L.GAME_STREAM, s[deck:], start, n)
        s[top], s[end] = start, n
    return take_top(s, deck, top, end)


@jit
def take_top(s, deck, top, end):
    """Take the top card of the deck at s[deck + s[top] : deck + s[end]]; -1 if it is empty."""
    if s[top] >= s[end]:
        return -1
    card = s[deck + s[top]]
    s[top] += 1
    return card


@jit
def discard_ship(s, m):
    if m >= 0:
        s[L.S_SHIP_DISCARD + m] += 1


@jit
def draw_city(s):
    return take_top(s, L.S_CITY_DECK, L.S_CITY_TOP, L.S_CITY_END)


# --- a captain's cards ---------------------------------------------------------------------


@jit
def held(s, seat, field, size):
    """How many of the seat's slots field..field+size-1 hold a card."""
    n = 0
    for i in range(size):
        if s[pl(seat, field + i)] >= 0:
            n += 1
    return n


@jit
def ships_held(s, seat):
    return held(s, seat, L.PL_HAND, L.MAX_HAND)


@jit
def stations_held(s, seat):
    return held(s, seat, L.PL_STATIONS, L.MAX_STATIONS)


@jit
def free_slot(s, seat, field, size):
    for i in range(size):
        if s[pl(seat, field + i)] < 0:
            return i
    return -1
