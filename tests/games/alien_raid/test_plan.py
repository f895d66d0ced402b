"""The plan's fast sums against the slow, obvious ones: every subset's attack at every city
of a board (plan.subset_attacks, which reuses the sums of smaller subsets, asks a ship once
for both foes and once for every city when it can, and serves a city from an earlier one of
the same signature) equals the engine's cards.group_attack of
that subset, against a captain and against an army, on random hands and boards of the
default catalog."""

import numpy as np
import pytest
from numba import njit

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import depends_on_foe, group_attack
from sim.games.alien_raid.decision import FSCRATCH_SIZE, SCRATCH_SIZE
from sim.games.alien_raid.observe import observe
from sim.games.alien_raid.params import names, to_params
from sim.games.alien_raid.ruleset import load_ruleset
from sim.games.alien_raid.state import new_game, pl
from sim.plugins.base import StrategySpec
from sim.random_streams import seed_streams
from strategies.alien_raid.contest import public_contest
from strategies.alien_raid.plan import (
    BATTLE,
    HAND_M,
    MASKS,
    THEIRS,
    VS_ARMY,
    Q,
    alike_space,
    board_signatures,
    hand_kinds,
    hand_subsets,
    shared_attacks,
    subset_attacks,
)
from strategies.alien_raid.registry import REGISTRY
from strategies.alien_raid.sampling import (
    count_decks,
    predicted_attacks,
    sample_hand,
    sampled_contest,
)
from tests.games.alien_raid.ships import ship_models

RULES = load_ruleset("alien-raid")
P, N = to_params(RULES.values), names(RULES.values)
SHIPS = ship_models(P)
FUEL_MAX = 100.0  # every subset fits: all are summed
SPARE = 2000  # fscratch: a prediction of the slow way (free in every layout)


def test_a_ship_depends_on_the_foe_when_a_trait_asks_who_it_fights():
    for name in ("hunter-saucer", "stalker-saucer", "heavy-tripod", "dreadnought"):
        assert depends_on_foe(P, N.model(name))
    for name in ("training-saucer", "cruiser", "tripod", "escort-saucer", "battle-cruiser"):
        assert not depends_on_foe(P, N.model(name))


def test_a_ship_depends_on_the_city_when_a_trait_asks_where_it_attacks():
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    hand = ["tripod", "scout-saucer", "siege-tripod", "raider-saucer", "cruiser", "hunter-saucer"]
    scratch[HAND_M : HAND_M + 6] = [N.model(name) for name in hand]
    obs = np.full(L.OBS_SIZE, -1, np.int32)
    obs[L.O_N_BOARD] = 3
    obs[L.O_BOARD : L.O_BOARD + 3] = [-1, N.cities.index("paris"), N.cities.index("cairo")]
    # scientific / industrial bonuses differ there; raider-saucer's cultural one holds at neither
    assert board_signatures(obs, P, scratch, 6) == 0b000111
    obs[L.O_BOARD] = N.cities.index("berlin")  # cultural
    assert board_signatures(obs, P, scratch, 6) == 0b001111
    obs[L.O_BOARD : L.O_BOARD + 3] = [N.cities.index("paris"), -1, N.cities.index("nairobi")]
    assert board_signatures(obs, P, scratch, 6) == 0  # two scientific cities: alike


@pytest.mark.parametrize("seed", range(4))
def test_subset_attacks_match_group_attack(seed):
    rng = np.random.default_rng(seed)
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    fscratch = np.zeros(FSCRATCH_SIZE, np.float64)
    for _ in range(50):
        n = int(rng.integers(1, L.MAX_HAND + 1))
        hand = rng.choice(SHIPS, size=n)
        scratch[HAND_M : HAND_M + n] = hand
        obs = np.full(L.OBS_SIZE, -1, np.int32)
        obs[L.O_N_BOARD] = board = int(rng.integers(1, L.MAX_BOARD + 1))
        obs[L.O_BOARD : L.O_BOARD + board] = rng.choice(P[L.P_N_CITIES], size=board)
        hand_subsets(P, scratch, fscratch, n)
        grouped, foe = hand_kinds(P, scratch, n)
        sited = board_signatures(obs, P, scratch, n)
        fixed = grouped & ~sited
        shared_attacks(P, scratch, fscratch, n, obs[L.O_BOARD], True, FUEL_MAX, fixed, foe)
        for space, city in enumerate(obs[L.O_BOARD : L.O_BOARD + board]):
            alike = alike_space(obs, scratch, space)  # its rows serve this city
            if alike == space:
                subset_attacks(P, scratch, fscratch, n, city, True, FUEL_MAX, grouped, foe, sited,
                               space)  # fmt: skip
            for mask in range(1 << n):
                group = np.array([hand[j] for j in range(n) if (mask >> j) & 1], np.int64)
                at = alike * MASKS + mask
                assert scratch[BATTLE + at] == group_attack(P, group, len(group), city, False)
                assert scratch[VS_ARMY + at] == group_attack(P, group, len(group), city, True)


