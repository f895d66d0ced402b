"""The tune's report (the report framework's page, markdown, CSV tables and PNG figures): the
recommendation with every target's interval and verdict first (its picture: each target
against each knob, the recommendation within the target's band), the model of the optimum,
the knobs' importance and the Pareto front, how the recommendation moves between the top
candidates, then what the search played (each trial's score). Every section shows its
picture before its tables."""

from __future__ import annotations

import html
import math
import warnings
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from sim.report import folder as report_folder
from sim.report import verdicts as kinds
from sim.report import write_report
from sim.report.answers import Answer, Count, Estimate, Label, Row, joined, sentence
from sim.report.data_quality import Quality
from sim.report.render import Section, Text
from sim.report.table import Column, Table
from sim.stats.interval_columns import columns
from sim.tune import figures, report_confirmed
from sim.tune.report_data import EVERY_GAME, TuneData, load_tune_data, target_estimate
from sim.tune.report_model import model_section
from sim.tune.verdict import MET, MISSED

METHODS = [
    "Candidates: the search asks optuna's sampler for rule values (a grid in random order "
    "when the trials can try every candidate, else TPE for one objective or NSGA-II for "
    "several); a candidate is an experiment of its own, played by the runner.",
    "Common random numbers: game i has the same seed for every candidate, so candidates are "
    "compared on the same luck.",
    "Successive halving: every candidate starts on the first rung's games and goes on to the "
    "next rung only while it ranks among the best share (search.keep) of the candidates "
    "measured at that rung so far; several objectives rank by Pareto front, then by the score.",
    "A target's miss is the distance from its value to its band (0 inside) in units of its "
    "tolerance; where targets combine as 'worst' the largest miss over its skill levels and "
    "arms counts; the score is the sum of the squared misses.",
    "Confirmation: the best candidates are replayed at the experiment's games per arm; every "
    "target gets its 95% interval (Wilson for rates of one unit per game, the delta method "
    "for ratios, order statistics for quantiles) and a verdict: met when the interval lies "
    "inside the band widened by the tolerance, missed when it lies wholly outside it, not "
    "settled otherwise (then the games per arm that would settle it with an 80% "
    "chance, were the truth the current estimate, are estimated from the standard error; the "
    "lab's one verdict, sim/stats/verdict.py).",
    "With one numeric knob, the value where a target is met exactly is read between the "
    "confirmed candidates (linear between them, the curve made monotone), with a percentile "
    "bootstrap over games, the same games for every candidate.",
    "The model: each target's measure at each place is a quadratic in the numeric knobs (a "
    "list knob's choices as shifts), fitted by weighted least squares to the candidates near "
    "the best confirmed one (weighted by games and a tricube kernel of distance); its best "
    "setting is recommended (among ties, the one nearest the printed rules) and confirmed. A "
    "bootstrap over games (one Exp(1) weight per block of games, the same in every candidate: "
    "common random numbers) refits it 400 times: the interval on each knob is where 95% of "
    "the refits put the optimum; the region holds the settings predicted to meet every target "
    "or whose score is not distinguishable from the best's; the alternatives are settings of "
    "the region far apart, each confirmed at full size. The model is checked against every "
    "confirmed candidate: its prediction must reach within half a tolerance of what the "
    "confirmation measured.",
    "Wall times are those of the machine the tune ran on, which may have been shared with "
    "other work: they are indicative only; the games played are exact.",
]


def build_tune_report(root: str | Path, report_dir: str | Path | None = None, *,
                      key: str = "--report-dir") -> Path:  # fmt: skip
    """Write the report of a finished tune; returns the path of index.html."""
    data = load_tune_data(root)
    out = Path(report_dir) if report_dir is not None else Path(root) / "report"
    report_folder.check(out, key=key)
    sections = [
        recommendation(data),
        model_section(data),
        pictures(data),
        candidates(data),
        played(data),
    ]
    title = f"Tune: {data.name}"
    meta = _meta(data)
    return write_report(out, title=title, meta=meta, sections=sections, methods=METHODS,
                        footer=_footer(data), key=key)  # fmt: skip


