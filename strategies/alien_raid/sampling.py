"""The strong player's contest model: sample the other captains' hidden ships, predict their
attacks, and count how often and how strongly each city is contested.

A sample gives every unrevealed ship of another captain a model drawn from the ships nobody
has seen (contest.unseen_counts) of the deck it was bought from, the ships bought this turn
matching what the captain was seen to spend (FAQ 329); each captain then plans with the sample
as the planner would (plan.py against contest.public_contest). Over the samples, a city's contest
chance is the share of samples where someone attacks it, and the power expected there the
mean of the strongest attack among those samples. The other captains are predicted with the
quicker valuation (a city is worth its raid), for speed, and a hand sampled again for the
same captain reuses its prediction (the draws are made all the same, so the samples are).
"""

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import fuel_limit, group_attack, mf, price, station_fuel
from sim.games.alien_raid.observe import op
from sim.jit import jit, jit_inline
from sim.random_streams import below
from strategies.alien_raid.contest import UNSEEN, deck_of_purchase, public_contest
from strategies.alien_raid.decisions import BASE_PARAMS
from strategies.alien_raid.plan import (
    GROUP,
    HAND_M,
    HAND_S,
    THEIRS,
    Q,
    best_plan,
    fill_values,
)

N_DECKS = L.DECK_RED + 1  # start, blue, red
DECK_UNSEEN = UNSEEN + L.MAX_MODELS  # scratch: per deck, the unseen ships a draw is among
PRED = DECK_UNSEEN + N_DECKS  # scratch: a predicted action
TRIES = 12
HITS = THEIRS + L.MAX_BOARD  # fscratch: samples where a space is contested ...
POWER = HITS + L.MAX_BOARD  # ... and the sum of the strongest attack there
STRONGEST = POWER + L.MAX_BOARD  # ... in the sample being predicted
# The hands predicted so far this decision, per captain (a captain's prediction depends only
# on the hand sampled, so a hand sampled again is not planned again): MEMO entries each,
# MEMO - 1 kept and a spare for a hand that finds them all taken
MEMO = 8
HAND_SIZE = 1 + L.MAX_HAND  # a hand as the memo keeps it: its size, then its models
MEMO_N = PRED + L.ACTION_SIZE  # scratch: hands kept per captain
MEMO_HANDS = MEMO_N + L.MAX_PLAYERS  # scratch: the hands (captain, entry) ...
MEMO_ATTACKS = STRONGEST + L.MAX_BOARD  # fscratch: ... and their attack per space (0 none)
DECK_MODELS = MEMO_HANDS + L.MAX_PLAYERS * MEMO * HAND_SIZE  # scratch: per deck, the models a
DECK_KINDS = DECK_MODELS + N_DECKS * L.MAX_MODELS  # draw is among (drawable), and how many
SAMPLES, BLEND = len(BASE_PARAMS), len(BASE_PARAMS) + 1  # the strong captain's own, last


@jit_inline
def drawable(p, m, deck):
    """Whether a hidden ship bought from `deck` may be model m (a ship of that deck)."""
    return mf(p, m, L.M_DECK) == deck and mf(p, m, L.M_ATTACK) > 0


@jit
def count_decks(p, scratch):
    """Per deck, the models a hidden ship of it may be, in model order (DECK_MODELS,
    DECK_KINDS), and their unseen copies (DECK_UNSEEN)."""
    for deck in range(N_DECKS):
        total, kinds = 0, 0
        for m in range(p[L.P_N_MODELS]):
            if drawable(p, m, deck):
                total += scratch[UNSEEN + m]
                scratch[DECK_MODELS + deck * L.MAX_MODELS + kinds] = m
                kinds += 1
        scratch[DECK_UNSEEN + deck] = total
        scratch[DECK_KINDS + deck] = kinds


@jit
def draw_model(p, scratch, deck, rng, slot):
    """A ship model of `deck` with chance proportional to its unseen copies (-1 none)."""
    total = scratch[DECK_UNSEEN + deck]
    if total == 0:
        return -1
    r = below(rng, slot, total)
    models = DECK_MODELS + deck * L.MAX_MODELS
    for i in range(scratch[DECK_KINDS + deck]):
        m = scratch[models + i]
        r -= scratch[UNSEEN + m]
        if r < 0:
            return m
    return -1


