"""The difficulty section's answers, one set per player skill (combined into one verdict over
the skills): how often the invaders win (the range over the tables, with the reference table's
rate as the headline), and which difficulty levels a tried setup suits."""

from __future__ import annotations

from sim.games.guardians.report import words
from sim.report import data_quality
from sim.report import levels as ladder
from sim.report import verdicts as words_v
from sim.report.answers import Answer, Count, Estimate, Label, Row, joined, sentence
from sim.report.context import Context
from sim.stats.interval_columns import interval_in
from sim.stats.tolerances import Tolerance
from sim.stats.verdict import Verdict, all_of, equivalence

ID = "difficulty"

# difficulty level -> target chance that the invaders win
LEVELS = {"Training": 0.10, "Standard": 0.25, "Expert": 0.40, "Elite": 0.60}
# a setup suits a level when its raid rate is shown to be this close to the target (its whole
# interval within): half the distance to the nearest other level's target, so no setup suits
# two levels
TOLERANCE = {
    lv: min(abs(t - u) for other, u in LEVELS.items() if other != lv) / 2
    for lv, t in LEVELS.items()
}


def suits_verdict(row: dict, target: float, band: float) -> Verdict:
    """Whether a setup suits a level: its raid rate within `band` of the level's target (an
    equivalence verdict); out of reach when its interval lies wholly beyond the band."""
    return equivalence(row["raid"] - target, row["raid_low"] - target,
                       row["raid_high"] - target, band, games=row["games"])  # fmt: skip


def _where(r: dict) -> Label:
    return Label(f"{r['preset']}, {r['players']} players")


def _rate(r: dict, key: str, label: str = "") -> Estimate:
    return Estimate(key, label or "chance the invaders win", *interval_in(r, "raid"),
                    unit="pct", digits=0, signed=False)  # fmt: skip


def band(r: dict) -> str:
    """The difficulty level a table's raid rate is shown to suit (its interval within the
    level's band), in words; else where it lies, and whether the nearest level is open."""
    for level, target in LEVELS.items():
        v = suits_verdict(r, target, TOLERANCE[level])
        if v.holds:
            return f"as hard as {level}"
        if not v.settled:
            return f"near {level}, not settled"
    raid = r["raid"]
    names = list(LEVELS)
    if raid < LEVELS[names[0]]:
        return f"easier than {names[0]}"
    if raid > LEVELS[names[-1]]:
        return f"harder than {names[-1]}"
    below = max((lv for lv in names if LEVELS[lv] < raid), key=LEVELS.get)
    above = min((lv for lv in names if LEVELS[lv] > raid), key=LEVELS.get)
    return f"between {below} and {above}"


def _raid_answer(rows: list[dict], setting: str, tol: Tolerance) -> Answer:
    key = f"{ID}.raid"
    lo = min(rows, key=lambda r: r["raid"])
    hi = max(rows, key=lambda r: r["raid"])
    ref = sorted(rows, key=lambda r: (r["preset"], -r["players"]))[0]
    at = Label(setting.strip()) if setting else None
    if len(rows) == 1:
        parts = sentence("The invaders win ", _rate(ref, f"{key}.ref"), " of the games (",
                         _where(ref), ")", (sentence(" ", at) if at else None), ".")  # fmt: skip
    else:
        parts = sentence(
            "The invaders win from ", _rate(lo, f"{key}.low"), " (", _where(lo), ") to ",
            _rate(hi, f"{key}.high"), " (", _where(hi), ") of the games",
            (sentence(" ", at) if at else None), ".",
        )  # fmt: skip
    games = sum(r["games"] for r in rows)
    capped = sum(r.get("capped", 0) for r in rows)
    cap = data_quality.cap_warning(capped, games, words.OUTCOMES["cap"])
    alike = same_play_warning(rows)
    headline = _rate(
        ref, f"{key}.ref", f"chance the invaders win ({ref['preset']}, {ref['players']} players)"
    )
    table = [Row(f"{r['preset']}, {r['players']} players", _rate(r, f"{key}.{r['preset']}."
                                                               f"{r['players']}p"), band(r))
             for r in sorted(rows, key=lambda r: (r["preset"], r["players"]))]  # fmt: skip
    return Answer(
        key=key,
        question="How often do the invaders win?",
        parts=parts,
        kind="info",
        headline=headline,
        category=band(ref),
        rows=table if len(rows) > 1 else [],
        rows_head="table",
        quality=data_quality.Quality(
            games=games,
            basis="games" + (f" {setting.strip()}" if setting else ""),
            mde=data_quality.mde_rate(ref["raid"], ref["games"]),
            mde_of=f"change at {ref['preset']}, {ref['players']} players",
            warnings=tuple(w for w in (cap, alike) if w),
            note=f"{len(rows)} tables",
        ),
        section=ID,
        tolerance=tol,
    )


