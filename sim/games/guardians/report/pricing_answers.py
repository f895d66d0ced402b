"""The pricing sections' answer: what the item should cost, in one sentence (the break-even
price with its interval, or the uplift at the edge of the range when the break-even lies beyond
it), whether the printed price is right (the break-even within the `price` tolerance of it:
an equivalence verdict, sim/stats/verdict.py), and the data-quality line: games with a
winner, the smallest uplift detectable at one price, and warnings (most games without a
winner; a break-even outside the swept range, with the sweep that would settle it)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from sim.games.guardians.report import words
from sim.report import data_quality, fmt
from sim.report import verdicts as words_v
from sim.report.answers import Answer, Estimate, Label, Row, sentence
from sim.report.context import Context
from sim.stats.interval_columns import interval_in
from sim.stats.verdict import Verdict, all_of, equivalence


def _uplift(row: dict, key: str) -> Estimate:
    return Estimate(key, "the buyer's win-share uplift", *interval_in(row, "uplift"), unit="pp")


def _counts(ctx: Context, arms: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for arm in arms:
        for outcome, n in (
            ctx.results.arm_games(arm)
            .group_by("outcome", maintain_order=True)
            .agg(pl.len())
            .iter_rows()
        ):
            counts[str(outcome)] = counts.get(str(outcome), 0) + int(n)
    return counts


def _quality(ctx: Context, item, rows: list[dict], be, arms: list[str]) -> data_quality.Quality:
    counts = _counts(ctx, arms)
    total = sum(counts.values())
    decided = total - sum(counts.get(o, 0) for o in words.NO_WINNER)
    mdes = [data_quality.mde(r["uplift_low"], r["uplift_high"]) for r in rows if "uplift" in r]
    warnings = [
        data_quality.share_warning(
            counts, words.NO_WINNER, f"whether buying the {item.noun} pays (its uplift is 0 there)"
        ),
        data_quality.cap_warning(counts.get("cap", 0), total, words.OUTCOMES["cap"]),
    ]
    if be is not None and "uplift" in rows[0]:
        prices = [r["price"] for r in rows]
        curve = [r["uplift"] for r in rows]
        if math.isinf(be.estimate) or math.isinf(be.low) or math.isinf(be.high):
            side = "above" if (be.estimate > 0 or be.high == math.inf) else "below"
            if not math.isinf(be.estimate):  # the estimate is inside, its interval is not
                side = "above" if be.high == math.inf else "below"
            guess = data_quality.extrapolate_zero(prices, curve, side)
            what = "the break-even lies" if math.isinf(be.estimate) else "its interval reaches"
            warnings.append(data_quality.beyond_range(item.price, prices, side, guess, what))
    return data_quality.Quality(
        games=decided,
        basis="games with a winner",
        total=total,
        mde=float(np.nanmedian(mdes)) if mdes else float("nan"),
        mde_of="uplift at one price",
        warnings=tuple(w for w in warnings if w),
    )


def printed_verdict(ctx: Context, default, be) -> Verdict | None:
    """Whether the printed price is right: the break-even minus the printed price within the
    `price` tolerance (None without a printed price or a break-even)."""
    if default is None or be is None:
        return None
    d = float(default)
    return equivalence(be.estimate - d, be.low - d, be.high - d, ctx.tolerance("price").value,
                       games=ctx.games_per_arm)  # fmt: skip


def no_gain_verdict(ctx: Context, rows: list[dict]) -> Verdict | None:
    """Whether buying makes no difference at any price tried: every price's uplift within the
    `win_share` tolerance (None when no uplift was measured)."""
    tol, games = ctx.tolerance("win_share").value, ctx.games_per_arm
    found = [equivalence(*interval_in(r, "uplift"), tol, games=games)
             for r in rows if "uplift" in r]  # fmt: skip
    return all_of(found) if found else None


def _printed_words(default, be, v: Verdict | None) -> tuple[str, str]:
    """(category, word): 'the printed 10 is too cheap' / 'too cheap', by the verdict on the
    break-even against the printed price ('', '' without a printed price)."""
    if v is None:
        return "", ""
    printed = f"the printed {fmt.value(default)}"
    if not v.settled:
        return f"not settled whether {printed} is right", words_v.OPEN_WORD
    if v.holds:
        return f"{printed} is right", "priced right"
    if be.low > float(default):
        return f"{printed} is too cheap", "too cheap"
    return f"{printed} is too dear", "too dear"


def _no_gain(ctx: Context, item, v: Verdict) -> tuple[list, str, str]:
    """(lead's opening, category, word) when no price's uplift excludes zero."""
    tol = ctx.tolerance("win_share")
    if v.holds:
        return (sentence(f"Buying the {item.noun} makes no difference at any price tried, within "
                         "the ", Label(tol.text()), " tolerance"),
                "buying makes no difference", "no effect")  # fmt: skip
    return (sentence(f"Not settled whether buying the {item.noun} makes a difference at any price "
                     "tried", words_v.tolerance(tol)),
            "not settled whether buying makes a difference", words_v.OPEN_WORD)  # fmt: skip


def _rows(rows: list[dict], key: str) -> list[Row]:
    return [Row(fmt.value(r["price"]), _uplift(r, f"{key}.uplift@{fmt.value(r['price'])}"))
            for r in rows if "uplift" in r]  # fmt: skip


def answer(ctx: Context, item, label: str, rows: list[dict], be, default, arms: list[str]):
    key = f"{item.key}_pricing.{label or 'all'}"
    question = f"What should the {item.noun} cost" + (f" ({label})?" if label else "?")
    section = f"{item.key}_pricing"
    if not any("uplift" in r for r in rows):
        return Answer(key, question, [
            "Not asked: every seat buys, so no opponent is left to measure a gain against; seat "
            "players who never buy beside the buyer."
        ], section=section)  # fmt: skip
    q = _quality(ctx, item, rows, be, arms)
    at_default = next(
        (r for r in rows if default is not None and r["price"] == float(default)), None
    )
    uplift = words.term("win-share uplift")
    be_term = words.term("break-even price")
    found = _rows(rows, key)
    common = dict(quality=q, section=section, rows=found, rows_head="price")
    sig = [r for r in rows if r.get("uplift_sig")]
    if not sig:
        ref = at_default or rows[len(rows) // 2]
        head = _uplift(ref, f"{key}.uplift")
        v = no_gain_verdict(ctx, rows)
        lead, category, word = _no_gain(ctx, item, v)
        parts = sentence(lead, ": the buyer's ", uplift, " at ",
                         Label(f"price {fmt.value(ref['price'])}"), " is ", head, ".")  # fmt: skip
        return words_v.judged(v, ctx.tolerance("win_share"), key, question, parts, headline=head,
                              category=category, word=word, **common)  # fmt: skip
    if be is None:
        ref = at_default or rows[len(rows) // 2]
        head = _uplift(ref, f"{key}.uplift")
        parts = sentence("One price only: the buyer's ", uplift, " at ",
                         Label(f"price {fmt.value(ref['price'])}"), " is ", head,
                         "; sweep the price to find where buying stops paying.")  # fmt: skip
        return Answer(key, question, parts, kind="info", headline=head, category="one price",
                      tolerance=ctx.tolerance("win_share"), **common)  # fmt: skip
    estimate = Estimate(f"{key}.break_even", "break-even price", be.estimate, be.low, be.high,
                        unit="price", signed=False)  # fmt: skip
    verdict = printed_verdict(ctx, default, be)
    category, word = _printed_words(default, be, verdict)
    tol = ctx.tolerance("price")
    if math.isinf(be.estimate):
        edge = rows[-1] if be.estimate > 0 else rows[0]
        pays = ("buying pays up to the highest price tried, " if be.estimate > 0
                else "buying does not pay even at the lowest price tried, ")  # fmt: skip
        tail = sentence(pays, Label(fmt.value(edge["price"])), ": the ", be_term, " is ",
                        estimate, ".")  # fmt: skip
        kind_of = f"break-even {'above' if be.estimate > 0 else 'below'} the prices tried"
    else:
        tail = sentence(f"buying the {item.noun} pays up to ", estimate, ", the ", be_term, ".")
        kind_of = "break-even within the prices tried"
    if verdict is None:
        parts = _upper(tail)
        category, word = kind_of, ""
    elif verdict.settled:
        opening = Label(category[:1].upper() + category[1:])
        parts = sentence(opening, (words_v.versus(verdict, tol) if verdict.holds else []), ": ",
                         tail)  # fmt: skip
    else:
        parts = sentence("Not settled whether ", Label(f"the printed {fmt.value(default)}"),
                         " is right", words_v.tolerance(tol), ": ", tail)  # fmt: skip
    kind = words_v.kind(verdict) if verdict is not None else words_v.INFO
    reference = None if default is None else ("printed price", float(default))
    return Answer(key, question, parts, kind=kind, headline=estimate, category=category,
                  verdict=verdict, tolerance=tol, more=words_v.settle_sentence(verdict),
                  word=word, reference=reference, **common)  # fmt: skip


def _upper(parts: list) -> list:
    first = parts[0]
    return [first[:1].upper() + first[1:], *parts[1:]] if isinstance(first, str) else parts
