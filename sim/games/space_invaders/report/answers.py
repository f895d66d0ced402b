"""The Space Invaders sections' answers: one sentence per question, every estimate with its
interval, and a data-quality line that warns when the data are thin (wide intervals, few games
with a power dealt, games stopped at the round cap).

The sections compute the rows (report/difficulty.py, overview.py); this module only words them
(sim.report.answers)."""

from __future__ import annotations

import math

from sim.games.space_invaders.report.common import largest_move
from sim.games.space_invaders.report.verdicts import none_moves, step_verdict
from sim.games.space_invaders.schema import LEVELS
from sim.report import data_quality, fmt
from sim.report import verdicts as words_v
from sim.report.answers import Answer, Count, Estimate, Label, joined, sentence
from sim.stats.tolerances import Tolerance

THIN = 0.05  # a 95% half-width above this (5 pp) is a wide interval: warn
MAX_LISTED = 3  # exceptions named in a sentence; the rest are counted
REFERENCE = (2, "casual", "tactical")  # the table an answer quotes first, when it was played
CAPPED = "stopped at the round cap"


def _pct(key: str, label: str, value: float, low: float, high: float) -> Estimate:
    return Estimate(key, label, value, low, high, unit="pct", digits=0, signed=False)


def _pp(key: str, label: str, value: float, low: float, high: float) -> Estimate:
    return Estimate(key, label, value, low, high, unit="pp", digits=1)


def _players(p: int) -> str:
    return _n(p, "player")


def _n(n: int, noun: str) -> str:
    """'1 table', '3 tables'."""
    return f"{n:,} {noun}" + ("s" if n != 1 else "")


def _count(n: int, noun: str) -> Count:
    return Count(n, noun + ("s" if n != 1 else ""))


def table_label(r: dict, *, level: bool = False) -> Label:
    """'2 players, casual, tactical' (with the level: '2 players, Standard, casual, ...')."""
    at = f", {r['level'].capitalize()}" if level else ""
    return Label(f"{_players(r['players'])}{at}, {r['dexterity']}, {r['skill']}")


def thin_warning(rows: list[dict], key: str, what: str) -> str | None:
    """A warning when some row's 95% interval of `key` is wider than +-THIN."""
    widths = [
        (r[f"{key}_high"] - r[f"{key}_low"]) / 2
        for r in rows
        if not (fmt.is_missing(r[f"{key}_low"]) or fmt.is_missing(r[f"{key}_high"]))
    ]
    widest = max((w for w in widths if math.isfinite(w)), default=math.nan)
    if fmt.is_missing(widest) or widest <= THIN:
        return None
    games = sorted(r["games"] for r in rows)
    return (
        f"the data are thin: {what} carry 95% intervals up to \u00b1{fmt.num(100 * widest)} "
        f"pp ({games[0]:,} games at the fewest); run more games (--games) to sharpen them."
    )


def _warnings(*found: str | None) -> tuple[str, ...]:
    return tuple(w for w in found if w)


def _reference(rows: list[dict]) -> dict:
    """The rows of the reference table if it was played, else of the first table."""
    at = [r for r in rows if (r["players"], r["dexterity"], r["skill"]) == REFERENCE]
    first = (rows[0]["players"], rows[0]["dexterity"], rows[0]["skill"])
    return at or [r for r in rows if (r["players"], r["dexterity"], r["skill"]) == first]


# --- the difficulty section -------------------------------------------------------------------

ID = "invaders_difficulty"


def difficulty(levels: list[dict], steps: list[dict], uplift: list[dict],
               sensitivity: list[dict], tol: Tolerance) -> list[Answer]:  # fmt: skip
    """tol: the `win_rate` tolerance."""
    out = [_win_answer(levels)]
    if steps:
        out.append(_steps_answer(steps, tol))
    if uplift:
        out.append(_uplift_answer(uplift, tol))
    if sensitivity:
        out.append(_sensitivity_answer(sensitivity, tol))
    return out


def _win(r: dict, key: str) -> Estimate:
    return _pct(key, f"win rate ({table_label(r, level=True).text})", r["victory"],
                r["victory_low"], r["victory_high"])  # fmt: skip


