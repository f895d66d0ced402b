"""The mine section's headline answer: what the mine is worth to the player who moves it, and
what it does to the invaders' chances, in one sentence with intervals and a data-quality line."""

from __future__ import annotations

from sim.games.guardians.report import words
from sim.games.guardians.report.what_if import cap_warnings, estimate, row_verdict
from sim.report import data_quality
from sim.report import verdicts as verdict_words
from sim.report.answers import Answer, Estimate, Label, Row, sentence
from sim.report.context import Context
from sim.stats.interval_columns import interval_in
from sim.stats.verdict import Verdict, equivalence

ID = "mine_value"
KEY = f"{ID}.worth"
QUESTION = "What is the mine worth?"
RAID = "invaders win (raid rate)"


def _pick_gain(gains: list[dict], base: str) -> dict | None:
    """The mine's value to its user: the gain against the same seats without the mine (the
    baseline's first), else against the same seats with the mine left alone."""
    for control_kind in ("no mine", "mine ignored"):
        found = [g for g in gains if g["control_kind"] == control_kind]
        found.sort(key=lambda g: g["arm"] != base)
        if found:
            return found[0]
    return None


def _effect_rows(kinds: dict[str, str], by_pair: dict, base: str) -> list[dict] | None:
    """The comparison of the mine against no mine (the baseline's first)."""
    pairs = [(c, t) for (c, t) in by_pair if kinds[c] == "no mine" and kinds[t] != "no mine"]
    pairs.sort(key=lambda p: p[1] != base)
    return by_pair[pairs[0]] if pairs else None


def gain_verdict(ctx: Context, gain: dict) -> Verdict:
    """Whether the mine is worth nothing to its user: the win-share gain within the
    `win_share` tolerance."""
    return equivalence(*interval_in(gain, "win"),
                       ctx.tolerance("win_share").value, games=gain["games"])  # fmt: skip


def _gain_words(v: Verdict, gain: dict) -> tuple[str, str, str]:
    """(opening, category, word) for the mine's worth to its user."""
    if v.opposite:
        if gain["win"] > 0:
            return "The mine is worth ", "worth something to its user", "worth it"
        return "The mine costs ", "costs its user", "costs its user"
    if v.holds:
        return "The mine is worth nothing to its user: ", "no value to its user", "no value"
    return ("Not settled whether the mine is worth anything to its user: ", "not settled",
            verdict_words.OPEN_WORD)  # fmt: skip


def _raid_words(v: Verdict, raid: dict) -> tuple[str, str]:
    """(category, word) for what the mine does to the invaders' wins."""
    if v.holds:
        return "no effect on the invaders' wins", "no effect"
    if not v.settled:
        return "not settled", verdict_words.OPEN_WORD
    up = raid["diff"] > 0
    return ("raises the invaders' wins", "raises") if up else ("lowers the invaders' wins",
                                                               "lowers")  # fmt: skip


def worth(
    ctx: Context, base: str, kinds: dict[str, str], by_pair: dict, gains: list[dict]
) -> Answer:
    gain = _pick_gain(gains, base)
    rows = _effect_rows(kinds, by_pair, base)
    raid = next((r for r in rows or [] if r["metric"] == RAID), None)
    if gain is None and raid is None:
        return Answer(
            KEY,
            QUESTION,
            ["Not asked: no pair of arms measures it. To ask, add an arm without the mine "
             "(rules: {mine.enabled: false}) beside one with a mine user (miner)."],
            section=ID,
        )  # fmt: skip
    raid_tol = ctx.tolerance("outcome_rate")
    table = []
    raid_part: list = []
    if raid is not None:
        rv = row_verdict(ctx, raid)
        change = estimate(raid, f"{KEY}.raid")
        raid_part = sentence("With the mine the ", words.term("invaders' wins"), " change by ",
                             change, verdict_words.versus(rv, raid_tol), ". ")  # fmt: skip
        table.append(Row("invaders' wins, with the mine minus without", change,
                         verdict_words.word(rv), "raid_rate"))  # fmt: skip
    if gain is not None:
        g = Estimate(f"{KEY}.gain", "the mine user's win-share gain", *interval_in(gain, "win"),
                     unit="pp")  # fmt: skip
        how = (
            "the same seats with the mine and without it"
            if gain["control_kind"] == "no mine"
            else f"the same seats with {gain['replaced']} in its place"
        )
        tol = ctx.tolerance("win_share")
        v = gain_verdict(ctx, gain)
        opening, category, word = _gain_words(v, gain)
        parts = sentence(opening, g, " of ", words.term("win share"), " (", Label(gain["user"]),
                         " against ", how, ")",
                         verdict_words.versus(v, tol) if v.settled or v.real
                         else verdict_words.tolerance(tol), ".")  # fmt: skip
        table.insert(0, Row(f"{gain['user']}'s win share, with the mine minus without", g,
                            verdict_words.word(v)))  # fmt: skip
        headline, more = g, sentence(raid_part, verdict_words.settle_sentence(v))
    else:
        headline, tol = estimate(raid, f"{KEY}.raid"), raid_tol
        v = row_verdict(ctx, raid)
        category, word = _raid_words(v, raid)
        parts = sentence(raid_part[:-1] if raid_part else [], ".")
        more = verdict_words.settle_sentence(v)
    return verdict_words.judged(
        v,
        tol,
        KEY,
        QUESTION,
        parts,
        headline=headline,
        category=category,
        quality=_quality(ctx, gain, raid),
        section=ID,
        more=more,
        rows=table,
        word=word,
        rows_head="comparison",
    )


def _quality(ctx: Context, gain: dict | None, raid: dict | None) -> data_quality.Quality:
    if gain is not None:
        arms = [gain["arm"], gain["control"]]
        warn = data_quality.share_warning(
            gain["endings"], words.NO_WINNER, "what the mine is worth to the player who moves it"
        )
        note = f"the invaders' wins rest on all {gain['games']:,} paired games" if raid else ""
        return data_quality.Quality(
            games=gain["informative"],
            basis="games with a winner in either arm",
            total=gain["games"],
            mde=data_quality.mde(gain["win_low"], gain["win_high"]),
            mde_of="win-share gain",
            warnings=tuple(w for w in (warn,) if w) + cap_warnings(ctx, arms),
            note=note,
        )
    return data_quality.Quality(
        games=raid["games"],
        basis="paired games",
        mde=data_quality.mde(raid["diff_low"], raid["diff_high"]),
        mde_of="change in the invaders' wins",
    )