@jit
def sample_hand(obs, p, k, rng, slot, scratch):
    """Captain k's ships, the hidden ones sampled, into HAND_M (slot j at HAND_S + j)."""
    n = 0
    spent_now = 0
    for attempt in range(TRIES):
        n, spent_now = 0, 0
        for i in range(L.MAX_HAND):
            if obs[op(k, L.OP_SLOT_USED + i)] == 0:
                continue
            m = obs[op(k, L.OP_HAND + i)]
            bought = obs[op(k, L.OP_BOUGHT_TURN + i)]
            if m < 0:
                deck = L.DECK_START if bought == 0 else deck_of_purchase(p, bought)
                m = draw_model(p, scratch, deck, rng, slot)
                if bought == obs[L.O_TURN] and m >= 0:
                    spent_now += price(p, m)
            if m >= 0:
                scratch[HAND_M + n] = m
                scratch[HAND_S + n] = n
                n += 1
        if spent_now == obs[op(k, L.OP_SPENT_TURN)] or attempt == TRIES - 1:
            break
    return n


@jit
def predicted_attacks(obs, p, k, n, scratch, fscratch, out):
    """Captain k plans with the sampled hand against the public contest model (as a planner
    would, with the quicker valuation); the attack sent to each space goes to fscratch[out:]
    (0 where none)."""
    fuel = fuel_limit(p, obs[L.O_TURN]) + station_fuel(
        p, obs[op(k, L.OP_STATIONS) :], L.MAX_STATIONS
    )
    fill_values(obs, p, scratch, fscratch, n, 8000.0, 0.0, True, fuel)
    for i in range(L.ACTION_SIZE):
        scratch[PRED + i] = -1
    best_plan(obs, scratch, fscratch, n, fuel, scratch[PRED:])
    for s in range(obs[L.O_N_BOARD]):
        g = 0
        for j in range(n):
            if scratch[PRED + L.A_TARGET + j] == s:
                scratch[GROUP + g] = scratch[HAND_M + j]
                g += 1
        fscratch[out + s] = group_attack(p, scratch[GROUP:], g, obs[L.O_BOARD + s], False)


@jit
def memo_entry(scratch, k, n):
    """The memo entry of captain k holding the hand in HAND_M (n ships), and whether it was
    there already; a hand not there takes a free entry (the spare when none is free)."""
    kept = scratch[MEMO_N + k]
    for e in range(kept):
        at = MEMO_HANDS + (k * MEMO + e) * HAND_SIZE
        if scratch[at] != n:
            continue
        same = True
        for j in range(n):
            if scratch[at + 1 + j] != scratch[HAND_M + j]:
                same = False
                break
        if same:
            return e, True
    if kept == MEMO - 1:
        return kept, False  # the spare, not kept
    at = MEMO_HANDS + (k * MEMO + kept) * HAND_SIZE
    scratch[at] = n
    for j in range(n):
        scratch[at + 1 + j] = scratch[HAND_M + j]
    scratch[MEMO_N + k] = kept + 1
    return kept, False


@jit
def sampled_contest(obs, p, sp, rng, slot, scratch, fscratch):
    public_contest(obs, p, scratch, fscratch, 1.0)  # the model the others are predicted with
    count_decks(p, scratch)  # of public_contest's unseen_counts, alike for every sample
    for s in range(L.MAX_BOARD):
        fscratch[HITS + s] = 0.0
        fscratch[POWER + s] = 0.0
    samples = max(1, int(sp[SAMPLES]))
    seat = obs[L.O_SEAT]
    for k in range(L.MAX_PLAYERS):
        scratch[MEMO_N + k] = 0
    for _ in range(samples):
        for s in range(L.MAX_BOARD):
            fscratch[STRONGEST + s] = 0.0
        for k in range(obs[L.O_N_PLAYERS]):
            if k == seat:
                continue
            n = sample_hand(obs, p, k, rng, slot, scratch)
            e, known = memo_entry(scratch, k, n)
            at = MEMO_ATTACKS + (k * MEMO + e) * L.MAX_BOARD
            if not known:
                predicted_attacks(obs, p, k, n, scratch, fscratch, at)
            for s in range(obs[L.O_N_BOARD]):
                fscratch[STRONGEST + s] = max(fscratch[STRONGEST + s], fscratch[at + s])
        for s in range(L.MAX_BOARD):
            if fscratch[STRONGEST + s] > 0:
                fscratch[HITS + s] += 1.0
                fscratch[POWER + s] += fscratch[STRONGEST + s]
    blend = sp[BLEND]
    for s in range(L.MAX_BOARD):
        hits = fscratch[HITS + s]
        sampled = fscratch[POWER + s] / hits if hits > 0 else 0.0
        fscratch[Q + s] = blend * hits / samples + (1.0 - blend) * fscratch[Q + s]
        fscratch[THEIRS + s] = blend * sampled + (1.0 - blend) * fscratch[THEIRS + s]
