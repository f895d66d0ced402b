"""Interval coverage, measured: small setups are replayed with many different root seeds, and
the 95% intervals the reports print must cover the truth in about 95% of the replays. Replay
r's truth is the same quantity from every other replay pooled (leave one out): games on seeds
replay r never plays, as many as all the replays but one, so no run is played only to be the
truth.

The intervals are the ones the reports print, from the measure registry (sim/measures): a rate
(`raid_rate`, Wilson), the paired difference of two arms on the same seeds (the same measure's
`paired`), MOVER differences of two intervals (sim.report.answers.difference: two runs on other
seeds, as `sim report --compare`; two arms on the same seeds, as skill levels), the break-even
price's interval (sim.stats.bootstrap.break_even_interval, straight lines between tried prices,
which the pricing sections print; break_even_fit_interval, a fitted cubic; a percentile
bootstrap of the crossing, used before, covered 92.7% here), the alien-raid fair card price
(price + the interval of the probes' effect, `buy_effect.<card>`, as
sim/games/alien_raid/report/cards.py reads it) and a replay group's seat and strategy figures
with each deal's seatings one unit (sim/measures/blocks.py).

The break-even's truth is measured two ways: the crossing of the other replays' curve at the
same prices (what the straight-line interval is for), and at every whole price near the
crossing (what a designer wants: each replay also plays 13 and 14). Many more replications,
resampled from all the replays' games, measure the coverage to +-0.7 pp (4,000) where 300
replays measure it to +-2.5 pp.

Slow: full size with SIM_SLOW_SCALE=1 (about 20 minutes of CPU; `-s` prints the table that
docs/reports.md quotes), slimmed to a smoke check under `make test` (SIM_SLOW_SCALE=0.1), where
the bound widens with the fewer replays. The seat blocks also play fewer deals there (100 for
400): a master's games are the suite's dearest, and the check's power is its replays, which
stay; each interval still rests on 100 deal blocks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl
import pytest

from sim.measures import StoredArm, registry_for
from sim.measures.blocks import replayed
from sim.plugins import get_game
from sim.plugins.base import StrategySpec
from sim.report.answers import Estimate, difference
from sim.seeds import game_seeds
from sim.stats.bootstrap import break_even, break_even_fit_interval, break_even_interval
from tests.conftest import slow_scale

LEVEL = 0.95


def replays(full: int) -> int:
    return max(30, round(full * slow_scale()))


def left_out(totals: np.ndarray, r: int) -> np.ndarray:
    """Per-replay totals (axis 0) summed over every replay but r: replay r's truth is read from
    games that share no seed with it."""
    return totals.sum(axis=0) - totals[r]


@dataclass
class Coverage:
    what: str
    covered: int
    replays: int

    @property
    def share(self) -> float:
        return self.covered / self.replays

    def floor(self) -> float:
        """The lowest share a 95% interval reaches over this many replays but in the 0.135% of
        runs beyond three standard errors: an exact binomial tail, since the normal one is poor
        at the 30 replays of the slimmed run (it asked 25 of 30 where the tail allows 24)."""
        return _lowest_count(self.replays) / self.replays

    def row(self) -> str:
        """'| what | intervals | coverage |', a row of the table docs/reports.md quotes."""
        return f"| {self.what} | {self.replays} | {100 * self.share:.1f}% |"


def _lowest_count(replays: int, tail: float = 0.00135) -> int:
    """The least k with P(covered <= k) >= `tail` when each replay covers with LEVEL: fewer
    than k covered happens in under `tail` of the runs."""
    below = 0.0
    for k in range(replays + 1):
        log_pmf = (math.lgamma(replays + 1) - math.lgamma(k + 1) - math.lgamma(replays - k + 1)
                   + k * math.log(LEVEL) + (replays - k) * math.log(1 - LEVEL))  # fmt: skip
        below_k = below + math.exp(log_pmf)  # in logs: the binomial coefficient overflows
        if below_k >= tail:
            return k
        below = below_k
    return replays


def report(*found: Coverage) -> None:
    for c in found:
        print(c.row())


# --- Guardians: raid rates, paired and MOVER differences ------------------------------------

GUARDIANS = get_game("guardians")
TABLES = np.array([[0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0]])  # rotated buyer


def play(rules: list[tuple[str, object]], lineup: list[StrategySpec], root: int, games: int):
    ruleset = GUARDIANS.load_ruleset("guardians", rules)
    seats = TABLES[np.arange(games) % len(TABLES)]
    return GUARDIANS.simulate_chunk(ruleset, 4, lineup, seats, game_seeds(root, 0, games))


CLUB = [StrategySpec("club"), StrategySpec("club")]
STEAL = {"lowest": [("shot.steal", "lowest")], "highest": [("shot.steal", "highest")]}


def raids(rules, root: int, games: int) -> np.ndarray:
    return (play(rules, CLUB, root, games).games["outcome"] == "raid").astype(float)


RAID_RATE = registry_for("guardians").get("raid_rate")


def raid_arm(raided: np.ndarray) -> StoredArm:
    """Games whose outcome is a raid where `raided` is 1, as the registry reads an arm."""
    outcome = np.where(raided == 1, "raid", "victory")
    games = pl.DataFrame({"game": np.arange(raided.size), "outcome": outcome})
    return StoredArm(games, pl.DataFrame({"game": [], "seat": []}))


@pytest.mark.slow
def test_rates_and_differences_cover_the_truth():
    n, reps = 1000, replays(400)
    # per replay: raids under lowest and highest on its seeds, and highest on another run's
    raided = np.zeros((reps, 3))
    wilson, paired, runs, same = (np.zeros((reps, 2)) for _ in range(4))  # (low, high)
    for r in range(reps):
        a = raids(STEAL["lowest"], r, n)
        b = raids(STEAL["highest"], r, n)  # the same seeds: an arm of the same run
        other = raids(STEAL["highest"], reps + r, n)  # another run's seeds
        raided[r] = a.sum(), b.sum(), other.sum()
        ra, rb, ro = (RAID_RATE.estimate(raid_arm(x)) for x in (a, b, other))
        wilson[r] = ra.low, ra.high
        d = RAID_RATE.paired(raid_arm(a), raid_arm(b))
        paired[r] = d.low, d.high
        ea, eb, eo = (Estimate("x", "x", q.value, q.low, q.high) for q in (ra, rb, ro))
        runs[r] = _bounds(difference(eo, ea))
        same[r] = _bounds(difference(eb, ea))
    rate_truth, diff_truth = np.zeros(reps), np.zeros(reps)
    for r in range(reps):
        low, high, other = left_out(raided, r) / (n * (reps - 1))
        rate_truth[r], diff_truth[r] = low, (high + other) / 2 - low
    found = [
        Coverage(f"Wilson rate (raid rate {rate_truth.mean():.1%}, {n:,} games)",
                 _covered(rate_truth, wilson), reps),
        Coverage(f"paired difference (raid rate {diff_truth.mean():+.1%}, {n:,} paired games)",
                 _covered(diff_truth, paired), reps),
        Coverage("MOVER difference, two runs on other seeds (--compare)",
                 _covered(diff_truth, runs), reps),
        Coverage("MOVER difference, two arms on the same seeds (skill levels)",
                 _covered(diff_truth, same), reps),
    ]  # fmt: skip
    report(*found)
    for c in found:
        assert c.share >= c.floor(), c


def _bounds(d) -> tuple[float, float]:
    return d.low, d.high


def _covered(truth: np.ndarray, bounds: np.ndarray) -> int:
    """How many replays' (low, high) hold their own truth."""
    return int(np.sum((bounds[:, 0] <= truth) & (truth <= bounds[:, 1])))


