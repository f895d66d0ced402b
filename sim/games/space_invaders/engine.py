"""A player's turn (lines 186-232) as a state machine of decisions.

`begin_turn` opens the turn; the caller then repeatedly reads `s[S_PHASE]`, asks the seat's
strategy to fill the action array for that phase, and calls `step`, until the phase is
PH_DONE. Launches, re-launches and bonus shots land where `dexterity.sample_landing` says
(or, for scenarios, where the script says); the turn ends with the resolution.
"""

import math

from sim.games.space_invaders.board import (
    adjacent,
    classify,
    lowest_bit,
    neighbours_mask,
    ufo_center_x,
    ufo_center_y,
    wave_reaches,
)
from sim.games.space_invaders.dexterity import sample_landing
from sim.games.space_invaders.layout import (
    A_AIM_X,
    A_AIM_Y,
    A_CALLED,
    A_LEVEL,
    A_RES,
    A_SHOOTER_X,
    A_THREE,
    A_YES,
    ADJACENT_INSTEAD,
    CALLED_SHOT,
    E_AIM,
    E_CALLED,
    E_EXTRA,
    E_GAME_OVER,
    E_NO_TOKEN,
    E_PHASE,
    E_REDIRECT,
    E_SCRIPT,
    E_SHOOTER,
    E_THREE_TRIES,
    E_WAVE,
    EXTRA_ADJACENT,
    HEAL,
    IN_PLANET,
    IN_UFO,
    KIND_BONUS,
    KIND_LAUNCH,
    LEVELS,
    LOG_AIM_X,
    LOG_AIM_Y,
    LOG_CELLS,
    LOG_KIND,
    LOG_LEVEL,
    LOG_RESULT,
    LOG_ROUND,
    LOG_SEAT,
    LOG_SHOOTER_X,
    LOG_SHOOTER_Y,
    LOG_X,
    LOG_Y,
    LONG_WAVE,
    MISS,
    N_CELLS,
    OK,
    ON_CARDS,
    OUT,
    P_BOARD_W,
    P_BONUS_HITS,
    P_CALLED_DESTROYED,
    P_DEAD_UFO_HITS,
    P_HEAL_TO_START,
    P_LONG_DESTROYS,
    P_PLAIN_POWER,
    P_PLANET_RELAUNCH,
    P_PLANET_START,
    P_PLANET_STREAK,
    P_SCRIPTED,
    P_SHOOTER_Y,
    P_UFO_CHAIN,
    P_WAVE_LONG,
    P_WAVE_SHORT,
    PH_CHOOSE,
    PH_DONE,
    PH_REAIM,
    PH_RELAUNCH_Q,
    PH_RESOLVE,
    PIERCE,
    PL_BONUS_SHOTS,
    PL_EXTRAS,
    PL_HEALED,
    PL_LANDED,
    PL_LAUNCHES,
    PL_LEFT,
    PL_MISSES,
    PL_PLANET_RELAUNCHES,
    PL_POWER,
    PL_POWER_RELAUNCHES,
    PL_REDIRECTS,
    PL_SIZE,
    PL_UFO_HITS,
    PL_WAVES,
    RELAUNCH,
    RES_EXTRA,
    RES_REDIRECT,
    RES_SIZE,
    RES_WAVE,
    RUNNING,
    S_BOARD,
    S_CUR,
    S_DECK_LEN,
    S_DECK_TOP,
    S_HEALED,
    S_LAUNCHES,
    S_PHASE,
    S_PLANET,
    S_PLAYERS,
    S_REASON,
    S_ROUND,
    S_ROUND_OVER,
    S_SCRIPT_POS,
    S_SEAT,
    S_STATUS,
    S_STREAK,
    S_TK,
    S_TOKENS,
    S_TRIES,
    S_TURN_LANDED,
    S_TURNS,
    S_UFO,
    S_UFO_HITS,
    SHORT_WAVE,
    TK_CALLED,
    TK_CELLS,
    TK_LEVEL,
    TK_POWER,
    TK_RESULT,
    TK_SIZE,
    TK_THREE,
    TRACK_MAX,
    UFO_FROM_LANDING,
    UFO_RELAUNCH,
    UFO_THREE_TRIES,
    VOID,
    W_AIM_X,
    W_AIM_Y,
    W_LAND_X,
    W_LAND_Y,
    W_LOG_N,
    W_SHOOTER_X,
    W_SHOOTER_Y,
    W_X,
    W_Y,
    WHY_PLANET,
    WHY_RELAUNCH,
    WHY_THREE_TRIES,
    WHY_UFO_CHAIN,
)
from sim.games.space_invaders.resolve import add_hit, destroy_all
from sim.jit import jit, jit_inline

