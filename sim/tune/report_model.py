"""The tune report's section on the model (sim/tune/region.py): where the optimum lies on each
knob, the region of settings that do as well, the alternatives with their verdicts, the
printed values beside the recommended ones, and whether the model agrees with the
confirmation. The picture first: each knob's range with the printed value, the region, the
interval and the confirmed settings."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from sim.report import plots
from sim.report.answers import Answer, Count, Estimate, Label, joined, sentence
from sim.report.render import Section, Text
from sim.report.table import Column, Table
from sim.report.verdicts import FINDING, UNSETTLED, WITHIN
from sim.tune.knobs import span
from sim.tune.report_data import TuneData, number


def model_section(data: TuneData) -> Section:
    model = data.summary.get("model") or {}
    section = Section(
        "model",
        "Where the optimum lies",
        "Which settings would do as well, and how sure is the recommendation?",
    )
    if not model.get("fitted"):
        why = model.get("why", "this tune was run before the model existed")
        section.add(Text(f"No model of the optimum: {why}. The recommendation is the confirmed "
                         "candidate that misses least."))  # fmt: skip
        return section
    section.add(_figure(data, model))
    section.answers.append(_where(data, model))
    for j, alt in enumerate(data.confirmed[1 : 1 + model["alternatives"]], start=1):
        section.answers.append(_alternative(data, j, alt))
    section.add(_values_table(data, model))
    checks = [_check_row(data, c) for c in model["checks"]]
    if checks:
        frame = pl.DataFrame(checks).with_columns(pl.col("agrees").cast(pl.Utf8))
        section.add(_checks_table(frame))
    return section


def _check_row(data: TuneData, c: dict[str, Any]) -> dict[str, Any]:
    target = data.targets[c["target"]]
    return {**{k: v for k, v in c.items() if k != "values"},
            "candidate": ", ".join(f"{k}={v}" for k, v in c["values"].items()),
            "target": target["name"] or target["measure"]}  # fmt: skip


def _checks_table(frame: pl.DataFrame) -> Table:
    frame = frame.rename({"low": "gap_low", "high": "gap_high"}).with_columns(
        (pl.col("predicted") - pl.col("measured")).alias("gap")
    )
    return Table("tune_model_checks", "The model against the confirmation", frame, [
        Column.text("candidate", "confirmed candidate"), Column.text("target", "target"),
        Column.text("place", "place"), Column.num("predicted", "model", 4),
        Column.num("measured", "confirmation", 4),
        Column.num_ci("gap", "model - confirmation (95%)", 4),
        Column.text("agrees", "within half a tolerance"),
    ], note="The gap's interval from the bootstrap over games (the same games for both); the "
       "model agrees where it reaches within half a tolerance of 0.")  # fmt: skip


def _where(data: TuneData, model: dict[str, Any]) -> Answer:
    region = model["region"]
    between = model.get("optimum") or {}
    digits = model.get("optimum_digits") or {}
    said = data.knob_name
    spans = [[Label(said(k)), " ", _optimum(k, *between[k], said(k), digits=digits.get(k, 1)),
              " (the settings that hold it: ",
              Label(span(lo, hi, number)), ")"] if k in between else
             [Label(said(k)), " ", _optimum(k, model["refitted_best"][k], lo, hi, said(k))]
             for k, (lo, hi) in model["intervals"].items()]  # fmt: skip
    ranges = [[Label(_range(said(k), v))] for k, v in region["ranges"].items()]
    misses = [c for c in model["checks"] if not c["agrees"]]
    check = (sentence("; the model misses the confirmation at ",
                      Label(data.setting(misses[0]["values"])), ": read the interval with care")
        if misses else ["; the model agrees with the confirmation at every confirmed "
                        "candidate"])  # fmt: skip
    parts = sentence(
        "The model's best is ", Label(_best(data, model)), "; the optimum lies at ",
        joined(spans, "; ", "; ") if spans else [Label("one of the list's choices")],
        "; ", Count(region["settings"], "settings"), " of the ",
        Count(region["evaluated"]), " near the best do as well (",
        joined(ranges, "; ", "; "), "), ", Count(region["met"]),
        " of them predicted to meet every target", *check, *_by(data, model), ".")  # fmt: skip
    return Answer(key="tune.model", question="Where does the optimum lie?", parts=parts,
                  kind=FINDING if misses else "info", section="model")  # fmt: skip


def _by(data: TuneData, model: dict[str, Any]) -> list[Any]:
    """What the recommendation is when it is not the model's best."""
    if model.get("by", "model") == "model":
        return []
    return sentence("; since the model misses the confirmation at its best, the recommendation "
                    "is the confirmation's best, ",
                    Label(data.candidate_words(data.confirmed[0])))  # fmt: skip


def _best(data: TuneData, model: dict[str, Any]) -> str:
    """The model's best setting in words (its label as stored, for a tune that kept none)."""
    best = model.get("best")
    return data.setting(best) if best else str(model["best_label"])


def _optimum(knob: str, best: float, low: float, high: float, name: str, *,
             digits: int | None = None) -> Estimate:  # fmt: skip
    """A knob's optimum: the refitted model's best value (between the grid's values, where
    the summary has it, shown to `digits` decimals: a tenth of the knob's step), the interval
    where 95% of the bootstrap's refits put it."""
    if digits is None:
        digits = 0 if all(float(v).is_integer() for v in (best, low, high)) else 3
    return Estimate(f"tune.optimum.{knob}", f"{name} at the optimum", float(best), float(low),
                    float(high), unit="num", digits=digits, signed=False)  # fmt: skip


