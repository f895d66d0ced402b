"""Does skill matter? Skill depth from the mixed tables (a competitive game) or the team's win
rate across team skill and dexterity at each setting (a cooperative one)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from sim.measures.core import Value
from sim.measures.generic import Beats
from sim.measures.ratings import spans
from sim.report import verdicts as words
from sim.report.answers import Answer, Count, Label, Part, sentence
from sim.report.data_quality import Quality
from sim.report.game_quality.common import by_level, estimate, key, settled, term
from sim.report.game_quality.design import Design
from sim.results import StoredArm
from sim.stats.tolerances import Tolerance
from sim.stats.verdict import Verdict, all_of

QUESTION = "Does skill matter?"


@dataclass
class Ladder:
    arm: str
    order: list[str]  # weakest first
    steps: list[tuple[str, str, Value]]  # (upper, lower, P(upper ahead of lower))
    extremes: tuple[str, str, Value]  # (top, bottom, P(top ahead of bottom))
    points: dict[str, Value]  # rating points above the bottom
    games: int


def ladder(stored: StoredArm, arm: str, pool: tuple[str, ...]) -> Ladder | None:
    present = set(stored.seats.get_column("strategy").unique().to_list())
    order = [s for s in pool if s in present]
    if len(order) < 2:
        return None
    steps = [
        (hi, lo, Beats(hi, lo).estimate(stored)) for lo, hi in zip(order, order[1:], strict=False)
    ]
    top, bottom = order[-1], order[0]
    ratings = spans(stored.seats, bottom)
    return Ladder(
        arm,
        order,
        steps,
        (top, bottom, Beats(top, bottom).estimate(stored)),
        ratings,
        stored.games.height,
    )


def competitive(design: Design, results, tol: Tolerance) -> tuple[Answer, list[Ladder]]:
    """Skill depth from the mixed tables; `tol`: the `skill_depth` tolerance."""
    ladders = []
    for level in design.mixed:
        for arm in design.mixed[level]:
            found = ladder(results.stored(arm), arm, design.arms[arm].pool)
            if found is not None:
                ladders.append(found)
    if not ladders:
        parts: list[Part] = [
            "Not asked: the experiment seats no mixed table (a pool of skill "
            "levels, weakest first, with the seats rotated)."
        ]
        return Answer(
            "quality.skill", QUESTION, parts, "info", category="not measured", section="quality"
        ), []
    items: list[Part] = []
    for lad in ladders:
        items += _ladder_parts(lad, len(ladders) > 1)
    v = decides([settled(lad.extremes[2], 0.5, tol.value, games=lad.games) for lad in ladders])
    items += _depth_words(v, tol)
    top = ladders[0]
    head = estimate(
        key("skill", "extremes", top.arm),
        top.extremes[2],
        f"{top.extremes[0]} ahead of {top.extremes[1]}",
    )
    quality = Quality(
        games=sum(lad.games for lad in ladders),
        basis="games of the mixed tables",
        mde=_mde(top.extremes[2]),
        mde_of="share ahead",
    )
    category = {True: "skill decides", False: "no skill depth (within the tolerance)"}
    return Answer(
        "quality.skill",
        QUESTION,
        items,
        words.kind(v, claim_is_effect=True),
        head,
        category.get(v.holds if v.settled else None, "not settled at this size"),
        quality,
        "quality",
        verdict=v,
        tolerance=tol,
    ), ladders


def decides(verdicts: list[Verdict]) -> Verdict:
    """Whether skill decides anywhere: shown at some table (or setting) is enough; that it does
    not needs every one shown within the tolerance; else not settled."""
    shown = [v for v in verdicts if v.holds]
    if shown:
        return shown[0]
    return all_of(verdicts)  # every one at most negligible, or the open ones together


def _depth_words(v: Verdict, tol: Tolerance) -> list[Part]:
    """' Skill decides: ...' / ' No skill depth: ...' / ' Not settled at this size ...'."""
    if v.holds:
        return sentence(" Skill decides: the top level finishes ahead of the bottom in more "
                        "than half the games", words.tolerance(tol), ".")  # fmt: skip
    if v.opposite:
        return sentence(" No skill depth: the top level finishes ahead of the bottom in at "
                        "most half the games, give or take the tolerance", words.tolerance(tol),
                        ".")  # fmt: skip
    return sentence(" Not settled at this size whether skill decides", words.tolerance(tol),
                    ": ", words.to_settle(v), ".")  # fmt: skip


def _mde(v: Value) -> float:
    from sim.report.data_quality import mde

    return mde(v.low, v.high)


def distinguishable(lad: Ladder) -> int:
    """How many adjacent steps tell their two levels apart at 95% for the ladder as a whole:
    P(ahead) differs from 50% with Holm's correction over the steps (either way)."""
    from statistics import NormalDist

    from sim.stats.tests import holm

    ps = []
    for _, _, v in lad.steps:
        if not v.n or v.se != v.se:
            ps.append(float("nan"))
        elif v.se == 0:
            ps.append(0.0 if v.value != 0.5 else 1.0)
        else:
            ps.append(2 * (1 - NormalDist().cdf(abs(v.value - 0.5) / v.se)))
    return sum(p < 0.05 for p in holm(ps) if p == p)


