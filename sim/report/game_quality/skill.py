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
from sim.report.answers import Answer, Estimate, Label, Part, Row, sentence
from sim.report.data_quality import Quality
from sim.report.game_quality.common import estimate, key, settled, term, unasked
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

    def pairs(self) -> list[tuple[str, str, Value]]:
        """Each step, then top over bottom (a ladder of two levels: its one step)."""
        return self.steps if len(self.steps) == 1 else [*self.steps, self.extremes]


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
        return unasked("quality.skill", QUESTION,
                       "Not asked: the experiment seats no mixed table. To ask, add an arm that "
                       "seats the skill levels together, weakest first: {name: ladder, pool: "
                       "[weakest, ..., strongest], rotate: permutations}."), []  # fmt: skip
    each = [settled(lad.extremes[2], 0.5, tol.value, games=lad.games) for lad in ladders]
    v = decides(each)
    deciding = ladders[each.index(v)] if v in each else ladders[0]
    top, bottom, ext = deciding.extremes
    head = estimate(key("skill", "extremes", deciding.arm), ext, f"{top} ahead of {bottom}")
    quality = Quality(
        games=sum(lad.games for lad in ladders),
        basis="games of the mixed tables",
        mde=_mde(ext),
        mde_of="share ahead",
    )
    where = "" if len(ladders) == 1 else deciding.arm
    category, word = _depth_words(v)
    return Answer(
        "quality.skill",
        QUESTION,
        _lead(v, deciding, head, tol, len(ladders) > 1),
        words.kind(v, claim_is_effect=True),
        head,
        category,
        quality,
        "quality",
        verdict=v,
        tolerance=tol,
        more=sentence(*_span(deciding), *words.settle_sentence(v)),
        rows=[row for lad in ladders for row in _ladder_rows(lad, tol, len(ladders) > 1)],
        word=word,
        where=where or (deciding.arm if len(ladders) > 1 else "the mixed table"),
        rows_head="levels",
    ), ladders


def decides(verdicts: list[Verdict]) -> Verdict:
    """Whether skill decides anywhere: shown at some table (or setting) is enough; that it does
    not needs every one shown within the tolerance; else not settled."""
    shown = [v for v in verdicts if v.holds]
    if shown:
        return shown[0]
    return all_of(verdicts)  # every one at most negligible, or the open ones together


def _depth_words(v: Verdict) -> tuple[str, str]:
    """(category, word) in the vocabulary."""
    if v.holds:
        return "skill decides", "skill decides"
    if v.opposite:
        return "no skill depth beyond the tolerance", "no skill depth"
    return "not settled whether skill decides", words.OPEN_WORD


def _lead(v: Verdict, lad: Ladder, head: Estimate, tol: Tolerance, named: bool) -> list[Part]:
    """'Skill decides: the top level finishes ahead of the bottom in 92% (90 to 94) of games.'
    A record that does not show skill is said as a record, never as 'finishes ahead'."""
    top, bottom = Label(lad.extremes[0]), Label(lad.extremes[1])
    at = [" at ", Label(lad.arm)] if named else []
    coin = Label("a coin's 50%")  # a reference, not an estimate
    if v.holds:
        return sentence("Skill decides", at, ": ", top, " finishes ahead of ", bottom, " in ",
                        head, " of games, beyond ", coin, " \u00b1 ", Label(tol.text()[1:]),
                        ".")  # fmt: skip
    record = sentence(top, "'s record against ", bottom, " is ", head)
    if v.opposite:
        return sentence("No skill depth beyond the tolerance: ", record, ", within ",
                        Label(tol.text()), " of ", coin, ".")  # fmt: skip
    return sentence("Not settled whether skill decides: ", record, ", against ", coin, " ",
                    Label(tol.text()), ".")  # fmt: skip