# --- small queries ------------------------------------------------------------------------


@jit_inline
def pl(seat, field):
    """Index of a seat's field in the state."""
    return S_PLAYERS + seat * PL_SIZE + field


@jit_inline
def tk(t, field):
    """Index of a field of this turn's token record t."""
    return S_TK + t * TK_SIZE + field


@jit_inline
def power_of(s, p, seat, level):
    """The power a token of `level` has: its player card's (line 400), or none when the
    ruleset plays that power as a plain token (powers.plain)."""
    power = s[pl(seat, PL_POWER + level - 1)]
    if power == int(p[P_PLAIN_POWER]):
        return 0
    return power


@jit_inline
def tokens_left(s, seat):
    return s[pl(seat, PL_LEFT)] + s[pl(seat, PL_LEFT + 1)] + s[pl(seat, PL_LEFT + 2)]


@jit_inline
def invaders_on_board(s):
    count = 0
    for cell in range(N_CELLS):
        if s[S_BOARD + cell] != 0:
            count += 1
    return count


@jit_inline
def wave_length(p, power):
    return p[P_WAVE_SHORT] if power == SHORT_WAVE else p[P_WAVE_LONG]


# --- landing -------------------------------------------------------------------------------


@jit_inline
def _log(w, log, kind, seat, level, result, cells, rnd):
    n = int(w[W_LOG_N])
    if n >= log.shape[0]:
        return
    row = log[n]
    row[LOG_KIND], row[LOG_SEAT], row[LOG_LEVEL] = kind, seat, level
    row[LOG_AIM_X], row[LOG_AIM_Y] = w[W_AIM_X], w[W_AIM_Y]
    row[LOG_SHOOTER_X], row[LOG_SHOOTER_Y] = w[W_SHOOTER_X], w[W_SHOOTER_Y]
    row[LOG_X], row[LOG_Y] = w[W_LAND_X], w[W_LAND_Y]
    row[LOG_RESULT], row[LOG_CELLS], row[LOG_ROUND] = result, cells, rnd
    w[W_LOG_N] = n + 1


@jit_inline
def land(s, p, w, rng, script, seat, ax, ay, sx, sy, scale):
    """Launch once from (sx, sy) at (ax, ay): the landing point goes to w[W_LAND_X/Y].
    Returns False when a scenario's script has no landing left."""
    w[W_AIM_X], w[W_AIM_Y], w[W_SHOOTER_X], w[W_SHOOTER_Y] = ax, ay, sx, sy
    if p[P_SCRIPTED] != 0.0:
        k = s[S_SCRIPT_POS]
        if k >= script.shape[0]:
            return False
        w[W_LAND_X], w[W_LAND_Y] = script[k, 0], script[k, 1]
        s[S_SCRIPT_POS] = k + 1
    else:
        x, y = sample_landing(p, rng, 1 + seat, ax, ay, sx, sy, scale)
        w[W_LAND_X], w[W_LAND_Y] = x, y
    s[S_LAUNCHES] += 1
    s[pl(seat, PL_LAUNCHES)] += 1
    return True


@jit_inline
def ufo_hit(s, p, seat, power):
    """A token landed in the UFO (line 332); returns whether it counts as attacking it. A
    destroyed UFO cannot be attacked unless P_DEAD_UFO_HITS (further hits never score,
    line 368). The level-3 heal power restores 2 health (line 434)."""
    if s[S_UFO] <= 0 and p[P_DEAD_UFO_HITS] == 0.0:
        return False
    if s[S_UFO] > 0:
        s[S_UFO] -= 1
        s[S_UFO_HITS] += 1
    s[pl(seat, PL_UFO_HITS)] += 1
    if power == HEAL:
        top = p[P_PLANET_START] if p[P_HEAL_TO_START] != 0.0 else TRACK_MAX
        gained = min(2, max(0, int(top) - s[S_PLANET]))
        s[S_PLANET] += gained
        s[S_HEALED] += gained
        s[pl(seat, PL_HEALED)] += gained
    return True


