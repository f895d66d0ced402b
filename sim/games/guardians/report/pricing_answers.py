"""The pricing sections' answer: what the item should cost, in one sentence (the break-even
price with its interval, or the uplift at the edge of the range when the break-even lies beyond
it), and the data-quality line: games with a winner, the smallest uplift detectable at one
price, and warnings (most games without a winner; a break-even outside the swept range, with
the sweep that would settle it)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from sim.games.guardians.report import words
from sim.report import fmt, quality
from sim.report.answers import Answer, Estimate, Label, sentence
from sim.report.context import Context


def _uplift(row: dict, key: str) -> Estimate:
    return Estimate(key, "the buyer's win-share uplift", row["uplift"], row["uplift_low"],
                    row["uplift_high"], unit="pp")  # fmt: skip


def _counts(ctx: Context, arms: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for arm in arms:
        for outcome, n in ctx.results.arm_games(arm).group_by("outcome").agg(pl.len()).iter_rows():
            counts[str(outcome)] = counts.get(str(outcome), 0) + int(n)
    return counts


def _quality(ctx: Context, item, rows: list[dict], be, arms: list[str]) -> quality.Quality:
    counts = _counts(ctx, arms)
    total = sum(counts.values())
    decided = total - sum(counts.get(o, 0) for o in words.NO_WINNER)
    mdes = [quality.mde(r["uplift_low"], r["uplift_high"]) for r in rows if "uplift" in r]
    warnings = [
        quality.share_warning(
            counts, words.NO_WINNER, f"whether buying the {item.noun} pays (its uplift is 0 there)"
        ),
        quality.cap_warning(counts.get("cap", 0), total, words.OUTCOMES["cap"]),
    ]
    if be is not None and "uplift" in rows[0]:
        prices = [r["price"] for r in rows]
        curve = [r["uplift"] for r in rows]
        if math.isinf(be.estimate) or math.isinf(be.low) or math.isinf(be.high):
            side = "above" if (be.estimate > 0 or be.high == math.inf) else "below"
            if not math.isinf(be.estimate):  # the estimate is inside, its interval is not
                side = "above" if be.high == math.inf else "below"
            guess = quality.extrapolate_zero(prices, curve, side)
            what = "the break-even lies" if math.isinf(be.estimate) else "its interval reaches"
            warnings.append(quality.beyond_range(item.price, prices, side, guess, what))
    return quality.Quality(
        games=decided,
        basis="games with a winner",
        total=total,
        mde=float(np.nanmedian(mdes)) if mdes else float("nan"),
        mde_of="uplift at one price",
        warnings=tuple(w for w in warnings if w),
    )


def answer(ctx: Context, item, label: str, rows: list[dict], be, default, arms: list[str]):
    key = f"{item.key}_pricing.{label or 'all'}"
    question = f"What should the {item.noun} cost" + (f" ({label})?" if label else "?")
    section = f"{item.key}_pricing"
    if not any("uplift" in r for r in rows):
        return Answer(key, question, [
            "Every seat buys, so there is no non-buying opponent to measure a gain against."
        ], section=section)  # fmt: skip
    q = _quality(ctx, item, rows, be, arms)
    at_default = next(
        (r for r in rows if default is not None and r["price"] == float(default)), None
    )
    uplift = words.term("win-share uplift")
    be_term = words.term("break-even price")
    printed = None if default is None else Label(f"the printed price {fmt.value(default)}")
    sig = [r for r in rows if r.get("uplift_sig")]
    if not sig or be is None:
        ref = at_default or rows[len(rows) // 2]
        at = Label(f"the price {fmt.value(ref['price'])}")
        head = _uplift(ref, f"{key}.uplift")
        lead = "No detectable gain from buying at any price tried" if not sig else "One price only"
        parts = sentence(lead, ": the buyer's ", uplift, " at ", at, " is ", head, ".")
        return Answer(key, question, parts, kind="null" if not sig else "info", headline=head,
                      category="no detectable uplift", quality=q, section=section)  # fmt: skip
    estimate = Estimate(f"{key}.break_even", "break-even price", be.estimate, be.low, be.high,
                        unit="price", signed=False)  # fmt: skip
    if math.isinf(be.estimate):
        edge = rows[-1] if be.estimate > 0 else rows[0]
        side = "above" if be.estimate > 0 else "below"
        lead = (
            f"Buying the {item.noun} pays up to at least the highest price tried"
            if be.estimate > 0
            else f"Buying the {item.noun} does not pay even at the lowest price tried"
        )
        faint = "" if edge.get("uplift_sig") else " (no longer significant)"
        parts = sentence(
            lead, ": the buyer's ", uplift, " at ", Label(f"price {fmt.value(edge['price'])}"),
            " is ", _uplift(edge, f"{key}.edge"), faint, "; the ", be_term, " is ", estimate,
            (sentence("; ", printed, f" is {'below' if side == 'above' else 'above'} it")
             if printed else None), ".",
        )  # fmt: skip
        category = f"break-even {side} the prices tried"
    else:
        where = ""
        if default is not None and math.isfinite(be.low) and float(default) < be.low:
            where = " lies below it: at that price buying is a winning move"
        elif default is not None and math.isfinite(be.high) and float(default) > be.high:
            where = " lies above it: at that price the item does not pay"
        elif default is not None:
            where = " lies within its interval"
        parts = sentence(
            f"Buying the {item.noun} pays up to a price of about ", estimate, " (the ", be_term,
            ")", (sentence("; ", printed, where) if printed else None), ".",
        )  # fmt: skip
        category = "break-even within the prices tried"
    return Answer(key, question, parts, kind="finding", headline=estimate, category=category,
                  quality=q, section=section)  # fmt: skip
