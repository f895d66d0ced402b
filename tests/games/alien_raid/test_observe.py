"""Hidden information is real: a captain's observation holds his own hand and offered cards,
the others' ships only once revealed in an attack, and never a deck."""

import numpy as np

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.layout import STREAMS
from sim.games.alien_raid.observe import observe, op
from sim.games.alien_raid.params import names, to_params
from sim.games.alien_raid.planning import reveal
from sim.games.alien_raid.ruleset import load_ruleset
from sim.games.alien_raid.state import new_game, pl
from sim.random_streams import seed_streams


def test_what_a_captain_sees():
    r = load_ruleset("alien-raid")
    p, n = to_params(r.values), names(r.values)
    s = np.zeros(L.STATE_SIZE, np.int32)
    rng = np.zeros(STREAMS, np.uint64)
    seed_streams(rng, 5)
    new_game(s, p, 3, rng)
    cruiser, tripod = n.model("cruiser"), n.model("tripod")
    s[pl(1, L.PL_HAND + 1)] = cruiser  # bought, not yet seen
    s[pl(1, L.PL_HAND + 2)] = tripod
    s[pl(1, L.PL_DRAWN)] = tripod
    obs = np.zeros(L.OBS_SIZE, np.int32)
    buf, slots, decided = (np.zeros(L.MAX_HAND, np.int64), np.zeros(L.MAX_HAND, np.int64),
                           np.zeros(L.MAX_PLAYERS, np.int64))  # fmt: skip
    observe(s, p, 0, L.PH_BUY, -1, decided, obs, buf, slots)
    assert obs[op(1, L.OP_N_SHIPS)] == 3
    assert obs[op(1, L.OP_HAND + 1)] == -1 and obs[op(1, L.OP_HAND + 2)] == -1
    assert obs[op(1, L.OP_SLOT_USED + 1)] == 1
    assert obs[L.O_DRAWN] == s[pl(0, L.PL_DRAWN)]  # its own offer, not seat 1's
    observe(s, p, 1, L.PH_BUY, -1, decided, obs, buf, slots)
    assert obs[op(1, L.OP_HAND + 1)] == cruiser  # a captain sees his own hand
    # the cruiser attacks: from the reveal on, everybody sees it; the tripod stays hidden
    s[L.S_BOARD] = 0
    s[L.S_N_BOARD] = 3
    s[pl(1, L.PL_TARGET + 1)] = 0
    reveal(s, p, np.zeros((1, L.EV_SIZE), np.int32), buf, slots)
    observe(s, p, 2, L.PH_FIGHT, 0, decided, obs, buf, slots)
    assert obs[op(1, L.OP_HAND + 1)] == cruiser
    assert obs[op(1, L.OP_HAND + 2)] == -1
    assert obs[op(1, L.OP_TARGET + 1)] == 0


def _played_states():
    """The state after each turn of two naive games of four captains, with its params."""
    from sim.games.alien_raid.chunks import Plan
    from sim.games.alien_raid.decide import make_ctx
    from sim.games.alien_raid.flow import play_turn
    from sim.games.alien_raid.kernel import PLAY_TURN_TYPES, compiled
    from sim.games.alien_raid.plugin import GAME
    from sim.plugins.base import StrategySpec

    r = load_ruleset("alien-raid")
    p = to_params(r.values)
    plan = Plan(GAME.ready([StrategySpec("naive")] * 4))
    ctx = make_ctx(plan.policies, plan.params.shape[1])
    ctx[0][:4] = plan.which
    ctx[1][:4, : plan.params.shape[1]] = plan.params
    turn = compiled(play_turn, PLAY_TURN_TYPES)
    states = []
    for seed in (3, 4):
        s = np.zeros(L.STATE_SIZE, np.int32)
        rng = np.zeros(STREAMS, np.uint64)
        seed_streams(rng, seed)
        new_game(s, p, 4, rng)
        while s[L.S_TURN] <= p[L.P_TURNS]:
            turn(s, p, rng, ctx, np.zeros((1, L.EV_SIZE), np.int32))
            states.append(s.copy())
    return p, states


def _buffers():
    return (np.zeros(L.MAX_PLAYERS, np.int64), np.zeros(L.MAX_HAND, np.int64),
            np.zeros(L.MAX_HAND, np.int64))  # fmt: skip


