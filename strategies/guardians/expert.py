"""`expert`: a search over every legal turn, judged a round ahead.

Each legal turn (re-entry cell, purchase, destination, missile, power-up cell, mine move) is
played on a copy of the board whose hidden pile is replaced by a canonical order of the tokens
left, and the result is scored by an estimate of the chance to win: the chance of leading at the
end (a softmax of the players' points and assets) times the chance the game ends without a raid
(from the descents the board can still take). The best few turns are then played on through the
opponents' replies (each modelled as greedy) and judged again.
"""

import numpy as np

from sim.games.guardians import layout as L
from sim.games.guardians.board import bottom_cell_free, pl, players_in_game, reserve_points
from sim.games.guardians.decision import reset_action
from sim.games.guardians.engine import line_of, play_turn, winners_mask
from sim.games.guardians.moves import (
    column_raid_margin,
    descents_to_raid,
    destinations,
    public_copy,
    restore_public,
    volley_effect,
    volley_value,
)
from sim.games.guardians.shop import buy_turn_error
from sim.jit import jit, jit_allocating, jit_inline
from strategies.guardians import cautious, miner
from strategies.guardians.common import setup_phase, stand_at, waiting

PARAMS: dict[str, float] = {
    "temperature": 3.0,  # points: spread of the lead's softmax at the end of the game
    "temperature_slope": 0.3,  # ... plus this per token still to be played (pile + board)
    "survival_mid": 6.0,  # descents to spare at which the game is as likely to raid as not
    "survival_width": 1.2,  # how quickly that chance changes per descent to spare
    "missile_value": 12.0,  # points a held missile is worth
    "level_value": 10.0,  # points an upgrade level is worth
    "power_value": 4.0,  # points a charged power-up is worth (x3 when permanent)
    "destroyed_cost": 4.0,  # points a destroyed fighter costs beyond the re-entry fee
    "point_bonus": 0.001,  # tie-break: value of one point of one's own reserve
    "replies": 6.0,  # best turns played on through the opponents' replies (0: none)
    "fade_turns": 600.0,  # the lead's softmax sharpens as the game drags on towards this turn
    "end_bonus": 0.002,  # worth of any end without a raid, even a lost one (no endless games)
    "stall_weight": 0.5,  # chance the game stalls, per share of the stall run gone by
    "model_caution": 1.0,  # 1: the opponents' model shuns shots that raid at once
}
(
    TEMPERATURE,
    TEMPERATURE_SLOPE,
    SURVIVAL_MID,
    SURVIVAL_WIDTH,
    MISSILE_VALUE,
    LEVEL_VALUE,
    POWER_VALUE,
    DESTROYED_COST,
    POINT_BONUS,
    REPLIES,
    FADE_TURNS,
    END_BONUS,
    STALL_WEIGHT,
    MODEL_CAUTION,
) = range(14)

MAX_REPLIES = 16
_DEST = 0  # scratch[0 : 2 * cells]: the expert's own destinations
_MODEL = 2 * 12 * 8  # scratch[_MODEL : 2 * _MODEL]: the opponent model's destinations
_NO = -1e300
_CAUTIOUS = np.array([3.0, 200.0, 8.0])  # cautious's parameters, for placement


# --- evaluation ----------------------------------------------------------------------------


@jit
def strength(t, p, k, sp):
    """Seat k's points plus the worth of what it holds; -1e9 if it is (about to be) out."""
    status = t[pl(k, L.PL_STATUS)]
    if status == L.OUT:
        return -1e9
    v = float(reserve_points(t, p, k))
    if status == L.DESTROYED:
        if p[L.P_DESTROYED_OUT] or v < p[L.P_REENTRY_COST]:
            return -1e9
        v -= p[L.P_REENTRY_COST] + sp[DESTROYED_COST]
    if t[pl(k, L.PL_MISSILE)] == L.HELD:
        v += sp[MISSILE_VALUE]
    v += (t[pl(k, L.PL_LEVEL)] - 1) * sp[LEVEL_VALUE]
    if t[pl(k, L.PL_POWER)] == L.CHARGED:
        v += sp[POWER_VALUE] * (3.0 if p[L.P_POWER_PERMANENT] else 1.0)
    return v


