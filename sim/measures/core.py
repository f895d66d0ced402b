"""What a measure is: a small object computing one number, with its 95% interval, from one
arm's stored games, and the paired difference of that number between two arms played on the
same seeds.

- ``Value(value, low, high, se, n)``: an estimate, its interval, its standard error and the
  games it rests on (the form every answer, target and verdict reads).
- a measure reads one arm as ``sim.results.StoredArm(games, seats, settings)``: its stored
  games as polars frames (one row per game, one per game and seat; any columns the measures
  name) and the arm's settings (players, lineup, rule values), which some measures read (the
  points of one scoring event).
- ``Ratio``: the workhorse: a measure defined per game as a pair (x, w), its value the ratio
  of sums sum(x) / sum(w) over the games with w > 0. A plain mean has w = 1; a rate among some
  games has w = 1 for those games and x in {0, 1}; a share of turns has x = turns of a kind,
  w = turns. Its standard error is the delta method's (linearised: z_g = (x_g - R w_g) / mean(w),
  se = sd(z) / sqrt(n)), which stays right when a game holds several units (seats); a rate
  whose games each count once (w in {0, 1}) gets the Wilson interval instead. The paired
  difference of two arms is the same linearisation on the games both played: z_b - z_a.
- ``Quantile``: a quantile of a per-game value, with the distribution-free (binomial order
  statistic) interval; paired differences by a seeded bootstrap over the common games.

Nothing here knows a game or reads files (``sim.measures.tables`` does).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from sim.stats.intervals import Z95, wilson
from sim.stored_arm import Settings, StoredArm

NAN = float("nan")
RESAMPLED_INDICES = 500_000  # unit indices a quantile's bootstrap draws in one block
DEAL = "deal"  # a games column: the games with one value are one deal in several seatings


@dataclass(frozen=True)
class Value:
    """An estimate with its 95% interval, standard error and the games it rests on."""

    value: float
    low: float
    high: float
    se: float
    n: int

    @classmethod
    def missing(cls, n: int = 0) -> Value:
        return cls(NAN, NAN, NAN, NAN, n)

    @classmethod
    def normal(cls, value: float, se: float, n: int) -> Value:
        """value +- 1.96 se."""
        if not (math.isfinite(value) and math.isfinite(se)):
            return cls(value, NAN, NAN, se, n)
        return cls(value, value - Z95 * se, value + Z95 * se, se, n)

    @property
    def pvalue(self) -> float:
        """Two-sided p-value of "the true value is 0" (normal; for differences)."""
        if not (math.isfinite(self.value) and math.isfinite(self.se)):
            return NAN
        if self.se == 0.0:
            return 1.0 if self.value == 0.0 else 0.0
        return math.erfc(abs(self.value) / self.se / math.sqrt(2.0))  # 2 (1 - Phi(|z|))

    @property
    def excludes_zero(self) -> bool:
        return (
            math.isfinite(self.low)
            and math.isfinite(self.high)
            and not (self.low <= 0.0 <= self.high)
        )

    def as_dict(self, prefix: str = "") -> dict[str, Any]:
        """{'value', 'low', 'high', 'se', 'n'} (each key prefixed)."""
        return {f"{prefix}{k}": getattr(self, k) for k in ("value", "low", "high", "se", "n")}


class Measure:
    """A named number computed from one arm's stored games.

    Subclasses set `name` (unique in a registry), `label` (in words), `unit` ('share': a rate
    or share, shown in % and differences in pp; 'num': a plain quantity), `definition` (one
    or two sentences: what is counted, over which games), and the columns they read
    (`games_columns`, `seats_columns`), and implement `estimate` and `paired`."""

    name: str = ""
    label: str = ""
    unit: str = "num"
    definition: str = ""
    games_columns: tuple[str, ...] = ()
    seats_columns: tuple[str, ...] = ()

    def estimate(self, arm: StoredArm) -> Value:
        raise NotImplementedError

    def paired(self, a: StoredArm, b: StoredArm) -> Value:
        """b minus a on the games both arms played (common random numbers)."""
        raise NotImplementedError

    def pooled(self, arms: list[StoredArm]) -> Value:
        """The measure over the games of several arms played on the same seeds, each game
        index one unit (its games in every arm together), so the interval allows for the
        arms sharing their deals."""
        raise NotImplementedError

    def missing_in(self, settings: Settings) -> str:
        """What an arm played with `settings` lacks for this measure, in words ("seat 4
        does not exist"); '' when nothing (the measure reads a seat or a strategy)."""
        return ""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def words_of_member(measure: Measure, **fields: object) -> None:
    """A family's member's `name`, `label` and `definition`: its class's templates of
    `fields` (the seat of `OfSeat`, the point of the game of `HolderWins`), filled in."""
    words = type(measure)
    measure.name, measure.label, measure.definition = (
        template.format(**fields) for template in (words.name, words.label, words.definition)
    )


# --- ratio of per-game sums --------------------------------------------------------------------


class Ratio(Measure):
    """sum(x) / sum(w) over the games with w > 0; `per_game(arm)` gives columns game, x, w.
    `rate`: x lies in [0, w] and each game counts at most once (Wilson interval).
    `every_game`: the games with w = 0 count too, their x in the sum (a ratio of two means
    over every game, e.g. points gained per point paid where some games pay nothing)."""

    rate: bool = False
    every_game: bool = False

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        raise NotImplementedError

    def units(self, arm: StoredArm) -> pl.DataFrame:
        """game, x, w of the games the ratio counts (w > 0)."""
        return self.counted(self.per_game(arm))

    def counted(self, per_game: pl.DataFrame) -> pl.DataFrame:
        """The rows of game, x, w the ratio counts, in game order (the same sums every time)."""
        frame = per_game.select("game", pl.col("x").cast(pl.Float64), pl.col("w").cast(pl.Float64))
        weighed = pl.col("w") >= 0 if self.every_game else pl.col("w") > 0
        kept = pl.col("w").is_not_null() & weighed & pl.col("x").is_not_null()
        return frame.filter(kept).sort("game")

    def estimate(self, arm: StoredArm) -> Value:
        units = self.units(arm)
        blocked = DEAL in arm.games.columns
        if blocked:
            units = by_deal(units, arm.games, ("x", "w"))
        x, w = units["x"].to_numpy(), units["w"].to_numpy()
        return ratio_value(x, w, rate=self.rate and not blocked)

    def pooled(self, arms: list[StoredArm]) -> Value:
        if len(arms) == 1:
            return self.estimate(arms[0])
        units = sums_by(pl.concat([self.units(f) for f in arms]), "game", ("x", "w"))
        return ratio_value(units["x"].to_numpy(), units["w"].to_numpy())

    def paired(self, a: StoredArm, b: StoredArm) -> Value:
        ua, ub = self.units(a), self.units(b)
        both = ua.join(ub, on="game", how="inner", suffix="_b", maintain_order="left")
        if DEAL in a.games.columns:
            both = by_deal(both, a.games, ("x", "w", "x_b", "w_b"))
        return ratio_difference(
            both["x"].to_numpy(),
            both["w"].to_numpy(),
            both["x_b"].to_numpy(),
            both["w_b"].to_numpy(),
        )


def by_deal(units: pl.DataFrame, games: pl.DataFrame, sums: tuple[str, ...]) -> pl.DataFrame:
    """Per deal (the games' `deal` column), the sums of the units' `sums` columns, in deal
    order: each deal, whatever seatings it was played in, one unit."""
    deals = games.select("game", DEAL)
    return sums_by(units.join(deals, on="game", how="inner"), DEAL, sums)


def sums_by(frame: pl.DataFrame, key: str, columns: tuple[str, ...]) -> pl.DataFrame:
    """Per value of `key` (ascending), the sums of `columns` as Float64, each added in the
    frame's row order: the same bits in every run. polars' group-by adds a group's partial
    sums in whatever order its threads finish, so its float sums change in the last digits
    from run to run (shares such as 1/3); numpy's reduceat adds each run of rows itself."""
    ordered = frame.sort(key, maintain_order=True)
    keys = ordered.get_column(key).to_numpy()
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]) if keys.size else []
    sums = {
        c: np.add.reduceat(ordered.get_column(c).cast(pl.Float64).to_numpy(), starts)
        if keys.size else np.zeros(0)
        for c in columns
    }  # fmt: skip
    return pl.DataFrame({key: ordered.get_column(key).gather(starts), **sums})


