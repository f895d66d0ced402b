"""How the built-in strategies answer the optional actions (docs/games/space_invaders/
strategies.md, Optional actions): every option is taken when it can count, a bonus shot at a
destroyed UFO is not, an option parameter of 0 declines it; a token in the planet area is
launched again, and with the judgement switched on (stay_in_planet) the competent strategies
leave a wave token there when its blast wave reaches the card they would aim at.

The position: the UFO destroyed already, one invader left, on C4, that crashes into the
planet this round; seat 0's token lies in the planet area under column C, 20 mm up (its short
wave's 63 mm reach C4)."""

import importlib

import numpy as np
import pytest

from sim.games.space_invaders import layout as L
from sim.games.space_invaders.decision import SCRATCH_SIZE, reset_action
from sim.games.space_invaders.engine import pl, tk
from sim.games.space_invaders.scenario import Scenario

POSITION = """\
game: space-invaders
players: 2
ufo: 0
cards:
  x: {speed: 1, damage: 2}
board: |
  .  .  .  .  .
  .  .  .  .  .
  .  .  .  .  .
  .  .  x  .  .
seats:
  - {powers: [short_wave, plain, plain], active: [1, 0, 0], card: [2, 2, 2]}
  - {active: [1, 0, 0], card: [2, 2, 2]}
turns: []
"""
STRATEGIES = ["naive", "tactical", "planner"]


@pytest.fixture(name="position")
def _position(tmp_path):
    path = tmp_path / "position.yaml"
    path.write_text(POSITION)
    return Scenario(str(path))


def answer(name: str, position: Scenario, option: int, power: int, **params: float) -> bool:
    """Whether `name` takes `option` for seat 0's level-1 token of `power` lying in the
    planet area."""
    module = importlib.import_module(f"strategies.space_invaders.{name}")
    s, p = position.s.copy(), position.p
    s[pl(0, L.PL_POWER)] = power
    s[L.S_SEAT], s[L.S_TOKENS], s[L.S_CUR] = 0, 1, 0
    s[tk(0, L.TK_LEVEL)], s[tk(0, L.TK_POWER)] = 1, power
    s[L.S_PHASE], s[L.S_OPTION] = L.PH_OPTION, option
    w = np.zeros(L.WORK_SIZE)
    w[L.W_LAND_X], w[L.W_LAND_Y] = position.point("planet", "test")
    a = np.zeros(L.ACTION_SIZE)
    reset_action(a)
    sp = np.array([params.get(k, v) for k, v in module.PARAMS.items()], np.float64)
    rng = np.zeros(L.STREAMS, np.uint64)
    module.policy(L.PH_OPTION, s, p, w, 0, sp, rng, a, np.zeros(SCRATCH_SIZE, np.int64))
    return a[L.A_TAKE] != 0.0


@pytest.mark.parametrize("name", STRATEGIES)
def test_every_option_is_taken_when_it_can_count(name, position):
    position.s[L.S_UFO] = 3
    for option in (L.OPT_UFO_RELAUNCH, L.OPT_HEAL, L.OPT_BONUS_SHOT):
        assert answer(name, position, option, L.PLAIN)
        assert not answer(name, position, option, L.PLAIN, **{L.OPTION_NAMES[option]: 0.0})
    assert answer(name, position, L.OPT_PLANET_RELAUNCH, L.PLAIN)
    assert not answer(name, position, L.OPT_PLANET_RELAUNCH, L.PLAIN, planet_relaunch=0.0)


@pytest.mark.parametrize("name", STRATEGIES)
def test_no_bonus_shot_at_a_destroyed_ufo(name, position):
    assert not answer(name, position, L.OPT_BONUS_SHOT, L.PLAIN)


@pytest.mark.parametrize("name", ["tactical", "planner"])
def test_with_the_judgement_a_wave_token_stays_where_its_wave_reaches_the_target(name, position):
    """stay_in_planet 1 (off by default: it measured worse than launching again)."""
    assert not answer(name, position, L.OPT_PLANET_RELAUNCH, L.SHORT_WAVE, stay_in_planet=1.0)
    assert answer(name, position, L.OPT_PLANET_RELAUNCH, L.PLAIN, stay_in_planet=1.0)


@pytest.mark.parametrize("name", STRATEGIES)
def test_by_default_a_token_in_the_planet_area_is_launched_again(name, position):
    assert answer(name, position, L.OPT_PLANET_RELAUNCH, L.SHORT_WAVE)