@jit
def end_value(t, p, me, sp):
    """`me`'s share of the win if the game ended now without a raid, plus the end bonus and
    the points' tie-break."""
    v = sp[END_BONUS] + sp[POINT_BONUS] * reserve_points(t, p, me)
    mask = winners_mask(t, p)
    if (mask >> me) & 1 == 0:
        return v
    k = 0
    for seat in range(t[L.S_N_PLAYERS]):
        k += (mask >> seat) & 1
    return 1.0 / k + v


@jit
def evaluate(t, p, me, sp):
    """Estimated chance that `me` wins from state t (a share when the win is shared)."""
    st = t[L.S_STATUS]
    if st == L.VICTORY or st == L.STALL:
        return end_value(t, p, me, sp)
    if st != L.RUNNING:
        return 0.0  # raid or cap: nobody wins
    v = running_value(t, p, me, sp)
    run = t[L.S_STALL_RUN]
    if run > 0:
        limit = p[L.P_STALL_TURNS] if p[L.P_STALL_TURNS] > 0 else players_in_game(t)
        q = min(1.0, sp[STALL_WEIGHT] * run / limit)
        t[L.S_STATUS] = L.STALL  # winners_mask only looks at finished games
        v = q * end_value(t, p, me, sp) + (1.0 - q) * v
        t[L.S_STATUS] = L.RUNNING
    return v


@jit
def running_value(t, p, me, sp):
    """The estimate for a game still running: leading at the end times surviving."""
    if t[pl(me, L.PL_STATUS)] == L.OUT:
        return 0.0
    mine = strength(t, p, me, sp)
    if mine < -1e8:
        return 0.0
    left = t[L.S_PILE_LEN] - t[L.S_PILE_TOP] + t[L.S_INVADERS]
    temp = sp[TEMPERATURE] + sp[TEMPERATURE_SLOPE] * left
    temp *= max(0.05, 1.0 - t[L.S_TURN] / sp[FADE_TURNS])
    z = 0.0
    for k in range(t[L.S_N_PLAYERS]):
        if k == me:
            z += 1.0  # exp(0), exactly
            continue
        v = strength(t, p, k, sp)
        if v > -1e8:
            z += np.exp((v - mine) / temp)
    lead = 1.0 / z
    spare = descents_to_raid(t, p)
    if spare > 50:
        survive = 1.0
    else:
        survive = 1.0 / (1.0 + np.exp(-(spare - sp[SURVIVAL_MID]) / sp[SURVIVAL_WIDTH]))
    return lead * survive + sp[POINT_BONUS] * reserve_points(t, p, me)


# --- the opponents' model: greedy, ties to the first cell ----------------------------------


@jit
def model_turn(t, p, seat, a, scratch, caution):
    """Write a greedy turn for `seat` (ties broken to the first cell, no randomness); with
    `caution`, it also shuns a shot whose descent would raid at once."""
    reset_action(t, seat, a)
    level = t[pl(seat, L.PL_LEVEL)]
    out = scratch[_MODEL:]
    if waiting(t, p, seat):
        return
    if t[pl(seat, L.PL_STATUS)] == L.DESTROYED:
        best, best_c = -1, -1
        for c in range(p[L.P_COLS]):
            if bottom_cell_free(t, p, c):
                v = volley_value(t, p, c, 0, seat, 1)
                if v > best:
                    best, best_c = v, c
        stand_at(t, seat, a, best_c, 0)
    n = destinations(t, p, a[L.A_DEST_COL], a[L.A_DEST_ROW], out)
    check = caution and descents_to_raid(t, p) <= 1
    best, best_k = -(1 << 30), 0
    for k in range(n):
        c, r = out[2 * k], out[2 * k + 1]
        v = volley_value(t, p, c, r, seat, level)
        if check:
            _, empties, _ = volley_effect(t, p, c, r, seat, level)
            if empties and _raids_without(t, p, c):
                v -= 1000
        if v > best:
            best, best_k = v, k
    a[L.A_DEST_COL], a[L.A_DEST_ROW] = out[2 * best_k], out[2 * best_k + 1]


@jit
def _raids_without(t, p, col):
    """Whether a descent would raid, column `col` being emptied first."""
    for c in range(p[L.P_COLS]):
        if c != col and column_raid_margin(t, p, c) <= 1:
            return True
    return False