def _linearised(x: np.ndarray, w: np.ndarray) -> tuple[float, np.ndarray]:
    """(R, z): the ratio and each game's linearised contribution to it."""
    r = float(x.sum() / w.sum())
    return r, (x - r * w) / w.mean()


def ratio_value(x: np.ndarray, w: np.ndarray, *, rate: bool = False) -> Value:
    """sum(x) / sum(w) with its interval (see the module's docstring)."""
    n = int(x.size)
    if n == 0 or w.sum() <= 0:
        return Value.missing(n)
    r, z = _linearised(x, w)
    se = float(z.std(ddof=1) / math.sqrt(n)) if n > 1 else NAN
    if rate and np.all(w == 1.0) and 0.0 <= x.sum() <= n:
        low, high = wilson(min(max(float(x.sum()), 0.0), float(n)), n)
        return Value(r, float(low), float(high), se, n)
    if n < 2:
        return Value(r, NAN, NAN, NAN, n)
    return Value.normal(r, se, n)


def ratio_difference(xa: np.ndarray, wa: np.ndarray, xb: np.ndarray, wb: np.ndarray) -> Value:
    """R_b - R_a over paired games (each row one game in both arms)."""
    n = int(xa.size)
    if n < 2 or wa.sum() <= 0 or wb.sum() <= 0:
        return Value.missing(n)
    ra, za = _linearised(xa, wa)
    rb, zb = _linearised(xb, wb)
    se = float((zb - za).std(ddof=1) / math.sqrt(n))
    if np.all(wa == 1.0) and np.all(wb == 1.0):  # every game once: the mean of the differences
        return Value.normal(float((xb - xa).mean()), se, n)
    return Value.normal(rb - ra, se, n)


