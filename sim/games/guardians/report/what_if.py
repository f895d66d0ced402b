"""What-if comparison: each arm against the baseline arm, on the same games (same seeds). Every
headline metric's paired difference with its interval and a significance flag (Holm-corrected
for the number of metrics), sorted by effect size; a chart of the differences."""

from __future__ import annotations

import math

import polars as pl

from sim.games.guardians.report import words
from sim.games.guardians.report.compared import standard_metrics
from sim.report import arms, data_quality, fmt
from sim.report import verdicts as verdict_words
from sim.report.answers import (
    Answer,
    Count,
    Estimate,
    Label,
    Part,
    Row,
    Term,
    plain_text,
    sentence,
)
from sim.report.context import Context
from sim.report.effects import Effect, effects_figure
from sim.report.game_quality.design import has_columns
from sim.report.metrics import Metric
from sim.report.render import Finding, Section, Text
from sim.report.table import ARM, Cell, Column, Table
from sim.results import StoredArm
from sim.stats.interval_columns import as_columns, interval_in, interval_keys
from sim.stats.tests import holm
from sim.stats.verdict import Verdict, all_of, equivalence

ID = "what_if"
TITLE = "What-if comparison"


def baseline_arm(ctx: Context) -> str:
    names = ctx.arm_names
    base = ctx.results.baseline
    return base if base in names else names[0]


def compare(
    ctx: Context,
    base: str,
    other: str,
    *,
    metrics: list[Metric] | None = None,
    strategies: bool = True,
    quality: bool = False,
) -> list[dict]:
    """Rows of paired differences (other - base) of the registry's measures: every metric
    that is not zero in both arms, each strategy's win share (when several play in both) and,
    with `quality`, the headline quality measures (sim.report.game_quality.compare)."""
    fa, fb = ctx.results.stored(base), ctx.results.stored(other)
    players = min(_players(ctx, base), _players(ctx, other))
    rows = []
    for m in metrics if metrics is not None else standard_metrics(fa, players):
        row = _paired_row(ctx, fa, fb, other, m, skip_zero=True)
        if row is not None:
            rows.append(row)
    if strategies:
        labels = set(fa.seats.get_column("strategy").unique().to_list())
        common = sorted(labels & set(fb.seats.get_column("strategy").unique().to_list()))
        if len(common) > 1:
            for strat in common:
                metric = Metric(f"win_share.{strat}", f"win share of {strat}", "pp",
                                tolerance="win_share")  # fmt: skip
                row = _paired_row(ctx, fa, fb, other, metric)
                if row is not None:
                    rows.append(row)
    if quality:
        rows += quality_rows(ctx, base, other)
    adjusted = holm([row["diff_p"] for row in rows])
    for row, p in zip(rows, adjusted, strict=True):
        row["diff_p_holm"] = p
        row["diff_sig_holm"] = None if math.isnan(p) else bool(p < 1 - ctx.level)
    rows.sort(key=lambda row: -abs(row["effect"]) if not math.isnan(row["effect"]) else 0.0)
    return rows


def quality_rows(ctx: Context, base: str, other: str) -> list[dict]:
    """The headline quality measures' paired differences as comparison rows (the measures the
    stored games have the columns of)."""
    from sim.report.game_quality.compare import COMPETITIVE

    fa, fb = ctx.results.stored(base), ctx.results.stored(other)
    rows = []
    for name in COMPETITIVE:
        m = ctx.registry.get(name)
        unit = "pp" if m.unit == "share" else "num"
        metric = Metric(name, m.label, unit, 2 if unit == "num" else 1)
        row = _paired_row(ctx, fa, fb, other, metric)
        if row is not None and not math.isnan(row["diff"]):
            rows.append({**row, "definition": m.definition})
    return rows


def _players(ctx: Context, arm: str) -> int:
    return int(ctx.results.arm_games(arm).get_column("players")[0])


