"""A player's turn (lines 186-232) as a state machine of decisions.

`begin_turn` opens the turn; the caller then repeatedly reads `s[S_PHASE]`, asks the seat's
strategy to fill the action array for that phase, and calls `step`, until the phase is
PH_DONE. Launches, re-launches and bonus shots land where `dexterity.sample_landing` says
(or, for scenarios, where the script says); the turn ends with the resolution.
"""

import math

from sim.games.space_invaders import layout as L
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
from sim.games.space_invaders.resolve import add_hit, destroy_all
from sim.jit import jit, jit_inline

# --- small queries ------------------------------------------------------------------------


@jit_inline
def pl(seat, field):
    """Index of a seat's field in the state."""
    return L.S_PLAYERS + seat * L.PL_SIZE + field


@jit_inline
def tk(t, field):
    """Index of a field of this turn's token record t."""
    return L.S_TK + t * L.TK_SIZE + field


@jit_inline
def power_of(s, p, seat, level):
    """The power a token of `level` has: its player card's (line 400), or none when the
    ruleset plays that power as a plain token (powers.plain)."""
    power = s[pl(seat, L.PL_POWER + level - 1)]
    if power == int(p[L.P_PLAIN_POWER]):
        return 0
    return power


@jit_inline
def tokens_left(s, seat):
    return s[pl(seat, L.PL_LEFT)] + s[pl(seat, L.PL_LEFT + 1)] + s[pl(seat, L.PL_LEFT + 2)]


@jit_inline
def invaders_on_board(s):
    count = 0
    for cell in range(L.N_CELLS):
        if s[L.S_BOARD + cell] != 0:
            count += 1
    return count


@jit_inline
def wave_length(p, power):
    return p[L.P_WAVE_SHORT] if power == L.SHORT_WAVE else p[L.P_WAVE_LONG]


# --- landing -------------------------------------------------------------------------------


@jit_inline
def _log(w, log, kind, seat, level, result, cells, rnd):
    n = int(w[L.W_LOG_N])
    if n >= log.shape[0]:
        return
    row = log[n]
    row[L.LOG_KIND], row[L.LOG_SEAT], row[L.LOG_LEVEL] = kind, seat, level
    row[L.LOG_AIM_X], row[L.LOG_AIM_Y] = w[L.W_AIM_X], w[L.W_AIM_Y]
    row[L.LOG_SHOOTER_X], row[L.LOG_SHOOTER_Y] = w[L.W_SHOOTER_X], w[L.W_SHOOTER_Y]
    row[L.LOG_X], row[L.LOG_Y] = w[L.W_LAND_X], w[L.W_LAND_Y]
    row[L.LOG_RESULT], row[L.LOG_CELLS], row[L.LOG_ROUND] = result, cells, rnd
    w[L.W_LOG_N] = n + 1


@jit_inline
def land(s, p, w, rng, script, seat, ax, ay, sx, sy, scale):
    """Launch once from (sx, sy) at (ax, ay): the landing point goes to w[W_LAND_X/Y].
    Returns False when a scenario's script has no landing left."""
    w[L.W_AIM_X], w[L.W_AIM_Y], w[L.W_SHOOTER_X], w[L.W_SHOOTER_Y] = ax, ay, sx, sy
    if p[L.P_SCRIPTED] != 0.0:
        k = s[L.S_SCRIPT_POS]
        if k >= script.shape[0]:
            return False
        w[L.W_LAND_X], w[L.W_LAND_Y] = script[k, 0], script[k, 1]
        s[L.S_SCRIPT_POS] = k + 1
    else:
        x, y = sample_landing(p, rng, 1 + seat, ax, ay, sx, sy, scale)
        w[L.W_LAND_X], w[L.W_LAND_Y] = x, y
    s[L.S_LAUNCHES] += 1
    s[pl(seat, L.PL_LAUNCHES)] += 1
    return True


@jit_inline
def ufo_attackable(s, p):
    """Whether a token landing in the UFO now attacks it (line 332): always while it has
    health; a destroyed one only under P_DEAD_UFO_HITS (ruling, lines 335 and 368)."""
    return s[L.S_UFO] > 0 or p[L.P_DEAD_UFO_HITS] != 0.0