def same_play_warning(rows: list[dict]) -> str | None:
    """A warning when two presets played exactly alike at every table: the rules that tell them
    apart never came into play (the skill levels buy nothing unless their seats say so)."""
    played: dict[str, dict] = {}
    for r in rows:
        table = (r["players"], r["skill"], r.get("knob_values"))
        played.setdefault(r["preset"], {})[table] = (r["games"], r["raid"], r["length"], r["score"])
    presets = sorted(played)
    pairs = [f"{b} as {a}" for i, a in enumerate(presets) for b in presets[i + 1 :]
             if played[a] == played[b]]  # fmt: skip
    if not pairs:
        return None
    return (
        f"{'; '.join(pairs)}: every table played exactly alike, so what tells these presets "
        "apart (the upgrades and the power-up in the shop) never came into play. The skill "
        "levels buy nothing by default; seat them with shop: 1 ({name: club, shop: 1}) or "
        "give them missile_at, upgrade_at and power_up_at (docs/games/guardians/strategies.md) to "
        "compare "
        "the presets as shoppers play them."
    )


def _setup_answer(entries: list[dict]) -> Answer:
    key = f"{ID}.setup"
    tables = len(entries)
    verdicts = [e[f"{lv}_verdict"] for e in entries for lv in LEVELS]
    suits = sum(v.holds for v in verdicts)
    missed = {lv: sum(e[f"{lv}_verdict"].opposite for e in entries) for lv in LEVELS}
    missed = {lv: n for lv, n in missed.items() if n}
    unsettled = sum(not v.settled for v in verdicts)
    if missed:
        items = []
        for lv, n in missed.items():
            items.append(sentence(f"{lv} at ", Count(n, "table" if n == 1 else "tables")))
        tail = sentence("; out of reach: ", joined(items))
    elif not unsettled:
        tail = ["; every level is within reach at every table"]
    else:
        tail = []
    if unsettled:
        tail += sentence("; not settled for ", Count(unsettled, "targets"))
    everywhere = [lv for lv in LEVELS if all(e[f"{lv}_suits"] for e in entries)]
    category = f"{', '.join(everywhere) or 'no level'} within reach at every table"
    parts = sentence(
        "A tried setup suits ", Count(suits), " of the ", Count(tables * len(LEVELS)),
        " targets (every level at each of ", Count(tables, "tables"), ")", tail, ".",
    )  # fmt: skip
    verdict = all_of(v for v in verdicts if not v.settled) if unsettled else None
    return Answer(
        key=key,
        question="Which setup suits each difficulty level?",
        parts=parts,
        kind=words_v.UNSETTLED if unsettled else "info",
        category=category,
        section=ID,
        verdict=verdict,
        more=words_v.settle_sentence(verdict, "them"),
        word=words_v.OPEN_WORD if unsettled else "",
    )


def answers(
    ctx: Context, rows: list[dict], rec: list[dict] | None, order: list[str], setting: str
) -> list[Answer]:
    by_skill: dict[str, list[Answer]] = {}
    for sk in order:
        mine = [r for r in rows if r["skill"] == sk]
        if not mine:
            continue
        found = [_raid_answer(mine, setting, ctx.tolerance("outcome_rate"))]
        entries = [e for e in rec or [] if e["skill"] == sk]
        if entries:
            found.append(_setup_answer(entries))
        by_skill[sk] = found
    if len(by_skill) == 1:
        return next(iter(by_skill.values()))
    return ladder.combine(by_skill, games=ctx.games_per_arm)