def test_reused_observations_equal_fresh_ones():
    """The rules reuse an observation between decisions (observe_own for the next captain of
    a simultaneous phase, observe_answered after a fight-or-retreat answer); each reused one
    is the observation made afresh, on states of played games."""
    from sim.games.alien_raid.flow_fight import retreat
    from sim.games.alien_raid.observe import observe_answered, observe_own

    p, states = _played_states()
    decided, buf, slots = _buffers()
    reused, fresh = np.zeros(L.OBS_SIZE, np.int32), np.zeros(L.OBS_SIZE, np.int32)
    retreats = 0
    for s in states:
        for phase in (L.PH_CREDIT, L.PH_BUY, L.PH_PLAN):
            for first in range(4):
                for seat in range(4):
                    observe(s, p, first, phase, -1, decided, reused, buf, slots)
                    observe_own(s, p, seat, reused)
                    observe(s, p, seat, phase, -1, decided, fresh, buf, slots)
                    assert np.array_equal(reused, fresh)
        # every captain with ships attacks space 0, the last fight there (its fighters' totals
        # are observed); captain `last` answers, then `seat` decides
        s[L.S_BOARD] = s[L.S_BOARD_DEALT]
        s[L.S_F_CITY] = 0
        for k in range(4):
            s[L.S_F_IN + k] = k % 2
            for i in range(L.MAX_HAND):
                s[pl(k, L.PL_TARGET + i)] = 0 if s[pl(k, L.PL_HAND + i)] >= 0 else -1
        for last in range(4):
            for answer in (1, 2):
                t = s.copy()
                decided[:] = 0
                observe(t, p, last, L.PH_FIGHT, 0, decided, reused, buf, slots)
                decided[last] = answer
                if answer == 2:
                    ships = np.count_nonzero(
                        t[pl(last, L.PL_TARGET) : pl(last, L.PL_TARGET + 6)] >= 0
                    )
                    retreat(t, last, 0, np.zeros((1, L.EV_SIZE), np.int32))
                    retreats += ships > 0
                seat = (last + 1) % 4
                observe_answered(t, p, seat, last, decided, reused, buf, slots)
                observe(t, p, seat, L.PH_FIGHT, 0, decided, fresh, buf, slots)
                assert np.array_equal(reused, fresh)
    assert len(states) >= 10 and retreats >= 10  # retreats that took ships home


def test_no_captain_is_still_fighting_once_a_city_is_resolved():
    """A battle's fight fields are cleared when its city is done (a raid as well as a catch),
    so the next city's decisions see nobody fighting, not the last battle's captains."""
    p, states = _played_states()
    fought = 0
    for s in states:
        assert s[L.S_F_CITY] == -1 and s[L.S_F_ARMY] == -1
        assert not s[L.S_F_IN : L.S_F_IN + L.MAX_PLAYERS].any()
        assert not s[L.S_F_ROLL : L.S_F_ROLL + L.MAX_PLAYERS].any()
        fought += int(s[pl(0, L.PL_BATTLES)] + s[pl(1, L.PL_BATTLES)])
    assert fought > 0  # the games had battles


def test_kept_observation_makes_only_the_marked_captains_again():
    """observe_kept (every decision of a game) keeps the captains' public parts of the last
    observation unless the rules marked them (state.touched): with the mark it equals the
    observation made anew; a change left unmarked is kept stale, and checking mode (the
    traced kernel, scenarios) stops the game with E_KEPT. The traced games of every
    strategy (test_invariants) check it at every decision."""
    from sim.games.alien_raid.observe import KEPT_SIZE, observe_kept
    from sim.games.alien_raid.state import touched

    p, states = _played_states()
    decided, buf, slots = _buffers()
    kept_obs, fresh = np.zeros(L.OBS_SIZE, np.int32), np.zeros(L.OBS_SIZE, np.int32)
    for s in states[::3]:
        s = s.copy()
        kept = np.zeros(KEPT_SIZE, np.int32)
        s[L.S_CHECKING] = 1
        observe_kept(s, p, 0, L.PH_BUY, -1, decided, kept_obs, buf, slots, kept)
        assert kept[0] == 0b1111 and s[L.S_OBSERVED] == 0b1111
        # a marked change: captain 2 wins humans and loses a ship
        touched(s, 2)
        s[pl(2, L.PL_HUMANS)] += 7
        s[pl(2, L.PL_HAND)] = -1
        observe_kept(s, p, 1, L.PH_BUY, -1, decided, kept_obs, buf, slots, kept)
        observe(s, p, 1, L.PH_BUY, -1, decided, fresh, buf, slots)
        assert np.array_equal(kept_obs, fresh)
        assert s[L.S_ERROR] == L.OK
        # an unmarked change stays stale, and checking mode says so
        s[pl(3, L.PL_CREDITS)] += 1
        observe_kept(s, p, 1, L.PH_BUY, -1, decided, kept_obs, buf, slots, kept)
        assert kept_obs[op(3, L.OP_CREDITS)] == s[pl(3, L.PL_CREDITS)] - 1
        assert s[L.S_ERROR] == L.E_KEPT and s[L.S_ERROR_SEAT] == 1
        # a new ctx (kept[0] == 0) or a new game (S_OBSERVED == 0) observes everything anew
        s[L.S_ERROR] = L.OK
        kept[0] = 0
        observe_kept(s, p, 1, L.PH_BUY, -1, decided, kept_obs, buf, slots, kept)
        observe(s, p, 1, L.PH_BUY, -1, decided, fresh, buf, slots)
        assert np.array_equal(kept_obs, fresh)
        assert s[L.S_ERROR] == L.OK


