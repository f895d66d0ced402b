"""What Guardians tells the lab's measures (the plug-in's `measures()` part): one scoring event
is one token taken (the most a token is worth under the arm's rules: a 5-eye monster, 5
points, or a ship half, `tokens.ship_part_points`), a turn without a real choice is one the
seat could play only one way (`no_choice_turns`, docs/results.md), and how each ending reads.

Its own measures, of what buying an item (the missile, an upgrade, a power-up) does for the
seats of the buying strategies (`A+B`: both together), which the pricing sections read:

    <item>_use.<buyers>              items used per item bought (missile, power_up)
    <item>_points_per_point.<buyers> points the item itself took per point paid for it (missile)
    <item>_net_per_point.<buyers>    the buyers' score minus the others' per point paid

with the generic `seat_share.<bought>.<buyers>` (bought at least once), `uplift.<buyers>`.
Light: no engine."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import polars as pl

from sim.games.guardians.columns import NO_CHOICE
from sim.measures.core import Ratio
from sim.measures.seats import SeatRatio
from sim.measures.spec import GameMeasures
from sim.stored_arm import Settings, StoredArm

EYES = 5  # the most eyes a monster token has
SHIP = "tokens.ship_part_points"


def token_points(settings: Settings) -> float:
    """The most one token is worth under the arm's rules (the printed rules' when the arm's
    are unknown)."""
    ship = settings.rules.get(SHIP)
    if ship is None:
        from sim.games.guardians.ruleset import load_ruleset

        ship = load_ruleset("guardians").values[SHIP]
    return float(max(EYES, int(ship)))


@dataclass(frozen=True)
class Item:
    """Something a seat buys: its price's rule key and the seats columns counting it."""

    key: str  # in section ids and measure names
    noun: str
    price: str  # rule key (and parameter column) of the price
    bought: str  # how many the seat bought
    used: str | None  # how many it used (None: no separate use)
    points: str | None  # points the item itself took (None: unknown)


MISSILE = Item("missile", "missile", "missile.cost", "missiles_bought", "missiles_fired",
               "missile_points")  # fmt: skip
UPGRADE = Item("upgrade", "upgrade", "upgrade.cost", "upgrades_bought", None, None)
POWER_UP = Item("power_up", "power-up", "power_up.cost", "power_ups_bought", "power_ups_used",
                None)  # fmt: skip
ITEMS = (MISSILE, UPGRADE, POWER_UP)


def price(item: Item, arm: StoredArm) -> float:
    """The item's price in the arm: its parameter column, else its rules (NaN if neither)."""
    if item.price in arm.games.columns and arm.games.height:
        return float(arm.games.get_column(item.price)[0])
    value = arm.settings.rules.get(item.price)
    return float(value) if value is not None else float("nan")


def _buyers(text: str) -> tuple[str, ...]:
    return tuple(text.split("+"))


def _use(item: Item, buyers: str) -> SeatRatio:
    return SeatRatio(
        f"{item.key}_use.{buyers}", f"{item.noun}s used per {item.noun} bought",
        f"The {item.noun}s the seats {buyers} held used, per {item.noun} they bought (a share "
        "when each is used at most once), over all games.",
        pl.col(item.used), pl.col(item.bought), (item.used, item.bought), _buyers(buyers),
        rate=True,
    )  # fmt: skip


def _points_per_point(item: Item, buyers: str) -> SeatRatio:
    return SeatRatio(
        f"{item.key}_points_per_point.{buyers}", f"points per point paid for the {item.noun}",
        f"The points the {item.noun}s of the seats {buyers} held took themselves, per point "
        "paid for them (1: it pays back its price in points), over all games.",
        pl.col(item.points), lambda arm: pl.col(item.bought) * price(item, arm),
        (item.points, item.bought), _buyers(buyers),
    )  # fmt: skip


class NetPerPoint(Ratio):
    """Per game: the buyers' mean score minus the others' (x), and the buyers' mean points
    paid for the item (w); every game both play, bought in or not (what the buying strategy
    gains over them in all, per point it pays)."""

    every_game = True

    def __init__(self, item: Item, buyers: str) -> None:
        self.item, self.buyers = item, _buyers(buyers)
        self.name = f"{item.key}_net_per_point.{buyers}"
        self.label = f"net points per point paid for the {item.noun}"
        self.definition = (
            f"The mean score of the seats {buyers} held minus the other seats' mean score, per "
            f"point they paid for the {item.noun} (their mean per game), over every game both "
            "play, whether they bought or not."
        )
        self.seats_columns = ("strategy", "score", item.bought)

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        mine = pl.col("strategy").is_in(list(self.buyers))
        paid = pl.col(self.item.bought) * price(self.item, arm)
        per = arm.seats.group_by("game", maintain_order=True).agg(
            (pl.col("score").filter(mine).mean() - pl.col("score").filter(~mine).mean())
            .cast(pl.Float64).alias("x"),
            paid.filter(mine).mean().cast(pl.Float64).alias("w"),
        )  # fmt: skip
        return per.select("game", "x", pl.col("w").fill_null(0.0))


OWN_FAMILIES = tuple(
    (f"{item.key}_{what}.<buyers>", partial(make, item), about)
    for what, make, about, items in (
        ("use", _use, "items used per item bought by the buyers' seats", (MISSILE, POWER_UP)),
        ("points_per_point", _points_per_point, "points the item took per point paid for it",
         (MISSILE,)),
        ("net_per_point", NetPerPoint, "the buyers' score minus the others', per point paid",
         ITEMS),
    )
    for item in items
)  # fmt: skip

MEASURES = GameMeasures(
    scoring_event=token_points,
    scoring_event_words="one token taken, at its most valuable: a ship half or a 5-eye monster",
    no_choice=(NO_CHOICE, "turns_played"),
    no_choice_words="the seat could play its turn only one way (a destroyed fighter with no way "
    "back that turn; a fighter that cannot move, buy, or use a missile, power-up or the mine)",
    length=("turns", "rounds"),
    ends={
        "victory": "end with the board cleared",
        "stall": "end in a stall (a round without a hit)",
        "raid": "are lost by everybody to a raid",
        "cap": "are cut at the turn cap",
    },
    own_families=OWN_FAMILIES,
)


def game_measures() -> GameMeasures:
    """The plug-in's `measures`."""
    return MEASURES