@jit
def bonus_shot(s, p, w, rng, script, seat, sx, sy, scale, log):
    """One bonus shot at the UFO from (sx, sy) (lines 410, 419): aimed at the UFO's centre;
    it counts in the UFO only, unless P_BONUS_HITS (then invaders it lands on are hit too).
    Returns E_SCRIPT or OK."""
    s[pl(seat, PL_BONUS_SHOTS)] += 1
    if not land(s, p, w, rng, script, seat, ufo_center_x(p), ufo_center_y(p), sx, sy, scale):
        return E_SCRIPT
    result, mask = classify(s, p, w[W_LAND_X], w[W_LAND_Y])
    _log(w, log, KIND_BONUS, seat, 0, result, mask, s[S_ROUND])
    if result == IN_UFO:
        ufo_hit(s, p, seat, 0)
    elif result == ON_CARDS and p[P_BONUS_HITS] != 0.0:
        while mask:
            cell = lowest_bit(mask)
            mask &= mask - 1
            add_hit(s, cell, seat, False)
    return OK


# --- the turn ----------------------------------------------------------------------------


@jit
def begin_turn(s, seat):
    """Open `seat`'s turn (line 192)."""
    s[S_SEAT] = seat
    s[S_TOKENS] = 0
    s[S_TURN_LANDED] = 0
    s[S_TURNS] += 1
    s[S_PHASE] = PH_CHOOSE if tokens_left(s, seat) > 0 else PH_DONE


@jit_inline
def _check_aim(p, a):
    if not (math.isfinite(a[A_AIM_X]) and math.isfinite(a[A_AIM_Y])):
        return E_AIM
    if not math.isfinite(a[A_SHOOTER_X]):
        return E_AIM
    # the shooter stays below the board (line 202): anywhere along its width
    if a[A_SHOOTER_X] < 0.0 or a[A_SHOOTER_X] > p[P_BOARD_W]:
        return E_SHOOTER
    return OK


@jit
def _start_token(s, p, a, seat):
    """Take the chosen active token (any order, line 200) and open its record."""
    level = int(a[A_LEVEL])
    if level < 1 or level > LEVELS or s[pl(seat, PL_LEFT + level - 1)] <= 0:
        return E_NO_TOKEN
    err = _check_aim(p, a)
    if err != OK:
        return err
    power = power_of(s, p, seat, level)
    called = int(a[A_CALLED])
    if called >= 0 and (power != CALLED_SHOT or called >= N_CELLS or s[S_BOARD + called] == 0):
        return E_CALLED
    three = int(a[A_THREE]) == 1
    if three and power != UFO_THREE_TRIES:
        return E_THREE_TRIES
    t = s[S_TOKENS]
    s[S_TOKENS] = t + 1
    s[S_CUR] = t
    s[pl(seat, PL_LEFT + level - 1)] -= 1
    s[tk(t, TK_LEVEL)] = level
    s[tk(t, TK_POWER)] = power
    s[tk(t, TK_CALLED)] = called if called >= 0 else -1
    s[tk(t, TK_THREE)] = 1 if three else 0
    s[tk(t, TK_CELLS)] = 0
    s[tk(t, TK_RESULT)] = 0
    s[S_STREAK] = 0
    if power == RELAUNCH or power == UFO_RELAUNCH:
        s[S_TRIES] = 1
    elif three:
        s[S_TRIES] = 2  # up to 3 launches (line 435)
    else:
        s[S_TRIES] = 0
    return OK


@jit_inline
def _needs_choices(s):
    """Some token of the turn offers a resolution choice (redirect, extra, blast wave)."""
    for t in range(s[S_TOKENS]):
        power, result = s[tk(t, TK_POWER)], s[tk(t, TK_RESULT)]
        if result == ON_CARDS and (power == ADJACENT_INSTEAD or power == EXTRA_ADJACENT):
            return True
        if result == MISS and (power == SHORT_WAVE or power == LONG_WAVE):
            return True
    return False


@jit
def _finish_token(s, p, w, a, rng, script, seat, scale, log, result, mask):
    """The token's launches are over: record where it ended, go on with the turn."""
    t = s[S_CUR]
    s[tk(t, TK_RESULT)] = result
    s[tk(t, TK_CELLS)] = mask
    w[W_X + t], w[W_Y + t] = w[W_LAND_X], w[W_LAND_Y]
    s[S_TURN_LANDED] |= mask
    if result == ON_CARDS:
        s[pl(seat, PL_LANDED)] += 1
    elif result != IN_UFO:
        s[pl(seat, PL_MISSES)] += 1
    if tokens_left(s, seat) > 0:
        s[S_PHASE] = PH_CHOOSE
        return OK
    if _needs_choices(s):
        s[S_PHASE] = PH_RESOLVE
        return OK
    return resolve_turn(s, p, w, a, rng, script, seat, scale, log, False)


