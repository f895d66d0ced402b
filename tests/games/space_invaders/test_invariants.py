"""Random play keeps the game's invariants after every turn and every round's end, under
every strategy, player count and a spread of rule switches; the turn-by-turn driver (watch)
plays the very games the batch kernel plays."""

import numpy as np
import pytest

from sim.games.space_invaders import layout as L
from sim.games.space_invaders.position import seat_info
from sim.games.space_invaders.rounds import score
from sim.games.space_invaders.watch import play_recorded
from sim.plugins import get_game
from sim.plugins.base import StrategySpec

GAME = get_game("space-invaders")
SWITCHES = [
    {},
    {"setup.level": "elite", "dexterity.skill": "child"},
    {"setup.level": "training", "dexterity.skill": "practised", "hit.rule": "center"},
    {"launch.planet_relaunch": False, "two_hit.second_hit": "other_player"},
    {"setup.rows": 3, "setup.level": "expert", "reinforcements.each_icon": "once"},
    {
        "powers.called_shot_success": "destroyed",
        "powers.bonus_shot_hits_invaders": True,
        "powers.ufo_relaunch": "once",
        "powers.long_wave": "destroy",
        "powers.heal_cap": "start",
        "powers.dead_ufo_counts": True,
        "last_round.crashed_score": True,
    },
    {"final_assault.tokens": "unlaunched", "catalog.file": "armoured", "geometry.file": "compact"},
    {
        "dexterity.skill": "custom",
        "dexterity.spread_mm": 60,
        "dexterity.length_ratio": 2,
        "dexterity.floor_mm": 5,
        "dexterity.bias_mm": -20,
        "dexterity.wild_pct": 20,
    },
]
CASES = [
    (k, name, players)
    for k in range(len(SWITCHES))
    for name, players in (("naive", 2), ("tactical", 3), ("planner", 4), ("tactical", 1))
]


def check_position(s, p, kind):
    deck = [int(s[L.S_DECK + i]) for i in range(int(s[L.S_DECK_TOP]), int(s[L.S_DECK_LEN]))]
    board = [int(s[L.S_BOARD + c]) for c in range(L.N_CELLS) if s[L.S_BOARD + c]]
    assert len(set(deck + board)) == len(deck) + len(board), "a card is in two places"
    assert len(deck) + len(board) + s[L.S_DESTROYED] + s[L.S_CRASHED] == p[L.P_DECK]
    if int(p[L.P_ROWS]) == 3:
        assert all(s[L.S_BOARD + c] == 0 for c in range(L.COLS)), "the removed top row"
    assert 0 <= s[L.S_PLANET] <= L.TRACK_MAX
    assert 0 <= s[L.S_UFO] <= p[L.P_UFO_START]
    per_player = sum(int(p[L.P_PER_LEVEL + k]) for k in range(L.LEVELS))
    for seat in range(int(s[L.S_N_SEATS])):
        info = seat_info(s, seat)
        assert sum(info["active"]) + sum(info["card"]) == per_player
        assert min(info["active"] + info["card"]) >= 0
        left = [int(s[L.S_PLAYERS + seat * L.PL_SIZE + L.PL_LEFT + k]) for k in range(3)]
        assert all(0 <= x <= y for x, y in zip(left, info["active"], strict=True))
    if kind == "end":
        assert all(s[L.S_HITS + c] == 0 for c in range(L.N_CELLS)), "hits carried over"


def check_end(s, p):
    status = int(s[L.S_STATUS])
    assert status != L.RUNNING
    if status == L.VICTORY:
        assert s[L.S_UFO] == 0 and s[L.S_PLANET] > 0
        assert not any(s[L.S_BOARD + c] for c in range(L.N_CELLS))
        assert s[L.S_DECK_TOP] == s[L.S_DECK_LEN]
    elif status == L.PLANET_DESTROYED:
        assert s[L.S_PLANET] == 0
    elif status == L.UFO_SURVIVED:
        assert s[L.S_ASSAULT] == 1 and s[L.S_UFO] > 0
    recorded = int(s[L.S_SCORE])
    score(s, p)
    assert s[L.S_SCORE] == recorded
    level_bonus = (0, 0, 50, 100)[int(p[L.P_LEVEL])]
    assert recorded == (
        100 * (status == L.VICTORY)
        + 20 * s[L.S_UFO_HITS]
        + 10 * s[L.S_BONUS_KILLS]
        + 10 * s[L.S_PLANET]
        + level_bonus
    )


@pytest.mark.parametrize(("switch", "name", "players"), CASES)
def test_random_play_keeps_the_invariants(switch, name, players):
    ruleset = GAME.load_ruleset("space-invaders", SWITCHES[switch])
    lineup = [StrategySpec(name)] * players
    seeds = range(6)
    chunk = GAME.simulate_chunk(
        ruleset,
        players,
        [StrategySpec(name)],
        np.zeros((len(seeds), players), np.int64),
        np.array(seeds),
    )
    assert not chunk.errors
    for g, seed in enumerate(seeds):

        def on_step(kind, s, p, w, log, first, seat):
            check_position(s, p, kind)

        s, p = play_recorded(ruleset, GAME.ready(lineup), seed, on_step)
        check_end(s, p)
        assert chunk.games["score"][g] == s[L.S_SCORE]
        assert chunk.games["rounds"][g] == s[L.S_ROUND]
        assert chunk.games["launches"][g] == s[L.S_LAUNCHES]
