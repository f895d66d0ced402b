"""What alien-raid tells the lab's measures (the plug-in's `measures()` part): one scoring
event is one raid of the richest city in the arm's card catalog (the most humans a conquest
brings without a catch), and how each ending reads. No count of turns without a choice: every
turn deals cities and every captain keeps its training saucer, so each captain chooses where
its ships attack every turn.

Its own measures, which its report sections read. From the randomised probes (strategies/
alien_raid/probes.py: with `probe_buy: 1`, once a game a captain offered a card it can pay
for buys it or not on a fair coin; `probe_credit`, `probe_reward` likewise for the first
credit and for raid or catch; the seats table records the coin's side):

    buy_effect.<card>      the final humans of the probed seats that bought the card minus
                           those that declined it: what buying it at its price adds. 0 when
                           the card costs what it is worth; the fair price is the price plus
                           this (the cards section's "humans from buying")
    buy_win_effect.<card>  the same for the win share
    credit_effect, credit_win_effect, credit_count_effect    the first credit taken minus
                                                             declined
    raid_humans, catch_humans, catch_gain, catch_risk    raid against catch

and, read from every game: `purchase_rate.<card>` (bought per offer), `owner_edge.<card>`
and `task_leader_edge` (associations, not effects), `tasks_decide_rate`.

Light: no engine."""

from __future__ import annotations

import re

import polars as pl

from sim.games.alien_raid.columns import BOUGHT, OFFERED, PROBE_CARD, card_column
from sim.measures.core import Ratio
from sim.measures.seats import SeatContrast, SeatRatio
from sim.measures.spec import GameMeasures
from sim.stored_arm import Settings, StoredArm

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


def _card(make):
    return lambda card: make(card) if _CARD.match(card) else None


def buy_effect(card: str, value: str = "score") -> SeatContrast:
    """The probes' effect of buying the card on a seats column (final humans, win share)."""
    probed = pl.col(PROBE_CARD) == card
    if value == "score":
        return SeatContrast(
            f"buy_effect.{card}", f"humans from buying the {card}",
            f"In the purchase probes (strategy parameter probe_buy: 1), the mean final humans "
            f"of the seats whose coin bought the {card} minus those whose coin declined it: "
            "what buying it at its price adds (0 when it costs what it is worth).",
            "score", pl.col("probe_bought") == 1, pl.col("probe_bought") == 0,
            (PROBE_CARD, "probe_bought"), among=probed,
        )  # fmt: skip
    return SeatContrast(
        f"buy_win_effect.{card}", f"win share from buying the {card}",
        f"In the purchase probes, the mean win share of the seats whose coin bought the {card} "
        "minus those whose coin declined it.",
        "win_share", pl.col("probe_bought") == 1, pl.col("probe_bought") == 0,
        (PROBE_CARD, "probe_bought"), among=probed, unit="share",
    )  # fmt: skip


def owner_edge(card: str) -> SeatContrast:
    bought = pl.col(card_column(BOUGHT, card))
    return SeatContrast(
        f"owner_edge.{card}", f"win share of the {card}'s owners against the others",
        f"The mean win share of the seats that bought the {card} minus the others' (an "
        "association: who buys is not random).",
        "win_share", bought > 0, bought == 0, (card_column(BOUGHT, card),), unit="share",
    )  # fmt: skip


def purchase_rate(card: str) -> SeatRatio:
    bought, offered = card_column(BOUGHT, card), card_column(OFFERED, card)
    return SeatRatio(
        f"purchase_rate.{card}", f"the {card} bought when offered",
        f"The {card}s bought per offer of one to a seat that could pay for it, over all games.",
        pl.col(bought), pl.col(offered), (bought, offered), unit="share", rate=True,
    )  # fmt: skip


_CREDIT = pl.col("cp_turn") > 0  # the credit probes: a coin decided the first credit of a game
_TOOK, _DECLINED = pl.col("cp_took") == 1, pl.col("cp_took") == 0
_RAIDED = (pl.col("rp_armies") > 0) & (pl.col("rp_choice") == 0)  # coin-decided rewards
_CAUGHT = (pl.col("rp_armies") > 0) & (pl.col("rp_choice") == 1)
_REWARD = ("rp_armies", "rp_choice")


