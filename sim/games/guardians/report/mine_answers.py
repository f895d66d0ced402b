"""The mine section's headline answer: what the mine is worth to the player who moves it, and
what it does to the invaders' chances, in one sentence with intervals and a data-quality line."""

from __future__ import annotations

from sim.games.guardians.report import words
from sim.games.guardians.report.what_if import cap_warnings, estimate, row_verdict
from sim.report import data_quality
from sim.report import verdicts as verdict_words
from sim.report.answers import Answer, Estimate, Label, sentence
from sim.report.context import Context
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
    return equivalence(gain["win"], gain["win_low"], gain["win_high"],
                       ctx.tolerance("win_share").value, games=gain["games"])  # fmt: skip


def worth(
    ctx: Context, base: str, kinds: dict[str, str], by_pair: dict, gains: list[dict]
) -> Answer:
    gain = _pick_gain(gains, base)
    rows = _effect_rows(kinds, by_pair, base)
    raid = next((r for r in rows or [] if r["metric"] == RAID), None)
    parts: list = []
    if gain is not None:
        g = Estimate(f"{KEY}.gain", "the mine user's win-share gain", gain["win"],
                     gain["win_low"], gain["win_high"], unit="pp")  # fmt: skip
        how = (
            "the same seats with the mine and without it"
            if gain["control_kind"] == "no mine"
            else f"the same seats with {gain['replaced']} in its place"
        )
        parts = sentence(
            "The mine is worth ", g, " of ", words.term("win share"),
            " to the player who moves it (", Label(gain["user"]), ", ", how, ")",
        )  # fmt: skip
    if raid is not None:
        joiner = "; with the mine " if parts else "With the mine "
        parts += sentence(
            joiner, "the ", words.term("invaders' wins"), " change by ",
            estimate(raid, f"{KEY}.raid"),
        )  # fmt: skip
    if not parts:
        return Answer(
            KEY,
            QUESTION,
            ["No pair of arms measures it: add an arm without the mine (mine.enabled: false)."],
            section=ID,
        )
    parts.append(".")
    if gain is not None:
        headline, tol = parts[1], ctx.tolerance("win_share")
        v = gain_verdict(ctx, gain)
        what = "the mine is worth anything to the player who moves it"
        none = "That is no value to its user"
        category = (
            "no value to its user" if v.holds else "not settled" if not v.settled
            else ("worth something to its user" if gain["win"] > 0 else "costs its user")
        )  # fmt: skip
    else:
        headline, tol = estimate(raid, f"{KEY}.raid"), ctx.tolerance("outcome_rate")
        v = row_verdict(ctx, raid)
        what = "the mine changes the invaders' wins"
        none = "The mine does not change the invaders' wins"
        category = (
            "no effect on the invaders' wins" if v.holds else "not settled" if not v.settled
            else ("raises the invaders' wins" if raid["diff"] > 0 else "lowers the invaders' wins")
        )  # fmt: skip
    if v.holds:
        parts += sentence(" ", none, verdict_words.tolerance(tol), ".")
    elif not v.settled:
        parts += sentence(" ", verdict_words.not_settled(what, tol), ": ",
                          verdict_words.to_settle(v), ".")  # fmt: skip
    return verdict_words.judged(v, tol, KEY, QUESTION, parts, headline=headline, category=category,
                         quality=_quality(ctx, gain, raid), section=ID)  # fmt: skip


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
