"""A plain game's chance is the lab's splitmix64 stream draw for draw: `Chance(seed, k)` gives
what the compiled `random_streams` functions give for stream k of the seed (compiled here),
whatever the block the draws fall in; a copy draws the same numbers; a scenario's scripted
chance answers with its values in order and refuses one the draw cannot give."""

from __future__ import annotations

import numpy as np
import pytest

from sim import random_streams as rs
from sim.plain.chance import Chance, RanOut, Scripted

DRAWS = 700  # past the first block of 32 and two blocks of 256


@pytest.mark.parametrize(("seed", "stream"), [(0, 0), (2**63 + 12345, 2), (7, 5)])
def test_draws_are_the_compiled_streams(seed, stream):
    rng = np.zeros(stream + 1, np.uint64)
    rs.seed_streams(rng, np.uint64(seed))
    chance = Chance(seed, stream)
    for n in range(1, DRAWS):
        kind = n % 3
        if kind == 0:
            assert chance.below(n) == rs.below(rng, stream, n)
        elif kind == 1:
            assert chance.uniform() == rs.uniform(rng, stream)
        else:
            assert chance.bits() == int(rs.next_u64(rng, stream))


def test_a_shuffle_is_the_compiled_shuffle():
    rng = np.zeros(1, np.uint64)
    rs.seed_streams(rng, np.uint64(99))
    cards = np.arange(40)
    rs.shuffle_range(rng, 0, cards, 0, 40)
    mine = list(range(40))
    Chance(99).shuffle(mine)
    assert mine == cards.tolist()


def test_shuffles_in_a_row_are_the_compiled_shuffles():
    """Shuffles of every length from 0 to 40, one after another with a draw between: from
    anywhere in a block, and across blocks."""
    rng = np.zeros(1, np.uint64)
    rs.seed_streams(rng, np.uint64(7))
    chance = Chance(7)
    for n in [*range(41)] * 3:  # about 2,500 draws: ten blocks
        cards = np.arange(n)
        rs.shuffle_range(rng, 0, cards, 0, n)
        mine = list(range(n))
        chance.shuffle(mine)
        assert mine == cards.tolist()
        assert chance.below(10) == rs.below(rng, 0, 10)


def test_a_copy_draws_the_same_numbers_and_leaves_the_original():
    chance = Chance(5)
    for _ in range(40):  # into the second block
        chance.below(6)
    twin = chance.copy()
    ahead = [twin.die(6) for _ in range(300)]
    assert [chance.die(6) for _ in range(300)] == ahead


def test_scripted_chance_answers_in_order_and_refuses_what_a_draw_cannot_give():
    chance = Scripted([4, 0, "b", [3, 1, 2], 0.25])
    assert chance.die(6) == 4
    assert chance.below(2) == 0
    assert chance.pick(["a", "b"]) == "b"
    items = [1, 2, 3]
    chance.shuffle(items)
    assert items == [3, 1, 2]
    assert chance.uniform() == 0.25
    with pytest.raises(RanOut):
        chance.die(6)
    with pytest.raises(ValueError, match="not a face"):
        Scripted([7]).die(6)
    with pytest.raises(ValueError, match="not an order"):
        Scripted([[1, 1]]).shuffle([1, 2])