def _paired_row(ctx: Context, fa: StoredArm, fb: StoredArm, arm: str, m: Metric, *,
                skip_zero: bool = False) -> dict | None:  # fmt: skip
    """The metric's row: the baseline's value, the paired difference on the games both arms
    played, and the effect size (the difference over the spread of a baseline game); None
    when the arms lack its columns, it is 0 in both (`skip_zero`) or fewer than 2 games
    pair."""
    measure = ctx.registry.get(m.key)
    if not has_columns([fa, fb], measure.games_columns, measure.seats_columns):
        return None
    ref = measure.estimate(fa)
    if skip_zero and ref.value == 0 and measure.estimate(fb).value == 0:
        return None
    d = measure.paired(fa, fb)
    if d.n < 2:
        return None
    spread = ref.se * math.sqrt(ref.n) if ref.n else math.nan  # a game's own spread
    if spread and spread > 0:
        effect = d.value / spread
    else:
        effect = math.inf if d.value else 0.0
    return {
        "arm": arm,
        "metric": m.label,
        "unit": m.unit,
        "digits": m.digits,
        "headline": m.headline,
        "tolerance": m.tolerance,
        "base": ref.value,
        "value": ref.value + d.value,
        **as_columns("diff", d),
        "diff_p": d.pvalue,
        "diff_sig": d.pvalue < 1 - ctx.level,
        "games": d.n,
        "effect": effect,
        "relative": d.value / ref.value if ref.value else math.nan,
    }


def _value_cell(key: str):
    def r(row: dict) -> Cell:
        v = row.get(key)
        text = fmt.pct(v) if row["unit"] == "pp" else fmt.num(v, row["digits"])
        return Cell(text, v)

    return r


def _diff_cell(row: dict):
    v, lo, hi = interval_in(row, "diff")
    if row["unit"] == "pp":
        text = fmt.pp_ci(v, lo, hi)
    else:
        text = fmt.signed_ci(v, lo, hi, row["digits"])
    sig = row.get("diff_sig_holm")
    if sig is False:
        text += " n.s."
    return Cell(text, v, "" if sig is None else ("sig" if sig else "ns"))


def _metric_cell(row: dict) -> Cell:
    label = row["metric"]
    return Cell(label, label, title=row.get("definition") or words.metric_definition(label))


def comparison_table(name: str, title: str, rows: list[dict], note: str = "") -> Table:
    cols = [
        ARM,
        Column.custom("metric", _metric_cell, "metric", "Hover a metric for its definition."),
        Column.custom("baseline", _value_cell("base"), "base"),
        Column.custom("arm value", _value_cell("value"), "value"),
        Column.custom(
            "arm \u2212 baseline (95% interval)",
            _diff_cell,
            "diff",
            "Arm minus baseline on the same games. n.s.: not significant after Holm's correction.",
        ),
        Column.pvalue("diff_p_holm", "p (Holm)"),
        Column.num(
            "effect",
            "effect size",
            2,
            "Difference / standard deviation of the baseline's per-game values.",
        ),
        Column.count("games", "paired games"),
    ]
    data = pl.DataFrame(rows, infer_schema_length=None)
    return Table(name, title, data, cols, note=note)


def describe(row: dict) -> str:
    if row["unit"] == "pp":
        return f"{row['metric']} {fmt.pp_ci(row['diff'], row['diff_low'], row['diff_high'])}"
    diff = fmt.signed_ci(*interval_in(row, "diff"), row["digits"])
    return f"{row['metric']} {diff}"


def ns_note(row: dict) -> str:
    """'' for a significant difference; ' (n.s.)', or a longer note when the interval alone
    excludes zero but the multiple-comparison correction does not."""
    if row.get("diff_sig_holm"):
        return ""
    if row.get("diff_sig"):
        return " (not significant once corrected for the metrics compared)"
    return " (n.s.)"


def row_verdict(ctx: Context, row: dict) -> Verdict | None:
    """Whether a metric does not change: its difference within the metric's tolerance (an
    effect shown by the Holm-corrected test); None for a metric without a tolerance."""
    if not row.get("tolerance"):
        return None
    tol = ctx.tolerance(row["tolerance"]).value
    return equivalence(*interval_in(row, "diff"), tol, games=row["games"],
                       effect_shown=bool(row.get("diff_sig_holm")))  # fmt: skip


