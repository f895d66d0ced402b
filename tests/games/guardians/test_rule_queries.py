"""The strategies' predictions agree with the turn that is then played.

A strategy values a cell by what the shot from there would take, a missile by the row it would
take, a purchase or a re-entry by whether it is allowed; the engine answers each from one query
function (shots.shot_take, stolen_kind, missile_take, missile_error, shop.buy_error,
engine.can_reenter, engine.lines). Each test here plays the turns on copies of positions from
real games and checks that what was predicted is what happened, so a rule changed in the engine
but not in a prediction (or the reverse) fails here.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.games.guardians import layout as L
from sim.games.guardians import moves, shop, shots, start
from sim.games.guardians.board import at, pl, put_invader, reserve_points, set_cell
from sim.games.guardians.decision import MINE_START, PLACE, SCRATCH_SIZE, TURN, reset_action
from sim.games.guardians.engine import can_reenter, path_error, play_turn, turn_error
from sim.games.guardians.ruleset import load_ruleset, to_params
from sim.random_streams import below, seed_streams
from strategies.guardians import registry
from strategies.guardians.economist import shopping

# the shop's presets (missiles, upgrades, power-ups) and the switches the predictions read
RULES = [
    ("guardians", {}),
    ("guardians-advanced", {}),
    ("space-defenders-upgrades", {}),
    ("guardians-advanced", {"shot.steal": "highest", "movement.directions": "horizontal"}),
    ("space-defenders", {"tokens.ship_part_points": 3}),
]
IDS = ["-".join([preset, *map(str, overrides.values())]) for preset, overrides in RULES]
_CELLS = 2 * L.MAX_COLS * L.MAX_ROWS


def positions(preset: str, overrides: dict, n: int, seed: int):
    """The params and n running positions from four-player games of greedy, economist and
    random turns (the economists buy, so missiles and upgrades turn up)."""
    p = to_params(load_ruleset(preset, overrides).values)
    players = [registry.resolve(name) for name in ("greedy", "economist", "random")]
    params = [registry.param_vector(strategy, {}) for strategy in players]
    rng = np.zeros(L.MAX_PLAYERS + 1, np.uint64)
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    a = np.zeros(L.ACTION_SIZE, np.int32)
    buf = np.zeros(L.N_KINDS, np.int64)
    out: list[np.ndarray] = []
    game = 0
    while len(out) < n:
        s = np.zeros(L.STATE_SIZE, np.int32)
        seed_streams(rng, seed + game)
        start.new_game(s, p, 4, rng)
        for seat in range(4):
            reset_action(s, seat, a)
            players[0].policy(PLACE, s, p, seat, params[0], rng, a, scratch)
            assert start.place_fighter(s, p, seat, a[L.A_DEST_COL]) == L.OK
        reset_action(s, 3, a)
        players[0].policy(MINE_START, s, p, 3, params[0], rng, a, scratch)
        assert start.place_mine(s, p, a[L.A_MINE_ROW]) == L.OK
        stop = 2 + below(rng, 0, 80)
        while s[L.S_STATUS] == L.RUNNING and s[L.S_TURN] < stop:
            seat = int(s[L.S_TO_MOVE])
            who = seat % len(players)
            reset_action(s, seat, a)
            players[who].policy(TURN, s, p, seat, params[who], rng, a, scratch)
            assert play_turn(s, p, a, buf) == L.OK
        if s[L.S_STATUS] == L.RUNNING and s[pl(int(s[L.S_TO_MOVE]), L.PL_STATUS)] == L.ACTIVE:
            out.append(s.copy())
        game += 1
    return p, out


def _mover(s):
    seat = int(s[L.S_TO_MOVE])
    return seat, int(s[pl(seat, L.PL_COL)]), int(s[pl(seat, L.PL_ROW)])


def _turn(s, seat, col, row, **fields):
    a = np.zeros(L.ACTION_SIZE, np.int32)
    reset_action(s, seat, a)
    a[L.A_DEST_COL], a[L.A_DEST_ROW] = col, row
    for name, value in fields.items():
        a[getattr(L, name)] = value
    return a


def _destinations(s, p, c0, r0):
    out = np.zeros(_CELLS, np.int64)
    n = moves.destinations(s, p, c0, r0, out)
    return [(int(out[2 * k]), int(out[2 * k + 1])) for k in range(n)]


def _lifted(s, c0, r0):
    """The board as the predictions see it once the fighter has left (c0, r0)."""
    t = s.copy()
    set_cell(t, c0, r0, L.EMPTY)
    return t


@pytest.mark.parametrize(("preset", "overrides"), RULES, ids=IDS)
def test_the_cells_a_fighter_may_reach_are_the_moves_the_turn_accepts(preset, overrides):
    p, states = positions(preset, overrides, 25, seed=100)
    for s in states:
        seat, c0, r0 = _mover(s)
        listed = set(_destinations(s, p, c0, r0))
        allowed = {(c, r) for c in range(p[L.P_COLS]) for r in range(p[L.P_ROWS])
                   if path_error(s, p, c0, r0, c, r) == L.OK}  # fmt: skip
        assert listed == allowed


@pytest.mark.parametrize(("preset", "overrides"), RULES, ids=IDS)
def test_a_shot_takes_what_shot_value_predicts(preset, overrides):
    """One shot (level 1) from every reachable cell: the shooter's gain in points and the hit
    count are what moves.shot_value said (steals, lone halves and intact halves included)."""
    p, states = positions(preset, overrides, 25, seed=200)
    buf = np.zeros(L.N_KINDS, np.int64)
    seen = set()
    for s in states:
        seat, c0, r0 = _mover(s)
        s = s.copy()
        s[pl(seat, L.PL_LEVEL)] = 1
        for c, r in _destinations(s, p, c0, r0):
            points, hit = moves.shot_value(_lifted(s, c0, r0), p, c, r, seat)
            t = s.copy()
            assert play_turn(t, p, _turn(t, seat, c, r), buf) == L.OK
            gained = reserve_points(t, p, seat) - reserve_points(s, p, seat)
            assert (gained, t[pl(seat, L.PL_HITS)] - s[pl(seat, L.PL_HITS)]) == (points, hit)
            seen.add(_what_is_hit(s, p, c, r))
    assert "monster" in seen and seen & {"lone half", "intact half"}
    if overrides.get("movement.directions") != "horizontal":  # (fighters rarely line up then)
        assert "fighter" in seen


def _what_is_hit(s, p, c, r):
    for rr in range(r + 1, p[L.P_ROWS]):
        v = s[at(c, rr)]
        if v != L.EMPTY:
            if v <= 5:
                return "monster"
            if v == L.SHIP_DAMAGED:
                return "lone half"
            return {L.SHIP_L: "intact half", L.SHIP_R: "intact half", L.MINE: "mine"}.get(
                v, "fighter"
            )
    return "nothing"


@pytest.mark.parametrize("highest", [0, 1])
def test_a_steal_takes_what_steal_points_predicts(highest):
    p, states = positions("guardians", {}, 20, seed=300)
    p = p.copy()
    p[L.P_STEAL_HIGHEST] = highest
    gen = np.random.default_rng(highest)
    for s in states:
        thief = int(s[L.S_TO_MOVE])
        for victim in range(int(s[L.S_N_PLAYERS])):
            if victim == thief:
                continue
            t = s.copy()
            for k in range(1, L.N_KINDS):  # a varied reserve, sometimes empty
                t[pl(victim, L.PL_RESERVE + k)] = gen.integers(0, 3) * gen.integers(0, 2)
            predicted = moves.steal_points(t, p, victim)
            before = reserve_points(t, p, thief)
            shots.steal(t, p, thief, victim)
            assert reserve_points(t, p, thief) - before == predicted


@pytest.mark.parametrize(("preset", "overrides"), RULES, ids=IDS)
def test_a_missile_takes_the_row_missile_row_and_row_take_predict(preset, overrides):
    """With a missile held, from every reachable cell: the engine accepts the missile exactly
    where moves.missile_row names a row, and the shooter's missile points are row_take's."""
    p, states = positions(preset, overrides, 25, seed=400)
    buf = np.zeros(L.N_KINDS, np.int64)
    fired = refused = 0
    for s in states:
        seat, c0, r0 = _mover(s)
        s = s.copy()
        s[pl(seat, L.PL_MISSILE)] = L.HELD
        board = _lifted(s, c0, r0)
        for c, r in _destinations(s, p, c0, r0):
            row = moves.missile_row(board, p, seat, c, r)
            a = _turn(s, seat, c, r, A_MISSILE=1)
            err = turn_error(s, p, a)
            assert (err == L.OK) == (row >= 0), (err, row)
            if row < 0:
                refused += 1
                continue
            t = s.copy()
            assert play_turn(t, p, a, buf) == L.OK
            taken = t[pl(seat, L.PL_MISSILE_POINTS)] - s[pl(seat, L.PL_MISSILE_POINTS)]
            assert taken == moves.row_take(board, p, row)
            fired += 1
    assert fired > 20 and refused > 0


@pytest.mark.parametrize("preset", ["guardians-advanced", "space-defenders-upgrades"])
def test_a_purchase_is_allowed_exactly_when_buy_error_says_so(preset):
    """Varied reserves and markers: the engine accepts a purchase turn exactly when
    shop.buy_error allows it, and the economist only ever asks for what it may buy."""
    p, states = positions(preset, {}, 30, seed=500)
    economist = registry.resolve("economist")
    sp = registry.param_vector(economist, {"missile_at": 0, "upgrade_at": 0, "power_up_at": 0})
    gen = np.random.default_rng(5)
    accepted = refused = 0
    for s in states:
        seat, c0, r0 = _mover(s)
        for _ in range(6):
            t = s.copy()
            for k in range(1, L.N_KINDS):
                t[pl(seat, L.PL_RESERVE + k)] = gen.integers(0, 4)
            t[pl(seat, L.PL_MISSILE)] = gen.integers(0, 3)
            t[pl(seat, L.PL_POWER)] = gen.integers(0, 3)
            t[pl(seat, L.PL_LEVEL)] = gen.integers(1, p[L.P_MAX_LEVEL] + 1)
            funds = reserve_points(t, p, seat)
            for kind in (L.BUY_MISSILE, L.BUY_UPGRADE, L.BUY_POWER_UP):
                allowed = shop.buy_error(t, p, seat, kind, funds) == L.OK
                assert (turn_error(t, p, _turn(t, seat, c0, r0, A_BUY=kind)) == L.OK) == allowed
                accepted += allowed
                refused += not allowed
            wanted = shopping(t, p, seat, sp)
            if wanted != L.BUY_NONE:
                assert turn_error(t, p, _turn(t, seat, c0, r0, A_BUY=wanted)) == L.OK
    assert accepted > 50 and refused > 50


def test_a_destroyed_fighter_comes_back_exactly_when_can_reenter_says_so():
    """Destroyed fighters with varied reserves, sometimes with a full bottom row: the turn
    that asks to come back brings the fighter back exactly when engine.can_reenter said it
    could (otherwise it waits for room, or is out)."""
    p, states = positions("guardians", {}, 40, seed=600)
    buf = np.zeros(L.N_KINDS, np.int64)
    gen = np.random.default_rng(6)
    outcomes = set()
    for s in states:
        seat, c0, r0 = _mover(s)
        t = s.copy()
        set_cell(t, c0, r0, L.EMPTY)
        t[pl(seat, L.PL_COL)] = -1
        t[pl(seat, L.PL_STATUS)] = L.DESTROYED
        for k in range(1, L.N_KINDS):
            t[pl(seat, L.PL_RESERVE + k)] = gen.integers(0, 3) * gen.integers(0, 2)
        if gen.integers(0, 3) == 0:  # no room in the bottom row
            for c in range(p[L.P_COLS]):
                if t[at(c, 0)] == L.EMPTY:
                    put_invader(t, c, 0, 1)
        free = [c for c in range(p[L.P_COLS]) if t[at(c, 0)] == L.EMPTY]
        predicted = can_reenter(t, p, seat)
        a = _turn(t, seat, free[0] if free else -1, 0, A_REENTER_COL=free[0] if free else -1)
        assert play_turn(t, p, a, buf) == L.OK
        back = t[pl(seat, L.PL_REENTRIES)] > s[pl(seat, L.PL_REENTRIES)]
        assert back == predicted
        outcomes.add((bool(predicted), bool(free)))
    assert outcomes == {(True, True), (False, True), (False, False)}
