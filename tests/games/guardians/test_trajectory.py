"""The trajectory columns and the turns without a choice, as the compiled loop stores them,
against the same games replayed in the Python loop turn by turn: the scores after each round
summed up the obvious way (tests/trajectory_reference.py), and each turn's ways to play found
by trying every action and counting the different positions they lead to."""

import numpy as np
import pytest

from sim.games.guardians import engine
from sim.games.guardians import layout as L
from sim.games.guardians.chunks import Plan
from sim.games.guardians.decision import reset_action
from sim.games.guardians.moves import destinations
from sim.games.guardians.python_loop import play_one_in_python
from sim.plugins import get_game
from sim.plugins.base import StrategySpec
from tests.trajectory_reference import assert_matches, summary

GAME = get_game("guardians")
LINEUP = [StrategySpec("club"), StrategySpec("greedy"), StrategySpec("random"),
          StrategySpec("miner")]  # fmt: skip
SEATING = np.array([[0, 1, 2, 1]] * 6 + [[3, 1, 3, 2]] * 6)
SEEDS = np.arange(40, 52)


def _candidates(s, p):
    """Every action worth trying for the seat to move (each a fresh array)."""
    seat = s[L.S_TO_MOVE]
    a = np.zeros(L.ACTION_SIZE, np.int32)
    status = s[L.S_PLAYERS + seat * L.PL_SIZE + L.PL_STATUS]
    if status == L.DESTROYED:
        for col in range(-1, p[L.P_COLS]):
            reset_action(s, seat, a)
            a[L.A_REENTER_COL] = col
            yield a.copy()
        return
    c0 = s[L.S_PLAYERS + seat * L.PL_SIZE + L.PL_COL]
    r0 = s[L.S_PLAYERS + seat * L.PL_SIZE + L.PL_ROW]
    cells = np.zeros(2 * p[L.P_COLS] * p[L.P_ROWS], np.int64)
    for i in range(destinations(s, p, c0, r0, cells)):
        c, r = cells[2 * i], cells[2 * i + 1]
        for extra in ("plain", "missile", "power_up", *range(-1, p[L.P_ROWS])):
            reset_action(s, seat, a)
            a[L.A_DEST_COL], a[L.A_DEST_ROW] = c, r
            if extra == "missile":
                a[L.A_MISSILE] = 1
            elif extra == "power_up":
                a[L.A_PU_COL], a[L.A_PU_ROW] = c, r
            elif extra != "plain":
                a[L.A_MINE], a[L.A_MINE_ROW] = 1, extra
            yield a.copy()
    for kind in (L.BUY_MISSILE, L.BUY_UPGRADE, L.BUY_POWER_UP):
        reset_action(s, seat, a)
        a[L.A_BUY] = kind
        yield a.copy()


def ways_to_play(s, p) -> int:
    """How many different positions the legal actions lead to (counting stops at 2)."""
    after = set()
    buf = np.zeros(L.N_KINDS, np.int64)
    for a in _candidates(s, p):
        trial = s.copy()
        if engine.play_turn(trial, p, a, buf) == L.OK:
            after.add(trial[: L.HASHED_SIZE].tobytes())
            if len(after) > 1:
                return 2
    return len(after)


def replay(seed: int, seating: list[int]) -> dict:
    """The game in the Python loop: the scores at the start, after every complete round and
    at the end, and per seat the turns with a single way to play."""
    plan = Plan(GAME.ready(LINEUP))
    seats = [plan.seat(j) for j in seating]
    rows, forced = [], [0] * len(seating)

    def scores(game):
        return [game.score(k) for k in range(len(seating))]

    def on_setup(game):
        rows.append(scores(game))
        if ways_to_play(game.s, game.p) == 1:
            forced[game.to_move] += 1

    def on_turn(game, seat, action, error):
        if game.status != "running":
            rows.append(scores(game))  # the end, in the round the game ended in
            return
        if game.s[L.S_ROUND] == len(rows):  # the seat order wrapped: a round is complete
            rows.append(scores(game))
        if ways_to_play(game.s, game.p) == 1:
            forced[game.to_move] += 1

    ruleset = GAME.load_ruleset("guardians")
    play_one_in_python(ruleset, len(seating), seats, seed, on_setup=on_setup, on_turn=on_turn)
    return {**summary(rows), "no_choice_turns": forced}


@pytest.fixture(scope="module")
def chunk():
    GAME.prepare(LINEUP)
    return GAME.simulate_chunk(GAME.load_ruleset("guardians"), 4, LINEUP, SEATING, SEEDS)


@pytest.mark.parametrize("g", range(len(SEEDS)))
def test_the_loop_stores_what_the_turns_show(chunk, g):
    ref = replay(int(SEEDS[g]), list(SEATING[g]))
    assert_matches(chunk.games, chunk.seats, g, 4, ref)
    got = [int(chunk.seats["no_choice_turns"][g * 4 + k]) for k in range(4)]
    assert got == ref["no_choice_turns"]


def test_some_turns_have_no_choice(chunk):
    """The check above is not empty: the six games hold turns with a single way to play,
    and lead changes."""
    assert chunk.seats["no_choice_turns"].sum() > 0
    assert chunk.games["lead_changes"].sum() > 0


def test_the_python_loop_stores_the_same_columns(chunk):
    """The Python loop (for plain-Python strategies) fills every column as the compiled loop
    does: the same compiled players, played through it."""
    from sim.games.guardians.chunks import _play_in_python
    from sim.games.guardians.kernel import GAME_COLUMNS, SEAT_SIZE

    games = np.zeros((len(SEEDS), len(GAME_COLUMNS)), np.int64)
    seats = np.zeros((len(SEEDS), 4, SEAT_SIZE), np.int64)
    ruleset = GAME.load_ruleset("guardians")
    _play_in_python(ruleset, 4, Plan(GAME.ready(LINEUP)), SEATING, SEEDS, games, seats)
    for column in ("lead_changes", "turns", "outcome"):
        i = GAME_COLUMNS.index(column)
        stored = chunk.games[column]
        if column == "outcome":
            stored = np.array([L.STATUS_NAMES.index(o) for o in stored])
        assert games[:, i].tolist() == list(stored)
    for column in ("score", "score_third", "score_half", "score_two_thirds",
                   "score_before_last_round", "no_choice_turns"):  # fmt: skip
        from sim.games.guardians.chunks import _seat_columns

        mine = _seat_columns(games, seats, SEATING, [s.label for s in LINEUP])[column]
        assert list(mine) == list(chunk.seats[column]), column