def _table_with_hidden_ships(seed):
    """Four captains on turn 4, four cities; captains 1-3 hold starting ships and blue ships
    nobody has seen (one bought this turn, its price spent). Captain 0's observation."""
    rng = np.random.default_rng(seed)
    s = np.zeros(L.STATE_SIZE, np.int32)
    streams = np.zeros(L.STREAMS, np.uint64)
    seed_streams(streams, seed)
    new_game(s, P, 4, streams)
    s[L.S_TURN] = 4
    s[L.S_N_BOARD] = 4
    s[L.S_BOARD : L.S_BOARD + 4] = rng.choice(P[L.P_N_CITIES], size=4, replace=False)
    blue = ["scout-saucer", "escort-saucer", "hunter-saucer", "tripod", "cruiser", "jump-tripod"]
    for seat in (1, 2, 3):
        for i in range(1, int(rng.integers(2, L.MAX_HAND))):
            model = N.model(str(rng.choice(blue)))
            s[pl(seat, L.PL_HAND + i)] = model
            s[pl(seat, L.PL_BOUGHT_TURN + i)] = int(rng.integers(1, 5))
            if s[pl(seat, L.PL_BOUGHT_TURN + i)] == 4:
                s[pl(seat, L.PL_SPENT_TURN)] += P[L.P_MODELS + model * L.MODEL_SIZE + L.M_PRICE]
    obs = np.zeros(L.OBS_SIZE, np.int32)
    buf, slots = np.zeros(L.MAX_HAND, np.int64), np.zeros(L.MAX_HAND, np.int64)
    observe(s, P, 0, L.PH_PLAN, -1, np.zeros(L.MAX_PLAYERS, np.int64), obs, buf, slots)
    return obs


@pytest.mark.parametrize("samples", [6, 20])  # 20: more samples than the memo has entries
def test_the_strong_captains_memo_predicts_as_planning_every_sample(samples):
    """sampling.sampled_contest reuses the prediction of a hand sampled again; planning every
    sample anew (the slow, obvious way) gives the same contest model and the same draws."""
    _, sp = REGISTRY.resolve(StrategySpec("strong", {"samples": samples}))
    for seed in range(6):
        obs = _table_with_hidden_ships(seed)
        scratch = np.zeros(SCRATCH_SIZE, np.int64)
        fscratch = np.zeros(FSCRATCH_SIZE, np.float64)
        streams = np.zeros(L.STREAMS, np.uint64)
        seed_streams(streams, 100 + seed)
        fast = streams.copy()
        sampled_contest(obs, P, sp, fast, 1, scratch, fscratch)
        model = fscratch[Q : Q + L.MAX_BOARD].copy(), fscratch[THEIRS : THEIRS + L.MAX_BOARD].copy()

        scratch[:], fscratch[:] = 0, 0.0
        public_contest(obs, P, scratch, fscratch, 1.0)
        count_decks(P, scratch)
        hits, power = np.zeros(L.MAX_BOARD), np.zeros(L.MAX_BOARD)
        for _ in range(samples):
            strongest = np.zeros(L.MAX_BOARD)
            for k in (1, 2, 3):
                n = sample_hand(obs, P, k, streams, 1, scratch)
                predicted_attacks(obs, P, k, n, scratch, fscratch, SPARE)
                strongest = np.maximum(strongest, fscratch[SPARE : SPARE + L.MAX_BOARD])
            hits += strongest > 0
            power += np.where(strongest > 0, strongest, 0.0)
        public = fscratch[Q : Q + L.MAX_BOARD], fscratch[THEIRS : THEIRS + L.MAX_BOARD]
        sampled = np.divide(power, hits, out=np.zeros(L.MAX_BOARD), where=hits > 0)
        assert (model[0] == 1.0 * hits / samples + 0.0 * public[0]).all()  # blend 1
        assert (model[1] == 1.0 * sampled + 0.0 * public[1]).all()
        assert (fast == streams).all()  # the same draws
        assert hits.any()  # the other captains attack somewhere


