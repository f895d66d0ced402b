"""Setup by player count (rulebook lines 42-64) and the fuel limit by turn."""

import numpy as np
import pytest

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import fuel_limit
from sim.games.alien_raid.layout import STREAMS
from sim.games.alien_raid.params import names, to_params
from sim.games.alien_raid.ruleset import load_ruleset
from sim.games.alien_raid.state import new_game, pl
from sim.random_streams import seed_streams


def setup(players, preset="alien-raid", seed=0):
    r = load_ruleset(preset)
    p = to_params(r.values)
    s = np.zeros(L.STATE_SIZE, np.int32)
    rng = np.zeros(STREAMS, np.uint64)
    seed_streams(rng, seed)
    new_game(s, p, players, rng)
    return r, p, s


@pytest.mark.parametrize(
    ("players", "tasks", "cities"), [(2, 3, 30), (3, 3, 40), (4, 4, 50), (5, 5, 60)]
)
def test_setup_by_player_count(players, tasks, cities):
    r, p, s = setup(players)
    n = names(r.values)
    assert s[L.S_N_TASKS] == tasks  # line 60: 2-3 players 3 tasks, 4 players 4, ...
    assert s[L.S_CITY_END] - s[L.S_CITY_TOP] == cities  # tagged cards set aside (line 44)
    deck = s[L.S_CITY_DECK : L.S_CITY_DECK + cities]
    colours = [p[L.P_CITIES + c * L.CITY_SIZE + L.CT_DECK] for c in deck]
    assert colours == sorted(colours)  # blue cards on red cards (line 48)
    tags = [p[L.P_CITIES + c * L.CITY_SIZE + L.CT_MIN_PLAYERS] for c in deck]
    assert max(tags) <= players
    for seat in range(players):
        assert s[pl(seat, L.PL_HUMANS)] == 100_000  # line 58
        assert n.models[s[pl(seat, L.PL_HAND)]] == "training-saucer"  # line 52
        assert s[pl(seat, L.PL_HAND + 1)] == -1
    assert len({int(t) for t in s[L.S_TASKS : L.S_TASKS + tasks]}) == tasks


def test_tasks_for_two_players_other_reading():
    _, _, s = setup(2, "alien-raid-other-readings")
    assert s[L.S_N_TASKS] == 2  # line 168: as many as players


def test_ship_decks_are_shuffled_apart_by_colour():
    _, p, s = setup(4)
    blue = s[L.S_SHIPS + s[L.S_BLUE_TOP] : L.S_SHIPS + s[L.S_BLUE_END]]
    red = s[L.S_SHIPS + s[L.S_RED_TOP] : L.S_SHIPS + s[L.S_RED_END]]
    deck = lambda m: p[L.P_MODELS + m * L.MODEL_SIZE + L.M_DECK]  # noqa: E731
    assert len(blue) == 56 and len(red) == 56  # 50 ships and 6 stations each
    assert {deck(m) for m in blue} == {L.DECK_BLUE} and {deck(m) for m in red} == {L.DECK_RED}
    _, _, other = setup(4, seed=1)
    assert list(blue) != list(
        other[L.S_SHIPS + other[L.S_BLUE_TOP] : L.S_SHIPS + other[L.S_BLUE_END]]
    )


def test_fuel_limit_by_turn():
    p = to_params(load_ruleset("alien-raid").values)
    assert [fuel_limit(p, t) for t in range(1, 11)] == [4, 5, 6, 7, 8, 9, 10, 11, 12, 12]
    other = to_params(load_ruleset("alien-raid", ["fuel.max=13"]).values)
    assert fuel_limit(other, 10) == 13
