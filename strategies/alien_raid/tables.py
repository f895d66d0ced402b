"""What the params decide once a game, kept in the scratch buffers for the rest of it: the
chance to beat every army card of a catch by attack, which trait conditions of a ship model
hold at a city, which models look at their companions or at the foe. Each entry is worked out
the first time it is asked, by the rules' own functions, and flagged in the game part of the
scratch (sim/games/alien_raid/decision.py: zeroed when a game starts), so the tables never
outlive the params they were made from; every seat's policy shares them.
tests/games/alien_raid/test_plan.py checks each against the figure worked out anew.
"""

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import (
    condition_holds,
    depends_on_foe,
    depends_on_group,
    mf,
    trait_condition,
)
from sim.games.alien_raid.decision import FSCRATCH_SIZE, GAME_SCRATCH, GAME_WORDS
from sim.jit import jit, jit_inline
from strategies.alien_raid.common import army_odds

ODDS_SPAN = 128  # attacks the odds table holds (0..127)
CONDS = L.MAX_TRAITS * L.MAX_CONDS  # a model's trait conditions: the bits of its conditions
# flags (scratch, zeroed when a game starts): a bit per entry of each table
WIN_FLAGS = GAME_SCRATCH  # WINS: (L.MAX_CATCH + 1) * ODDS_SPAN entries
HOLD_FLAGS = WIN_FLAGS + (L.MAX_CATCH + 1) * ODDS_SPAN // 64  # HOLDS: MAX_MODELS * MAX_CITIES
KINDS_FLAG = HOLD_FLAGS + L.MAX_MODELS * L.MAX_CITIES // 64  # 1 once GROUPED and FOE hold
GROUPED, FOE = KINDS_FLAG + 1, KINDS_FLAG + 2  # a bit per model (cards.depends_on_group, _foe)
EXPECT_FLAG = FOE + 1  # 1 once EXPECT_KEYS were cleared this game
assert EXPECT_FLAG < GAME_SCRATCH + GAME_WORDS and L.MAX_MODELS <= 63
# the tables
WINS = FSCRATCH_SIZE - (L.MAX_CATCH + 1) * ODDS_SPAN  # fscratch: army_odds ** armies
HOLDS = GAME_SCRATCH - L.MAX_MODELS * L.MAX_CITIES  # scratch: model_conditions per (m, city)
# shopping.expected_attack per (captain, model) and, per entry, 1 + the own ships' classes it
# was worked out for (0: none yet; an entry changes only when the captain's classes do)
EXPECTS = WINS - L.MAX_PLAYERS * L.MAX_MODELS  # fscratch
EXPECT_KEYS = HOLDS - L.MAX_PLAYERS * L.MAX_MODELS  # scratch


@jit_inline
def _first_time(scratch, flags, i):
    """Whether entry i of the table flagged from scratch[flags] is asked for the first time
    this game (it is flagged from now on)."""
    word, bit = flags + (i >> 6), i & 63
    if (scratch[word] >> bit) & 1:
        return False
    scratch[word] |= 1 << bit
    return True


@jit_inline
def win_odds(p, scratch, fscratch, attack, armies):
    """The chance to beat every one of `armies` army cards with `attack` (common.army_odds **
    armies)."""
    if attack < 0 or attack >= ODDS_SPAN or armies < 0 or armies > L.MAX_CATCH:
        return army_odds(p, attack) ** armies
    i = armies * ODDS_SPAN + attack
    if _first_time(scratch, WIN_FLAGS, i):
        fscratch[WINS + i] = army_odds(p, attack) ** armies
    return fscratch[WINS + i]


@jit_inline
def model_conditions(p, scratch, m, city):
    """Which trait conditions of model m hold at `city` (bit L.MAX_CONDS * t + c for condition c
    of trait t), asked with an empty group against a captain: only the city counts."""
    i = m * L.MAX_CITIES + city
    if 0 <= m < L.MAX_MODELS and 0 <= city < L.MAX_CITIES:
        if _first_time(scratch, HOLD_FLAGS, i):
            scratch[HOLDS + i] = _conditions(p, m, city)
        return scratch[HOLDS + i]
    return _conditions(p, m, city)


@jit
def _conditions(p, m, city):
    bits = 0
    for t in range(mf(p, m, L.M_N_TRAITS)):
        for c in range(L.MAX_CONDS):
            cond, arg = trait_condition(p, m, t, c)
            if condition_holds(p, cond, arg, city, 0, 0, False):
                bits |= 1 << (L.MAX_CONDS * t + c)
    return bits


@jit_inline
def model_kinds(p, scratch, m):
    """Whether model m's attack depends on its companions (cards.depends_on_group) and
    whether it depends on the foe (cards.depends_on_foe)."""
    if scratch[KINDS_FLAG] == 0:
        _kinds(p, scratch)
    return (scratch[GROUPED] >> m) & 1 == 1, (scratch[FOE] >> m) & 1 == 1


@jit
def _kinds(p, scratch):
    grouped, foe = 0, 0
    for m in range(p[L.P_N_MODELS]):
        if depends_on_group(p, m):
            grouped |= 1 << m
        if depends_on_foe(p, m):
            foe |= 1 << m
    scratch[GROUPED], scratch[FOE], scratch[KINDS_FLAG] = grouped, foe, 1