def test_the_games_tables_give_the_figures_worked_out():
    """tables.py keeps what the params decide in the scratch buffers for a game (flagged in
    the game part, zeroed when a game starts, decision.game_scratch): the chance to beat every
    army card (army_odds ** armies), each model's trait conditions at a city, which models look
    at their companions or the foe. Asked in any order, again, past a table's span, after a
    new game and under other rules (other army attacks, other traits), each is the figure
    worked out anew."""
    from sim.games.alien_raid.cards import condition_holds, depends_on_group, trait_condition
    from sim.games.alien_raid.decision import game_scratch
    from strategies.alien_raid.common import army_odds
    from strategies.alien_raid.tables import ODDS_SPAN, model_conditions, model_kinds, win_odds

    @njit
    def worked_out(p, attack, armies):  # as the plans did: compiled, a float to an int power
        return army_odds(p, attack) ** armies

    def conditions(p, m, city):
        bits = 0
        for t in range(p[L.P_MODELS + m * L.MODEL_SIZE + L.M_N_TRAITS]):
            for c in range(L.MAX_CONDS):
                if condition_holds(p, *trait_condition(p, m, t, c), city, 0, 0, False):
                    bits |= 1 << (L.MAX_CONDS * t + c)
        return bits

    rng = np.random.default_rng(3)
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    fscratch = np.zeros(FSCRATCH_SIZE, np.float64)
    other = P.copy()
    other[L.P_ARMY_ATTACK : L.P_ARMY_ATTACK + other[L.P_N_ARMY_MODELS]] += 2
    tripod, scout = N.model("tripod"), N.model("scout-saucer")
    other[L.P_MODELS + tripod * L.MODEL_SIZE + L.M_N_TRAITS] = 0  # no "with saucer" any more
    other[L.P_MODELS + scout * L.MODEL_SIZE + L.M_TRAITS + 1] = L.C_WITH  # "with" a class
    for p in (P, other, P):
        game_scratch(scratch)  # a new game, maybe other rules
        for _ in range(3000):
            attack, armies = int(rng.integers(-2, ODDS_SPAN + 4)), int(rng.integers(0, 5))
            assert win_odds(p, scratch, fscratch, attack, armies) == worked_out(p, attack, armies)
            m, city = int(rng.choice(SHIPS)), int(rng.integers(0, p[L.P_N_CITIES]))
            assert model_conditions(p, scratch, m, city) == conditions(p, m, city)
            kinds = (depends_on_group(p, m), depends_on_foe(p, m))
            assert model_kinds(p, scratch, m) == kinds


def test_kept_expected_attacks_equal_worked_out_ones():
    """shopping.expected_attack_kept keeps each captain's expected attack of every model for
    the classes of the captain's ships (tables.EXPECTS, cleared once a game): asked for any
    seat and model, as hands change, again, after a new game and under other rules (other
    traits), it is expected_attack worked out anew."""
    from sim.games.alien_raid.decision import game_scratch
    from sim.games.alien_raid.observe import op
    from strategies.alien_raid.shopping import (
        expected_attack,
        expected_attack_kept,
        expected_attack_of,
        own_classes,
    )

    rng = np.random.default_rng(5)
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    fscratch = np.zeros(FSCRATCH_SIZE, np.float64)
    other = P.copy()
    scout = N.model("scout-saucer")
    other[L.P_MODELS + scout * L.MODEL_SIZE + L.M_TRAITS + 1] = L.C_WITH  # "with" a class
    obs = np.full(L.OBS_SIZE, -1, np.int32)
    changed = 0
    for p in (P, other, P):
        game_scratch(scratch)  # a new game, maybe other rules
        for _ in range(1500):
            seat = int(rng.integers(0, 4))
            obs[L.O_SEAT] = seat
            if rng.random() < 0.3:  # the captain's hand changes now and then
                for i in range(L.MAX_HAND):
                    obs[op(seat, L.OP_HAND + i)] = rng.choice(SHIPS) if rng.random() < 0.6 else -1
            m = int(rng.integers(0, p[L.P_N_MODELS]))
            classes = own_classes(obs, p)
            kept = expected_attack_kept(obs, p, scratch, fscratch, m, classes)
            assert kept == expected_attack(obs, p, m)
            changed += kept != expected_attack_of(p, m, 0)  # with no ships: other chances
    assert changed > 50  # the hand's classes counted (a "with"/"without" condition)
