"""The optional steps as the built-in captains take them (docs/games/alien_raid/strategies.md,
Optional steps): a bonus-humans card received in a battle is kept until the next buying phase
and cashed there (never carried to the end), credits are repaid only at the end; a card a
captain keeps shows in `sim play`'s account of the game."""

import numpy as np

from sim.games.alien_raid.watch import watch
from sim.plugins import get_game
from sim.plugins.base import StrategySpec

GAME = get_game("alien-raid")
RULES = GAME.load_ruleset("alien-raid")
SEEDS = np.arange(60)


def test_planners_keep_bonus_cards_to_the_next_buying_phase_and_never_repay_early():
    seats = np.zeros((len(SEEDS), 4), np.int64)
    chunk = GAME.simulate_chunk(RULES, 4, [StrategySpec("planner")], seats, SEEDS)
    assert not chunk.errors
    assert chunk.seats["bonus_held"].sum() > 0  # cards kept when received...
    assert chunk.seats["comp_humans"].sum() > 0  # ... and cashed
    assert chunk.seats["repaid_early"].sum() == 0
    # every card kept is cashed later: 20,000 humans a card of the assumed catalog's supplies
    kept_games = chunk.seats["bonus_held"] > 0
    assert (chunk.seats["comp_humans"][kept_games] > 0).all()


def test_a_kept_card_shows_in_sim_play():
    """The random captain keeps a bonus-humans card on a coin; the turn's account says so and
    the captain's cards list it."""
    for seed in range(200):
        watched = watch(RULES, GAME.ready([StrategySpec("random")] * 3), seed)
        for frame in watched.frames:
            held = [line for line in frame.events if "keeps 1 bonus-humans card" in line]
            if held:
                seat = int(held[0].split(" ")[1]) - 1  # "captain 2 keeps ...": numbered from 1
                assert "supplies" in frame.captains[seat]["cards"], frame
                assert "supplies" in watched.text
                return
    raise AssertionError("no random captain kept a bonus-humans card in 200 games")


def test_every_parameter_place_names_its_parameter():
    """The compiled strategies read their parameters by place: each place must be the named
    parameter's in every strategy that reads it (a parameter added to the shared ones once
    moved the strong captain's own onto them)."""
    from strategies.alien_raid import decisions, planner, sampling, shopping, strong, value

    places = {"attack_worth": shopping.ATTACK_WORTH, "ship_worth": shopping.SHIP_WORTH,
              "station_worth": shopping.STATION_WORTH, "contest": decisions.CONTEST,
              "opp_power": decisions.OPP_POWER, "loss_weight": decisions.LOSS_WEIGHT,
              "comp_value": decisions.COMP_VALUE, "task_weight": decisions.TASK_WEIGHT,
              "card_worth": decisions.CARD_WORTH, "hold_bonus": decisions.HOLD_BONUS,
              "repay_early": decisions.REPAY_EARLY}  # fmt: skip
    for module in (value, planner, strong):
        names = list(module.PARAMS)
        assert {name: names.index(name) for name in places} == places, module.__name__
    names = list(strong.PARAMS)
    assert (names.index("samples"), names.index("blend")) == (sampling.SAMPLES, sampling.BLEND)