# --- Guardians: paired seat blocks ----------------------------------------------------------

MASTER = [StrategySpec("master"), StrategySpec("club")]
SEAT_FIGURES = ("win_share.master", "win_share.seat.0")


def seatings(root: int, deals: int) -> StoredArm:
    """Every deal played in the four seatings of a master among three club players (seating t
    seats the master in seat t), as a replay group's arms, read together (deal blocks)."""
    ruleset = GUARDIANS.load_ruleset("guardians", [])
    arms = []
    for t in range(len(TABLES)):
        chunk = GUARDIANS.simulate_chunk(ruleset, 4, MASTER, np.tile(TABLES[t], (deals, 1)),
                                         game_seeds(root, 0, deals))  # fmt: skip
        seats = pl.DataFrame({c: np.asarray(chunk.seats[c]) for c in ("seat", "strategy",
                                                                       "win_share")})  # fmt: skip
        seats = seats.with_columns(pl.Series("game", np.repeat(np.arange(deals), 4)))
        arms.append(StoredArm(pl.DataFrame({"game": np.arange(deals)}), seats))
    return replayed(arms)


@pytest.mark.slow
def test_paired_seat_blocks_cover_the_truth():
    """The seat and strategy figures of a replay group, each deal's four seatings one unit,
    against the other replays' pooled figure; beside them the same games read one by one (as
    if every game were its own deal): the widths are printed, the blocks' coverage asserted."""
    deals, reps = max(100, round(400 * slow_scale())), replays(400)
    registry = registry_for("guardians")
    totals = np.zeros((reps, len(SEAT_FIGURES)))
    blocked, alone = (np.zeros((reps, len(SEAT_FIGURES), 2)) for _ in range(2))
    for r in range(reps):
        arm = seatings(r, deals)
        one_by_one = StoredArm(arm.games.drop("deal"), arm.seats, arm.settings)
        for k, name in enumerate(SEAT_FIGURES):
            m = registry.get(name)
            v, u = m.estimate(arm), m.estimate(one_by_one)
            totals[r, k] = v.value
            blocked[r, k], alone[r, k] = (v.low, v.high), (u.low, u.high)
    found = []
    for k, name in enumerate(SEAT_FIGURES):
        truth = np.array([left_out(totals[:, k], r) / (reps - 1) for r in range(reps)])
        width = np.mean(blocked[:, k, 1] - blocked[:, k, 0])
        before = np.mean(alone[:, k, 1] - alone[:, k, 0])
        found.append(Coverage(f"paired seat blocks, `{name}` ({truth.mean():.1%}; {deals} deals "
                              f"x 4 seatings of master + 3 club; mean width {100 * width:.2f} pp, "
                              f"{100 * before:.2f} pp with each game one unit)",
                              _covered(truth, blocked[:, k]), reps))  # fmt: skip
        print(f"  games one by one: {name} covered "
              f"{_covered(truth, alone[:, k]) / reps:.1%}")  # fmt: skip
    report(*found)
    for c in found:
        assert c.share >= c.floor(), c


