"""What-if arms compare quality too: each arm against the baseline of its level, game by game
on the same deals (common random numbers), for the headline quality measures; a change counts
only after Holm's correction for the measures compared, and "nothing changes" only when every
measure's change lies within its tolerance (`quality_share` for a share, `quality_relative`
of the baseline's value for a quantity: docs/reports.md, `quality`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from sim.measures.core import Measure, Value
from sim.measures.registry import Registry
from sim.report import arms as arm_words
from sim.report import verdicts as words
from sim.report.answers import Answer, Label, Row, sentence
from sim.report.context import Context
from sim.report.data_quality import Quality, mde
from sim.report.effects import Effect, effects_figure
from sim.report.game_quality.common import estimate, term
from sim.report.game_quality.design import Design, has_columns
from sim.stats.tests import holm
from sim.stats.verdict import Verdict, all_of, equivalence

COMPETITIVE = (
    "close_rate",
    "median_margin",
    "decided_last_round",
    "lead_changes",
    "leader_wins.half",
    "last_wins.half",
    "no_choice_share",
)


@dataclass
class Change:
    level: str
    arm: str
    base: str
    measure: Measure
    value: Value  # arm minus baseline
    p_holm: float
    reference: float = float("nan")  # the baseline's own value

    @property
    def significant(self) -> bool:
        return self.p_holm < 0.05

    def tolerance(self, ctx: Context) -> float:
        """How large a change may be and still count as none, in the measure's units."""
        if self.measure.unit == "share":
            return ctx.tolerance("quality_share").value
        return ctx.tolerance("quality_relative").value * abs(self.reference)

    def verdict(self, ctx: Context, games: int) -> Verdict:
        """Whether the arm leaves the measure as it was: its change within the tolerance (a
        change shown by the Holm-corrected test)."""
        v = self.value
        tol = self.tolerance(ctx)
        if not math.isfinite(tol):
            return equivalence(math.nan, math.nan, math.nan, 0.0)
        return equivalence(v.value, v.low, v.high, tol, games=games,
                           effect_shown=self.significant)  # fmt: skip


def headline(registry: Registry, spec, outcomes, won: str | None) -> list[Measure]:
    names = list(COMPETITIVE) if not spec.cooperative else [m.name for m in spec.own]
    names += [f"median_{spec.length[0]}"] if spec.length else []
    if won:
        names.append(f"{won}_rate")
    return [m for n in names if (m := registry.find(n)) is not None]


def changes(design: Design, results, measures: list[Measure]) -> list[Change]:
    out = []
    for level, base in design.baselines.items():
        fa = results.stored(base)
        for arm in design.others(level):
            fb = results.stored(arm)
            found = [
                (m, m.paired(fa, fb))
                for m in measures
                if has_columns([fa, fb], m.games_columns, m.seats_columns)
            ]
            found = [(m, v) for m, v in found if v.n > 1 and not math.isnan(v.value)]
            adjusted = holm([v.pvalue for _, v in found])
            out += [
                Change(level, arm, base, m, v, p, _reference(m, fa))
                for (m, v), p in zip(found, adjusted, strict=True)
            ]
    return out


def _reference(m: Measure, frames) -> float:
    """The baseline's value of a quantity (a share's tolerance needs none)."""
    return math.nan if m.unit == "share" else m.estimate(frames).value


def _unit(m: Measure) -> str:
    return "pp" if m.unit == "share" else "num"


def _rounds_to_zero(c: Change) -> bool:
    scale, digits = (100.0, 1) if c.measure.unit == "share" else (1.0, 2)
    return all(round(scale * x, digits) == 0 for x in (c.value.value, c.value.low, c.value.high))


