"""Built-in Guardians strategies: registry, legality on every preset, no use of the hidden pile
order, parameter errors, and the expert's edge in a seat-rotated tournament."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.errors import ConfigError
from sim.games.guardians import engine as E
from sim.games.guardians import layout as L
from sim.games.guardians import moves as M
from sim.games.guardians import start
from sim.games.guardians.board import pl
from sim.games.guardians.decision import MINE_START, PLACE, SCRATCH_SIZE, TURN, reset_action
from sim.games.guardians.ruleset import to_params
from sim.plugins import get_game
from sim.plugins.base import StrategySpec
from sim.random_streams import below, seed_streams
from strategies.guardians import registry
from strategies.guardians.registry import BUILTIN as ORDER
from tests.conftest import slow_scale

PRESETS = ("guardians", "guardians-advanced", "space-defenders", "space-defenders-upgrades")
POLICIES = [registry.resolve(name).policy for name in ORDER]
GAME = get_game("guardians")


def _lineup_arrays(names):
    strategies = [registry.resolve(n) for n in names]
    vectors = [registry.param_vector(s, {}) for s in strategies]
    width = max(len(v) for v in vectors)
    params = np.zeros((len(names), width))
    for j, v in enumerate(vectors):
        params[j, : len(v)] = v
    return params


# --- registry --------------------------------------------------------------------------------


def test_every_builtin_module_is_complete():
    table = registry.builtins()
    assert list(table) == list(ORDER)
    for name, strategy in table.items():
        assert strategy.policy is strategy.module.policy
        assert strategy.module.__name__ == f"strategies.guardians.{name}"
        assert all(isinstance(v, float) for v in strategy.defaults.values())
        assert strategy.doc, f"{name} has no docstring"
    for level, (strategy, _) in registry.LEVEL_PLAYS.items():
        assert registry.resolve(level).name == strategy
    assert registry.resolve("expert").name == "expert"


def test_unknown_parameter_is_a_config_error_with_a_suggestion():
    with pytest.raises(ConfigError) as info:
        GAME.check_strategy(StrategySpec("economist", (("missle_at", 15),)), source="exp.yaml")
    text = str(info.value)
    assert "missle_at" in text and "missile_at" in text and "exp.yaml" in text
    with pytest.raises(ConfigError) as info:
        registry.param_vector(registry.resolve("greedy"), {"depth": 2})
    assert "depth" in str(info.value)
    # known parameters are accepted and land in PARAMS order
    vec = registry.param_vector(registry.resolve("economist"), {"missile_at": 15})
    assert vec[list(registry.resolve("economist").defaults).index("missile_at")] == 15.0


# --- legality --------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_every_strategy_plays_legally(preset):
    """Every built-in plays at least 1,000 four-player games of the preset in mixed lineups."""
    n_kinds = len(ORDER)
    games = 1000 * n_kinds // 4 + 1
    g = np.arange(games)
    # seats k hold kinds (g + offset_k) % n: each kind sits in 4 of every n games
    seat_lineup = np.stack([(g + off) % n_kinds for off in (0, 1, 3, 5)], axis=1)
    lineup = [StrategySpec(name) for name in ORDER]
    chunk = GAME.simulate_chunk(
        GAME.load_ruleset(preset), 4, lineup, seat_lineup, np.arange(games, dtype=np.uint64)
    )
    assert chunk.errors == []
    played = {name: 0 for name in ORDER}
    for row in seat_lineup:
        for j in set(row.tolist()):
            played[ORDER[j]] += 1
    assert min(played.values()) >= 1000
    assert set(chunk.games["outcome"]) <= {"victory", "stall", "raid", "cap"}


# --- hidden information ----------------------------------------------------------------------


def _mid_game_states(preset, n_states, seed):
    """States part-way through games played from Python with random legal turns."""
    p = to_params(GAME.load_ruleset(preset).values)
    rng = np.zeros(L.MAX_PLAYERS + 1, np.uint64)
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    a = np.zeros(L.ACTION_SIZE, np.int32)
    buf = np.zeros(L.N_KINDS, np.int64)
    params = _lineup_arrays(ORDER)
    out = []
    game = 0
    while len(out) < n_states:
        s = np.zeros(L.STATE_SIZE, np.int32)
        seed_streams(rng, seed + game)
        start.new_game(s, p, 4, rng)
        for seat in range(4):
            reset_action(s, seat, a)
            POLICIES[0](PLACE, s, p, seat, params[0], rng, a, scratch)
            assert start.place_fighter(s, p, seat, a[L.A_DEST_COL]) == L.OK
        reset_action(s, 3, a)
        POLICIES[0](MINE_START, s, p, 3, params[0], rng, a, scratch)
        assert start.place_mine(s, p, a[L.A_MINE_ROW]) == L.OK
        stop = 4 + below(rng, 0, 60)
        while s[L.S_STATUS] == L.RUNNING and s[L.S_TURN] < stop:
            seat = int(s[L.S_TO_MOVE])
            reset_action(s, seat, a)
            # mostly greedy turns (the board moves on), sometimes random ones
            kind = 1 if below(rng, 0, 3) else 0
            POLICIES[kind](TURN, s, p, seat, params[kind], rng, a, scratch)
            assert E.play_turn(s, p, a, buf) == L.OK
        if s[L.S_STATUS] == L.RUNNING:
            out.append(s.copy())
        game += 1
    return p, out


@pytest.mark.parametrize("price", [20, 30])
def test_every_strategy_plays_legally_when_the_shop_is_dear(price):
    """Prices above the economist's buying thresholds (16, 16, 22 points): nobody buys what
    it cannot pay for (the missile_cost sweep goes up to 20)."""
    overrides = {"missile.cost": price, "upgrade.cost": price, "power_up.cost": price}
    ruleset = GAME.load_ruleset("guardians", overrides)
    n_kinds = len(ORDER)
    g = np.arange(400)
    seat_lineup = np.stack([(g + off) % n_kinds for off in (0, 1, 3, 5)], axis=1)
    lineup = [StrategySpec(name) for name in ORDER]
    chunk = GAME.simulate_chunk(ruleset, 4, lineup, seat_lineup, g.astype(np.uint64))
    assert chunk.errors == []


@pytest.mark.parametrize("preset", PRESETS)
def test_decisions_do_not_depend_on_the_hidden_pile_order(preset):
    p, states = _mid_game_states(preset, 40, seed=7_000 + PRESETS.index(preset) * 1_000)
    params = _lineup_arrays(ORDER)
    perm_rng = np.random.default_rng(11)
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    compared = 0
    for s in states:
        top, n = s[L.S_PILE_TOP], s[L.S_PILE_LEN]
        if len(set(s[L.S_PILE + top : L.S_PILE + n].tolist())) < 2:
            continue  # no other order to try
        other = s.copy()
        region = other[L.S_PILE + top : L.S_PILE + n]
        while np.array_equal(region, s[L.S_PILE + top : L.S_PILE + n]):
            perm_rng.shuffle(region)
        seat = int(s[L.S_TO_MOVE])
        for kind in range(len(ORDER)):
            actions = []
            for state in (s, other):
                before = state.copy()
                rng = np.zeros(L.MAX_PLAYERS + 1, np.uint64)
                seed_streams(rng, 99)
                a = np.zeros(L.ACTION_SIZE, np.int32)
                reset_action(state, seat, a)
                POLICIES[kind](TURN, state, p, seat, params[kind], rng, a, scratch)
                assert np.array_equal(state, before), f"{ORDER[kind]} changed the state"
                actions.append(a.copy())
            assert np.array_equal(actions[0], actions[1]), f"{ORDER[kind]} saw the pile order"
            assert E.turn_error(s, p, actions[0]) == L.OK, f"{ORDER[kind]}: illegal turn"
        compared += 1
    assert compared >= 20


# --- the expert's edge -----------------------------------------------------------------------


def wilson(successes: float, n: int, z: float) -> tuple[float, float]:
    """Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    phat = successes / n
    centre = (phat + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def rotation_tournament(preset: str, opponent: str, games: int, seed: int = 0):
    """expert vs three `opponent`s, the expert's seat rotating game by game. Returns the
    expert's total win share, the opponents' total win share and the number of games."""
    seat_lineup = np.ones((games, 4), np.int64)
    seat_lineup[np.arange(games), np.arange(games) % 4] = 0
    chunk = GAME.simulate_chunk(
        GAME.load_ruleset(preset),
        4,
        [StrategySpec("expert"), StrategySpec(opponent)],
        seat_lineup,
        np.arange(seed, seed + games, dtype=np.uint64),
    )
    assert chunk.errors == []
    is_expert = seat_lineup.reshape(-1) == 0
    share = chunk.seats["win_share"]
    return float(share[is_expert].sum()), float(share[~is_expert].sum()), games


@pytest.mark.slow
@pytest.mark.parametrize("preset", ("guardians", "guardians-advanced"))
@pytest.mark.parametrize("opponent", [n for n in ORDER if n not in ("expert", "master")])
def test_expert_beats_every_other_builtin(preset, opponent):
    """One-sided 95% Wilson bounds: the expert's win share per game is above the opponents'
    mean win share per seat (raids, where nobody wins, count as losses for everybody)."""
    games = max(400, int(4000 * slow_scale()))
    expert, others, n = rotation_tournament(preset, opponent, games, seed=123_000)
    z = 1.645
    expert_low, _ = wilson(expert, n, z)
    _, other_high = wilson(others, 3 * n, z)
    assert expert_low > other_high, (preset, opponent, expert / n, others / (3 * n))


@pytest.mark.parametrize("preset", ["guardians", "space-defenders"])
@pytest.mark.parametrize("level", [1, 2, 3])
def test_greedy_picks_a_best_cell_of_the_plain_scoring(preset, level):
    """Greedy's remembered per-column values against moves.volley_value cell by cell: the
    cell it flies to is one of the reachable cells (its own included) that score most."""
    p, states = _mid_game_states(preset, 30, seed=9_000 + level)
    params = _lineup_arrays(ORDER)
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    cells = np.zeros(2 * L.MAX_COLS * L.MAX_ROWS, np.int64)
    checked = 0
    for s in states:
        seat = int(s[L.S_TO_MOVE])
        if s[pl(seat, L.PL_STATUS)] != L.ACTIVE:
            continue
        s[pl(seat, L.PL_LEVEL)] = level
        c0, r0 = int(s[pl(seat, L.PL_COL)]), int(s[pl(seat, L.PL_ROW)])
        n = M.destinations(s, p, c0, r0, cells)
        reachable = [(c0, r0)] + [(int(cells[2 * k]), int(cells[2 * k + 1])) for k in range(n)]
        score = {cell: M.volley_value(s, p, *cell, seat, level) for cell in reachable}
        best = max(score.values())
        rng = np.zeros(L.MAX_PLAYERS + 1, np.uint64)
        seed_streams(rng, 5)
        a = np.zeros(L.ACTION_SIZE, np.int32)
        reset_action(s, seat, a)
        POLICIES[ORDER.index("greedy")](TURN, s, p, seat, params[1], rng, a, scratch)
        chosen = (int(a[L.A_DEST_COL]), int(a[L.A_DEST_ROW]))
        assert score[chosen] == best, f"greedy chose {chosen} ({score[chosen]}), best {best}"
        checked += 1
    assert checked >= 15