@jit
def _after_landing(s, p, w, a, rng, script, seat, scale, log):
    """Apply the rules that follow a landing: planet-area re-launch (line 206), the powers
    that launch again (lines 413, 417, 419, 435), or the end of the token's launches."""
    t = s[S_CUR]
    power = s[tk(t, TK_POWER)]
    result, mask = classify(s, p, w[W_LAND_X], w[W_LAND_Y])
    _log(w, log, KIND_LAUNCH, seat, s[tk(t, TK_LEVEL)], result, mask, s[S_ROUND])
    if result == IN_PLANET:
        if p[P_PLANET_RELAUNCH] == 0.0:
            result = MISS  # variant (line 467): it lies in the planet area, a miss
        else:
            s[S_STREAK] += 1
            if s[S_STREAK] < int(p[P_PLANET_STREAK]):
                s[pl(seat, PL_PLANET_RELAUNCHES)] += 1
                s[S_PHASE], s[S_REASON] = PH_REAIM, WHY_PLANET
                return OK
            return _finish_token(s, p, w, a, rng, script, seat, scale, log, OUT, 0)
    s[S_STREAK] = 0
    if s[tk(t, TK_THREE)] != 0:  # invaders landed on do not count (line 435)
        if result == IN_UFO and ufo_hit(s, p, seat, power):
            return _finish_token(s, p, w, a, rng, script, seat, scale, log, IN_UFO, 0)
        if s[S_TRIES] > 0:
            s[S_TRIES] -= 1
            s[pl(seat, PL_POWER_RELAUNCHES)] += 1
            s[S_PHASE], s[S_REASON] = PH_REAIM, WHY_THREE_TRIES
            return OK
        return _finish_token(s, p, w, a, rng, script, seat, scale, log, VOID, 0)
    if result == IN_UFO:
        attacked = ufo_hit(s, p, seat, power)
        if attacked and power == UFO_RELAUNCH and s[S_TRIES] > 0:  # line 413
            if p[P_UFO_CHAIN] == 0.0:
                s[S_TRIES] -= 1
            s[pl(seat, PL_POWER_RELAUNCHES)] += 1
            s[S_PHASE], s[S_REASON] = PH_REAIM, WHY_UFO_CHAIN
            return OK
        return _finish_token(s, p, w, a, rng, script, seat, scale, log, IN_UFO, 0)
    if power == RELAUNCH and s[S_TRIES] > 0:  # line 417: the player may re-launch
        s[tk(t, TK_RESULT)] = result
        s[tk(t, TK_CELLS)] = mask
        s[S_PHASE] = PH_RELAUNCH_Q
        return OK
    if power == UFO_FROM_LANDING and result == MISS:  # line 419
        x, y = w[W_LAND_X], w[W_LAND_Y]
        err = bonus_shot(s, p, w, rng, script, seat, x, y, scale, log)
        if err != OK:
            return err
        w[W_LAND_X], w[W_LAND_Y] = x, y  # the record keeps the token's own landing
        return _finish_token(s, p, w, a, rng, script, seat, scale, log, MISS, 0)
    return _finish_token(s, p, w, a, rng, script, seat, scale, log, result, mask)


@jit_inline
def _fly(s, p, w, a, rng, script, seat, scale, log):
    """Launch the token in flight at the action's aim from the action's shooter place."""
    if not land(
        s, p, w, rng, script, seat, a[A_AIM_X], a[A_AIM_Y], a[A_SHOOTER_X], p[P_SHOOTER_Y], scale
    ):
        return E_SCRIPT
    return _after_landing(s, p, w, a, rng, script, seat, scale, log)


@jit
def step(s, p, w, a, rng, script, scale, log):
    """Apply the action for the current phase of the turn and play on to the next decision.
    `scale` is the seat's dexterity factor; `log` a float64[k, LOG_SIZE] launch log (k = 0 for
    none). Returns OK or the refusal (layout.ERROR_NAMES)."""
    if s[S_STATUS] != RUNNING:
        return E_GAME_OVER
    seat = s[S_SEAT]
    phase = s[S_PHASE]
    if phase == PH_CHOOSE:
        err = _start_token(s, p, a, seat)
        if err != OK:
            return err
        return _fly(s, p, w, a, rng, script, seat, scale, log)
    if phase == PH_REAIM:
        err = _check_aim(p, a)
        if err != OK:
            return err
        return _fly(s, p, w, a, rng, script, seat, scale, log)
    if phase == PH_RELAUNCH_Q:
        t = s[S_CUR]
        if int(a[A_YES]) == 1:  # any invader landed on before no longer counts (line 417)
            s[S_TRIES] -= 1
            s[pl(seat, PL_POWER_RELAUNCHES)] += 1
            s[S_PHASE], s[S_REASON] = PH_REAIM, WHY_RELAUNCH
            return OK
        result, mask = s[tk(t, TK_RESULT)], s[tk(t, TK_CELLS)]
        return _finish_token(s, p, w, a, rng, script, seat, scale, log, result, mask)
    if phase == PH_RESOLVE:
        return resolve_turn(s, p, w, a, rng, script, seat, scale, log, True)
    return E_PHASE


