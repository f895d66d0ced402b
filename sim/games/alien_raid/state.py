"""The game's state as compiled functions: setup (rulebook lines 42-64), the decks, dice and
the event log. `s` is the state (int32, layout.S_*), `p` the params (int64)."""

from sim.games.alien_raid.cards import cf, mf
from sim.games.alien_raid.layout import (
    CT_DECK,
    CT_MIN_PLAYERS,
    DECK_BLUE,
    DECK_RED,
    DECK_START,
    GAME_STREAM,
    M_COUNT,
    M_DECK,
    MAX_ARMY_CARDS,
    MAX_ARMY_MODELS,
    MAX_BOARD,
    MAX_COMP_CARDS,
    MAX_COMP_MODELS,
    MAX_DRAWN,
    MAX_HAND,
    MAX_MODELS,
    MAX_SHIP_CARDS,
    MAX_STATIONS,
    MAX_TASKS,
    OK,
    P_ARMY_COUNT,
    P_COMP_COUNT,
    P_CREDIT_CARDS,
    P_N_ARMY_MODELS,
    P_N_CITIES,
    P_N_COMP_MODELS,
    P_N_MODELS,
    P_N_TASK_MODELS,
    P_START_HUMANS,
    P_TASK_MIN_PLAYERS,
    P_TASKS_PER_PLAYERS,
    PL_DRAWN,
    PL_HAND,
    PL_HUMANS,
    PL_PROBE_CARD,
    PL_RP_ARMIES,
    PL_SIZE,
    PL_STATIONS,
    PL_TARGET,
    S_ARMY_DECK,
    S_ARMY_DISCARD,
    S_ARMY_END,
    S_ARMY_TOP,
    S_BLUE_END,
    S_BLUE_TOP,
    S_BOARD,
    S_BOARD_DEALT,
    S_CITY_DECK,
    S_CITY_END,
    S_CITY_TOP,
    S_COMP_DECK,
    S_COMP_DISCARD,
    S_COMP_END,
    S_COMP_TOP,
    S_CREDITS_LEFT,
    S_DICE,
    S_DICE_N,
    S_DICE_POS,
    S_DICE_SHORT,
    S_ERROR,
    S_ERROR_SEAT,
    S_N_PLAYERS,
    S_N_TASKS,
    S_PLAYERS,
    S_RED_END,
    S_RED_TOP,
    S_SHIP_DISCARD,
    S_SHIPS,
    S_TASKS,
    S_TURN,
)
from sim.jit import jit, jit_inline
from sim.random_streams import below, shuffle_range

REFILL = MAX_SHIP_CARDS  # where a refilled ships deck is laid out in S_SHIPS


@jit
def refused(s, err, seat):
    """Whether err refuses a decision; the game's first refusal is recorded with its seat
    (S_ERROR, S_ERROR_SEAT), which stops the game."""
    if err != OK and s[S_ERROR] == OK:
        s[S_ERROR] = err
        s[S_ERROR_SEAT] = seat
    return err != OK


@jit_inline
def pl(seat, field):
    """Index of field PL_* of `seat` in the state."""
    return S_PLAYERS + seat * PL_SIZE + field


# --- the event log -----------------------------------------------------------------------


@jit
def emit(log, s, code, seat, space, v1, v2, v3, v4):
    """Append an event (row 0 of `log` holds the count; a log of one row records nothing)."""
    n = log[0, 0]
    if log.shape[0] <= 1 or n + 1 >= log.shape[0]:
        return
    row = n + 1
    log[row, 0], log[row, 1], log[row, 2], log[row, 3] = code, s[S_TURN], seat, space
    log[row, 4], log[row, 5], log[row, 6], log[row, 7] = v1, v2, v3, v4
    log[0, 0] = n + 1


# --- dice --------------------------------------------------------------------------------


@jit
def roll_die(s, rng):
    """One die: the next fixed die of a scenario, else a random one."""
    if s[S_DICE_POS] < s[S_DICE_N]:
        d = s[S_DICE + s[S_DICE_POS]]
        s[S_DICE_POS] += 1
        return d
    if s[S_DICE_N] > 0:
        s[S_DICE_SHORT] = 1  # a scenario needed more dice than it fixed
    return 1 + below(rng, GAME_STREAM, 6)


@jit
def roll_2d6(s, rng):
    a = roll_die(s, rng)
    return a + roll_die(s, rng)


# --- setup -------------------------------------------------------------------------------


@jit
def new_game(s, p, n_players, rng):
    """Lines 42-64: decks by player count, starting ships, humans, tasks."""
    s[:] = 0
    s[S_N_PLAYERS] = n_players
    s[S_TURN] = 1
    s[S_CREDITS_LEFT] = p[P_CREDIT_CARDS]
    for k in range(MAX_BOARD):
        s[S_BOARD + k] = -1
        s[S_BOARD_DEALT + k] = -1
    for seat in range(n_players):
        clear_player(s, seat)
        s[pl(seat, PL_HUMANS)] = p[P_START_HUMANS]
    build_ship_decks(s, p, rng)
    build_city_deck(s, p, n_players, rng)
    build_counted_deck(s, p, rng, P_N_ARMY_MODELS, P_ARMY_COUNT, S_ARMY_DECK, S_ARMY_TOP,
                       S_ARMY_END)  # fmt: skip
    build_counted_deck(s, p, rng, P_N_COMP_MODELS, P_COMP_COUNT, S_COMP_DECK, S_COMP_TOP,
                       S_COMP_END)  # fmt: skip
    deal_tasks(s, p, n_players, rng)
    deal_starting_ships(s, p, n_players)