def _span(lad: Ladder) -> list[Part]:
    """'The ladder spans 410 (380 to 440) rating points.' ([] without ratings)."""
    span = lad.points.get(lad.extremes[0])
    if span is None:
        return []
    return sentence("The ladder spans ",
                    estimate(key("skill", "span", lad.arm), span, "the ladder's span", "num"),
                    " ", term(_RATING, "rating points"), ". ")  # fmt: skip


def _ladder_rows(lad: Ladder, tol: Tolerance, named: bool) -> list[Row]:
    """Each step of the ladder, then top over bottom: the share ahead and its verdict."""
    out = []
    prefix = f"{lad.arm}: " if named else ""
    for hi, lo, v in lad.pairs():
        step = settled(v, 0.5, tol.value, games=lad.games)
        # the claim "ahead beyond the tolerance" ruled out: at most the tolerance ahead, which
        # includes behind (not "within the tolerance" unless the interval is inside it)
        said = words.pick(step, "ahead beyond the tolerance", "not ahead beyond the tolerance",
                          claim_is_effect=True)  # fmt: skip
        figure = estimate(key("skill", f"{hi}>{lo}", lad.arm), v, "finishes ahead")
        out.append(Row(f"{prefix}{hi} over {lo}", figure, said, f"beats.{hi}>{lo}"))
    return out


def _mde(v: Value) -> float:
    from sim.report.data_quality import mde

    return mde(v.low, v.high)


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
    return pl.concat(parts).group_by("game", maintain_order=True).agg(pl.col("x").mean())


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
            both = a.join(b, on="game", suffix="_b", maintain_order="left")
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
        return unasked("quality.skill", QUESTION,
                       "Not asked: the experiment plays one team skill and one dexterity at each "
                       "setting. To ask, add arms (or a sweep) with teams of two or more skills, "
                       "or dexterities, at each setting.", "not measured"), []  # fmt: skip

    each = [settled(m.value, 0.0, tol.value) for m in found]
    v = decides(each)
    head = found[each.index(v)] if v in each else max(found, key=lambda m: m.value.high)
    figure = estimate(key("skill", head.factor, head.level), head.value,
                      f"win rate, {head.high} minus {head.low}", "pp")  # fmt: skip
    what = _FACTOR_WORDS.get(head.factor, head.factor)
    at = [" at ", Label(head.level)] if head.level and len(design.levels) > 1 else []
    moved = sentence(Label(head.high), " wins ", figure, " more often than ", Label(head.low),
                     f" ({what})", at)  # fmt: skip
    if v.holds:
        parts = sentence("Skill decides: ", moved, words.versus(v, tol, claim_is_effect=True),
                         ".")  # fmt: skip
    elif v.opposite:
        parts = sentence("Neither team skill nor dexterity moves the win rate beyond the ",
                         Label(tol.text()), " tolerance: at most, ", moved, ".")  # fmt: skip
    else:
        parts = sentence("Not settled whether skill decides: ", moved, words.tolerance(tol), ".")
    rows = []
    for m in found:
        step = settled(m.value, 0.0, tol.value)
        where = f"{m.level}: " if m.level else ""
        rows.append(Row(f"{where}{_FACTOR_WORDS.get(m.factor, m.factor)}, {m.low} to {m.high}",
                        estimate(key("skill", m.factor, m.level), m.value, "win rate moved", "pp"),
                        words.pick(step, "beyond the tolerance", "within the tolerance",
                                   claim_is_effect=True)))  # fmt: skip
    games = sum(results.arm_games(a).height for lv in design.levels for a in design.views[lv])
    category, word = _depth_words(v)
    return Answer(
        "quality.skill",
        QUESTION,
        parts,
        words.kind(v, claim_is_effect=True),
        estimate(key("skill", head.factor, head.level), head.value, "win rate moved", "pp"),
        category,
        Quality(
            games=games,
            basis="games, every team on the same deals",
            mde=_mde(head.value),
            mde_of="change in win rate",
        ),
        "quality",
        verdict=v,
        tolerance=tol,
        more=words.settle_sentence(v),
        rows=rows,
        word=word,
        where=head.level or "",
        rows_head="setting",
    ), found
