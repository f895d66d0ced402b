"""No Thanks! on the plain path (examples/no_thanks): the rulebook's own scoring examples,
traced; a seat sees what R5 says and no more (with chips open and kept secret, R4), and the
game's own player reads only that; every command reaches the game through its entry point,
installed as pip would install it; the generic ladder against the game's own player; its
golden playthrough. The rule scenarios run in tests/test_games.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from no_thanks.game import View, points
from no_thanks.plugin import GAME

from sim.plain import Chance
from sim.plain.plugin import plain_game
from sim.plugins.base import StrategySpec
from tests.conftest import slow_scale
from tests.examples.installing import installed_env, sim
from tests.goldens import check_playthrough, folder

pytestmark = pytest.mark.without_engines  # plain Python, and so are its subprocesses

ROOT = Path(__file__).resolve().parents[2]
NO_THANKS = ROOT / "examples" / "no_thanks"


def test_the_rulebook_s_scoring_examples():
    """ "Sabrina has four single cards in front of her, totaling 41 points (4+6+10+21)";
    "Peter has a total of 28 points: 13 for the single card, and 15 for the sequence" (15,
    16); with the 14 too, "an unbroken sequence from 13 to 16, which will count as only 13
    points"; each chip takes a point off."""
    assert points([4, 6, 10, 21], 0) == 41
    assert points([13, 15, 16], 0) == 28
    assert points([13, 14, 15, 16], 0) == 13
    assert points([13, 14, 15, 16], 5) == 8


@pytest.mark.parametrize(("preset", "others"), [("no-thanks", True),
                                                ("no-thanks-secret-chips", False)])  # fmt: skip
def test_a_seat_sees_the_table_but_not_the_deck(preset, others):
    """(R4, R5) The card on offer, its chips, how many cards are left, everyone's cards, and
    the chip counts when they are open (else its own only); the deck's order and the cards
    set aside are nowhere in what it sees."""
    game = plain_game(GAME)
    table = game.start(GAME.load_ruleset(preset), 4, Chance(3))
    table.apply("pass", Chance(0))
    view = table.observation(2)
    assert isinstance(view, View)
    assert (view.offer, view.pot, view.cards_left) == (table.offer, 1, len(table.deck))
    assert view.chips == ((10, 11, 11, 11) if others else (None, None, 11, None))
    again = table.resample(2, Chance(9))
    assert again.observation(2) == view and again.deck != table.deck


def test_thrifty_plays_the_same_with_chips_kept_secret():
    """The game's own player reads the observation alone and needs no one's chips but its
    own: with the counts secret it plays exactly the games it plays with them open."""
    seats, seeds = np.zeros((20, 3), np.int64), np.arange(20)
    games = [GAME.simulate_chunk(GAME.load_ruleset(preset), 3, [StrategySpec("thrifty")], seats,
                             seeds).seats["score"]
             for preset in GAME.presets]  # fmt: skip
    assert np.array_equal(*games)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, str]:
    return installed_env(tmp_path_factory.mktemp("site"), NO_THANKS)


def test_run_report_play_and_check(installed, tmp_path):
    out, report = tmp_path / "results", tmp_path / "report"
    done = sim(installed, "run", str(NO_THANKS / "experiments" / "first_player.yaml"),
               "--games", "30", "--set", "skills=[casual]", "--jobs", "1", "--out", str(out),
               "--report-dir", str(report))  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    page = (report / "index.html").read_text()
    assert "No Thanks! balance report" in page and "Win share by seat" in page
    import polars as pl

    seats = pl.read_parquet(out / "seats")
    assert {"cards", "chips", "no_choice_turns"} <= set(seats.columns)
    played = sim(installed, "play", "--game", "no-thanks", "--seed", "3",
                 "--strategies", "club,casual,thrifty,random")  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "players: seat 1=club, seat 2=casual, seat 3=thrifty, seat 4=random" in played.stdout
    assert "takes" in played.stdout and "pays a chip on" in played.stdout
    contract = sim(installed, "check", "no-thanks", "--games", "30", "--players", "7")
    assert "contract passed" in contract.stdout, contract.stdout
    assert "no seat is shown what it may not see" in contract.stdout


@pytest.mark.slow
def test_each_level_beats_two_thrifty_players_more_often_than_the_one_below():
    """Against two of the game's own `thrifty` players, the seat rotating, on the same deals:
    each level of the generic ladder up to `strong` wins a larger share than the one below."""
    games = max(60, int(600 * slow_scale())) // 3 * 3
    seats = np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]] * (games // 3))
    seeds = np.repeat(np.arange(games // 3), 3)
    shares = []
    for level in GAME.skills[:-1]:
        lineup = [StrategySpec(level), StrategySpec("thrifty")]
        chunk = GAME.simulate_chunk(GAME.load_ruleset("no-thanks"), 3, lineup, seats, seeds)
        shares.append(float(chunk.seats["win_share"][chunk.seats["strategy"] == level].mean()))
    assert all(a < b for a, b in zip(shares, shares[1:], strict=False)), shares


def test_the_golden_playthrough_is_unchanged():
    """`sim play --game no-thanks --strategies club,casual,thrifty --seed 1`, recorded for the
    game's version; record again after a meant change (and a version bump):
    python -m tests.examples.test_no_thanks."""
    recorded = _golden()
    assert recorded.is_file(), f"no golden for version {GAME.version}: record it (see above)"
    check_playthrough(recorded.name, recorded.read_text(), _playthrough(), "turn ")


def _golden() -> Path:
    return folder("no_thanks") / f"v{GAME.version}-no-thanks-club-casual-thrifty-seed1.txt"


def _playthrough() -> str:
    lineup = [StrategySpec(name) for name in ("club", "casual", "thrifty")]
    return GAME.watch(GAME.load_ruleset("no-thanks"), lineup, 1).text


if __name__ == "__main__":
    _golden().parent.mkdir(parents=True, exist_ok=True)
    _golden().write_text(_playthrough())
    print(f"wrote {_golden()}")
