"""Measures: every number the lab reports about a game, each a small object computing from one
arm's stored games, in one registry per game shared by the reports, `sim tune` and the Python
API.

Computing
---------
    from sim.measures import measure_table, paired_table, registry_for

    measure_table("results/quality", ["victory_rate", "leader_wins.half", "close_rate"])
    #  -> polars DataFrame: arm, base_arm, skill, measure, value, low, high, se, n
    paired_table("results/what_if", ["close_rate"], baseline="baseline")
    #  -> arm, baseline, base_arm, skill, measure, value (arm - baseline), low, high, se, n, p

    registry = registry_for("guardians")              # the game's Registry
    m = registry.get("win_share.seat.0")              # a Measure
    m.estimate(arm)  -> Value(value, low, high, se, n)             # one arm
    m.paired(arm_a, arm_b) -> Value                                # b - a on the same games

`arm` is a `sim.results.StoredArm(games, seats, settings)`: one arm's games as polars
DataFrames (one row per game; one per game and seat; both with `game`, the index that has the
same seed in every arm) and the arm's `Settings` (players, lineup, flat rule values).
`sim.measures.read_arm` reads one from a results folder, only the columns the measures name
(`games_columns`, `seats_columns`); a report's arms are `Results.stored(name)`. A `Value` is
the estimate, its 95% interval, its standard error and the number of games it rests on; a
verdict, a target or the precision stop reads it as is.

Names
-----
Fixed names (`close_rate`, `lead_changes`, `median_margin`, `decided_last_round`,
`no_choice_share`, `mean_score`, `winner_score`, `decided_rate`, ...) and families
(`<outcome>_rate`, `win_share.seat.<k>`, `win_share.<strategy>`, `uplift.<strategy>`,
`uplift.seat.<k>`, `seat_advantage.<k>`, `won_share.seat.<k>`, `score.seat.<k>`,
`beats.<A>><B>`, `leader_wins.<fraction>`, `last_wins.<fraction>`, `mean_<column>`,
`median_<column>`, `seat_mean.<column>[.<strategy>]`, `seat_share.<column>[.<strategy>]`,
`game_total.<column>`, `never_wins.seat.<k>`, `never_wins_excess.seat.<k>`; `A+B` for the
seats of two strategies together), and each game's own;
`registry.describe()` lists them with their definitions. A name is registered once: a
duplicate is refused. The reports, `sim tune`, the precision stop and `sim.lab` read these
measures and nothing else: a figure the registry lacks is added to it.

Deal blocks
-----------
Arms that play the same deals (game i is one seed in every arm) in several seatings are read
as one arm by `sim.measures.blocks.replayed(arms)`: its games carry a `deal` column, and every
ratio measure then counts a deal, all its seatings, as one unit (a replay group's seat and
strategy figures; the deals a seat never wins).

Adding a measure
----------------
Most measures are a ratio of per-game sums: subclass `Ratio`, set `name`, `label`, `unit`
('share' or 'num'), `definition` and the columns read, and return from `per_game(arm)` a
frame of `game, x, w` (the value is sum(x) / sum(w) over the games with w > 0; a plain mean has
w = 1, a rate among some games w = 1 for those). Intervals, standard errors and paired
differences come with it (delta method; Wilson for rates of one unit per game). `Share` and
`Column` are the one-line cases, `SeatRatio` (sim/measures/seats.py) a ratio over seats (of
some strategies); `Quantile` a median or other quantile; `Contrast` the difference of two
ratios over the same games, `SeatContrast` of two groups of seats (bought minus declined in a
randomised probe).
Register a generic measure in `generic.py`; a game's own goes in its `measures()` part
(`GameMeasures.own` and `own_families`, sim/games/<game>/measures.py), which also says what
the generic ones need to know about it (sim/measures/spec.py).
"""

from sim.measures.core import Contrast, Measure, Quantile, Ratio, Share, Value
from sim.measures.registry import Registry, UnknownMeasure
from sim.measures.spec import GameMeasures
from sim.measures.tables import measure_table, paired_table, read_arm, registry_for
from sim.stored_arm import Settings, StoredArm

__all__ = [
    "Contrast",
    "GameMeasures",
    "Measure",
    "Quantile",
    "Ratio",
    "Registry",
    "Settings",
    "Share",
    "StoredArm",
    "UnknownMeasure",
    "Value",
    "measure_table",
    "paired_table",
    "read_arm",
    "registry_for",
]
