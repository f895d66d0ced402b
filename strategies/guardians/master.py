"""`master`: the top of the skill ladder, a search made for hidden information.

The pile's order is hidden, so the master plays its candidate turns on sampled piles
(determinization): it shortlists every legal turn as the expert does (each played once on a
copy of the board and judged by the expert's estimate of the chance to win), then plays each
of the best `candidates` turns on `samples` boards whose hidden pile is a fresh shuffle of
the tokens left (public counts), followed by `rounds` rounds in which every seat plays as the
`strong` level judges (at `model_temperature`: 0, its best turn, by default), and keeps the
turn with the best mean estimate. Every candidate meets the same samples (the same piles and
the same random choices of the other seats), so they are compared on common random numbers.
The budget is candidates x samples x rounds.
"""

import numpy as np

from sim.games.guardians import layout as L
from sim.games.guardians.decision import TURN, reset_action
from sim.games.guardians.engine import play_turn
from sim.games.guardians.moves import copy_state, public_copy, restore_public
from sim.jit import jit, jit_allocating, jit_inline
from sim.random_streams import next_u64, seed_streams, shuffle_range
from strategies.guardians import expert, skilled
from strategies.guardians.ladder import POINTS

PARAMS: dict[str, float] = {
    **expert.PARAMS,  # the estimate of the chance to win (the expert's, in its order)
    "candidates": 6.0,  # best shortlisted turns searched further (at most 16)
    "samples": 2.0,  # sampled piles per candidate
    "rounds": 1.0,  # rounds played on after the turn, every seat as `strong`
    "model_temperature": 0.0,  # the seats' temperature in the search (-1: strong's own)
}
CANDIDATES, SAMPLES, ROUNDS, MODEL_TEMPERATURE = range(len(expert.PARAMS), len(expert.PARAMS) + 4)
# compiled after the expert, whose policy compiles the shortlist this one calls, and skilled,
# whose policy the search plays: it loads them (strategies.registry)
BUILDS_ON = ("expert", "skilled")
# how every seat plays in the search: the `strong` level
ROLLOUT = np.array(list(skilled.derive({**skilled.PARAMS, "skill": POINTS["strong"]}).values()))


@jit_inline
def play_on(t, p, rounds, model, rr, a, buf, scratch):
    """Every seat plays `strong` turns on t for `rounds` rounds (less the turn just played)
    or until the game ends; the seats' choices draw from the generator rr. Pasted into its
    one caller (as a call, numba optimised the whole engine once more for it)."""
    for _ in range(rounds * t[L.S_N_PLAYERS] - 1):
        if t[L.S_STATUS] != L.RUNNING:
            return
        seat = t[L.S_TO_MOVE]
        reset_action(t, seat, a)
        skilled.policy(np.int64(TURN), t, p, np.int64(seat), model, rr, a, scratch)
        if play_turn(t, p, a, buf) != L.OK:
            reset_action(t, seat, a)  # should not happen: fall back on "stay and shoot"
            if play_turn(t, p, a, buf) != L.OK:
                return


@jit_inline
def search(s, p, me, sp, rng, a, scratch):
    """Choose the turn: write it into a (which arrives as reset_action's default). Pasted
    into the policy, which is compiled with reference counting for it (as expert.search)."""
    cap = min(max(int(sp[CANDIDATES]), 1), expert.MAX_REPLIES)
    bufs = expert.buffers(cap)
    base, work, top_a = bufs[0], bufs[1], bufs[6]
    public_copy(s, base)
    work[:] = base
    n_top = expert.shortlist(s, p, me, sp, bufs, scratch)
    if n_top == 0:
        return  # nothing legal found: keep the default turn
    model = ROLLOUT.copy()
    if sp[MODEL_TEMPERATURE] >= 0:
        model[skilled.TEMPERATURE] = sp[MODEL_TEMPERATURE]
    sample = np.empty(L.STATE_SIZE, np.int32)
    rr = np.zeros(L.MAX_PLAYERS + 1, np.uint64)
    total = np.zeros(n_top)
    a[:] = top_a[sampled_best(p, me, sp, rng, n_top, bufs, sample, rr, total, model, scratch)]


@jit
def sampled_best(p, me, sp, rng, n_top, bufs, sample, rr, total, model, scratch):
    """Which of the n_top shortlisted turns has the best mean estimate over the sampled
    piles, each played on for `rounds` rounds of `model` turns (0 when nothing is sampled)."""
    base, work, _, action, buf, _, top_a = bufs[:7]
    samples, rounds = int(sp[SAMPLES]), int(sp[ROUNDS])
    best = 0
    if n_top > 1 and samples > 0 and rounds > 0:
        for _ in range(samples):
            seed = next_u64(rng, me + 1)  # the master's own stream: a pure function of the game
            copy_state(base, sample)
            seed_streams(rr, seed)
            shuffle_range(
                rr, 0, sample, L.S_PILE, L.S_PILE + sample[L.S_PILE_LEN] - sample[L.S_PILE_TOP]
            )
            copy_state(sample, work)
            for j in range(n_top):
                restore_public(sample, work)
                seed_streams(rr, seed)  # the same choices of the other seats for every turn
                play_turn(work, p, top_a[j], buf)
                play_on(work, p, rounds, model, rr, action, buf, scratch)
                total[j] += expert.evaluate(work, p, me, sp)
        for j in range(1, n_top):
            if total[j] > total[best]:
                best = j
    return best


@jit_allocating  # the pasted search allocates its work arrays
def policy(phase, s, p, seat, sp, rng, a, scratch):
    if not expert.before_search(phase, s, p, seat, sp, rng, a, scratch):
        search(s, p, seat, sp, rng, a, scratch)
