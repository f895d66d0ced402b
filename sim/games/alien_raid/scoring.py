"""The end of the game: the Alliance's tasks (rulebook lines 162-178), credits repaid (line
184) and the winner (lines 196-198)."""

from numpy import int64 as I64

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import task_counts_city
from sim.games.alien_raid.state import emit, pl, touched
from sim.jit import jit


@jit
def task_count(s, p, seat, task):
    """City cards of the seat that count for the task (one card counts for every task)."""
    n = 0
    for i in range(s[pl(seat, L.PL_N_WON)]):
        if task_counts_city(p, task, s[pl(seat, L.PL_WON + i)]):
            n += 1
    return n


@jit
def round_down(p, humans):
    step = p[L.P_ROUND_TO]
    return (humans // step) * step


@jit
def score_task(s, p, task, log):
    """200,000 to the most cities, 100,000 to the second (line 172); tied first places share
    both rewards (line 174: "divided in half", read as divided evenly; tasks.first_tie
    half_each gives each half); tied second places share the second reward (line 176).
    Without tasks.zero_counts a captain needs one city of the task to place."""
    n = s[L.S_N_PLAYERS]
    best, second = -1, -1
    for seat in range(n):
        c = task_count(s, p, seat, task)
        if c > 0 or p[L.P_TASK_ZERO_COUNTS]:
            best = max(best, c)
    for seat in range(n):
        c = task_count(s, p, seat, task)
        if (c > 0 or p[L.P_TASK_ZERO_COUNTS]) and c < best:
            second = max(second, c)
    if best < 0:
        return
    n_best, n_second = 0, 0
    for seat in range(n):
        c = task_count(s, p, seat, task)
        n_best += c == best
        n_second += c == second
    if n_best >= 2:
        pool = p[L.P_TASK_FIRST] + p[L.P_TASK_SECOND]
        share = round_down(p, pool // 2 if p[L.P_TASK_HALF_EACH] else pool // n_best)
        _pay_place(s, p, task, I64(best), I64(share), I64(1), log)
        return
    _pay_place(s, p, task, I64(best), I64(p[L.P_TASK_FIRST]), I64(1), log)
    if second >= 0:
        humans = round_down(p, p[L.P_TASK_SECOND] // n_second)
        _pay_place(s, p, task, I64(second), I64(humans), I64(2), log)


@jit
def _pay_place(s, p, task, count, humans, place, log):
    """`humans` to every captain with `count` cities of the task, who take place 1 or 2
    (score_task passes every figure as int64: numba compiles a function once per mix of
    argument types, a literal 1 or 2 one of its own)."""
    for seat in range(s[L.S_N_PLAYERS]):
        if task_count(s, p, seat, task) == count:
            touched(s, seat)
            s[pl(seat, L.PL_HUMANS)] += humans
            s[pl(seat, L.PL_TASK_HUMANS)] += humans
            s[pl(seat, L.PL_TASKS_FIRST if place == 1 else L.PL_TASKS_SECOND)] += 1
            emit(log, s, L.EV_TASK, seat, -1, task, humans, place, count)


@jit
def end_game(s, p, log):
    """Tasks, then every credit still open is repaid (line 184), then the final humans."""
    for seat in range(s[L.S_N_PLAYERS]):
        s[pl(seat, L.PL_HUMANS_PLAY)] = s[pl(seat, L.PL_HUMANS)]
    for t in range(s[L.S_N_TASKS]):
        score_task(s, p, s[L.S_TASKS + t], log)
    for seat in range(s[L.S_N_PLAYERS]):
        owed = s[pl(seat, L.PL_CREDITS)] * p[L.P_CREDIT_REPAY]
        if owed > 0:
            touched(s, seat)
            s[pl(seat, L.PL_HUMANS)] -= owed
            s[pl(seat, L.PL_REPAID)] += owed
            s[pl(seat, L.PL_CREDITS)] = 0
            emit(log, s, L.EV_REPAY, seat, -1, owed, 0, 0, 0)
        emit(log, s, L.EV_END, seat, -1, s[pl(seat, L.PL_HUMANS)], 0, 0, 0)
    s[L.S_STATUS] = L.OVER


@jit
def winners_mask(s, p):
    """The captains with the most humans (line 198); equal humans share the win, or with
    end.tie most_cities the one with more city cards wins among them."""
    n = s[L.S_N_PLAYERS]
    best = s[pl(0, L.PL_HUMANS)]
    for seat in range(1, n):
        best = max(best, s[pl(seat, L.PL_HUMANS)])
    mask, most = 0, -1
    for seat in range(n):
        if s[pl(seat, L.PL_HUMANS)] == best:
            mask |= 1 << seat
            most = max(most, s[pl(seat, L.PL_N_WON)])
    if p[L.P_TIE_MOST_CITIES]:
        for seat in range(L.MAX_PLAYERS):
            if (mask >> seat) & 1 and s[pl(seat, L.PL_N_WON)] < most:
                mask &= ~(1 << seat)
    return mask
