"""How the rules ask a captain for a decision: what the captain sees (observe), a default
answer (reset_action), then the captain's strategy (the built-in dispatch).

`ctx` is the tuple of buffers every flow function passes along:
(kinds, params, script, obs, a, acts, decided, scratch, fscratch, buf, slots, totals):
per-seat strategy kinds and parameters, a scenario's scripted decisions, the observation, the
action, one action per seat (simultaneous phases), fight-or-retreat answers so far, the
strategies' scratch buffers, and three small buffers of the rules.
"""

from sim.games.alien_raid.layout import ACTION_SIZE
from sim.games.alien_raid.observe import observe
from sim.jit import jit
from strategies.alien_raid.common import reset_action
from strategies.alien_raid.dispatch import builtin_policy


@jit
def decide(ctx, s, p, rng, seat, phase, space):
    """Ask `seat` about `phase` (at board `space`, -1 none); the answer is in ctx's `a`."""
    kinds, params, script, obs, a, acts, decided, scratch, fscratch, buf, slots, totals = ctx
    observe(s, p, seat, phase, space, decided, obs, buf, slots)
    reset_action(phase, obs, p, a)
    builtin_policy(
        kinds[seat], phase, obs, p, params[seat], rng, seat + 1, a, scratch, fscratch, script
    )


@jit
def decide_into(ctx, s, p, rng, seat, phase, space):
    """decide(), then keep the answer as `seat`'s row of acts (simultaneous phases)."""
    decide(ctx, s, p, rng, seat, phase, space)
    a, acts = ctx[4], ctx[5]
    for i in range(ACTION_SIZE):
        acts[seat, i] = a[i]