# --- the recommendation -------------------------------------------------------------------


def recommendation(data: TuneData) -> Section:
    best = data.confirmed[0]
    games = data.summary["games_per_arm"]
    section = Section("recommendation", "The recommendation",
                      f"Which values meet the targets? Recommended: "
                      f"{data.candidate_words(best)}, confirmed on {games:,} games per "
                      "arm.")  # fmt: skip
    for i, target in enumerate(data.targets):
        section.answers.append(_answer(data, i, target, best, first=i == 0))
    for c in data.summary["crossings"]:
        section.answers.append(_crossing_answer(data, c))
    better = report_confirmed.answer(data)
    if better is not None:
        section.answers.append(better)
    section.add(*figures.targets_against_knobs(data))
    rules = data.summary["recommended"]["rules"]
    section.add(Table("tune_recommended", "Recommended rule values",
                      pl.DataFrame({"key": list(rules), "value": [str(v) for v in rules.values()]}),
                      [Column.text("key", "rule key"), Column.text("value", "value")],
                      note=f"Written to {data.summary['overlay']}, usable as an experiment's "
                      "rules.",))  # fmt: skip
    section.add(_places_table("tune_targets", "The targets at the recommendation", data, [best]))
    return section


def _answer(data: TuneData, i: int, target: dict[str, Any], best: dict[str, Any], *,
            first: bool) -> Answer:  # fmt: skip
    """'Met at the missile's price 13: 25.1% (24.3 to 25.9), wanted 25% within ±1 pp.' Each
    place (arm, level) in the rows when there are several."""
    places = [p for p in best["places"] if p["target"] == i]
    verdict = best["verdicts"][i]
    name = data.target_name(target)
    kind = {MET: kinds.WITHIN, MISSED: kinds.FINDING}.get(verdict, kinds.UNSETTLED)
    unsettled = [p["games_to_settle"] for p in places if p.get("games_to_settle")]
    more = []
    if verdict not in (MET, MISSED) and unsettled:
        more = sentence("About ", Count(max(unsettled), "games per arm"),
                        " would likely settle it.")  # fmt: skip
    wanted = Label(f"wanted {target['wanted']} within {target['within']}"
                   + (", at every place" if len(places) > 1 else ""))  # fmt: skip
    at = [" at the recommendation"]
    if first:
        at = sentence(" at ", Label(data.candidate_words(best)))
    opening = {MET: "Met", MISSED: "Missed"}.get(verdict, "Not settled whether met")
    shown = max(places, key=lambda p: p.get("miss") or 0.0)
    figure = target_estimate(f"tune.{i}.{shown['arm']}", target, shown, name)
    where = [" at ", Label(data.place(shown["arm"]))] if len(places) > 1 else []
    parts = sentence(opening, at, ": ", figure, where, ", ", wanted, ".")
    rows = [Row(data.place(p["arm"]), target_estimate(f"tune.{i}.{p['arm']}", target, p, name),
                p["verdict"]) for p in places] if len(places) > 1 else []  # fmt: skip
    measured = ", ".join(data.place(p["arm"]) for p in places)
    return Answer(
        key=f"tune.{i}", question=f"Does the recommendation meet {name}?", parts=parts,
        kind=kind, category=verdict, section="recommendation", headline=figure,
        quality=Quality(games=min(p["n"] for p in places), basis="games per arm",
                        note=f"measured at {measured}"),
        more=more, rows=rows, word=verdict, where=data.place(shown["arm"]), rows_head="place",
    )  # fmt: skip