def test_kept_fight_attack_is_made_again_where_the_fight_changes():
    """fighter_total keeps each captain's attack in a fight but the dice (S_F_SHIPS) until the
    fight, the captain's group (state.touched: a ship destroyed), jams, weakening or boosts
    change; it equals the total made anew (nothing kept), and checking mode catches a change
    left unmarked."""
    from sim.games.alien_raid.fighting import apply_boost, clear_fight, destroy, fighter_total
    from sim.games.alien_raid.state import touched

    p, states = _played_states()
    _, buf, slots = _buffers()

    def anew(s, k):
        t = s.copy()
        t[L.S_F_KEPT] = 0
        return fighter_total(t, p, k, buf, slots)

    card = next(k for k in range(L.MAX_COMP_MODELS) if p[L.P_COMP_EFFECT + k] == L.CP_ATTACK)
    fights = boosts = 0
    for s in states:
        s = s.copy()
        s[L.S_CHECKING] = 1
        s[L.S_BOARD] = s[L.S_BOARD_DEALT]
        clear_fight(s, 0, -1)
        for k in range(4):
            s[L.S_F_IN + k] = 1
            s[L.S_F_ROLL + k] = 7
            touched(s, k)
            for i in range(L.MAX_HAND):
                s[pl(k, L.PL_TARGET + i)] = 0 if s[pl(k, L.PL_HAND + i)] >= 0 else -1
        for k in range(4):
            assert fighter_total(s, p, k, buf, slots) == anew(s, k)
        assert s[L.S_F_KEPT] == 0b1111
        slot = int(np.argmax(s[pl(1, L.PL_HAND) : pl(1, L.PL_HAND + L.MAX_HAND)] >= 0))
        if s[pl(1, L.PL_HAND + slot)] >= 0:
            destroy(s, 1, slot)  # the rule's own function marks the captain
            assert (s[L.S_F_KEPT] >> 1) & 1 == 0
            assert fighter_total(s, p, 1, buf, slots) == anew(s, 1)
            fights += 1
        s[L.S_F_ROLL + 2] = 3  # the dice are added anew at every ask
        assert fighter_total(s, p, 2, buf, slots) == anew(s, 2)
        ship = int(np.argmax(s[pl(2, L.PL_HAND) : pl(2, L.PL_HAND + L.MAX_HAND)] >= 0))
        if s[pl(2, L.PL_HAND + ship)] >= 0:  # an attack card played by the rule's function
            s[pl(2, L.PL_COMPS + card)] += 1
            a = np.full(L.ACTION_SIZE, -1, np.int32)
            a[L.A_USE_CARD], a[L.A_T_PLAYER], a[L.A_T_SLOT] = card, 2, ship
            before = fighter_total(s, p, 2, buf, slots)
            assert apply_boost(s, p, 2, a, np.zeros((1, L.EV_SIZE), np.int32)) == L.OK
            assert fighter_total(s, p, 2, buf, slots) == anew(s, 2) > before
            boosts += 1
        assert s[L.S_ERROR] == L.OK
        if anew(s, 3) - s[L.S_F_ROLL + 3] > 0:  # a weakening left unmarked is caught
            s[L.S_F_WEAKEN + 3] += 50
            fighter_total(s, p, 3, buf, slots)
            assert s[L.S_ERROR] == L.E_KEPT and s[L.S_ERROR_SEAT] == 3
    assert fights >= 10 and boosts >= 10
