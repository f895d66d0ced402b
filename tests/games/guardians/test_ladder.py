"""The skill ladder: levels and the continuous knob, the ladder's order and spread on every
preset, the master's edge over the expert, and the tournament's skill rating."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.plugins import get_game
from sim.plugins.base import StrategySpec
from sim.seeds import game_seeds, root_keys
from strategies.guardians import registry, skilled
from strategies.guardians.ladder import LADDER, POINTS
from tests.conftest import slow_scale

GAME = get_game("guardians")
PRESETS = ("guardians", "guardians-advanced", "space-defenders", "space-defenders-upgrades")
MAX_GAP = 0.30


def _vector(name, **params):
    strategy = registry.resolve(name)
    return dict(zip(strategy.defaults, registry.param_vector(strategy, params), strict=True))


def test_levels_are_points_on_one_knob_and_take_a_shop_policy():
    assert LADDER == ("novice", "casual", "club", "strong", "master")
    assert GAME.skills == LADDER and GAME.skill_knob == ("skilled", "skill")
    assert dict(GAME.skill_points) == POINTS
    for level, skill in POINTS.items():
        values = _vector(level)
        assert values == _vector("skilled", skill=skill)
        assert values["missile_at"] >= 1000  # no shop unless asked
    strong = _vector("strong", missile_at=12)
    assert strong["skill"] == 0.75 and strong["missile_at"] == 12
    assert strong["temperature"] == _vector("strong")["temperature"]
    # between two levels the traits are interpolated; a trait given explicitly wins
    mid = _vector("skilled", skill=0.375)
    casual, club = _vector("casual"), _vector("club")
    for trait in skilled.TRAITS:
        assert mid[trait] == pytest.approx((casual[trait] + club[trait]) / 2)
    assert _vector("club", temperature=0.25)["temperature"] == 0.25
    # the weaker the level, the more it errs and the less it fears
    levels = [_vector(level) for level in POINTS]
    assert all(
        a["temperature"] > b["temperature"] for a, b in zip(levels, levels[1:], strict=False)
    )
    assert all(
        a["danger_weight"] < b["danger_weight"] for a, b in zip(levels, levels[1:], strict=False)
    )
    assert registry.resolve("master").name == "master"


def test_shop_one_derives_the_shop_from_skill_and_shop_zero_never_buys():
    for level, skill in POINTS.items():
        never = _vector(level)
        assert never["shop"] == 0
        assert [never[t] for t in skilled.SHOP_TRAITS] == list(skilled.NO_SHOP)
        shops = _vector(level, shop=1)
        row = skilled.SHOP_ANCHORS[round(skill * (len(skilled.SHOP_ANCHORS) - 1))]
        assert [shops[t] for t in skilled.SHOP_TRAITS] == list(row)
        assert all(shops[t] == never[t] for t in skilled.TRAITS)  # the same movement
        assert shops["missile_at"] < 1000  # it buys
    # a threshold given explicitly wins, with or without the shop
    assert _vector("club", shop=1, missile_at=1000)["missile_at"] == 1000
    assert _vector("club", missile_at=16)["missile_at"] == 16
    assert _vector("club", missile_at=16)["upgrade_at"] == 1000
    # between two levels the habits are interpolated
    mid = _vector("skilled", skill=0.375, shop=1)
    casual, club = _vector("casual", shop=1), _vector("club", shop=1)
    for trait in skilled.SHOP_TRAITS:
        assert mid[trait] == pytest.approx((casual[trait] + club[trait]) / 2)


def test_shop_is_off_or_on():
    from sim.errors import ConfigError

    with pytest.raises(ConfigError) as info:
        GAME.check_strategy(StrategySpec("club", (("shop", 0.5),)), source="x.yaml")
    assert "shop" in str(info.value)


def test_shop_zero_plays_todays_games():
    """`shop: 0` given explicitly plays the recorded golden games of each level on a preset
    that sells everything (tests/test_games.py checks the levels without the key)."""
    import json

    from tests.goldens import GOLDENS

    golden = GOLDENS["guardians"]()
    recorded = json.loads(golden.traces_file.read_text())["traces"]
    seeds = np.array(list(golden.seeds))
    players = golden.case("guardians-advanced/club")[0].players
    for level in POINTS:
        chunk = GAME.simulate_chunk(
            GAME.load_ruleset("guardians-advanced"),
            players,
            [StrategySpec(level, (("shop", 0),))],
            np.zeros((len(seeds), players), np.int64),
            seeds,
            trace=True,
        )
        hashes = dict(zip(map(str, seeds), map(int, chunk.games["trace_hash"]), strict=True))
        assert hashes == recorded[f"guardians-advanced/{level}"], level


def test_a_seat_named_skill_outside_the_skills_key_is_explained():
    from sim.errors import ConfigError

    with pytest.raises(ConfigError) as info:
        GAME.check_strategy(StrategySpec("skill"), source="x.yaml")
    assert "skills" in str(info.value)


def raid_rates(preset: str, players: int, games: int, levels=LADDER, shop: int = 0) -> list[float]:
    """Invaders' win rate of an all-level-k table for each level, on the same games; with
    `shop` 1 the skilled levels buy as their level does (the master buys by its search)."""
    seeds = game_seeds(root_keys(77), 0, games)
    out = []
    for level in levels:
        n = games if level != "master" else max(100, games // 5)
        params = (("shop", shop),) if shop and level != "master" else ()
        chunk = GAME.simulate_chunk(
            GAME.load_ruleset(preset),
            players,
            [StrategySpec(level, params)],
            np.zeros((n, players), np.int64),
            seeds[:n],
        )
        assert chunk.errors == []
        out.append(float(np.mean(chunk.games["outcome"] == "raid")))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", PRESETS)
def test_the_ladder_raids_less_at_every_level_and_gradually(preset, players):
    """Every level's tables raid less often than the level below's; neighbours differ by at
    most 30 points (plus 2.5 standard errors of the measured difference)."""
    _check_ladder(preset, players, shop=0)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", PRESETS)
def test_the_shopping_ladder_raids_less_at_every_level_and_gradually(preset, players):
    """The same with every skilled level buying as its level does (`shop: 1`), as
    experiments/difficulty.yaml seats them."""
    _check_ladder(preset, players, shop=1)


def _check_ladder(preset: str, players: int, shop: int) -> None:
    games = max(300, int(3000 * slow_scale()))
    rates = raid_rates(preset, players, games, shop=shop)
    for level, (weaker, stronger) in zip(
        LADDER[1:], zip(rates, rates[1:], strict=False), strict=True
    ):
        n = games if level != "master" else max(100, games // 5)
        se = math.sqrt(weaker * (1 - weaker) / games + stronger * (1 - stronger) / n)
        assert stronger < weaker, (preset, players, level, rates)
        assert weaker - stronger <= MAX_GAP + 2.5 * se, (preset, players, level, rates)


@pytest.mark.slow
def test_master_beats_three_experts():
    """One master against three experts on the base game, the master's seat rotating: its
    win share per game is above the experts' per seat (one-sided 95% Wilson bounds). Its
    edge is a few points of win share, so even the slimmed run plays 2,000 games."""
    from tests.games.guardians.test_strategies import wilson

    preset = "guardians"
    games = max(2000, int(4000 * slow_scale())) // 4 * 4
    seat_lineup = np.ones((games, 4), np.int64)
    seat_lineup[np.arange(games), np.arange(games) % 4] = 0
    chunk = GAME.simulate_chunk(
        GAME.load_ruleset(preset),
        4,
        [StrategySpec("master"), StrategySpec("expert")],
        seat_lineup,
        game_seeds(root_keys(5), 0, games),
    )
    assert chunk.errors == []
    master = seat_lineup.reshape(-1) == 0
    share = chunk.seats["win_share"]
    low, _ = wilson(float(share[master].sum()), games, 1.645)
    _, high = wilson(float(share[~master].sum()), 3 * games, 1.645)
    assert low > high, (share[master].mean(), share[~master].mean())


def test_tournament_rates_the_levels_and_separates_neighbours(tmp_path):
    from sim.lab.tournament import adjacent_pairs, ranking, ratings, tournament_experiment
    from sim.runner import run

    exp = tournament_experiment(["novice", "strong"], players=2, games=400, seed=3)
    summary = run(exp, out=tmp_path / "t", jobs=1, progress=False)
    rank = ranking(summary.out)
    assert rank["strategy"].to_list() == ["strong", "novice"]
    rated = ratings(summary.out)
    assert rated["strategy"].to_list() == ["strong", "novice"]
    assert (rated["sigma"] > 0).all() and rated["mu"][0] > rated["mu"][1]
    pairs = adjacent_pairs(summary.out, rank["strategy"].to_list())
    row = pairs.row(0, named=True)
    assert row["better"] == "strong" and row["games"] == exp.games
    assert row["separated"] and row["low"] > 0
