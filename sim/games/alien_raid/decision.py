"""What the rules hand a captain's strategy: the default answer, the scratch buffers, and the
one signature every compiled policy is called with.

A compiled strategy is a function `policy(phase, obs, p, sp, rng, slot, a, scratch,
fscratch)`: `phase` is the decision (layout.PH_*), `obs` what the captain sees (observe.py;
strategies never see the state), `p` the params array, `sp` the strategy's parameters
(float64), `slot` the captain's random stream in `rng`, `scratch` (int64) and `fscratch`
(float64) buffers of SCRATCH_SIZE it may use freely; they keep what is written in them from
one decision to the next, and the last GAME_WORDS words of `scratch` are zeroed when a game
starts (`game_scratch`): with flags there, a policy may keep for the rest of the game figures
that depend on the params alone, shared by every seat; `a` arrives holding the default answer
(reset_action) and the policy changes what it wants; it only reads `obs` (the rules hand the
next captain of a simultaneous phase or of a fight-or-retreat the same array, brought up to
date: decide.py). The rules call it through a function pointer of POLICY_SIGNATURE, so each
policy is compiled once, on its own, and a run compiles only the policies its seats use.
"""

from numba import types

from sim.array_types import (
    ACTION_T,
    FSCRATCH_T,
    PARAMS_T,
    RNG_T,
    SCRATCH_T,
    STATE_T,
    STRATEGY_PARAMS_T,
)
from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import destroyable
from sim.games.alien_raid.observe import op
from sim.jit import jit, jit_inline

SCRATCH_SIZE = 8192
FSCRATCH_SIZE = 4096
GAME_WORDS = 64  # the last words of scratch: zeroed when a game starts
GAME_SCRATCH = SCRATCH_SIZE - GAME_WORDS
POLICY_SLOTS = 8  # distinct policies a lineup may play (the built-in strategies number 6)


OBS_T = STATE_T  # an observation is an int32 array like a state

# policy(phase, obs, p, sp, rng, slot, a, scratch, fscratch)
POLICY_SIGNATURE = types.void(types.int64, OBS_T, PARAMS_T, STRATEGY_PARAMS_T, RNG_T,
                              types.int64, ACTION_T, SCRATCH_T, FSCRATCH_T)  # fmt: skip
POLICY_TYPE = types.FunctionType(POLICY_SIGNATURE)


@jit
def game_scratch(scratch):
    """A new game: the game part of the scratch zeroed (the loop calls it before each game;
    make_ctx's buffers start zeroed)."""
    for i in range(GAME_WORDS):
        scratch[GAME_SCRATCH + i] = 0


@jit
def keep_default(phase, obs, p, sp, rng, slot, a, scratch, fscratch):
    """A policy that keeps every default answer: it fills the policy slots a lineup leaves
    free (and a scenario's, whose captains answer from their script)."""


@jit_inline
def me(obs, field):
    """Index of the observing captain's own field OP_*."""
    return op(obs[L.O_SEAT], field)


@jit
def fighting_slot(obs, i):
    """Whether own ship slot i fights at the decision's city."""
    return obs[me(obs, L.OP_HAND + i)] >= 0 and obs[me(obs, L.OP_TARGET + i)] == obs[L.O_CITY]


@jit
def first_loss(obs, p):
    """The first own fighting ship that can be destroyed, -1 if none."""
    for i in range(L.MAX_HAND):
        if fighting_slot(obs, i) and destroyable(p, obs[me(obs, L.OP_HAND + i)]):
            return i
    return -1


@jit
def reset_action(phase, obs, p, a):
    """The default answer: no redraw, no credit, buy nothing, stay home, no transfer, fight,
    no station, raid, fight the army, lose the first ship that can be destroyed, cash every
    bonus-humans card held, repay no credit early."""
    for i in range(L.ACTION_SIZE):
        a[i] = 0
    for i in range(L.MAX_DRAWN):
        a[L.A_ROOM + i] = -1
    for i in range(L.MAX_HAND):
        a[L.A_TARGET + i] = -1
    a[L.A_USE] = -1
    a[L.A_USE_CARD] = -1
    a[L.A_T_PLAYER] = -1
    a[L.A_T_SLOT] = -1
    a[L.A_T_CITY] = -1
    a[L.A_SLOT] = -1
    if phase == L.PH_FIGHT or phase == L.PH_ARMY:
        a[L.A_YES] = 1
    if phase == L.PH_LOSE_SHIP:
        a[L.A_SLOT] = first_loss(obs, p)
    if phase == L.PH_CASH:
        for k in range(L.MAX_COMP_MODELS):
            if p[L.P_COMP_EFFECT + k] == L.CP_HUMANS:
                a[L.A_CASH + k] = obs[L.O_OWN_COMPS + k] + obs[L.O_OWN_COMPS_NEW + k]
