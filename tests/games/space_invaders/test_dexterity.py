"""The dexterity presets keep their documented meaning (rulesets/dexterity-presets.yaml): a
launch aimed at the centre of a card 300 mm from the shooter ends on it 3, 5 and 7 times in
10 for a child, a casual adult and a practised player (wild shots aside)."""

import numpy as np
import pytest

from sim.games.space_invaders import layout as L
from sim.games.space_invaders.board import token_on_card
from sim.games.space_invaders.dexterity import sample_landing
from sim.games.space_invaders.params import to_params
from sim.games.space_invaders.ruleset import load_ruleset
from sim.random_streams import seed_streams

ANCHORS = {"child": 0.30, "casual": 0.50, "practised": 0.70}
SHOTS = 20000


@pytest.mark.parametrize("skill", list(ANCHORS))
def test_presets_hit_a_card_at_300_mm_as_documented(skill):
    p = to_params(load_ruleset("space-invaders", {"dexterity.skill": skill}).values, 2)
    p[L.P_WILD] = 0.0
    cell = 7  # C2: move the shooter so that its centre is 300 mm away
    cx = p[L.P_GRID_X0] + 2 * p[L.P_PITCH_X] + p[L.P_CARD_W] / 2
    cy = p[L.P_GRID_Y0] + 2 * p[L.P_PITCH_Y] + p[L.P_CARD_H] / 2
    rng = np.zeros(2, np.uint64)
    seed_streams(rng, 11)
    hits = sum(
        token_on_card(p, cell, *sample_landing(p, rng, 1, cx, cy, cx, cy - 300.0, 1.0))
        for _ in range(SHOTS)
    )
    assert abs(hits / SHOTS - ANCHORS[skill]) < 0.015


def test_skills_are_ordered_and_a_seat_factor_scales_the_error():
    spreads = [
        load_ruleset("space-invaders", {"dexterity.skill": k})["dexterity.spread_mm"]
        for k in ("practised", "casual", "child")
    ]
    assert spreads == sorted(spreads)
    p = to_params(load_ruleset("space-invaders").values, 2)
    p[L.P_WILD] = 0.0
    rng = np.zeros(2, np.uint64)
    seed_streams(rng, 3)
    one = np.array([sample_landing(p, rng, 1, 0.0, 300.0, 0.0, 0.0, 1.0)[0] for _ in range(8000)])
    two = np.array([sample_landing(p, rng, 1, 0.0, 300.0, 0.0, 0.0, 2.0)[0] for _ in range(8000)])
    assert abs(two.std() / one.std() - 2.0) < 0.1