@jit_inline
def heal_gain(s, p):
    """Planet health a UFO attack with the level-3 heal power restores now (line 434):
    HEAL_POINTS, not above the track's top or, under P_HEAL_TO_START, the starting health."""
    top = p[L.P_PLANET_START] if p[L.P_HEAL_TO_START] != 0.0 else L.TRACK_MAX
    return min(L.HEAL_POINTS, max(0, int(top) - s[L.S_PLANET]))


@jit_inline
def ufo_hit(s, p, seat):
    """A token landed in the UFO (line 332); returns whether it counts as attacking it
    (ufo_attackable; further hits on a destroyed UFO never score, line 368)."""
    if not ufo_attackable(s, p):
        return False
    if s[L.S_UFO] > 0:
        s[L.S_UFO] -= 1
        s[L.S_UFO_HITS] += 1
    s[pl(seat, L.PL_UFO_HITS)] += 1
    return True


@jit_inline
def heal(s, p, seat):
    """The level-3 heal power, taken after a UFO attack: heal_gain health back (line 434)."""
    gained = heal_gain(s, p)
    s[L.S_PLANET] += gained
    s[L.S_HEALED] += gained
    s[pl(seat, L.PL_HEALED)] += gained


@jit
def bonus_shot(s, p, w, rng, script, seat, sx, sy, scale, log):
    """One bonus shot at the UFO from (sx, sy) (lines 410, 419): aimed at the UFO's centre;
    it counts in the UFO only, unless P_BONUS_HITS (then invaders it lands on are hit too).
    Returns E_SCRIPT or OK."""
    s[pl(seat, L.PL_BONUS_SHOTS)] += 1
    if not land(s, p, w, rng, script, seat, ufo_center_x(p), ufo_center_y(p), sx, sy, scale):
        return L.E_SCRIPT
    result, mask = classify(s, p, w[L.W_LAND_X], w[L.W_LAND_Y])
    _log(w, log, L.KIND_BONUS, seat, 0, result, mask, s[L.S_ROUND])
    if result == L.IN_UFO:
        ufo_hit(s, p, seat)
    elif result == L.ON_CARDS and p[L.P_BONUS_HITS] != 0.0:
        while mask:
            cell = lowest_bit(mask)
            mask &= mask - 1
            add_hit(s, cell, seat, False)
    return L.OK


# --- the turn ----------------------------------------------------------------------------


@jit
def begin_turn(s, seat):
    """Open `seat`'s turn (line 192)."""
    s[L.S_SEAT] = seat
    s[L.S_TOKENS] = 0
    s[L.S_TURN_LANDED] = 0
    s[L.S_TURNS] += 1
    s[L.S_PHASE] = L.PH_CHOOSE if tokens_left(s, seat) > 0 else L.PH_DONE


@jit_inline
def _check_aim(p, a):
    if not (math.isfinite(a[L.A_AIM_X]) and math.isfinite(a[L.A_AIM_Y])):
        return L.E_AIM
    if not math.isfinite(a[L.A_SHOOTER_X]):
        return L.E_AIM
    # the shooter stays below the board (line 202): anywhere along its width
    if a[L.A_SHOOTER_X] < 0.0 or a[L.A_SHOOTER_X] > p[L.P_BOARD_W]:
        return L.E_SHOOTER
    return L.OK


@jit
def _start_token(s, p, a, seat):
    """Take the chosen active token (any order, line 200) and open its record."""
    level = int(a[L.A_LEVEL])
    if level == 0:  # every active token is launched before the turn ends (line 192)
        return L.E_UNLAUNCHED
    if level < 1 or level > L.LEVELS or s[pl(seat, L.PL_LEFT + level - 1)] <= 0:
        return L.E_NO_TOKEN
    err = _check_aim(p, a)
    if err != L.OK:
        return err
    power = power_of(s, p, seat, level)
    called = int(a[L.A_CALLED])
    if called >= 0 and (
        power != L.CALLED_SHOT or called >= L.N_CELLS or s[L.S_BOARD + called] == 0
    ):
        return L.E_CALLED
    three = int(a[L.A_THREE]) == 1
    if three and power != L.UFO_THREE_TRIES:
        return L.E_THREE_TRIES
    t = s[L.S_TOKENS]
    s[L.S_TOKENS] = t + 1
    s[L.S_CUR] = t
    s[pl(seat, L.PL_LEFT + level - 1)] -= 1
    s[tk(t, L.TK_LEVEL)] = level
    s[tk(t, L.TK_POWER)] = power
    s[tk(t, L.TK_CALLED)] = called if called >= 0 else -1
    s[tk(t, L.TK_THREE)] = 1 if three else 0
    s[tk(t, L.TK_CELLS)] = 0
    s[tk(t, L.TK_RESULT)] = 0
    s[L.S_STREAK] = 0
    if power == L.RELAUNCH or power == L.UFO_RELAUNCH:
        s[L.S_TRIES] = 1
    elif three:
        s[L.S_TRIES] = L.UFO_TRIES - 1  # the first launch and the tries left (line 435)
    else:
        s[L.S_TRIES] = 0
    return L.OK