def _range(knob: str, value: list[Any]) -> str:
    if len(value) == 2 and all(isinstance(v, int | float) for v in value):
        return f"{knob} {span(value[0], value[1], number)}"
    return f"{knob} {', '.join(map(str, value))}"


def _alternative(data: TuneData, j: int, alt: dict[str, Any]) -> Answer:
    verdicts = [[Label(f"{data.target_name(t)} {v}")]
                for t, v in zip(data.targets, alt["verdicts"], strict=True)]  # fmt: skip
    kind = (WITHIN if all(v == "met" for v in alt["verdicts"]) else
            FINDING if any(v == "missed" for v in alt["verdicts"]) else UNSETTLED)  # fmt: skip
    return Answer(key=f"tune.alternative.{j}", question=f"Alternative {j}?",
                  parts=sentence(Label(f"Alternative {j}"), ": ", Label(data.candidate_words(alt)),
                                 ", confirmed on ",
                                 Count(alt["places"][0]["n"], "games per arm"), ": ",
                                 joined(verdicts, "; ", "; "), "."),
                  kind=kind, section="model")  # fmt: skip


def _values_table(data: TuneData, model: dict[str, Any]) -> Table:
    best = data.confirmed[0]["values"]
    alts = data.confirmed[1 : 1 + model["alternatives"]]
    rows = []
    between = model.get("optimum") or {}
    for knob in data.knobs:
        low, high = model["intervals"].get(knob, (np.nan, np.nan))
        est = between.get(knob)
        rows.append(
            {
                "knob": knob,
                "printed": str(model["printed"].get(knob)),
                "recommended": str(best[knob]),
                "optimum": _between(est, (model.get("optimum_digits") or {}).get(knob, 1)),
                "settings": _both(low, high),
                **{f"alt{j}": str(a["values"][knob]) for j, a in enumerate(alts, 1)},
            }
        )
    cols = [
        Column.text("knob", "knob"),
        Column.text("printed", "printed"),
        Column.text("recommended", "recommended"),
        Column.text("optimum", "optimum lies at (95%)"),
        Column.text("settings", "settings that hold it (95%)"),
    ]
    cols += [Column.text(f"alt{j}", f"alternative {j}") for j in range(1, len(alts) + 1)]
    return Table(
        "tune_values",
        "Printed, recommended and alternative values",
        pl.DataFrame(rows),
        cols,
        note="Printed: the preset's own value, before the experiment's rules.",
    )


def _between(est: list[float] | None, digits: int) -> str:
    """'13.5 (13.0 to 13.9)', or '' without an estimate."""
    if not est:
        return ""
    value, low, high = (f"{v:,.{digits}f}" for v in est)
    return f"{value} ({low} to {high})"


def _both(low: float, high: float) -> str:
    return "" if not np.isfinite(low) else span(low, high, number)


def _figure(data: TuneData, model: dict[str, Any]):
    knobs = [k for k in data.knobs if k in model["intervals"]]
    fig, axes = plots.new(len(knobs) or 1, 1, width=8, height=0.6 + 1.0 * max(len(knobs), 1))
    listed = model["region"]["listed"]
    for knob, ax in zip(knobs, axes[:, 0], strict=False):
        tried = [t.params[knob] for t in data.trials if knob in t.params]
        low, high = (model.get("optimum") or {}).get(knob, [None, *model["intervals"][knob]])[1:]
        ax.scatter(tried, [0] * len(tried), color="#9aa3ad", s=10, label="trials")
        if listed:
            ax.scatter([r[knob] for r in listed], [0.25] * len(listed), color=plots.COLORS[2],
                       s=18, marker="s", label="region (would do as well)")  # fmt: skip
        ax.plot(
            [low, high],
            [0.5, 0.5],
            color=plots.COLORS[0],
            linewidth=3,
            label="where the optimum lies (95%)",
        )
        ax.scatter([data.confirmed[0]["values"][knob]], [0.5], marker="*", s=140,
                   color=plots.COLORS[0], zorder=3, label="recommended")  # fmt: skip
        alts = [a["values"][knob] for a in data.confirmed[1 : 1 + model["alternatives"]]]
        ax.scatter(alts, [0.75] * len(alts), color=plots.COLORS[1], s=30,
                   label="alternatives")  # fmt: skip
        printed = model["printed"].get(knob)
        if isinstance(printed, int | float):
            ax.axvline(printed, color=plots.FAIR, linestyle="--", linewidth=1, label="printed")
        ax.set_yticks([])
        ax.set_ylim(-0.3, 1.0)
        ax.set_xlabel(data.knob_name(knob))
    plots.legend_below(fig, ncol=3)
    return plots.finish(
        fig, "tune_model", "Where the optimum lies, knob by knob",
        "Grey: the values the trials tried; green squares: the settings the model finds as good "
        "(predicted to meet every target, or not distinguishable from the best); the blue bar: "
        "where the optimum lies (95%, a bootstrap over games); star: recommended; red: the "
        "alternatives; dashed: the printed value.",
    )  # fmt: skip