def _ladder_parts(lad: Ladder, named: bool) -> list[Part]:
    beats = Beats(lad.order[1], lad.order[0])
    steps: list[Part] = []
    for i, (hi, lo, v) in enumerate(lad.steps):
        steps += [
            ", " if i else "",
            Label(f"{hi} over {lo}"),
            " ",
            estimate(key("skill", f"{hi}>{lo}", lad.arm), v, f"{hi} ahead of {lo}"),
        ]
    top, bottom, ext = lad.extremes
    clear = distinguishable(lad)
    parts = sentence(
        ([Label(lad.arm), ": "] if named else []),
        "Each level finishes ",
        term(beats, "ahead of the one below"),
        ": ",
        steps,
        "; ",
        Label(f"{top} over {bottom}"),
        " ",
        estimate(key("skill", "extremes", lad.arm), ext, f"{top} ahead of {bottom}"),
    )
    span = lad.points.get(top)
    if span is not None:
        parts += sentence(
            "; the ladder spans ",
            estimate(key("skill", "span", lad.arm), span, "the ladder's span", "num"),
            " ",
            term(_RATING, "rating points"),
        )
    parts += sentence(
        "; ",
        Count(clear),
        " of ",
        Count(len(lad.steps), "steps"),
        " distinguishable at ",
        Label("95%"),
        " confidence.",
    )
    return parts


class _Rating:
    label = "rating points"
    definition = (
        "The openskill Plackett-Luce model fed every game's final order, game by game "
        "(as `sim tournament` rates); the span is the top level's mu minus the "
        "bottom's, its interval a delete-a-group jackknife over ten groups of games."
    )


_RATING = _Rating()


# --- cooperative: the team's win rate across team skill and dexterity -------------------------


@dataclass
class Move:
    level: str
    factor: str
    low: str  # the weakest value of the factor played
    high: str  # the strongest
    value: Value  # win rate at `high` minus at `low`, per deal over the other factors' arms
    rates: dict[str, Value]  # the win rate at each value of the factor


def _factor_value(results, arm: str, factor: str) -> str | None:
    if factor == "strategy":
        labels = results.arm_seats(arm).get_column("strategy").unique().to_list()
        return str(labels[0]) if len(labels) == 1 else None
    games = results.arm_games(arm)
    return str(games.get_column(factor)[0]) if factor in games.columns and games.height else None


def _won_by_deal(results, arms: list[str], won: str) -> pl.DataFrame:
    """game -> mean of winning over the arms (one row per game index)."""
    parts = [
        results.arm_games(a).select("game", (pl.col("outcome") == won).cast(pl.Float64).alias("x"))
        for a in arms
    ]
    return pl.concat(parts).group_by("game").agg(pl.col("x").mean())