@jit_inline
def _needs_choices(s):
    """Some token of the turn offers a resolution choice (redirect, extra, blast wave)."""
    for t in range(s[L.S_TOKENS]):
        power, result = s[tk(t, L.TK_POWER)], s[tk(t, L.TK_RESULT)]
        if result == L.ON_CARDS and (power == L.ADJACENT_INSTEAD or power == L.EXTRA_ADJACENT):
            return True
        if result == L.MISS and (power == L.SHORT_WAVE or power == L.LONG_WAVE):
            return True
    return False


@jit
def _finish_token(s, p, w, a, rng, script, seat, scale, log, result, mask):
    """The token's launches are over: record where it ended, go on with the turn."""
    t = s[L.S_CUR]
    s[tk(t, L.TK_RESULT)] = result
    s[tk(t, L.TK_CELLS)] = mask
    w[L.W_X + t], w[L.W_Y + t] = w[L.W_LAND_X], w[L.W_LAND_Y]
    s[L.S_TURN_LANDED] |= mask
    if result == L.ON_CARDS:
        s[pl(seat, L.PL_LANDED)] += 1
    elif result != L.IN_UFO:
        s[pl(seat, L.PL_MISSES)] += 1
    if tokens_left(s, seat) > 0:
        s[L.S_PHASE] = L.PH_CHOOSE
        return L.OK
    if _needs_choices(s):
        s[L.S_PHASE] = L.PH_RESOLVE
        return L.OK
    return resolve_turn(s, p, w, a, rng, script, seat, scale, log, False)


@jit_inline
def _launch_again(s, seat, counter, why):
    """The token in flight is aimed and launched again (PH_REAIM, for reason `why`); the
    seat's `counter` (PL_*) counts it."""
    s[pl(seat, counter)] += 1
    s[L.S_PHASE], s[L.S_REASON] = L.PH_REAIM, why
    return L.OK


@jit_inline
def _offer(s, option):
    """Ask the seat whether it takes an optional action (PH_OPTION) about the token in flight."""
    s[L.S_PHASE], s[L.S_OPTION] = L.PH_OPTION, option
    return L.OK


@jit
def _after_landing(s, p, w, a, rng, script, seat, scale, log):
    """Apply the rules that follow a landing: a token completely in the planet area may be
    launched again, until its third such landing in a row sets it aside (line 206); else
    `_landed`."""
    t = s[L.S_CUR]
    result, mask = classify(s, p, w[L.W_LAND_X], w[L.W_LAND_Y])
    _log(w, log, L.KIND_LAUNCH, seat, s[tk(t, L.TK_LEVEL)], result, mask, s[L.S_ROUND])
    if result != L.IN_PLANET:
        s[L.S_STREAK] = 0
        return _landed(s, p, w, a, rng, script, seat, scale, log, result, mask)
    if p[L.P_PLANET_RELAUNCH] == 0.0:  # variant (line 467): it lies in the planet area, a miss
        return _landed(s, p, w, a, rng, script, seat, scale, log, L.MISS, 0)
    s[L.S_STREAK] += 1
    if s[L.S_STREAK] < int(p[L.P_PLANET_STREAK]):
        return _offer(s, L.OPT_PLANET_RELAUNCH)
    return _finish_token(s, p, w, a, rng, script, seat, scale, log, L.OUT, 0)