class TasksDecide(Ratio):
    """The share of games whose winner the task rewards changed."""

    rate = True
    name, label, unit = "tasks_decide_rate", "games the tasks decide", "share"
    definition = ("The share of games whose winner (the first seat with the most humans) would "
                  "be another seat without the humans the tasks paid.")  # fmt: skip
    seats_columns = ("score", "task_humans")

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        def first_best(value: pl.Expr) -> pl.Expr:
            return pl.col("seat").sort_by([value, pl.col("seat")], descending=[True, False]).first()

        per = arm.seats.group_by("game", maintain_order=True).agg(
            first_best(pl.col("score")).alias("with"),
            first_best(pl.col("score") - pl.col("task_humans")).alias("without"),
        )
        return per.select("game", (pl.col("with") != pl.col("without")).alias("x"),
                          pl.lit(1.0).alias("w"))  # fmt: skip


OWN = (
    SeatContrast(
        "credit_effect", "humans from the first credit",
        "In the credit probes (probe_credit: the first credit of a game taken or not on a "
        "coin), the mean final humans of the captains who took it minus those who did not.",
        "score", _TOOK, _DECLINED, ("cp_turn", "cp_took"), among=_CREDIT,
    ),
    SeatContrast(
        "credit_win_effect", "win share from the first credit",
        "In the credit probes, the mean win share of the captains who took the first credit "
        "minus those who did not.",
        "win_share", _TOOK, _DECLINED, ("cp_turn", "cp_took"), among=_CREDIT, unit="share",
    ),
    SeatContrast(
        "credit_count_effect", "credits taken after the first",
        "In the credit probes, the mean credits taken in the game by the captains who took the "
        "first one minus those who did not: what one more credit leads to.",
        "credits_taken", _TOOK, _DECLINED, ("cp_turn", "cp_took"), among=_CREDIT,
    ),
    SeatContrast(
        "task_leader_edge", "win share of the first to finish a task against the others",
        "The mean win share of the captains who finished a task first minus the others' (an "
        "association).",
        "win_share", pl.col("tasks_first") > 0, pl.col("tasks_first") == 0, ("tasks_first",),
        unit="share",
    ),
    TasksDecide(),
    SeatRatio(
        "raid_humans", "humans of a raid",
        "In the reward probes (probe_reward: raid or catch on a coin), the mean humans a raid "
        "brought.",
        pl.col("rp_humans").filter(_RAIDED), _RAIDED, ("rp_humans", *_REWARD),
    ),
    SeatRatio(
        "catch_humans", "humans of a catch",
        "In the reward probes, the mean humans a catch brought.",
        pl.col("rp_humans").filter(_CAUGHT), _CAUGHT, ("rp_humans", *_REWARD),
    ),
    SeatContrast(
        "catch_gain", "humans of a catch minus a raid",
        "In the reward probes, the mean humans a catch brought minus those a raid brought.",
        "rp_humans", _CAUGHT, _RAIDED, _REWARD,
    ),
    SeatRatio(
        "catch_risk", "catches losing a ship",
        "In the reward probes, the share of the catches that lost a ship.",
        (pl.col("rp_lost") > 0).filter(_CAUGHT), _CAUGHT, ("rp_lost", *_REWARD),
        unit="share", rate=True,
    ),
)  # fmt: skip


MEASURES = GameMeasures(
    scoring_event=richest_raid,
    scoring_event_words="one raid of the richest city in the card catalog",
    score_unit="humans",
    no_choice_words="every turn deals cities and every captain keeps its training saucer, so "
    "each captain chooses where its ships attack",
    length=("turns",),
    ends={"win": "have a single winner", "shared": "end in a shared win"},
    own=OWN,
    own_families=(
        ("buy_effect.<card>", _card(buy_effect),
         "humans a bought card adds in the purchase probes (0: priced at its worth)"),
        ("buy_win_effect.<card>", _card(lambda card: buy_effect(card, "win_share")),
         "the win share a bought card adds in the purchase probes"),
        ("owner_edge.<card>", _card(owner_edge),
         "the win share of a card's owners minus the others' (an association)"),
        ("purchase_rate.<card>", _card(purchase_rate), "a card's purchases per offer"),
    ),
)  # fmt: skip


def game_measures() -> GameMeasures:
    """The plug-in's `measures`."""
    return MEASURES