def no_change(ctx: Context, rows: list[dict]) -> tuple[Verdict | None, list[Part]]:
    """Whether nothing changes: every headline metric within its tolerance; and the
    tolerances in words (' (outcome_rate ±2 pp, game_length ±2 turns)')."""
    heads = [r for r in rows if r["headline"] and r.get("tolerance")]
    found = [row_verdict(ctx, r) for r in heads]
    if not found:
        return None, []
    names = list(dict.fromkeys(r["tolerance"] for r in heads))
    said = ", ".join(f"{n} {ctx.tolerance(n).text()}" for n in names)
    return all_of(found), [" (", Label(said), ")"]


# the order in which headline metrics are told in a finding (the designer's questions first)
PRIORITY = (
    "invaders win (raid rate)", "game length (turns)", "first player's win share",
    "total score of the table (points)", "winner's score (points)", "board cleared (victory rate)",
)  # fmt: skip


def arm_finding(ctx: Context, arm: str, base: str, rows: list[dict], limit: int = 5) -> Finding:
    """The significant headline changes (raid rate, length, first player... in that order);
    when none is significant after the correction, whether nothing changes (every headline
    metric within its tolerance) or that is not settled."""
    sig = [r for r in rows if r.get("diff_sig_holm")]
    n = max((r["games"] for r in rows), default=0)
    v, tolerances = no_change(ctx, rows)
    if v is not None and v.holds:
        said = f"{arm} vs {base}: no headline metric changes beyond its tolerance"
        said += plain_text(tolerances)
        return Finding(f"{said} ({fmt.integer(n)} paired games).", verdict_words.WITHIN)
    if not sig:
        said = f"{arm} vs {base}: no metric changed detectably ({fmt.integer(n)} paired games)"
        if v is not None:
            said += (f"; whether any changes beyond its tolerance{plain_text(tolerances)} is "
                     "not settled: "
                     f"{plain_text(verdict_words.to_settle(v))}")  # fmt: skip
        return Finding(said + ".", verdict_words.UNSETTLED if v is not None else "info")
    rank = {m: i for i, m in enumerate(PRIORITY)}
    head = sorted((r for r in sig if r["headline"]), key=lambda r: rank.get(r["metric"], 99))
    head = head or sig
    text = "; ".join(describe(r) for r in head[:limit])
    more = len(sig) - min(len(head), limit)
    tail = f" (and {more} more significant metric{'s' if more > 1 else ''} in the table)"
    return Finding(f"{arm} vs {base}: {text}{tail if more > 0 else ''}.", "finding")


def changes(ctx: Context, arm: str, base: str) -> str:
    """What an arm changes relative to the baseline, in words ('a shot steals the highest
    token')."""
    return arms.describe(ctx, arm, base, words.RULES) or "nothing stored differs"


def arms_table(ctx: Context, base: str) -> Table:
    rows = [
        {
            "arm": arm,
            "role": "baseline" if arm == base else "arm",
            "changes": "\u2014" if arm == base else changes(ctx, arm, base),
            "games": ctx.results.arm_games(arm).height,
        }
        for arm in ctx.arm_names
    ]
    return Table(
        "what_if_arms",
        "The arms",
        pl.DataFrame(rows),
        [
            ARM,
            Column.text("role", "role"),
            Column.text("changes", "changes from the baseline"),
            Column.count("games", "games"),
        ],
    )