@jit
def _landed(s, p, w, a, rng, script, seat, scale, log, result, mask):
    """Where the token lies is settled (a token left in the planet area lies there as a miss,
    with whatever its power allows from there): the powers that act on a landing (lines 413,
    417, 419, 434, 435), or the end of the token's launches."""
    t = s[L.S_CUR]
    power = s[tk(t, L.TK_POWER)]
    if s[tk(t, L.TK_THREE)] != 0:  # invaders landed on do not count (line 435)
        if result == L.IN_UFO and ufo_hit(s, p, seat):
            return _finish_token(s, p, w, a, rng, script, seat, scale, log, L.IN_UFO, 0)
        if s[L.S_TRIES] > 0:
            s[L.S_TRIES] -= 1
            return _launch_again(s, seat, L.PL_POWER_RELAUNCHES, L.WHY_THREE_TRIES)
        return _finish_token(s, p, w, a, rng, script, seat, scale, log, L.VOID, 0)
    if result == L.IN_UFO:
        if ufo_hit(s, p, seat):
            if power == L.HEAL and heal_gain(s, p) > 0:  # line 434: "you may"
                return _offer(s, L.OPT_HEAL)
            if power == L.UFO_RELAUNCH and s[L.S_TRIES] > 0:  # line 413: "you can"
                return _offer(s, L.OPT_UFO_RELAUNCH)
        return _finish_token(s, p, w, a, rng, script, seat, scale, log, L.IN_UFO, 0)
    if power == L.RELAUNCH and s[L.S_TRIES] > 0:  # line 417: the player may re-launch
        s[tk(t, L.TK_RESULT)] = result
        s[tk(t, L.TK_CELLS)] = mask
        s[L.S_PHASE] = L.PH_RELAUNCH_Q
        return L.OK
    if power == L.UFO_FROM_LANDING and result == L.MISS:  # line 419: "you can take"
        return _offer(s, L.OPT_BONUS_SHOT)
    return _finish_token(s, p, w, a, rng, script, seat, scale, log, result, mask)


@jit
def _answer_option(s, p, w, a, rng, script, seat, scale, log):
    """The seat's answer to PH_OPTION: take the optional action (a[A_TAKE] != 0) or not."""
    t, option = s[L.S_CUR], s[L.S_OPTION]
    take = a[L.A_TAKE] != 0.0
    if not take:
        field = L.PL_PLANET_STAYS if option == L.OPT_PLANET_RELAUNCH else L.PL_DECLINED
        s[pl(seat, field)] += 1
    if option == L.OPT_PLANET_RELAUNCH:
        if take:
            return _launch_again(s, seat, L.PL_PLANET_RELAUNCHES, L.WHY_PLANET)
        return _landed(s, p, w, a, rng, script, seat, scale, log, L.MISS, 0)
    if option == L.OPT_UFO_RELAUNCH:
        if take:
            if p[L.P_UFO_CHAIN] == 0.0:
                s[L.S_TRIES] -= 1
            return _launch_again(s, seat, L.PL_POWER_RELAUNCHES, L.WHY_UFO_CHAIN)
        return _finish_token(s, p, w, a, rng, script, seat, scale, log, L.IN_UFO, 0)
    if option == L.OPT_HEAL:
        if take:
            heal(s, p, seat)
        return _finish_token(s, p, w, a, rng, script, seat, scale, log, L.IN_UFO, 0)
    if s[tk(t, L.TK_POWER)] == L.CALLED_SHOT:  # at the end of the turn (line 410)
        if take:
            x = ufo_center_x(p)
            err = bonus_shot(s, p, w, rng, script, seat, x, p[L.P_SHOOTER_Y], scale, log)
            if err != L.OK:
                return err
            s[L.S_BONUS_TAKEN] = 1
        return _called_bonuses(s, p, w, a, rng, script, seat, scale, log, t + 1)
    if take:  # from where the token lies (line 419)
        x, y = w[L.W_LAND_X], w[L.W_LAND_Y]
        err = bonus_shot(s, p, w, rng, script, seat, x, y, scale, log)
        if err != L.OK:
            return err
        w[L.W_LAND_X], w[L.W_LAND_Y] = x, y  # the record keeps the token's own landing
    return _finish_token(s, p, w, a, rng, script, seat, scale, log, L.MISS, 0)


