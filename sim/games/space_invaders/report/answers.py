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
from sim.report.answers import Answer, Count, Estimate, Label, Row, joined, sentence
from sim.stats.interval_columns import high_key, interval_in, low_key
from sim.stats.tolerances import Tolerance
from sim.stats.verdict import equivalence

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
        (r[high_key(key)] - r[low_key(key)]) / 2
        for r in rows
        if not (fmt.is_missing(r[low_key(key)]) or fmt.is_missing(r[high_key(key)]))
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
    return _pct(key, f"win rate ({table_label(r, level=True).text})", *interval_in(r, "victory"))


def _win_answer(levels: list[dict]) -> Answer:
    """'At Standard, the 36 tables win from 12% (...) (2 players, child, naive) to 88% (...)
    (...).' The reference table at every level in the rows."""
    key = f"{ID}.win"
    ref = sorted(_reference(levels), key=lambda r: LEVELS.index(r["level"]))
    middle = "standard" if any(r["level"] == "standard" for r in levels) else ref[0]["level"]
    same = [r for r in levels if r["level"] == middle]
    head = next((r for r in ref if r["level"] == middle), ref[0])
    if len(same) > 1:
        lo, hi = min(same, key=lambda r: r["victory"]), max(same, key=lambda r: r["victory"])
        parts = sentence(
            "At ", Label(middle.capitalize()), ", the ", _count(len(same), "table"), " win from ",
            _win(lo, f"{key}.lowest"), " (", table_label(lo), ") to ", _win(hi, f"{key}.highest"),
            " (", table_label(hi), ").",
        )  # fmt: skip
    else:
        parts = sentence("The table of ", table_label(head), " wins ",
                         _win(head, f"{key}.{head['level']}"), " at ",
                         Label(head["level"].capitalize()), ".")  # fmt: skip
    table = [Row(r["level"].capitalize(), _win(r, f"{key}.{r['level']}"))
             for r in ref]  # fmt: skip
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
        rows=table,
        rows_head=f"level ({table_label(ref[0]).text})",
    )


def _cell(r: dict) -> tuple:
    return r["players"], r["dexterity"], r["skill"]


def _step(r: dict, key: str) -> Estimate:
    where = f"{table_label(r).text}, {r['low']} to {r['high']}"
    return _pp(key, f"win-rate change ({where})", *interval_in(r, "diff"))


def _step_label(r: dict) -> Label:
    return Label(f"{r['low'].capitalize()} to {r['high'].capitalize()}, {table_label(r).text}")