def _win_answer(levels: list[dict]) -> Answer:
    """'The table of 2 players, casual, tactical wins 93% (...) at Training, ...; at Standard
    the 36 tables win from ... to ...'"""
    key = f"{ID}.win"
    ref = sorted(_reference(levels), key=lambda r: LEVELS.index(r["level"]))
    at_ref = [sentence(_win(r, f"{key}.{r['level']}"), " at ", Label(r["level"].capitalize()))
              for r in ref]  # fmt: skip
    parts = sentence("The table of ", table_label(ref[0]), " wins ", joined(at_ref))
    middle = "standard" if any(r["level"] == "standard" for r in levels) else ref[0]["level"]
    same = [r for r in levels if r["level"] == middle]
    if len(same) > 1:
        lo, hi = min(same, key=lambda r: r["victory"]), max(same, key=lambda r: r["victory"])
        parts += sentence(
            "; at ", Label(middle.capitalize()), " the ", _count(len(same), "table"), " win from ",
            _win(lo, f"{key}.lowest"), " (", table_label(lo), ") to ", _win(hi, f"{key}.highest"),
            " (", table_label(hi), ")",
        )  # fmt: skip
    parts.append(".")
    head = next((r for r in ref if r["level"] == middle), ref[0])
    games = sum(r["games"] for r in levels)
    capped = sum(round(r["cap"] * r["games"]) for r in levels)
    return Answer(
        key=key,
        question="How often does a table win at each printed level?",
        parts=parts,
        headline=_win(head, f"{key}.{head['level']}"),
        quality=data_quality.Quality(
            games=games,
            basis="games with the printed numbers",
            mde=data_quality.mde_rate(head["victory"], head["games"]),
            mde_of=f"change of the {table_label(head, level=True).text} win rate",
            warnings=_warnings(
                data_quality.cap_warning(capped, games, CAPPED),
                thin_warning(levels, "victory", "win rates"),
            ),
            note=f"{_n(len(levels), 'arm')}, {_n(len({_cell(r) for r in levels}), 'table')}",
        ),
        section=ID,
    )


def _cell(r: dict) -> tuple:
    return r["players"], r["dexterity"], r["skill"]


def _step(r: dict, key: str) -> Estimate:
    where = f"{table_label(r).text}, {r['low']} to {r['high']}"
    return _pp(key, f"win-rate change ({where})", r["diff"], r["diff_low"], r["diff_high"])


def _step_label(r: dict) -> Label:
    return Label(f"{r['low'].capitalize()} to {r['high'].capitalize()}, {table_label(r).text}")


def _steps_answer(steps: list[dict], tol: Tolerance) -> Answer:
    """'33 of the 36 steps ... are harder; no harder: ...; not settled: ...; by player count:
    ...'"""
    key = f"{ID}.steps"
    verdicts = [step_verdict(r, tol) for r in steps]
    harder = [r for r, v in zip(steps, verdicts, strict=True) if v.holds]
    weakest = max(steps, key=lambda r: r["diff"] if math.isfinite(r["diff"]) else math.inf)
    parts = sentence(Count(len(harder)), " of the ", _count(len(steps), "step"),
                     " from a printed level to the next are harder (the win-rate change's paired "
                     "interval below zero)")  # fmt: skip
    for said, which in (
        ("no harder", lambda v: v.opposite),
        ("not settled", lambda v: not v.settled),
    ):
        others = [r for r, v in zip(steps, verdicts, strict=True) if which(v)]
        if not others:
            continue
        named = [sentence(_step_label(r), " ", _step(r, f"{key}.{said}.{i}"))
                 for i, r in enumerate(others[:MAX_LISTED])]  # fmt: skip
        more = len(others) - MAX_LISTED
        parts += sentence(
            f"; {said}", words_v.tolerance(tol) if said == "no harder" else None, ": ",
            joined(named), sentence(", and ", Count(more), " more") if more > 0 else None,
        )  # fmt: skip
    if len(harder) == len(steps):
        parts += sentence("; the smallest step is ", _step_label(weakest), " ",
                          _step(weakest, f"{key}.smallest"))  # fmt: skip
    players = sorted({r["players"] for r in steps})
    if len(players) > 1:
        per = [sentence(Label(_players(p)), " ", Count(_seated(harder, p)), " of ",
                        Count(_seated(steps, p))) for p in players]  # fmt: skip
        parts += sentence("; harder steps by player count: ", joined(per))
    open_ = words_v.open_ones(verdicts)
    parts += sentence(words_v.settle_open(verdicts), ".")
    category = (
        "every step harder" if len(harder) == len(steps)
        else "some steps not settled" if open_ is not None
        else "some steps no harder"
    )  # fmt: skip
    return Answer(
        key=key,
        question="Is each printed level harder than the one below?",
        parts=parts,
        kind=words_v.FINDING if harder else words_v.UNSETTLED if open_ else words_v.WITHIN,
        headline=_step(weakest, f"{key}.smallest"),
        category=category,
        quality=_paired_quality(
            steps,
            weakest,
            "step",
            "change between two levels",
            "level steps",
            note=_n(len(steps), "step"),
        ),  # fmt: skip
        section=ID,
        verdict=open_,
        tolerance=tol,
    )