@jit_inline
def _fly(s, p, w, a, rng, script, seat, scale, log):
    """Launch the token in flight at the action's aim from the action's shooter place."""
    if not land(
        s,
        p,
        w,
        rng,
        script,
        seat,
        a[L.A_AIM_X],
        a[L.A_AIM_Y],
        a[L.A_SHOOTER_X],
        p[L.P_SHOOTER_Y],
        scale,
    ):
        return L.E_SCRIPT
    return _after_landing(s, p, w, a, rng, script, seat, scale, log)


@jit
def step(s, p, w, a, rng, script, scale, log):
    """Apply the action for the current phase of the turn and play on to the next decision.
    `scale` is the seat's dexterity factor; `log` a float64[k, LOG_SIZE] launch log (k = 0 for
    none). Returns OK or the refusal (layout.ERROR_NAMES)."""
    if s[L.S_STATUS] != L.RUNNING:
        return L.E_GAME_OVER
    seat = s[L.S_SEAT]
    phase = s[L.S_PHASE]
    if phase == L.PH_CHOOSE:
        err = _start_token(s, p, a, seat)
        if err != L.OK:
            return err
        return _fly(s, p, w, a, rng, script, seat, scale, log)
    if phase == L.PH_REAIM:
        err = _check_aim(p, a)
        if err != L.OK:
            return err
        return _fly(s, p, w, a, rng, script, seat, scale, log)
    if phase == L.PH_RELAUNCH_Q:
        t = s[L.S_CUR]
        if int(a[L.A_YES]) == 1:  # any invader landed on before no longer counts (line 417)
            s[L.S_TRIES] -= 1
            return _launch_again(s, seat, L.PL_POWER_RELAUNCHES, L.WHY_RELAUNCH)
        result, mask = s[tk(t, L.TK_RESULT)], s[tk(t, L.TK_CELLS)]
        return _finish_token(s, p, w, a, rng, script, seat, scale, log, result, mask)
    if phase == L.PH_OPTION:
        return _answer_option(s, p, w, a, rng, script, seat, scale, log)
    if phase == L.PH_RESOLVE:
        return resolve_turn(s, p, w, a, rng, script, seat, scale, log, True)
    return L.E_PHASE


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
        choice = int(a[L.A_RES + t * L.RES_SIZE + L.RES_REDIRECT + k]) if k < 4 else -1
        k += 1
        if choice < 0 or choice == cell:
            targets |= 1 << cell
        elif choice < L.N_CELLS and adjacent(cell, choice) and s[L.S_BOARD + choice] != 0:
            targets |= 1 << choice
        else:
            return -1
    return targets


@jit_inline
def extra_cells(s, mask):
    """The invaders a token that landed on the cards in `mask` may take as its extra hit (line
    436: "one adjacent Invader ... adjacent to any of the Invaders that you landed on, either
    vertically or horizontally"), as a cell mask."""
    around = 0
    m = mask
    while m:
        around |= neighbours_mask(lowest_bit(m))
        m &= m - 1
    cells = 0
    around &= ~mask
    while around:
        cell = lowest_bit(around)
        around &= around - 1
        if s[L.S_BOARD + cell] != 0:
            cells |= 1 << cell
    return cells


@jit_inline
def _extra_ok(s, p, mask, cell):
    """The extra hit chosen (or left out) as line 436 allows: an invader next to one of the
    cards landed on; none only where there is none, or where `powers.extra_hit: may`."""
    if cell < 0:
        return p[L.P_EXTRA_MAY] != 0.0 or extra_cells(s, mask) == 0
    return cell < L.N_CELLS and (extra_cells(s, mask) >> cell) & 1 == 1


# what a token's resolution choices did (bits of _token_targets' third value)
REDIRECTED, WITH_EXTRA, BY_WAVE = 1, 2, 4