def _steps_answer(steps: list[dict], tol: Tolerance) -> Answer:
    """'Each printed level is harder than the one below: the smallest step lowers the win rate
    by 5.1 pp (...), beyond the ±2 pp tolerance.' The steps that are not, and the smallest,
    in the rows."""
    key = f"{ID}.steps"
    verdicts = [step_verdict(r, tol) for r in steps]
    harder = [r for r, v in zip(steps, verdicts, strict=True) if v.holds]
    flat = [r for r, v in zip(steps, verdicts, strict=True) if v.opposite]
    weakest = max(steps, key=lambda r: r["diff"] if math.isfinite(r["diff"]) else math.inf)
    smallest = _step(weakest, f"{key}.smallest")
    where = _step_label(weakest)
    open_ = words_v.open_ones(verdicts)
    if len(harder) == len(steps):
        parts = sentence("Each printed level is harder than the one below: the smallest step, ",
                         where, ", changes the win rate by ", smallest, ", beyond the ",
                         Label(tol.text()), " tolerance.")  # fmt: skip
        category, kind, word = "every step harder", words_v.FINDING, "every step harder"
    elif flat:
        parts = sentence("Not every printed level is harder: ", Count(len(flat)), " of the ",
                         _count(len(steps), "step"), " change the win rate by less than the ",
                         Label(tol.text()), " tolerance; the smallest, ", where, ", by ",
                         smallest, ".")  # fmt: skip
        category, kind, word = "some steps no harder", words_v.WITHIN, "some steps no harder"
    else:
        parts = sentence(Count(len(harder)), " of the ", _count(len(steps), "step"),
                         " are harder beyond the ", Label(tol.text()), " tolerance; not settled "
                         "for the rest, the smallest ", where, " at ", smallest, ".")  # fmt: skip
        category, kind, word = "some steps not settled", words_v.UNSETTLED, words_v.OPEN_WORD
    listed = [r for r, v in zip(steps, verdicts, strict=True) if not v.holds][: 2 * MAX_LISTED]
    listed += [weakest] if weakest not in listed else []
    table = [Row(_step_label(r).text, _step(r, f"{key}.{i}"),
                 words_v.pick(step_verdict(r, tol), "harder", "no harder", claim_is_effect=True))
             for i, r in enumerate(listed)]  # fmt: skip
    players = sorted({r["players"] for r in steps})
    more = []
    if len(players) > 1 and len(harder) < len(steps):
        per = [sentence(Label(_players(p)), " ", Count(_seated(harder, p)), " of ",
                        Count(_seated(steps, p))) for p in players]  # fmt: skip
        more = sentence("Harder steps by player count: ", joined(per), ". ")
    return Answer(
        key=key,
        question="Is each printed level harder than the one below?",
        parts=parts,
        kind=kind,
        headline=smallest,
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
        more=sentence(more, words_v.settle_sentence(open_, "them")),
        rows=table,
        word=word,
        rows_head="step",
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


def _moved(rows: list[dict], key: str, tol: Tolerance, name) -> list[Row]:
    """The rows whose change does not round to zero, largest first (at most 2 x MAX_LISTED),
    each with its verdict against the tolerance."""
    shown = [r for r in rows if round(100 * r[key], 1) or round(100 * r[high_key(key)], 1)
             or round(100 * r[low_key(key)], 1)]  # fmt: skip
    shown.sort(key=lambda r: -abs(r[key]) if math.isfinite(r[key]) else 0.0)
    out = []
    for i, r in enumerate(shown[: 2 * MAX_LISTED]):
        v = equivalence(*interval_in(r, key), tol.value, games=r["games"])
        out.append(
            Row(
                name(r),
                _pp(f"{ID}.{key}.{i}", "win-rate change", *interval_in(r, key)),
                words_v.word(v),
            )
        )
    return out


def _uplift_answer(rows: list[dict], tol: Tolerance) -> Answer:
    """'short_wave matters most: it raises the win rate by 4.1 pp (...) against a plain token
    (...), beyond the ±2 pp tolerance.'"""
    key = f"{ID}.powers"
    top = rows[0]  # sorted by uplift, largest first
    where = table_label(top, level=True)
    head = _pp(f"{key}.top", f"uplift of {top['power']} ({where.text})",
               *interval_in(top, "uplift"))  # fmt: skip
    fewest = min(rows, key=lambda r: r["dealt"])
    few = None
    if fewest["dealt"] < 0.25 * fewest["games"]:
        few = (f"{fewest['power']} was dealt in only {fewest['dealt']:,} of "
               f"{fewest['games']:,} games ({table_label(fewest, level=True).text}): its uplift "
               "rests on those games alone.")  # fmt: skip
    v = none_moves(rows, "uplift", tol)
    top_v = equivalence(*interval_in(top, "uplift"), tol.value,
                        games=top["games"])  # fmt: skip
    against = sentence(" against playing it as a plain token (", where, ")")
    if top_v.opposite and top["uplift"] > 0:
        parts = sentence(Label(top["power"]), " matters most: it raises the win rate by ", head,
                         against, words_v.versus(top_v, tol), ".")  # fmt: skip
        kind, category, word = words_v.FINDING, "some power helps", "some power helps"
    elif v.opposite:
        parts = sentence("Some power costs win rate beyond the ", Label(tol.text()),
                         " tolerance; the one worth most, ", Label(top["power"]), ", ", head,
                         against, ".")  # fmt: skip
        kind, category, word = words_v.FINDING, "some power costs win rate", "some power costs"
    elif v.holds:
        parts = sentence("No power moves the win rate beyond the ", Label(tol.text()),
                         " tolerance: the one worth most, ", Label(top["power"]), ", ", head,
                         against, ".")  # fmt: skip
        kind, category, word = words_v.WITHIN, "no power matters", "no power matters"
    else:
        parts = sentence("Not settled whether any power matters: ", Label(top["power"]), " ",
                         head, against, words_v.versus(top_v, tol) if top_v.real
                         else words_v.tolerance(tol), ".")  # fmt: skip
        kind, category, word = words_v.UNSETTLED, "not settled", words_v.OPEN_WORD
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
        verdict=v,
        tolerance=tol,
        more=words_v.settle_sentence(v, "them"),
        rows=_moved(
            rows, "uplift", tol, lambda r: f"{r['power']}, {table_label(r, level=True).text}"
        ),
        word=word,
        rows_head="power, table",
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
    """'The assumed data matter: armoured moves the win rate by -12.0 pp (...), beyond the ±2
    pp tolerance.'"""
    key = f"{ID}.sensitivity"
    worst = largest_move(rows)
    where = table_label(worst, level=True)
    head = _pp(f"{key}.largest", f"win-rate change with {worst['variant']} ({where.text})",
               *interval_in(worst, "diff"))  # fmt: skip
    v = none_moves(rows, "diff", tol)
    moves = sentence(Label(worst["variant"]), " moves the win rate by ", head, " (", where, ")")
    if v.opposite:
        parts = sentence("The assumed data matter: ", moves, ", beyond the ", Label(tol.text()),
                         " tolerance.")  # fmt: skip
    elif v.holds:
        parts = sentence("The assumed data do not matter beyond the ", Label(tol.text()),
                         " tolerance: at most, ", moves, ".")  # fmt: skip
    else:
        parts = sentence("Not settled whether the assumed data matter", words_v.tolerance(tol),
                         ": at most, ", moves, ".")  # fmt: skip
    category = words_v.said(v, "the assumptions do not matter", "the assumptions matter")
    return words_v.judged(
        v,
        tol,
        key,
        "How much do the assumed card and board data move the win rate?",
        parts,
        headline=head,
        category=category,
        quality=_paired_quality(rows, worst, "change", "change of the win rate", "the changes"),
        section=ID,
        more=words_v.settle_sentence(v, "them"),
        rows=_moved(
            rows, "diff", tol, lambda r: f"{r['variant']}, {table_label(r, level=True).text}"
        ),
        word=words_v.said(v, "no effect", "matters"),
        rows_head="change, table",
    )


# --- the overview -----------------------------------------------------------------------------


def overview(rows: list[dict], labels: dict[str, str] | None = None) -> Answer:
    """'Teams win from 3% (arm) to 97% (arm) of the games; 0.1% (...) were stopped at the
    round cap.' rows: outcome_stats of each arm with its name under 'arm'."""
    key = "overview.outcomes"
    said = labels or {}
    games = sum(r["games"] for r in rows)
    capped = sum(round(r["cap"] * r["games"]) for r in rows)
    if len(rows) == 1:
        r = rows[0]
        parts = sentence(
            "The team wins ", _pct(f"{key}.won", "win rate", *interval_in(r, "victory")),
            " of the games; the planet is destroyed in ",
            _pct(f"{key}.planet", "planet destroyed", *interval_in(r, "planet_destroyed")),
            " and the UFO survives the final assault in ",
            _pct(f"{key}.ufo", "UFO survived", *interval_in(r, "ufo_survived")), ".",
        )  # fmt: skip
    else:
        lo, hi = min(rows, key=lambda r: r["victory"]), max(rows, key=lambda r: r["victory"])
        parts = sentence(
            "Teams win from ", _pct(f"{key}.lowest", "lowest win rate",
                                    *interval_in(lo, "victory")),
            " (", Label(said.get(lo["arm"], lo["arm"])), ") to ",
            _pct(f"{key}.highest", "highest win rate", *interval_in(hi, "victory")),
            " (", Label(said.get(hi["arm"], hi["arm"])), ") of the games.",
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