def answers(ctx: Context, design: Design, found: list[Change]) -> list[Answer]:
    """One answer per arm (over every level it is played at): its verdict first, the largest
    change (in its tolerance) named; every change but those that round to zero in the rows,
    largest first."""
    from sim.report.levels import base_name

    by_arm: dict[str, list[Change]] = {}
    for c in found:
        by_arm.setdefault(base_name(ctx.results.arm(c.arm)), []).append(c)
    out = []
    for arm, mine in by_arm.items():
        what = arm_words.describe(ctx, mine[0].arm, mine[0].base, {}) or arm
        games = ctx.results.arm_games(mine[0].arm).height
        judged = [(c, c.verdict(ctx, games)) for c in mine]
        v = all_of(jv for _, jv in judged)

        def size(cv: tuple[Change, Verdict]) -> float:
            c, cv_ = cv
            return abs(c.value.value) / cv_.tolerance if cv_.tolerance > 0 else 0.0

        order = sorted((cv for cv in judged if not _rounds_to_zero(cv[0])), key=size,
                       reverse=True)  # fmt: skip
        beyond = [cv for cv in order if cv[1].opposite]
        top = (beyond or order or judged)[0]
        named = sentence(term(top[0].measure), " ", _estimate(top[0], arm),
                         [" at ", Label(top[0].level)] if top[0].level else [])  # fmt: skip
        tols = [" (shares ", Label(ctx.tolerance("quality_share").text()), ", quantities ",
                Label(ctx.tolerance("quality_relative").text()), ")"]  # fmt: skip
        if v.opposite:
            parts = sentence("It changes how the game plays: ", named, ", beyond its "
                             "tolerance.")  # fmt: skip
            word = "changes"
        elif v.holds:
            parts = sentence("Nothing changes beyond its tolerance", tols, "; the largest "
                             "change: ", named, ".")  # fmt: skip
            word = "no change"
        else:
            parts = sentence("Not settled whether anything changes beyond its tolerance", tols,
                             ": ", named, ".")  # fmt: skip
            word = words.OPEN_WORD
        first = mine[0]
        q = Quality(
            games=sum(c.value.n for c in mine if c.measure is first.measure),
            basis="paired games (the same deal in both arms)",
            mde=mde(first.value.low, first.value.high),
            mde_unit=_unit(first.measure),
            mde_of=f"change in {first.measure.label}",
        )
        category = {True: "nothing changes beyond the tolerances",
                    False: "changes how the game plays"}  # fmt: skip
        rows = [Row(c.level or "all games", _estimate(c, arm), words.word(cv), c.measure.name,
                    what=c.measure.label) for c, cv in order]  # fmt: skip
        out.append(
            Answer(
                f"quality.whatif.{arm}",
                f"What changes in how the game plays when {what}?",
                parts,
                words.kind(v),
                _estimate(first, arm),
                category.get(v.holds if v.settled else None, "not settled at this size"),
                q,
                "quality",
                verdict=v,
                tolerance=ctx.tolerance("quality_share") if first.measure.unit == "share" else None,
                more=words.settle_sentence(v),
                rows=rows,
                word=word,
                where=arm,
            )
        )
    return out


def _estimate(c: Change, arm: str):
    key = f"quality.whatif.{arm}.{c.measure.name}" + (f"@{c.level}" if c.level else "")
    return estimate(key, c.value, c.measure.label, _unit(c.measure), signed=True)


def figure(found: list[Change]):
    effects = []
    for c in found:
        scale = 100 if c.measure.unit == "share" else 1
        where = f"{c.arm}" + (f" at {c.level}" if c.level else "")
        effects.append(
            Effect(
                f"{where}: {c.measure.label}",
                scale * c.value.value,
                scale * c.value.low,
                scale * c.value.high,
                c.significant,
                "Shares" if c.measure.unit == "share" else "Quantities",
            )
        )
    return effects_figure(
        "quality_whatif",
        "What the arms change in how the game plays",
        effects,
        xlabels={
            "Shares": "arm minus baseline (percentage points)",
            "Quantities": "arm minus baseline",
        },
        caption="Each arm minus the baseline of its level on the same deals, with 95% intervals "
        "(delta method, paired by game). Filled red: significant after Holm's correction over "
        "the measures compared; hollow grey: not significant.",
    )


def paired_runs(ra, rb) -> list[dict]:
    """Two runs of the same game that share their root seed played deal i the same in both:
    for every arm both have (by name), the headline quality measures' paired differences, run
    B minus run A, game by game (`reference`: run A's value of a quantity, which its tolerance
    is a share of). [] when the runs do not share their deals."""
    from sim.measures.generic import generic
    from sim.measures.spec import for_game
    from sim.plugins import get_game
    from sim.plugins.base import outcomes

    def root(results) -> object:
        seed = results.manifest.get("seed", {})
        return seed.get("root") if isinstance(seed, dict) else seed

    if ra.game != rb.game or root(ra) is None or root(ra) != root(rb):
        return []
    plugin = get_game(ra.game, source=str(ra.root / "manifest.json"))
    spec, ends = for_game(plugin), outcomes(plugin)
    chosen = headline(generic(spec, ends), spec, ends, spec.win or None)
    present_b = set(rb.games.get_column("arm").unique().to_list())
    rows = []
    for info in ra.arms:
        if info.name not in present_b or ra.arm_games(info.name).height == 0:
            continue
        fa, fb = ra.stored(info.name), rb.stored(info.name)
        for m in chosen:
            if not has_columns([fa, fb], m.games_columns, m.seats_columns):
                continue
            v = m.paired(fa, fb)
            if v.n > 1 and not math.isnan(v.value):
                rows.append({"arm": info.name, "measure": m.name, "label": m.label,
                             "unit": m.unit, **v.as_dict("diff_"), "p": v.pvalue,
                             "reference": _reference(m, fa)})  # fmt: skip
    adjusted = holm([r["p"] for r in rows])
    for row, p in zip(rows, adjusted, strict=True):
        row["p_holm"] = p
    return rows