# --- resolution --------------------------------------------------------------------------


@jit
def _redirected(s, a, t, mask):
    """Cells the hits of token t go to with the adjacent-instead power (line 412): each card
    landed on may send its hit to one of its own neighbours (FAQ, line 462). -1 if illegal."""
    targets = 0
    k = 0
    while mask:
        cell = lowest_bit(mask)
        mask &= mask - 1
        choice = int(a[A_RES + t * RES_SIZE + RES_REDIRECT + k]) if k < 4 else -1
        k += 1
        if choice < 0 or choice == cell:
            targets |= 1 << cell
        elif choice < N_CELLS and adjacent(cell, choice) and s[S_BOARD + choice] != 0:
            targets |= 1 << choice
        else:
            return -1
    return targets


@jit_inline
def _extra_ok(s, mask, cell):
    """The extra invader is next to one of the cards landed on (line 436)."""
    if cell >= N_CELLS or s[S_BOARD + cell] == 0 or (mask >> cell) & 1:
        return False
    m = mask
    while m:
        if (neighbours_mask(lowest_bit(m)) >> cell) & 1:
            return True
        m &= m - 1
    return False


@jit
def _token_hits(s, p, w, a, t, seat, choices):
    """Add token t's hits to the cards; returns OK or the refusal of a bad choice."""
    power, result, mask = s[tk(t, TK_POWER)], s[tk(t, TK_RESULT)], s[tk(t, TK_CELLS)]
    base = A_RES + t * RES_SIZE
    if result == ON_CARDS:
        targets = mask
        if choices and power == ADJACENT_INSTEAD:
            targets = _redirected(s, a, t, mask)
            if targets < 0:
                return E_REDIRECT
            if targets != mask:
                s[pl(seat, PL_REDIRECTS)] += 1
        if choices and power == EXTRA_ADJACENT and int(a[base + RES_EXTRA]) >= 0:
            extra = int(a[base + RES_EXTRA])
            if not _extra_ok(s, mask, extra):
                return E_EXTRA
            targets |= 1 << extra
            s[pl(seat, PL_EXTRAS)] += 1
        while targets:
            cell = lowest_bit(targets)
            targets &= targets - 1
            add_hit(s, cell, seat, power == PIERCE)
    elif result == MISS and choices and (power == SHORT_WAVE or power == LONG_WAVE):
        cell = int(a[base + RES_WAVE])
        if cell >= 0:
            if cell >= N_CELLS or s[S_BOARD + cell] == 0:
                return E_WAVE
            if not wave_reaches(p, cell, w[W_X + t], w[W_Y + t], wave_length(p, power)):
                return E_WAVE
            add_hit(s, cell, seat, power == LONG_WAVE and p[P_LONG_DESTROYS] != 0.0)
            s[pl(seat, PL_WAVES)] += 1
    return OK


@jit
def resolve_turn(s, p, w, a, rng, script, seat, scale, log, choices):
    """Resolve the turn's attacks (lines 212-230): hits, destruction, called-shot bonus shots
    at the end of the turn (line 410); the round ends at once when the last invader falls
    with the deck empty (line 322)."""
    for t in range(s[S_TOKENS]):
        err = _token_hits(s, p, w, a, t, seat, choices)
        if err != OK:
            return err
    killed = destroy_all(s, p, seat)
    bonus = False
    for t in range(s[S_TOKENS]):
        called = s[tk(t, TK_CALLED)]
        if s[tk(t, TK_POWER)] != CALLED_SHOT or called < 0:
            continue
        if p[P_CALLED_DESTROYED] != 0.0:
            success = (killed >> called) & 1
        else:  # landing on it is a successful attack (line 222)
            success = s[tk(t, TK_RESULT)] == ON_CARDS and (s[tk(t, TK_CELLS)] >> called) & 1
        if success:
            err = bonus_shot(
                s, p, w, rng, script, seat, ufo_center_x(p), p[P_SHOOTER_Y], scale, log
            )
            if err != OK:
                return err
            bonus = True
    if bonus and p[P_BONUS_HITS] != 0.0:
        destroy_all(s, p, seat)
    if invaders_on_board(s) == 0 and s[S_DECK_TOP] >= s[S_DECK_LEN]:
        s[S_ROUND_OVER] = 1
    s[S_PHASE] = PH_DONE
    return OK