def _crossing_answer(data: TuneData, c: dict[str, Any]) -> Answer:
    target = data.targets[c["target"]]
    plain = data.knob_name(data.knobs[0])
    estimate = Estimate(f"tune.crossing.{c['target']}.{c['arm']}", f"{plain} where met",
                        c["estimate"], c["low"], c["high"], unit="price", digits=1,
                        signed=False)  # fmt: skip
    name = data.target_name(target)
    place = data.place(c["arm"])
    at = [" (", Label(place), ")"] if place != EVERY_GAME else []
    return Answer(
        key=f"tune.crossing.{c['target']}.{c['arm']}",
        question=f"Where does {name} reach {target['wanted']} along {plain}?",
        parts=sentence(f"At {plain} ", estimate, at, ", read between the confirmed candidates."),
        kind="info",
        headline=estimate,
        where=place,
        section="recommendation",
        rows_head="place",
    )


def _places_table(name: str, title: str, data: TuneData, chosen: list[dict]) -> Table:
    rows = []
    for rank, c in enumerate(chosen):
        for p in c["places"]:
            t = data.targets[p["target"]]
            scale = 100.0 if t["unit"] == "share" else 1.0
            rows.append({"rank": rank + 1, "candidate": c["label"], "measure": p["measure"],
                         "arm": p["arm"], **columns("value", scale * p["value"], scale * p["low"],
                                                    scale * p["high"]),
                         "wanted": t["wanted"],
                         "within": t["within"], "miss": p["miss"], "verdict": p["verdict"],
                         "games": p["n"], "games_to_settle": p.get("games_to_settle")})  # fmt: skip
    return Table(name, title, pl.DataFrame(rows), [
        Column.count("rank", "#"), Column.text("candidate", "candidate"),
        Column.text("measure", "measure"), Column.text("arm", "arm"),
        Column.num_ci("value", "value (95% interval)", 2, help="Shares in %."),
        Column.text("wanted", "wanted"), Column.text("within", "tolerance"),
        Column.num("miss", "miss (tolerances)", 2), Column.text("verdict", "verdict"),
        Column.count("games", "games"),
        Column.count("games_to_settle", "games to settle",
                     help="Per arm, for a verdict not yet settled (from the standard error)."),
    ], note="Met: the 95% interval lies within the band widened by the tolerance; missed: "
       "wholly outside it.")  # fmt: skip


# --- pictures -------------------------------------------------------------------------------


def pictures(data: TuneData) -> Section:
    section = Section("pictures", "Knobs and trade-offs",
                      "Which knobs matter, and do the targets pull apart?")  # fmt: skip
    section.add(*_importance(data))
    front = figures.pareto(data)
    if front is not None:
        section.add(front)
    else:
        section.add(Text("One objective: no trade-off between targets to show."))
    return section


def _importance(data: TuneData) -> list:
    if len(data.knobs) < 2:
        return [Text("One knob: its importance is all of it.")]
    import optuna
    from optuna.distributions import CategoricalDistribution
    from optuna.importance import PedAnovaImportanceEvaluator, get_param_importances

    first = min((g for t in data.trials for g in t.rungs), default=None)
    rows = [t for t in data.trials if first in t.rungs]
    if len(rows) < 4:
        return [Text(f"Only {len(rows)} trials: too few to weigh the knobs.")]
    distributions = {k: CategoricalDistribution(sorted({t.params[k] for t in rows}, key=str))
                     for k in data.knobs}  # fmt: skip
    study = optuna.create_study()
    study.add_trials([
        optuna.trial.create_trial(params=t.params, distributions=distributions,
                                  value=t.rungs[first]["score"])
        for t in rows
    ])  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = get_param_importances(study, evaluator=PedAnovaImportanceEvaluator())
    names = list(found)
    return [figures.importance(names, [found[n] for n in names])]


# --- the candidates ---------------------------------------------------------------------------