class Contrast(Measure):
    """The difference of two ratios over the same games, R1 - R0: for example the mean score
    of the seats a coin told to buy a card minus that of the seats it told not to.
    `per_game(arm)` gives columns game, x1, w1, x0, w0 (every game, zeros where a side
    counts nothing); the standard error is the delta method's on the games (each game's
    linearised contribution z1 - z0, so several seats of one game count as one unit), and
    the paired difference of two arms uses the same contributions on the common games."""

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        raise NotImplementedError

    def _contributions(self, arm: StoredArm) -> tuple[pl.Series, float, np.ndarray]:
        """(games, R1 - R0, each game's linearised contribution); NaN without both sides."""
        f = self.per_game(arm).sort("game")
        x1, w1, x0, w0 = (f[c].cast(pl.Float64).fill_null(0.0).to_numpy()
                          for c in ("x1", "w1", "x0", "w0"))  # fmt: skip
        if w1.sum() <= 0 or w0.sum() <= 0:
            return f["game"], NAN, np.full(f.height, NAN)
        r1, z1 = _linearised(x1, w1)
        r0, z0 = _linearised(x0, w0)
        return f["game"], r1 - r0, z1 - z0

    def estimate(self, arm: StoredArm) -> Value:
        games, d, z = self._contributions(arm)
        n = games.len()
        if not math.isfinite(d) or n < 2:
            return Value.missing(n)
        return Value.normal(d, float(z.std(ddof=1) / math.sqrt(n)), n)

    def paired(self, a: StoredArm, b: StoredArm) -> Value:
        ga, da, za = self._contributions(a)
        gb, db, zb = self._contributions(b)
        both = pl.DataFrame({"game": ga, "za": za}).join(
            pl.DataFrame({"game": gb, "zb": zb}), on="game", how="inner", maintain_order="left"
        )
        n = both.height
        if not (math.isfinite(da) and math.isfinite(db)) or n < 2:
            return Value.missing(n)
        diff = both["zb"].to_numpy() - both["za"].to_numpy()
        return Value.normal(db - da, float(diff.std(ddof=1) / math.sqrt(n)), n)


class Column(Ratio):
    """The mean of a games column (w = 1 for every game with a value)."""

    def __init__(self, name: str, column: str, label: str, definition: str, unit: str = "num"):
        self.name, self.label, self.unit, self.definition = name, label, unit, definition
        self.column = column
        self.games_columns = (column,)

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        return arm.games.select("game", pl.col(self.column).alias("x"), pl.lit(1.0).alias("w"))


class Share(Ratio):
    """The share of games meeting `when` (a polars expression on the games frame) among the
    games meeting `among` (default: all)."""

    rate = True

    def __init__(self, name: str, label: str, definition: str, when: pl.Expr,
                 columns: tuple[str, ...], among: pl.Expr | None = None):  # fmt: skip
        self.name, self.label, self.unit, self.definition = name, label, "share", definition
        self.when, self.among = when, among
        self.games_columns = columns

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        among = self.among if self.among is not None else pl.lit(True)
        return arm.games.select(
            "game", self.when.cast(pl.Float64).alias("x"), among.cast(pl.Float64).alias("w")
        )


