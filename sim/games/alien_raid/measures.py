"""What alien-raid tells the lab's measures (the plug-in's `measures()` part): one scoring
event is one raid of the richest city in the arm's card catalog (the most humans a conquest
brings without a catch), and how each ending reads. No count of turns without a choice: every
turn deals cities and every captain keeps its training saucer, so each captain chooses where
its ships attack every turn.

Its own measure of what a card is worth, from the randomised purchase probes
(strategies/alien_raid/probes.py: with `probe_buy: 1`, once a game a captain offered a card it
can pay for buys it or not on a fair coin, and the seats table records which card and the
coin's side).

    buy_effect.<card>   the final humans of the probed seats that bought the card minus those
                        that declined it: what buying it at its price adds. 0 when the card
                        costs what it is worth; the fair price is the price plus this
                        (the cards section's "humans from buying", sim/games/alien_raid/report).

Light: no engine."""

from __future__ import annotations

import re

import polars as pl

from sim.games.alien_raid.columns import PROBE_CARD
from sim.measures.core import Contrast, Frames, Settings
from sim.measures.spec import GameMeasures

RAID = ("catalog.cities.", ".raid")
_CARD = re.compile(r"^[a-z0-9][a-z0-9-]*$")  # a catalog's card names


def richest_raid(settings: Settings) -> float:
    """The largest raid of a city card under the arm's rules (the printed preset's when the
    arm's are unknown)."""
    rules = settings.rules
    if not any(k.startswith(RAID[0]) for k in rules):
        from sim.games.alien_raid.ruleset import load_ruleset

        rules = load_ruleset("alien-raid").values
    raids = [float(v) for k, v in rules.items() if k.startswith(RAID[0]) and k.endswith(RAID[1])]
    return max(raids)


class BuyEffect(Contrast):
    unit = "num"
    seats_columns = (PROBE_CARD, "probe_bought", "score")

    def __init__(self, card: str) -> None:
        self.card = card
        self.name = f"buy_effect.{card}"
        self.label = f"humans from buying the {card}"
        self.definition = (
            f"In the purchase probes (strategy parameter probe_buy: 1), the mean final humans "
            f"of the seats whose coin bought the {card} minus those whose coin declined it: "
            "what buying it at its price adds (0 when it costs what it is worth)."
        )

    def per_game(self, frames: Frames) -> pl.DataFrame:
        probed = frames.seats.filter(pl.col(PROBE_CARD) == self.card)
        bought = pl.col("probe_bought") == 1
        sides = probed.group_by("game").agg(
            pl.col("score").filter(bought).sum().alias("x1"), bought.sum().alias("w1"),
            pl.col("score").filter(~bought).sum().alias("x0"), (~bought).sum().alias("w0"),
        )  # fmt: skip
        every = frames.seats.select("game").unique()
        return every.join(sides, on="game", how="left").fill_null(0)


def _buy_effect(card: str) -> BuyEffect | None:
    return BuyEffect(card) if _CARD.match(card) else None


MEASURES = GameMeasures(
    scoring_event=richest_raid,
    scoring_event_words="one raid of the richest city in the card catalog",
    score_unit="humans",
    no_choice_words="every turn deals cities and every captain keeps its training saucer, so "
    "each captain chooses where its ships attack",
    length=("turns",),
    ends={"win": "have a single winner", "shared": "end in a shared win"},
    own_families=(("buy_effect.<card>", _buy_effect,
                   "humans a bought card adds in the purchase probes (0: priced at its worth)"),),
)  # fmt: skip


def game_measures() -> GameMeasures:
    """The plug-in's `measures`."""
    return MEASURES