@jit
def clear_player(s, seat):
    for i in range(MAX_HAND):
        s[pl(seat, PL_HAND + i)] = -1
        s[pl(seat, PL_TARGET + i)] = -1
    for i in range(MAX_STATIONS):
        s[pl(seat, PL_STATIONS + i)] = -1
    for i in range(MAX_DRAWN):
        s[pl(seat, PL_DRAWN + i)] = -1
    s[pl(seat, PL_PROBE_CARD)] = -1
    s[pl(seat, PL_RP_ARMIES)] = -1


@jit
def build_ship_decks(s, p, rng):
    """Blue cards, then red cards, each colour shuffled apart; stations shuffled in (line 56)."""
    n = 0
    for colour in (DECK_BLUE, DECK_RED):
        start = n
        for m in range(p[P_N_MODELS]):
            if mf(p, m, M_DECK) == colour:
                for _ in range(mf(p, m, M_COUNT)):
                    s[S_SHIPS + n] = m
                    n += 1
        shuffle_range(rng, GAME_STREAM, s[S_SHIPS:], start, n)
        if colour == DECK_BLUE:
            s[S_BLUE_TOP], s[S_BLUE_END] = start, n
        else:
            s[S_RED_TOP], s[S_RED_END] = start, n


@jit
def build_city_deck(s, p, n_players, rng):
    """Cities kept at this player count (line 44); blue shuffled on top of red (line 48)."""
    n = 0
    for colour in (DECK_BLUE, DECK_RED):
        start = n
        for c in range(p[P_N_CITIES]):
            if cf(p, c, CT_DECK) == colour and cf(p, c, CT_MIN_PLAYERS) <= n_players:
                s[S_CITY_DECK + n] = c
                n += 1
        shuffle_range(rng, GAME_STREAM, s[S_CITY_DECK:], start, n)
    s[S_CITY_TOP], s[S_CITY_END] = 0, n


@jit
def build_counted_deck(s, p, rng, n_models, counts, deck, top, end):
    """A shuffled deck of p[counts + m] copies of each of the p[n_models] card models, laid
    out at s[deck:], its top and end in s[top] and s[end]."""
    n = 0
    for m in range(p[n_models]):
        for _ in range(p[counts + m]):
            s[deck + n] = m
            n += 1
    shuffle_range(rng, GAME_STREAM, s[deck:], 0, n)
    s[top], s[end] = 0, n


@jit
def deal_tasks(s, p, n_players, rng):
    """Tasks kept at this player count, drawn at random; as many as game.tasks_per_players
    (line 60). Task i is the j-th kept task not drawn yet, j uniform."""
    kept = 0
    for t in range(p[P_N_TASK_MODELS]):
        kept += p[P_TASK_MIN_PLAYERS + t] <= n_players
    want = min(p[P_TASKS_PER_PLAYERS + n_players], kept, MAX_TASKS)
    for i in range(want):
        j = below(rng, GAME_STREAM, kept - i)
        for t in range(p[P_N_TASK_MODELS]):
            if p[P_TASK_MIN_PLAYERS + t] > n_players or _drawn(s, t, i):
                continue
            if j == 0:
                s[S_TASKS + i] = t
                break
            j -= 1
    s[S_N_TASKS] = want


@jit
def _drawn(s, t, i):
    for k in range(i):
        if s[S_TASKS + k] == t:
            return True
    return False


@jit
def deal_starting_ships(s, p, n_players):
    """Every captain's training saucer (line 52): one card of each starting model."""
    for seat in range(n_players):
        slot = 0
        for m in range(p[P_N_MODELS]):
            if mf(p, m, M_DECK) == DECK_START and mf(p, m, M_COUNT) > 0 and slot < MAX_HAND:
                s[pl(seat, PL_HAND + slot)] = m
                slot += 1


# --- drawing and discarding ----------------------------------------------------------------


@jit
def draw_ship(s, rng, red):
    """The top card of the ships deck in use, or -1. An empty deck is refilled from the
    discarded ships, shuffled (ruling, as for compensations: line 192), laid out in the second
    half of S_SHIPS (the first half holds the coloured decks as dealt)."""
    top, end = (S_RED_TOP, S_RED_END) if red else (S_BLUE_TOP, S_BLUE_END)
    return draw_top(
        s, rng, S_SHIPS, REFILL, 2 * MAX_SHIP_CARDS, S_SHIP_DISCARD, MAX_MODELS, top, end
    )


@jit
def draw_army(s, rng):
    """The top army card; an empty deck is the discarded armies shuffled (ruling)."""
    return draw_top(
        s,
        rng,
        S_ARMY_DECK,
        0,
        MAX_ARMY_CARDS,
        S_ARMY_DISCARD,
        MAX_ARMY_MODELS,
        S_ARMY_TOP,
        S_ARMY_END,
    )


@jit
def draw_comp(s, rng):
    """The top compensation card; an empty deck is the discards shuffled (line 192)."""
    return draw_top(
        s,
        rng,
        S_COMP_DECK,
        0,
        MAX_COMP_CARDS,
        S_COMP_DISCARD,
        MAX_COMP_MODELS,
        S_COMP_TOP,
        S_COMP_END,
    )


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
        shuffle_range(rng, GAME_STREAM, s[deck:], start, n)
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
        s[S_SHIP_DISCARD + m] += 1


@jit
def draw_city(s):
    return take_top(s, S_CITY_DECK, S_CITY_TOP, S_CITY_END)


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
    return held(s, seat, PL_HAND, MAX_HAND)


@jit
def stations_held(s, seat):
    return held(s, seat, PL_STATIONS, MAX_STATIONS)


@jit
def free_slot(s, seat, field, size):
    for i in range(size):
        if s[pl(seat, field + i)] < 0:
            return i
    return -1
