"""The competent strategies (tactical, planner) use the two level-3 UFO powers as a sensible
player would: a heal token is sometimes shot at the UFO while the planet is hurt and heals it
(line 434), and the three tries are declared (line 435), never at a destroyed UFO. Without
this the report's power uplift of heal and ufo_three_tries would measure players who never
use them.

Level-3 tokens come late in a printed game (after two or three reinforcements), so these
games give every player one level-1 token and six level-3 ones (goldens.LEVEL3_EARLY): from
the first reinforcement on, every token added is level 3, and each seat's level-3 card is
heal or three tries about two times in three. The decision tests take positions from printed
games and compare the token with its power against the same token without one."""

import importlib

import numpy as np
import pytest

from sim.games.space_invaders import layout as L
from sim.games.space_invaders.board import ufo_center_y
from sim.games.space_invaders.decision import SCRATCH_SIZE, reset_action
from sim.games.space_invaders.watch import play_recorded
from sim.plugins import get_game
from sim.plugins.base import StrategySpec
from tests.goldens import LEVEL3_EARLY

GAME = get_game("space-invaders")
RULES = LEVEL3_EARLY
SEEDS = range(40)


def level3_use(name: str) -> dict[str, int]:
    """Over two-player games of `name`: planet health the heal power restored, three tries
    declared at a live UFO, and declared at a destroyed one."""
    ruleset = GAME.load_ruleset("space-invaders", RULES)
    count = {"healed": 0, "declared": 0, "declared_dead": 0}
    ufo_before = [0]  # the UFO's health before the turn (after the last step)

    def on_step(kind, s, p, w, log, first, seat):
        if kind == "turn":
            for t in range(s[L.S_TOKENS]):
                if s[L.S_TK + t * L.TK_SIZE + L.TK_THREE]:
                    count["declared" if ufo_before[0] > 0 else "declared_dead"] += 1
        ufo_before[0] = int(s[L.S_UFO])

    for seed in SEEDS:
        s, _ = play_recorded(ruleset, GAME.ready([StrategySpec(name)] * 2), seed, on_step)
        count["healed"] += int(s[L.S_HEALED])
    return count


@pytest.mark.parametrize("name", ["tactical", "planner"])
def test_competent_strategies_use_heal_and_three_tries(name):
    used = level3_use(name)
    assert used["healed"] > 0, f"{name} never healed the planet with a heal token: {used}"
    assert used["declared"] > 0, f"{name} never declared the three tries: {used}"
    assert used["declared_dead"] == 0, f"{name} declared three tries at a destroyed UFO"


def test_naive_never_declares_three_tries():
    """The naive player's documented character: powers in the plainest way."""
    used = level3_use("naive")
    assert used["declared"] == used["declared_dead"] == 0


def positions(n_games: int) -> list:
    """(s, p) after each round's end of two-player Standard tactical games, the UFO alive."""
    ruleset = GAME.load_ruleset("space-invaders")
    out = []
    for seed in range(n_games):

        def on_step(kind, s, p, w, log, first, seat):
            if kind == "end" and s[L.S_STATUS] == L.RUNNING and s[L.S_UFO] > 0:
                out.append((s.copy(), p))

        play_recorded(ruleset, GAME.ready([StrategySpec("tactical")] * 2), seed, on_step)
    return out


def first_choice(name: str, s, p, power: int) -> tuple[bool, bool]:
    """Seat 0 opens its turn with one level-3 token of `power` left: (aimed at the UFO,
    declared the three tries)."""
    module = importlib.import_module(f"strategies.space_invaders.{name}")
    q = s.copy()
    base = L.S_PLAYERS + L.PL_POWER
    q[base + 2] = power
    q[L.S_PLAYERS + L.PL_LEFT : L.S_PLAYERS + L.PL_LEFT + 3] = [0, 0, 1]
    q[L.S_SEAT], q[L.S_TOKENS], q[L.S_TURN_LANDED] = 0, 0, 0
    a = np.zeros(L.ACTION_SIZE)
    reset_action(a)
    sp = np.array(list(module.PARAMS.values()), np.float64)
    w, rng = np.zeros(L.WORK_SIZE), np.zeros(L.STREAMS, np.uint64)
    module.policy(L.PH_CHOOSE, q, p, w, 0, sp, rng, a, np.zeros(SCRATCH_SIZE, np.int64))
    assert a[L.A_LEVEL] == 3
    return abs(a[L.A_AIM_Y] - ufo_center_y(p)) < 1e-9, a[L.A_THREE] == 1.0


@pytest.fixture(scope="module", name="found")
def _found():
    return positions(30)


@pytest.mark.parametrize("name", ["tactical", "planner"])
def test_a_heal_token_goes_to_the_ufo_for_the_health_it_restores(name, found):
    """Against the same token without a power, the heal token is shot at the UFO in some
    positions (the planet hurt), never the other way round; on a full planet (nothing to
    restore) both choose alike."""
    gained = 0
    for s, p in found:
        heal, _ = first_choice(name, s, p, L.HEAL)
        plain, _ = first_choice(name, s, p, L.PLAIN)
        assert heal or not plain, "a plain token went to the UFO, the heal token did not"
        gained += heal and not plain
        full = s.copy()
        full[L.S_PLANET] = L.TRACK_MAX
        assert first_choice(name, full, p, L.HEAL) == first_choice(name, full, p, L.PLAIN)
    assert gained > 0, f"{name}: the heal power never sent a token to the UFO"


@pytest.mark.parametrize("name", ["tactical", "planner"])
def test_three_tries_are_declared_when_three_launches_make_the_ufo_worth_most(name, found):
    """Against the same token without a power, the three-tries token goes to the UFO (and
    declares) in some positions, never the other way round; it declares whenever it is
    aimed at the UFO (alive in every position here)."""
    gained = 0
    for s, p in found:
        ufo, declared = first_choice(name, s, p, L.UFO_THREE_TRIES)
        plain, _ = first_choice(name, s, p, L.PLAIN)
        assert ufo or not plain, "a plain token went to the UFO, the three-tries token did not"
        assert declared == ufo
        gained += ufo and not plain
    assert gained > 0, f"{name}: three launches never made the UFO the better shot"