# --- Guardians: the break-even price --------------------------------------------------------

PRICES = (6, 9, 12, 15, 18)
BUYER = [StrategySpec("club", (("missile_at", 16),)), StrategySpec("club")]


def uplift(price: float, root: int, games: int) -> np.ndarray:
    """Per game: the buyer's win share minus the fair share (the pricing section's uplift)."""
    chunk = play([("missile.cost", price)], BUYER, root, games)
    share = np.asarray(chunk.seats["win_share"], dtype=float).reshape(games, 4)
    buyer = np.asarray(chunk.seats["strategy"]).reshape(games, 4) == BUYER[0].label
    return share[buyer] - share.sum(axis=1) / 4


def curve_crossing(prices, means) -> float:
    return break_even(np.array(prices, dtype=float), np.asarray(means, dtype=float))


NEAR = (13, 14)  # the whole prices between the tried ones around the crossing (13.2 to 13.4)
PLAYED = tuple(sorted((*PRICES, *NEAR)))
READS = ("at the same prices", "at every whole price near it")
INTERVALS = {  # the break-even's interval: straight lines between tried prices, a fitted cubic
    "straight lines": lambda x, v: break_even_interval(x, v),
    "fitted cubic": lambda x, v: break_even_fit_interval(x, v, degree=3),
}


def crossings(means: np.ndarray) -> tuple[float, float]:
    """The crossing of a curve (means at PLAYED) read at the tried prices, and at every whole
    price near the crossing (the break-even a designer wants)."""
    tried = [PLAYED.index(p) for p in PRICES]
    return curve_crossing(PRICES, means[tried]), curve_crossing(PLAYED, means)


@pytest.mark.slow
def test_the_break_even_interval_covers_the_crossing_of_the_curve_it_reads():
    """Each replay plays every price of PLAYED on its seeds; its intervals read the tried
    PRICES. Truths: the other replays' curve read at the tried prices, and at every whole
    price near the crossing. Then many more replications, resampled from every replay's games
    pooled (2,000 games drawn with replacement; truth: the pooled curve's crossing): the
    measurement's own noise at 300 replays is about +-2.5 pp."""
    n, reps = 2000, replays(300)
    games = np.zeros((reps, len(PLAYED), n))
    for r in range(reps):
        games[r] = np.vstack([uplift(p, r, n) for p in PLAYED])
    found = break_even_coverage(games) + resampled(games, n, replays(4000))
    report(*found)
    for c in found:
        assert c.share >= c.floor(), c


def break_even_coverage(games: np.ndarray) -> list[Coverage]:
    """games: replays x PLAYED x games, the per-game uplift."""
    reps, _, n = games.shape
    tried = [PLAYED.index(p) for p in PRICES]
    bounds = {name: np.zeros((reps, 2)) for name in INTERVALS}
    for r in range(reps):
        for name, interval in INTERVALS.items():
            bounds[name][r] = interval(np.array(PRICES, float), games[r, tried])
    means = games.mean(axis=2)
    truths = np.array([crossings(left_out(means, r) / (reps - 1)) for r in range(reps)])
    found = []
    for name in INTERVALS:
        for k, read in enumerate(READS):
            found.append(Coverage(
                f"break-even price, {name} (prices {PRICES}, {n:,} games a price; truth: the "
                f"other replays' curve {read}, {truths[:, k].mean():.2f}, {(reps - 1) * n:,} "
                "games a price)", _covered(truths[:, k], bounds[name]), reps))  # fmt: skip
    return found


