"""How the rules ask a captain for a decision: what the captain sees (observe), a default
answer (reset_action), then the captain's policy (decision.py), or a scenario's script.

`ctx` is the tuple of buffers every flow function passes along (`make_ctx` makes it):
(policy, params, script, obs, a, acts, decided, scratch, fscratch, buf, slots, totals,
policies, kept): per seat the policy slot (SCRIPT_KIND: the scenario's script answers) and
the strategy's parameters, a scenario's scripted decisions, the observation, the action, one
action per seat (simultaneous phases), fight-or-retreat answers so far, the strategies'
scratch buffers, three small buffers of the rules, the lineup's compiled policies (a tuple of
POLICY_SLOTS function pointers), and which captains' parts of the observation are current
(observe.observe_kept).
"""

import numpy as np
from numba import types

from sim.games.alien_raid.decision import (
    FSCRATCH_SIZE,
    POLICY_SLOTS,
    POLICY_TYPE,
    SCRATCH_SIZE,
    keep_default,
    reset_action,
)
from sim.games.alien_raid.layout import ACTION_SIZE, MAX_HAND, MAX_PLAYERS, OBS_SIZE
from sim.games.alien_raid.observe import KEPT_SIZE, observe_answered, observe_kept, observe_own
from sim.games.alien_raid.script import SCRIPT_KIND, SCRIPT_WIDTH, expected_refusal
from sim.games.alien_raid.script import policy as scripted
from sim.jit import jit, jit_inline


@jit_inline
def decide(ctx, s, p, rng, seat, phase, space):
    """Ask `seat` about `phase` (at board `space`, -1 none); the answer is in ctx's `a`.
    Pasted into each caller: a call site's phase and space are mostly constants, which numba
    would otherwise compile a copy of the whole decision for, one per constant; as int64 they
    reach one compiled `ask`."""
    ask(ctx, s, p, rng, np.int64(seat), np.int64(phase), np.int64(space))


@jit_inline
def decide_after(ctx, s, p, rng, seat, phase, last):
    """decide() on the decision captain `last` just answered, the state changed only in
    `last`'s part since (observe_answered)."""
    ask_after(ctx, s, p, rng, np.int64(seat), np.int64(phase), np.int64(last))


@jit_inline
def decide_into(ctx, s, p, rng, seat, phase, space):
    """decide(), then keep the answer as `seat`'s row of acts (simultaneous phases)."""
    ask(ctx, s, p, rng, np.int64(seat), np.int64(phase), np.int64(space))
    keep(ctx, seat)


@jit_inline
def decide_next_into(ctx, s, p, rng, seat, phase, space):
    """decide_into() for the next captain of a simultaneous phase: the state has not changed
    since the last decision (another captain's, same phase and space), so only the
    observation's own part is made again."""
    ask_again(ctx, s, p, rng, np.int64(seat), np.int64(phase))
    keep(ctx, seat)


@jit_inline
def keep(ctx, seat):
    a, acts = ctx[4], ctx[5]
    for i in range(ACTION_SIZE):
        acts[seat, i] = a[i]


@jit_inline
def again(ctx, s, seat, err, log):
    """Whether `err` is the refusal a scenario's script expected of `seat`'s answer: the rules
    then ask the same decision again and the turn goes on (always False for a strategy)."""
    return expected_refusal(ctx[2], ctx[0], s, np.int64(seat), np.int64(err), log)


@jit
def ask(ctx, s, p, rng, seat, phase, space):
    """What the captain sees, the default answer, then the captain's policy or script."""
    obs, decided, buf, slots = ctx[3], ctx[6], ctx[9], ctx[10]
    observe_kept(s, p, seat, phase, space, decided, obs, buf, slots, ctx[13])
    answer(ctx, s, p, rng, seat, phase)


@jit
def ask_again(ctx, s, p, rng, seat, phase):
    """ask() on the observation of the last decision, made `seat`'s (observe_own)."""
    observe_own(s, p, seat, ctx[3])
    answer(ctx, s, p, rng, seat, phase)


@jit
def ask_after(ctx, s, p, rng, seat, phase, last):
    """ask() on the observation of `last`'s decision, brought up to date (observe_answered)."""
    observe_answered(s, p, seat, last, ctx[6], ctx[3], ctx[9], ctx[10])
    answer(ctx, s, p, rng, seat, phase)


@jit_inline
def answer(ctx, s, p, rng, seat, phase):
    """The default answer, then the captain's policy or script (policies only read `obs`)."""
    which, params, script, obs, a = ctx[0], ctx[1], ctx[2], ctx[3], ctx[4]
    scratch, fscratch, policies = ctx[7], ctx[8], ctx[12]
    reset_action(phase, obs, p, a)
    if which[seat] == SCRIPT_KIND:
        scripted(phase, obs, p, a, script)
    else:
        policy = policies[which[seat]]
        policy(phase, obs, p, params[seat], rng, seat + 1, a, scratch, fscratch)


def make_ctx(policies: tuple, params_width: int, script: np.ndarray | None = None) -> tuple:
    """The decision buffers for up to POLICY_SLOTS distinct compiled `policies` (the free slots
    keep every default answer) and strategy parameters `params_width` wide; `script` holds a
    scenario's decisions (seats whose policy slot is SCRIPT_KIND answer from it)."""
    if len(policies) > POLICY_SLOTS:
        raise ValueError(f"at most {POLICY_SLOTS} distinct policies, got {len(policies)}")
    padded = tuple(policies) + (keep_default,) * (POLICY_SLOTS - len(policies))
    rows = script if script is not None else np.zeros((1, SCRIPT_WIDTH), np.int32)
    return (
        np.zeros(MAX_PLAYERS, np.int64),  # the policy slot per seat
        np.zeros((MAX_PLAYERS, max(params_width, 1)), np.float64),
        np.ascontiguousarray(rows, np.int32),
        np.zeros(OBS_SIZE, np.int32),
        np.zeros(ACTION_SIZE, np.int32),
        np.zeros((MAX_PLAYERS, ACTION_SIZE), np.int32),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros(SCRATCH_SIZE, np.int64),
        np.zeros(FSCRATCH_SIZE, np.float64),
        np.zeros(MAX_HAND, np.int64),
        np.zeros(MAX_HAND, np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        padded,
        np.zeros(KEPT_SIZE, np.int32),  # observe_kept's current captains and its check's room
    )


def _array(dtype, dims: int = 1):
    return types.Array(dtype, dims, "C")


# the numba type of make_ctx's tuple (the compiled rules are compiled for it)
CTX_T = types.Tuple((
    _array(types.int64), _array(types.float64, 2), _array(types.int32, 2), _array(types.int32),
    _array(types.int32), _array(types.int32, 2), _array(types.int64), _array(types.int64),
    _array(types.float64), _array(types.int64), _array(types.int64), _array(types.int64),
    types.UniTuple(POLICY_TYPE, POLICY_SLOTS), _array(types.int32),
))  # fmt: skip