def build(ctx: Context) -> Section:
    section = Section(
        ID,
        TITLE,
        "What changes when a rule changes? Each arm against the "
        "baseline, game by game on the same shuffles.",
    )
    names = ctx.arm_names
    if len(names) < 2:
        section.add(Text("Only one arm: nothing to compare."))
        return section
    base = baseline_arm(ctx)
    all_rows = []
    for arm in names:
        if arm == base:
            continue
        if _players(ctx, arm) != _players(ctx, base):
            section.add(Text(f"{arm}: not compared (a different number of players than {base})."))
            continue
        rows = compare(ctx, base, arm, quality=True)
        section.findings.append(arm_finding(ctx, f"{arm} ({changes(ctx, arm, base)})", base, rows))
        section.answers.append(arm_answer(ctx, arm, base, rows))
        all_rows.extend(rows)
    if not all_rows:
        section.add(arms_table(ctx, base))
        return section
    section.add(
        forest_figure(
            "what_if",
            [r for r in all_rows if r["headline"]],
            base,
            labels={a: changes(ctx, a, base) for a in names},
        )
    )
    section.add(arms_table(ctx, base))
    section.add(
        comparison_table(
            "what_if",
            f"Every metric, each arm minus the baseline arm '{base}'",
            all_rows,
            note="Paired by game (the same seeds in every arm): mean of the per-game differences "
            "with a 95% normal interval. Sorted by effect size within each arm.",
        )
    )
    return section


def estimate(row: dict, key: str) -> Estimate:
    """A comparison row's difference as an answer's estimate."""
    return Estimate(
        key, row["metric"], *interval_in(row, "diff"),
        unit="pp" if row["unit"] == "pp" else "num", digits=row["digits"],
    )  # fmt: skip


def said(row: dict, key: str) -> list:
    """[the metric as a defined term, its difference with the interval]."""
    return [Term(row["metric"], words.metric_definition(row["metric"])), " ", estimate(row, key)]


def headline_rows(rows: list[dict]) -> list[dict]:
    rank = {m: i for i, m in enumerate(PRIORITY)}
    return sorted((r for r in rows if r["headline"]), key=lambda r: rank.get(r["metric"], 99))


def cap_warnings(ctx: Context, arms_: list[str]) -> tuple[str, ...]:
    out = []
    for arm in arms_:
        g = ctx.results.arm_games(arm)
        w = data_quality.cap_warning(
            float((g.get_column("outcome") == "cap").sum()), g.height, words.OUTCOMES["cap"]
        )
        if w:
            out.append(f"{arm}: {w}")
    return tuple(out)


def rounds_to_zero(row: dict) -> bool:
    """A change whose value and interval all show as zero at the table's digits: no finding."""
    scale, digits = (100.0, 1) if row["unit"] == "pp" else (1.0, row["digits"])
    return all(round(scale * row[k], digits) == 0 for k in interval_keys("diff"))


def ranked(ctx: Context, rows: list[dict]) -> list[tuple[dict, Verdict | None]]:
    """The headline rows with their verdicts, largest first: each change measured in its own
    tolerance (a metric without one by its effect size); changes that round to zero left out."""

    def size(item: tuple[dict, Verdict | None]) -> float:
        row, v = item
        if v is not None and v.tolerance > 0:
            return abs(row["diff"]) / v.tolerance
        return abs(row["effect"]) if not math.isnan(row["effect"]) else 0.0

    found = [(r, row_verdict(ctx, r)) for r in headline_rows(rows) if not rounds_to_zero(r)]
    return sorted(found, key=size, reverse=True)


