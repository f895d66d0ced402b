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
from sim.report import fmt, quality
from sim.report import verdicts as words_v
from sim.report.answers import Answer, Estimate, Label, sentence
from sim.report.context import Context
from sim.stats.verdict import Verdict, all_of, equivalence


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
    found = [equivalence(r["uplift"], r["uplift_low"], r["uplift_high"], tol, games=games)
             for r in rows if "uplift" in r]  # fmt: skip
    return all_of(found) if found else None


def _printed(ctx: Context, default, be, v: Verdict | None) -> list:
    """'; the printed price 10 lies below it: at that price buying is a winning move'."""
    if v is None:
        return []
    tol = ctx.tolerance("price")
    printed = Label(f"the printed price {fmt.value(default)}")
    if not v.settled:
        return sentence("; whether ", printed, " is right", words_v.tolerance(tol),
                        " is not settled: ", words_v.to_settle(v))  # fmt: skip
    if v.holds:
        said = sentence(" is right", words_v.tolerance(tol))
    elif be.low > float(default):
        said = [" lies below it: at that price buying is a winning move"]
    else:
        said = [" lies above it: at that price the item does not pay"]
    return sentence("; ", printed, said)


def _no_gain(ctx: Context, item, v: Verdict) -> list:
    tol = ctx.tolerance("win_share")
    if v.holds:
        return sentence(f"Buying the {item.noun} makes no difference at any price tried",
                        words_v.tolerance(tol))  # fmt: skip
    return sentence(f"No gain from buying the {item.noun} is detected at any price tried, but "
                    "whether it makes none", words_v.tolerance(tol), " is not settled: ",
                    words_v.to_settle(v))  # fmt: skip


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
    sig = [r for r in rows if r.get("uplift_sig")]
    if not sig:
        ref = at_default or rows[len(rows) // 2]
        at = Label(f"the price {fmt.value(ref['price'])}")
        head = _uplift(ref, f"{key}.uplift")
        v = no_gain_verdict(ctx, rows)
        lead = _no_gain(ctx, item, v)
        parts = sentence(lead, ": the buyer's ", uplift, " at ", at, " is ", head, ".")
        return Answer(key, question, parts, kind=words_v.kind(v), headline=head,
                      category="no uplift" if v.holds else "no uplift detected", quality=q,
                      section=section, verdict=v, tolerance=ctx.tolerance("win_share"))  # fmt: skip
    if be is None:
        ref = at_default or rows[len(rows) // 2]
        at = Label(f"the price {fmt.value(ref['price'])}")
        head = _uplift(ref, f"{key}.uplift")
        parts = sentence("One price only: the buyer's ", uplift, " at ", at, " is ", head, ".")
        return Answer(key, question, parts, kind="info", headline=head, category="one price",
                      quality=q, section=section, tolerance=ctx.tolerance("win_share"))  # fmt: skip
    estimate = Estimate(f"{key}.break_even", "break-even price", be.estimate, be.low, be.high,
                        unit="price", signed=False)  # fmt: skip
    verdict = printed_verdict(ctx, default, be)
    printed = _printed(ctx, default, be, verdict)
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
            printed, ".",
        )  # fmt: skip
        category = f"break-even {side} the prices tried"
    else:
        parts = sentence(
            f"Buying the {item.noun} pays up to a price of about ", estimate, " (the ", be_term,
            ")", printed, ".",
        )  # fmt: skip
        category = "break-even within the prices tried"
    kind = words_v.kind(verdict) if verdict is not None else words_v.FINDING
    reference = None if default is None else ("printed price", float(default))
    return Answer(key, question, parts, kind=kind, headline=estimate, category=category,
                  quality=q, section=section, verdict=verdict,
                  tolerance=ctx.tolerance("price"), reference=reference)  # fmt: skip