def resampled(games: np.ndarray, n: int, count: int) -> list[Coverage]:
    """Coverage over `count` replications of n games drawn from every replay's games."""
    pool = games.transpose(1, 0, 2).reshape(len(PLAYED), -1)
    truth = crossings(pool.mean(axis=1))
    tried = [PLAYED.index(p) for p in PRICES]
    rng = np.random.default_rng(2026)
    bounds = {name: np.zeros((count, 2)) for name in INTERVALS}
    for b in range(count):
        drawn = pool[tried][:, rng.integers(0, pool.shape[1], n)]
        for name, interval in INTERVALS.items():
            bounds[name][b] = interval(np.array(PRICES, float), drawn)
    found = []
    for name, b in bounds.items():
        finite = np.isfinite(b).all(axis=1)
        width = np.mean(b[finite, 1] - b[finite, 0])
        for k, read in enumerate(READS):
            found.append(Coverage(
                f"break-even price, {name}, {count:,} replications resampled from the "
                f"{pool.shape[1]:,} games of every replay (truth: their curve {read}, "
                f"{truth[k]:.2f}; mean width {width:.2f})",
                _covered(np.full(count, truth[k]), b), count))  # fmt: skip
    return found


# --- Alien raid: the fair card price --------------------------------------------------------

ALIEN = get_game("alien-raid")
CARDS = ("war-saucer", "raider-saucer", "scout-saucer")  # the most probed ones
EFFECT = {card: registry_for(ALIEN).get(f"buy_effect.{card}") for card in CARDS}


def probes(root: int, games: int) -> StoredArm:
    """A run of purchase probes (every captain buys or declines an offered card on a coin)."""
    ruleset = ALIEN.load_ruleset("alien-raid")
    lineup = [StrategySpec("planner", (("probe_buy", 1),))]
    chunk = ALIEN.simulate_chunk(ruleset, 4, lineup, np.zeros((games, 4), np.int64),
                             game_seeds(root, 0, games))  # fmt: skip
    columns = ("seat", "score", "win_share", "probe_card", "probe_bought")
    seats = pl.DataFrame({c: np.asarray(chunk.seats[c]) for c in columns})
    seats = seats.with_columns(pl.Series("game", np.repeat(np.arange(games), 4)))
    return StoredArm(seats.select("game").unique(), seats)


def probe_totals(arm: StoredArm, card: str) -> tuple[float, int, float, int]:
    """The summed final humans and the count of the probes that bought the card, and of
    those that declined it."""
    probed = arm.seats.filter(pl.col("probe_card") == card)
    yes = probed.filter(pl.col("probe_bought") == 1)["score"]
    no = probed.filter(pl.col("probe_bought") == 0)["score"]
    return float(yes.sum()), yes.len(), float(no.sum()), no.len()


@pytest.mark.slow
def test_the_fair_card_price_covers_the_truth():
    """The fair price is the price plus the probes' effect on final humans; the price is a
    constant, so covering the effect's truth is covering the fair price's."""
    n, reps = 600, replays(200)
    # per replay and card: the summed final humans and the count of the probes that bought it
    # and of those that declined; the card's interval (NaN where too few probes)
    totals = np.zeros((reps, len(CARDS), 4))
    bounds = np.zeros((reps, len(CARDS), 2))
    for r in range(reps):
        arm = probes(r, n)
        for k, card in enumerate(CARDS):
            totals[r, k] = probe_totals(arm, card)
            d = EFFECT[card].estimate(arm)
            bounds[r, k] = d.low, d.high
    truth = np.zeros((reps, len(CARDS)))
    for r in range(reps):
        yes_sum, yes_n, no_sum, no_n = left_out(totals, r).T
        truth[r] = yes_sum / yes_n - no_sum / no_n
    told = ~np.isnan(bounds[:, :, 0])
    covered = _covered(truth[told], bounds[told])
    found = Coverage(f"alien-raid fair card price ({', '.join(CARDS)}: {reps} replays of "
                     f"{n:,} games, one interval a card)", covered, int(told.sum()))  # fmt: skip
    report(found)
    assert found.share >= found.floor(), found