@jit
def play_replies(t, p, me, a, buf, scratch, caution):
    """Play the modelled opponents' turns on t until it is `me`'s turn again or the game ends."""
    for _ in range(t[L.S_N_PLAYERS]):
        if t[L.S_STATUS] != L.RUNNING or t[L.S_TO_MOVE] == me:
            return
        seat = t[L.S_TO_MOVE]
        model_turn(t, p, seat, a, scratch, caution)
        if play_turn(t, p, a, buf) != L.OK:
            reset_action(t, seat, a)  # should not happen: fall back on "stay and shoot"
            if play_turn(t, p, a, buf) != L.OK:
                return


# --- the search ------------------------------------------------------------------------------


@jit
def _keep(top_v, top_a, n_top, cap, v, cand):
    """Insert (v, cand) into the best-first list top_v/top_a of n_top entries (at most cap)."""
    if n_top == cap and v <= top_v[n_top - 1]:
        return n_top
    i = n_top if n_top < cap else cap - 1
    while i > 0 and top_v[i - 1] < v:
        top_v[i] = top_v[i - 1]
        for j in range(top_a.shape[1]):
            top_a[i, j] = top_a[i - 1, j]
        i -= 1
    top_v[i] = v
    for j in range(top_a.shape[1]):
        top_a[i, j] = cand[j]
    return n_top + 1 if n_top < cap else n_top


@jit
def _score(base, work, p, cand, buf, me, sp):
    restore_public(base, work)
    if play_turn(work, p, cand, buf) != L.OK:
        return _NO
    return evaluate(work, p, me, sp)


@jit
def _mine_options(s, p, rows):
    """Re-entry rows to try when moving the mine: [-1] if it cannot wrap, else the mine spaces;
    returns how many (0 if there is no mine)."""
    if not p[L.P_MINE_STEP] or not s[L.S_MINE_ALIVE]:
        return 0
    if s[L.S_MINE_COL] + p[L.P_MINE_STEP] < p[L.P_COLS]:
        rows[0] = -1
        return 1
    n = 0
    for r in range(p[L.P_MINE_ROW_FIRST], p[L.P_MINE_ROW_LAST] + 1):
        rows[n] = r
        n += 1
    return n


@jit_inline
def search(s, p, me, sp, a, scratch):
    """Choose the turn: write it into a (which arrives as reset_action's default). Pasted
    into the policy, which is compiled with reference counting for it (the work arrays): a
    call would make numba optimise the whole search once more for the policy."""
    cap = min(max(int(sp[REPLIES]), 1), MAX_REPLIES)
    bufs = buffers(cap)
    base, work, cand, model, buf, top_v, top_a = bufs[:7]
    public_copy(s, base)
    work[:] = base  # restore_public leaves the pile region alone from now on
    n_top = shortlist(s, p, me, sp, bufs, scratch)
    if n_top > 0:  # else nothing legal was found: keep the default turn
        a[:] = top_a[replied_best(p, me, sp, n_top, bufs, scratch)]


@jit_allocating
def buffers(cap):
    """The search's work arrays (a tuple, handed on to the functions that do the work, which
    are compiled without reference counting): the public copy, a copy to play turns on, a
    candidate turn, a modelled turn, the turn's scratch, the best `cap` turns' values and
    turns, a copy of those, the mine's re-entry rows."""
    return (
        np.empty(L.STATE_SIZE, np.int32),
        np.empty(L.STATE_SIZE, np.int32),
        np.empty(L.ACTION_SIZE, np.int32),
        np.empty(L.ACTION_SIZE, np.int32),
        np.zeros(L.N_KINDS, np.int64),
        np.full(cap, _NO),
        np.zeros((cap, L.ACTION_SIZE), np.int32),
        np.zeros((cap, L.ACTION_SIZE), np.int32),
        np.empty(8, np.int64),
    )


@jit
def replied_best(p, me, sp, n_top, bufs, scratch):
    """Which of the n_top shortlisted turns is best once played on through the opponents'
    replies (0 without replies)."""
    base, work, _, model, buf, _, top_a = bufs[:7]
    best = 0
    if sp[REPLIES] >= 1 and n_top > 1:
        best_v = _NO
        for j in range(n_top):
            restore_public(base, work)
            play_turn(work, p, top_a[j], buf)
            play_replies(work, p, me, model, buf, scratch, sp[MODEL_CAUTION] > 0)
            v = evaluate(work, p, me, sp)
            if v > best_v:
                best_v, best = v, j
    return best