# --- quantiles ---------------------------------------------------------------------------------


class Quantile(Measure):
    """The q-quantile of a per-game value (`per_game` gives columns game, v; nulls are left
    out). Interval: the order statistics whose ranks bound the quantile with 95% confidence
    (binomial; distribution-free); se read off it. Paired: the difference of the two arms'
    quantiles over the common games, with a seeded percentile bootstrap (2,000 resamples)."""

    q: float = 0.5
    resamples: int = 2000
    seed: int = 20240101

    def per_game(self, arm: StoredArm) -> pl.DataFrame:
        raise NotImplementedError

    def _values(self, arm: StoredArm) -> pl.DataFrame:
        return self.per_game(arm).select("game", pl.col("v").cast(pl.Float64)).drop_nulls()

    def estimate(self, arm: StoredArm) -> Value:
        v = np.sort(self._values(arm)["v"].to_numpy())
        return quantile_value(v, self.q)

    def paired(self, a: StoredArm, b: StoredArm) -> Value:
        both = self._values(a).join(self._values(b), on="game", how="inner", suffix="_b")
        both = both.sort("game")  # the bootstrap resamples rows: the same rows every time
        va, vb = both["v"].to_numpy(), both["v_b"].to_numpy()
        n = int(va.size)
        if n < 2:
            return Value.missing(n)
        d = float(np.quantile(vb, self.q) - np.quantile(va, self.q))

        def stat(idx: np.ndarray) -> np.ndarray:
            return np.quantile(vb[idx], self.q, axis=1) - np.quantile(va[idx], self.q, axis=1)

        return self._bootstrap(d, n, stat)

    def pooled(self, arms: list[StoredArm]) -> Value:
        """A cluster bootstrap: game indices are resampled, each with its games in every arm."""
        if len(arms) == 1:
            return self.estimate(arms[0])
        frames = [self._values(f).rename({"v": f"v{i}"}) for i, f in enumerate(arms)]
        wide = frames[0]
        for f in frames[1:]:
            wide = wide.join(f, on="game", how="full", coalesce=True)
        matrix = wide.sort("game").drop("game").fill_null(np.nan).to_numpy().astype(np.float64)
        if matrix.shape[0] < 2:
            return Value.missing(int(matrix.shape[0]))

        def stat(idx: np.ndarray) -> np.ndarray:
            return np.array([np.nanquantile(matrix[row], self.q) for row in idx])

        return self._bootstrap(float(np.nanquantile(matrix, self.q)), matrix.shape[0], stat)

    def _bootstrap(self, value: float, n: int, stat) -> Value:
        """A seeded percentile bootstrap of `stat` over resampled units 0..n-1. `stat` takes
        resamples a block at a time (a row of unit indices each; one value a row): the
        resamples drawn a block at a time are the ones drawn one by one, in the same order,
        and a block is a few array operations where one at a time is thousands."""
        rng = np.random.default_rng(self.seed)
        rows = max(1, RESAMPLED_INDICES // n)  # a block's indices stay a few MB
        blocks = [min(rows, self.resamples - done) for done in range(0, self.resamples, rows)]
        reps = np.concatenate([stat(rng.integers(0, n, (k, n))) for k in blocks])
        low, high = np.quantile(reps, [0.025, 0.975])
        return Value(value, float(min(low, value)), float(max(high, value)),
                     float(reps.std(ddof=1)), n)  # fmt: skip


def quantile_value(sorted_values: np.ndarray, q: float) -> Value:
    """The q-quantile of sorted values with its distribution-free 95% interval."""
    n = int(sorted_values.size)
    if n == 0:
        return Value.missing(0)
    value = float(np.quantile(sorted_values, q))
    # the order statistics x_(j) <= x_(k) (1-based) with j - 1 < B < k for B ~ Bin(n, q), the
    # observations below the quantile: j = round(nq - z sd), k = round(nq + z sd) + 1
    half = Z95 * math.sqrt(n * q * (1.0 - q))
    j = min(max(round(n * q - half), 1), n)
    k = min(max(round(n * q + half) + 1, 1), n)
    low, high = float(sorted_values[j - 1]), float(sorted_values[k - 1])
    low, high = min(low, value), max(high, value)
    return Value(value, low, high, (high - low) / (2.0 * Z95), n)