@jit
def _token_targets(s, p, w, a, t, choices):
    """(refusal or OK, the cells token t hits, how: REDIRECTED | WITH_EXTRA or BY_WAVE) with
    the turn's resolution choices; changes nothing, so a refused resolution can be answered
    again."""
    power, result, mask = s[tk(t, L.TK_POWER)], s[tk(t, L.TK_RESULT)], s[tk(t, L.TK_CELLS)]
    base = L.A_RES + t * L.RES_SIZE
    if result == L.ON_CARDS:
        targets, kind = mask, 0
        if choices and power == L.ADJACENT_INSTEAD:
            targets = _redirected(s, a, t, mask)
            if targets < 0:
                return L.E_REDIRECT, 0, 0
            kind = REDIRECTED if targets != mask else 0
        if choices and power == L.EXTRA_ADJACENT:
            extra = int(a[base + L.RES_EXTRA])
            if not _extra_ok(s, p, mask, extra):
                return L.E_EXTRA, 0, 0
            if extra >= 0:
                targets |= 1 << extra
                kind |= WITH_EXTRA
        return L.OK, targets, kind
    if result == L.MISS and choices and (power == L.SHORT_WAVE or power == L.LONG_WAVE):
        cell = int(a[base + L.RES_WAVE])
        if cell < 0:
            return L.OK, 0, 0
        if cell >= L.N_CELLS or s[L.S_BOARD + cell] == 0:
            return L.E_WAVE, 0, 0
        if not wave_reaches(p, cell, w[L.W_X + t], w[L.W_Y + t], wave_length(p, power)):
            return L.E_WAVE, 0, 0
        return L.OK, 1 << cell, BY_WAVE
    return L.OK, 0, 0


@jit
def _token_hits(s, p, w, a, t, seat, choices):
    """Add token t's hits to the cards (its choices already checked by _token_targets)."""
    power = s[tk(t, L.TK_POWER)]
    _, targets, kind = _token_targets(s, p, w, a, t, choices)
    if kind & BY_WAVE:
        s[pl(seat, L.PL_WAVES)] += 1
        pierce = power == L.LONG_WAVE and p[L.P_LONG_DESTROYS] != 0.0
    else:
        if kind & REDIRECTED:
            s[pl(seat, L.PL_REDIRECTS)] += 1
        if kind & WITH_EXTRA:
            s[pl(seat, L.PL_EXTRAS)] += 1
        pierce = power == L.PIERCE
    while targets:
        cell = lowest_bit(targets)
        targets &= targets - 1
        add_hit(s, cell, seat, pierce)


@jit
def resolve_turn(s, p, w, a, rng, script, seat, scale, log, choices):
    """Resolve the turn's attacks (lines 212-230): every choice is checked first (a refusal
    changes nothing), then the hits and the destruction; then the called shots that succeeded
    offer their bonus shots (line 410: "at the end of your turn you may")."""
    for t in range(s[L.S_TOKENS]):
        err, _, _ = _token_targets(s, p, w, a, t, choices)
        if err != L.OK:
            return err
    for t in range(s[L.S_TOKENS]):
        _token_hits(s, p, w, a, t, seat, choices)
    s[L.S_KILLED] = destroy_all(s, p, seat)
    s[L.S_BONUS_TAKEN] = 0
    return _called_bonuses(s, p, w, a, rng, script, seat, scale, log, 0)


@jit_inline
def _called_success(s, p, t):
    """Whether record t is a called shot that attacked its called invader: landed on it (line
    222 defines a successful attack), or destroyed it under P_CALLED_DESTROYED."""
    called = s[tk(t, L.TK_CALLED)]
    if s[tk(t, L.TK_POWER)] != L.CALLED_SHOT or called < 0:
        return False
    if p[L.P_CALLED_DESTROYED] != 0.0:
        return (s[L.S_KILLED] >> called) & 1 == 1
    return s[tk(t, L.TK_RESULT)] == L.ON_CARDS and (s[tk(t, L.TK_CELLS)] >> called) & 1 == 1


@jit
def _called_bonuses(s, p, w, a, rng, script, seat, scale, log, start):
    """Offer the bonus shot of each successful called shot from record `start` on, then end
    the turn: the bonus shots' hits (P_BONUS_HITS) are resolved, and the round ends at once
    when the last invader fell with the deck empty (line 322)."""
    for t in range(start, s[L.S_TOKENS]):
        if _called_success(s, p, t):
            s[L.S_CUR] = t
            return _offer(s, L.OPT_BONUS_SHOT)
    if s[L.S_BONUS_TAKEN] != 0 and p[L.P_BONUS_HITS] != 0.0:
        destroy_all(s, p, seat)
    if invaders_on_board(s) == 0 and s[L.S_DECK_TOP] >= s[L.S_DECK_LEN]:
        s[L.S_ROUND_OVER] = 1
    s[L.S_PHASE] = L.PH_DONE
    return L.OK