def _paired_quality(rows: list[dict], shown: dict, per: str, mde_of: str, thin_of: str, *,
                    note: str = "") -> data_quality.Quality:  # fmt: skip
    """The quality line of an answer over paired differences (`diff` per row): the fewest
    games of any pair, the detectable effect of the one the answer shows."""
    return data_quality.Quality(
        games=min(r["games"] for r in rows),
        basis=f"paired games per {per} (the fewest)",
        mde=data_quality.mde(shown["diff_low"], shown["diff_high"]),
        mde_of=mde_of,
        warnings=_warnings(thin_warning(rows, "diff", thin_of)),
        note=note,
    )


def _seated(rows: list[dict], players: int) -> int:
    return sum(r["players"] == players for r in rows)


def _significant(r: dict, key: str) -> bool:
    return r[f"{key}_low"] > 0 or r[f"{key}_high"] < 0


def _uplift_answer(rows: list[dict], tol: Tolerance) -> Answer:
    """'short_wave is worth most: +4.1 pp (...) against a plain token (...); 5 of the 22
    powers and tables give a detectable uplift.'"""
    key = f"{ID}.powers"
    top = rows[0]  # sorted by uplift, largest first
    where = table_label(top, level=True)
    head = _pp(f"{key}.top", f"uplift of {top['power']} ({where.text})", top["uplift"],
               top["uplift_low"], top["uplift_high"])  # fmt: skip
    up = sum(_significant(r, "uplift") and r["uplift"] > 0 for r in rows)
    down = sum(_significant(r, "uplift") and r["uplift"] < 0 for r in rows)
    parts = sentence(
        "The power worth most is ", Label(top["power"]), ": ", head,
        " of win rate against playing it as a plain token (", where, "); ", Count(up), " of the ",
        Count(len(rows)), " powers and tables tried give a detectable uplift",
        sentence(" and ", Count(down), " a detectable loss") if down else None, ".",
    )  # fmt: skip
    fewest = min(rows, key=lambda r: r["dealt"])
    few = None
    if fewest["dealt"] < 0.25 * fewest["games"]:
        few = (f"{fewest['power']} was dealt in only {fewest['dealt']:,} of "
               f"{fewest['games']:,} games ({table_label(fewest, level=True).text}): its uplift "
               "rests on those games alone.")  # fmt: skip
    v = none_moves(rows, "uplift", tol)
    if up:
        kind, category = words_v.FINDING, "some power helps"
    else:
        kind = words_v.kind(v)
        category = words_v.said(v, "no power matters", "some power costs win rate")
        if v.holds:
            parts[-1:] = sentence("; no power moves the win rate beyond the tolerance",
                                  words_v.tolerance(tol), ".")  # fmt: skip
        elif not v.settled:
            parts[-1:] = sentence("; whether any matters is not settled", words_v.tolerance(tol),
                                  ": ", words_v.to_settle(v), ".")  # fmt: skip
    return Answer(
        key=key,
        question="Which player-card powers matter most?",
        parts=parts,
        kind=kind,
        headline=head,
        category=category,
        quality=data_quality.Quality(
            games=top["dealt"],
            basis=f"games with {top['power']} dealt",
            total=top["games"],
            mde=data_quality.mde(top["uplift_low"], top["uplift_high"]),
            mde_of="uplift",
            warnings=_warnings(few, _rarely_in_play(rows), thin_warning(rows, "uplift", "uplifts")),
        ),
        section=ID,
        verdict=None if up else v,
        tolerance=tol,
    )