def moves(design: Design, results, factors: dict[str, tuple[str, ...]], won: str) -> list[Move]:
    out = []
    for level in design.levels:
        arms = design.views.get(level, [])
        for factor, order in factors.items():
            by_value: dict[str, list[str]] = {}
            for arm in arms:
                v = _factor_value(results, arm, factor)
                if v is not None:
                    by_value.setdefault(v, []).append(arm)
            played = [v for v in order if v in by_value] + sorted(set(by_value) - set(order))
            if len(played) < 2:
                continue
            rates = {v: _rate(_won_by_deal(results, by_value[v], won)) for v in played}
            a = _won_by_deal(results, by_value[played[0]], won)
            b = _won_by_deal(results, by_value[played[-1]], won)
            both = a.join(b, on="game", suffix="_b")
            d = both["x_b"].to_numpy() - both["x"].to_numpy()
            value = (
                Value.normal(float(d.mean()), float(d.std(ddof=1) / np.sqrt(d.size)), d.size)
                if d.size > 1
                else Value.missing(d.size)
            )
            out.append(Move(level, factor, played[0], played[-1], value, rates))
    return out


def _rate(frame: pl.DataFrame) -> Value:
    from sim.measures.core import ratio_value

    x = frame["x"].to_numpy()
    return ratio_value(x, np.ones_like(x))


_FACTOR_WORDS = {"strategy": "team skill", "dexterity": "dexterity"}


def cooperative(
    design: Design, results, factors: dict[str, tuple[str, ...]], won: str, tol: Tolerance
) -> tuple[Answer, list[Move]]:
    """The team's win rate across team skill and dexterity; `tol`: the `quality_share`
    tolerance (a move at most this large is none worth the name)."""
    found = moves(design, results, factors, won)
    if not found:
        parts: list[Part] = [
            "Not asked: the experiment plays one team skill and one dexterity at each setting."
        ]
        return Answer(
            "quality.skill", QUESTION, parts, "info", category="not measured", section="quality"
        ), []

    def at(level: str) -> list[Part]:
        items: list[Part] = []
        for m in (m for m in found if m.level == level):
            what = _FACTOR_WORDS.get(m.factor, m.factor)
            items += sentence(
                ", " if items else "",
                estimate(
                    key("skill", m.factor, level),
                    m.value,
                    f"win rate, {m.high} minus {m.low}",
                    "pp",
                ),
                " from ",
                Label(m.low),
                " to ",
                Label(m.high),
                f" ({what})",
            )
        return items

    v = decides([settled(m.value, 0.0, tol.value) for m in found])
    parts = sentence("The table's win rate moves ", by_level(design.levels, at), ".")
    if v.holds:
        parts += sentence(" Skill or dexterity raises it", words.tolerance(tol), ".")
    elif v.opposite:
        parts += sentence(" Neither skill nor dexterity raises it by more than the tolerance",
                          words.tolerance(tol), ".")  # fmt: skip
    else:
        parts += sentence(" Not settled at this size whether skill or dexterity raises it",
                          words.tolerance(tol), ": ", words.to_settle(v), ".")  # fmt: skip
    games = sum(results.arm_games(a).height for lv in design.levels for a in design.views[lv])
    head = found[0]
    category = {True: "skill and dexterity move the win rate",
                False: "no effect beyond the tolerance"}  # fmt: skip
    return Answer(
        "quality.skill",
        QUESTION,
        parts,
        words.kind(v, claim_is_effect=True),
        estimate(key("skill", head.factor, head.level), head.value, "win rate moved", "pp"),
        category.get(v.holds if v.settled else None, "not settled at this size"),
        Quality(
            games=games,
            basis="games, every team on the same deals",
            mde=_mde(head.value),
            mde_of="change in win rate",
        ),
        "quality",
        verdict=v,
        tolerance=tol,
    ), found