@jit
def shortlist(s, p, me, sp, bufs, scratch):
    """Every legal turn played once on `work` (a full copy of the public copy `base`) and
    judged by evaluate(); the best len(top_v) are kept in top_v/top_a, best first. Returns
    how many were kept. bufs: from buffers()."""
    base, work, cand, _, buf, top_v, top_a, first, mine_rows = bufs
    cap = top_v.shape[0]
    n_top = 0
    status = s[pl(me, L.PL_STATUS)]
    n_mine = _mine_options(s, p, mine_rows)
    missile = s[pl(me, L.PL_MISSILE)] == L.HELD
    power = s[pl(me, L.PL_POWER)] == L.CHARGED
    dests = scratch[_DEST:]
    for entry in range(-1, p[L.P_COLS]):
        if status == L.DESTROYED:
            if not bottom_cell_free(s, p, entry):
                continue
            c0, r0 = entry, 0
        else:
            if entry >= 0:
                break
            c0, r0 = s[pl(me, L.PL_COL)], s[pl(me, L.PL_ROW)]
        # purchases: the whole turn, standing still
        for kind in range(L.BUY_MISSILE, L.BUY_POWER_UP + 1):
            reset_action(s, me, cand)
            cand[L.A_REENTER_COL] = entry
            cand[L.A_DEST_COL], cand[L.A_DEST_ROW] = c0, r0
            cand[L.A_BUY] = kind
            if buy_turn_error(s, p, me, cand) != L.OK:
                continue
            v = _score(base, work, p, cand, buf, me, sp)
            if v > _NO:
                n_top = _keep(top_v, top_a, n_top, cap, v, cand)
        n = destinations(s, p, c0, r0, dests)
        for k in range(n):
            dc, dr = dests[2 * k], dests[2 * k + 1]
            steps, sc, sr = line_of(c0, r0, dc, dr)
            for use_missile in range(2 if missile else 1):
                for i in range(-1, steps + 1 if power else 0):
                    reset_action(s, me, cand)
                    cand[L.A_REENTER_COL] = entry
                    cand[L.A_DEST_COL], cand[L.A_DEST_ROW] = dc, dr
                    cand[L.A_MISSILE] = use_missile
                    if i >= 0:
                        cand[L.A_PU_COL], cand[L.A_PU_ROW] = c0 + i * sc, r0 + i * sr
                    v = _score(base, work, p, cand, buf, me, sp)
                    if v > _NO:
                        n_top = _keep(top_v, top_a, n_top, cap, v, cand)
    # the mine moves after the shots: try moving it after the best turns found so far
    if n_mine > 0:
        n_first = n_top
        for j in range(n_first):
            for f in range(L.ACTION_SIZE):
                first[j, f] = top_a[j, f]
        for j in range(n_first):
            if first[j, L.A_BUY] != L.BUY_NONE:
                continue
            for f in range(L.ACTION_SIZE):
                cand[f] = first[j, f]
            for m in range(n_mine):
                cand[L.A_MINE], cand[L.A_MINE_ROW] = 1, mine_rows[m]
                v = _score(base, work, p, cand, buf, me, sp)
                if v > _NO:
                    n_top = _keep(top_v, top_a, n_top, cap, v, cand)
    return n_top


@jit
def place_column(s, p, seat, sp, rng, slot, scratch):
    """Where the expert places its fighter: cautious's placement, with cautious's weights."""
    return cautious.place_column(s, p, seat, _CAUTIOUS, rng, slot, scratch)


@jit_inline
def before_search(phase, s, p, seat, sp, rng, a, scratch):
    """Placement (place_column), the mine's start (the miner's) and a destroyed fighter that
    may not come back; True when that decided the turn. The search tries every entry."""
    return setup_phase(phase, s, p, seat, sp, rng, a, scratch, place_column, miner.start_row) or (
        waiting(s, p, seat)
    )


@jit_allocating  # the pasted search allocates its work arrays
def policy(phase, s, p, seat, sp, rng, a, scratch):
    if not before_search(phase, s, p, seat, sp, rng, a, scratch):
        search(s, p, seat, sp, a, scratch)