def candidates(data: TuneData) -> Section:
    section = Section("candidates", "How much the recommendation moves",
                      "Do the best candidates agree on the values?")  # fmt: skip
    section.add(figures.moves(data))
    spans = [Label(_span(data.knob_name(knob), [c["values"][knob] for c in data.confirmed]))
             for knob in data.knobs]  # fmt: skip
    met = [c for c in data.confirmed if all(v == MET for v in c["verdicts"])]
    parts = sentence(Count(len(met)), " of the ", Count(len(data.confirmed),
                                                        "confirmed candidates"),
                     " meet every target; ", joined([[s] for s in spans], "; ", "; "),
                     ".")  # fmt: skip
    section.answers.append(Answer(key="tune.moves", parts=parts, kind="info",
                                  question="How much does the recommendation move between "
                                  "the top candidates?", section="candidates"))  # fmt: skip
    section.add(_places_table("tune_confirmed", "Every confirmed candidate", data, data.confirmed))
    return section


# --- what was played ----------------------------------------------------------------------------


def _span(knob: str, values: list[Any]) -> str:
    """'missile.cost 13 to 15 (recommended 13)', or the one value they share."""
    if len({str(v) for v in values}) == 1:
        return f"{knob} {values[0]} in every one"
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return f"{knob} {min(values):g} to {max(values):g} (recommended {values[0]:g})"
    return f"{knob} {', '.join(map(str, values))} (recommended {values[0]})"


def played(data: TuneData) -> Section:
    s = data.summary
    section = Section("search", "What the search played",
                      "How many candidates, games and how long?")  # fmt: skip
    states = s["search"]["states"]
    wall = sum(x["wall_seconds"] for x in s.get("sessions", []))
    section.answers.append(Answer(
        key="tune.games", question="How much did the tune play?",
        parts=sentence(Count(s["search"]["trials"], "trials"), " (",
                       Count(states.get("complete", 0), "to the last rung"), ", ",
                       Count(states.get("pruned", 0), "stopped early"), ", ",
                       Count(states.get("fail", 0), "refused by the rules"), "), ",
                       Count(s["games_stored"], "games"), " in all, ",
                       Count(round(wall), "s of wall time"), " over ",
                       Count(len(s.get("sessions", [])), "session(s)"),
                       " on a machine that may have been shared."),
        kind="info", section="search",
    ))  # fmt: skip
    section.add(figures.search(data))
    if s["search"].get("ended"):
        section.add(Text(f"The search ended early: {s['search']['ended']}."))
    rows = []
    for t in data.trials:
        last = t.last
        rows.append({"trial": t.number + 1, **{k: str(t.params.get(k)) for k in data.knobs},
                     "state": t.state, "games": last[0] if last else None,
                     "score": last[1]["score"] if last else math.nan})  # fmt: skip
    cols = [Column.count("trial", "trial"), *[Column.text(k, k) for k in data.knobs],
            Column.text("state", "state"), Column.count("games", "games per arm reached"),
            Column.num("score", "score there", 3)]  # fmt: skip
    section.add(Table("tune_trials", "Every trial", pl.DataFrame(rows), cols,
                      note=f"Rungs: {', '.join(f'{g:,}' for g in s['search']['rungs'])} games per "
                      f"arm; kept at each: {s['search']['keep']:.0%}; sampler: "
                      f"{s['search']['sampler']}."))  # fmt: skip
    return section


def _meta(data: TuneData) -> list[str]:
    e = html.escape
    s = data.summary
    return [
        f"Tune file <code>{e(str(s['tune'].get('file')))}</code>; game {e(s['tune']['game'])}; "
        f"folder <code>{e(str(data.root))}</code>",
        f"Knobs: {e(', '.join(data.knob_name(k) for k in data.knobs))}. Targets: "
        + e("; ".join(f"{data.target_name(t)} {t['wanted']} (within {t['within']}, "
                      f"{t['combine']})" for t in data.targets)) + ".",
    ]  # fmt: skip


def _footer(data: TuneData) -> str:
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (f"Built {when} from {html.escape(str(data.root))}; tune fingerprint "
            f"{html.escape(str(data.summary['tune']['fingerprint']))}.")  # fmt: skip