def arm_answer(
    ctx: Context, arm: str, base: str, rows: list[dict], what: str = "", section: str = ID
) -> Answer:
    """'A shot steals the highest token changes the game: invaders win +6.0 pp (...), beyond
    the ±2 pp tolerance.'; or nothing changes beyond its tolerance (every headline metric
    within its own), or that is not settled. The changes, largest first, in the rows."""
    what = what or changes(ctx, arm, base)
    heads = headline_rows(rows)
    n = max((r["games"] for r in rows), default=0)
    key = f"{section}.{arm}"
    order = ranked(ctx, rows)
    v, _ = no_change(ctx, rows)
    beyond = [(r, rv) for r, rv in order if rv is not None and rv.opposite]
    top, top_v = (beyond or order or [(None, None)])[0]
    table = [
        Row(
            r["metric"],
            estimate(r, f"{key}.{r['metric']}"),
            verdict_words.word(rv) if rv is not None else "",
            arm,
        )
        for r, rv in order
    ]
    if top is None:
        parts = sentence("Nothing changes: every headline metric rounds to zero.")
        category, kind, word = "no change", verdict_words.WITHIN, "no change"
    elif beyond:
        tol = ctx.tolerance(top["tolerance"])
        also = len(beyond) - 1
        parts = sentence("It changes the game: ", said(top, f"{key}.{top['metric']}"),
                         verdict_words.versus(top_v, tol),
                         sentence("; ", Count(also), " more change", "s" if also > 1 else "",
                                  " beyond tolerance below") if also else None, ".")  # fmt: skip
        category, kind, word = "it changes the game", verdict_words.FINDING, "changes"
    else:
        tol_of = ctx.tolerance(top["tolerance"]) if top.get("tolerance") else None
        versus = verdict_words.versus(top_v, tol_of) if top_v is not None and tol_of else []
        if v is not None and v.holds:
            parts = sentence("Nothing changes beyond its tolerance: the largest change is ",
                             said(top, f"{key}.{top['metric']}"), versus, ".")  # fmt: skip
            category, kind, word = "no change", verdict_words.WITHIN, "no change"
        else:
            parts = sentence("Not settled whether anything changes beyond its tolerance: ",
                             said(top, f"{key}.{top['metric']}"), versus, ".")  # fmt: skip
            category = "not settled whether anything changes"
            kind = verdict_words.UNSETTLED if v is not None else verdict_words.INFO
            word = verdict_words.OPEN_WORD
    head = heads[0] if heads else None
    q = data_quality.Quality(
        games=n,
        basis="paired games (the same deal in both arms)",
        mde=data_quality.mde(head["diff_low"], head["diff_high"]) if head else float("nan"),
        mde_unit="pp" if head and head["unit"] == "pp" else "num",
        mde_of=f"change in {head['metric']}" if head else "effect",
        warnings=cap_warnings(ctx, [base, arm]),
    )
    return Answer(
        key=key,
        question=f"What changes when {what}?",
        parts=parts,
        kind=kind,
        headline=estimate(head, f"{key}.{head['metric']}") if head else None,
        category=category,
        quality=q,
        section=section,
        verdict=v,
        tolerance=ctx.tolerance(head["tolerance"]) if head and head.get("tolerance") else None,
        more=verdict_words.settle_sentence(v) if v is not None else [],
        rows=table,
        word=word,
        where=arm,
        rows_head="measure",
    )


def forest_figure(
    name: str,
    rows: list[dict],
    base: str,
    title: str | None = None,
    labels: dict[str, str] | None = None,
):
    """The effects chart of the headline differences: rates in percentage points, quantities
    in % of the baseline; one row per arm x metric, the arm said in words when `labels` has it."""
    labels = labels or {}
    effects = []
    for r in rows:
        who = labels.get(r["arm"], r["arm"])
        label = f"{who}: {r['metric']}"
        sig = bool(r.get("diff_sig_holm"))
        if r["unit"] == "pp":
            v = tuple(100 * x for x in interval_in(r, "diff"))
            effects.append(Effect(label, *v, sig, "Rates: arm minus baseline"))
        elif r["base"]:
            k = 100 / abs(r["base"])
            v = tuple(x * k for x in interval_in(r, "diff"))
            effects.append(Effect(label, *v, sig, "Quantities: arm minus baseline"))
    return effects_figure(
        name,
        title or f"Differences from the baseline ({base})",
        effects,
        xlabels={
            "Rates: arm minus baseline": "difference (percentage points)",
            "Quantities: arm minus baseline": "difference (% of the baseline value)",
        },
        caption=f"Each row one comparison, arm minus baseline ({base}) on the same games "
        f"({_paired_text(rows)}), with its 95% interval. Filled red: significant after Holm's "
        "correction; hollow grey: not significant. Rates in percentage points; quantities in % "
        "of the baseline's mean.",
    )


def _paired_text(rows: list[dict]) -> str:
    games = sorted({r["games"] for r in rows if r["metric"] != "winner's score (points)"})
    if not games:
        return "no paired games"
    n = f"{games[0]:,}" if len(games) == 1 else f"{games[0]:,} to {games[-1]:,}"
    return f"{n} paired games per arm"