def _rarely_in_play(rows: list[dict]) -> str | None:
    """Powers that could seldom be used (tokens of their level active in under 5% of the games
    they were dealt in): their uplift says little about the power itself."""
    rare = [r for r in rows if r["in_play"] < 0.05 * max(r["dealt"], 1)]
    if not rare:
        return None
    never = sum(r["in_play"] == 0 for r in rare)
    names = ", ".join(dict.fromkeys(r["power"] for r in rare))
    return (f"{len(rare)} of the {len(rows)} powers and tables tried ({names}) were in play "
            f"in under 5% of the games they were dealt in ({never} never: their level's tokens "
            "never came), so their uplift says little about the power.")  # fmt: skip


def _sensitivity_answer(rows: list[dict], tol: Tolerance) -> Answer:
    """'The assumed data move the win rate by up to -12.0 pp (...) (catalog armoured, ...);
    9 of the 14 changes move it detectably.'"""
    key = f"{ID}.sensitivity"
    worst = largest_move(rows)
    where = table_label(worst, level=True)
    head = _pp(f"{key}.largest", f"win-rate change with {worst['variant']} ({where.text})",
               worst["diff"], worst["diff_low"], worst["diff_high"])  # fmt: skip
    moved = sum(_significant(r, "diff") for r in rows)
    parts = sentence(
        "Of the assumed card and board data, ", Label(worst["variant"]), " moves the win rate "
        "most: ", head, " (", where, "); ", Count(moved), " of the ",
        _count(len(rows), "change"), " tried move it detectably",
    )  # fmt: skip
    v = none_moves(rows, "diff", tol)
    if v.holds:
        parts += sentence("; none moves it beyond the tolerance", words_v.tolerance(tol))
    elif not v.settled:
        parts += sentence("; whether none moves it is not settled", words_v.tolerance(tol), ": ",
                          words_v.to_settle(v))  # fmt: skip
    parts.append(".")
    category = words_v.said(v, "the assumptions do not matter", "the assumptions matter")
    question = "How much do the assumed card and board data move the win rate?"
    quality = _paired_quality(rows, worst, "change", "change of the win rate", "the changes")
    return words_v.judged(v, tol, key, question, parts, headline=head, category=category,
                         quality=quality, section=ID)  # fmt: skip


# --- the overview -----------------------------------------------------------------------------


def overview(rows: list[dict]) -> Answer:
    """'Teams win from 3% (arm) to 97% (arm) of the games; 0.1% (...) were stopped at the
    round cap.' rows: outcome_stats of each arm with its name under 'arm'."""
    key = "overview.outcomes"
    games = sum(r["games"] for r in rows)
    capped = sum(round(r["cap"] * r["games"]) for r in rows)
    if len(rows) == 1:
        r = rows[0]
        parts = sentence(
            "The team wins ", _pct(f"{key}.won", "win rate", r["victory"], r["victory_low"],
                                   r["victory_high"]),
            " of the games; the planet is destroyed in ",
            _pct(f"{key}.planet", "planet destroyed", r["planet_destroyed"],
                 r["planet_destroyed_low"], r["planet_destroyed_high"]),
            " and the UFO survives the final assault in ",
            _pct(f"{key}.ufo", "UFO survived", r["ufo_survived"], r["ufo_survived_low"],
                 r["ufo_survived_high"]), ".",
        )  # fmt: skip
    else:
        lo, hi = min(rows, key=lambda r: r["victory"]), max(rows, key=lambda r: r["victory"])
        parts = sentence(
            "Teams win from ", _pct(f"{key}.lowest", "lowest win rate", lo["victory"],
                                    lo["victory_low"], lo["victory_high"]),
            " (", Label(lo["arm"]), ") to ",
            _pct(f"{key}.highest", "highest win rate", hi["victory"], hi["victory_low"],
                 hi["victory_high"]),
            " (", Label(hi["arm"]), ") of the games in the ", _count(len(rows), "arm"), ".",
        )  # fmt: skip
    return Answer(
        key=key,
        question="How do the games end?",
        parts=parts,
        quality=data_quality.Quality(
            games=games,
            basis="games",
            warnings=_warnings(
                data_quality.cap_warning(capped, games, CAPPED),
                thin_warning(rows, "victory", "win rates"),
            ),
        ),
        section="overview",
    )
