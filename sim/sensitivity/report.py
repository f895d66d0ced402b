"""The sensitivity report: per target, the picture first (each place's share of the variation
that each key explains alone and with its interactions, and luck's, with 95% intervals), then
a sentence per place, verdict first, then the tables (Sobol, pairs, Morris). Built from
sensitivity.json alone."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from sim.report import plots, write_report
from sim.report.answers import Answer, Count, Estimate, Label, joined, sentence
from sim.report.render import Section
from sim.report.table import Column, Table
from sim.sensitivity.analysis import SEED
from sim.stats.interval_columns import columns

MAX_PLACES = 6  # panels per target
SCREENED_OUT = "#9a9a9a"  # a key Morris screened out of the Sobol step
METHODS = [
    "Every point is an experiment of its own: the keys at the point's values, the root seed "
    "moved by the point's seed factor; points with the same seed play the same games.",
    "Morris screening (SALib): paths through a 4-level grid of every key's range and the seed, "
    "one factor moved at a time; mu* is the mean absolute change of the target per move, with "
    "a bootstrap 95% interval. A key matters when its interval lies above 0 and its mu* reaches "
    "a tenth of the largest key's.",
    "Sobol indices (SALib, Saltelli's sample and Jansen's estimators) on the keys that matter "
    "and the seed: a key's first-order index S1 is the share of the target's variance it "
    "explains alone, its total index ST with its interactions; S2 of a pair, their "
    "interaction's share. Intervals: the index plus or minus SALib's bootstrap 95% half-width.",
    "Luck is the seed's total index: the share of the variance that changes with the games' "
    "seeds, the rules held fixed, at the report's games per point (it shrinks as the games "
    "grow); the rules explain the rest.",
]


def build_sensitivity_report(root: Path, found: dict[str, Any], report_dir: Path) -> Path:
    sections = [_section(found, i, t) for i, t in enumerate(found["targets"])]
    sections.append(_morris_section(found))
    title = f"Sensitivity: {found['name']}"
    ranges = "; ".join(f"{f['name']} {f['low']:g} to {f['high']:g} (now {f['current']})"
                       for f in found["factors"])  # fmt: skip
    meta = [html.escape(f"{found['games']:,} games per arm at each point; "
                        f"{found['points']['morris']} Morris points, "
                        f"{found['points']['sobol']} Sobol points "
                        f"({found['points']['distinct']} distinct); results in {root}."),
            html.escape(f"Ranges: {ranges}."),
            html.escape(f"Sobol on: {', '.join(found['kept'])}; held at their values: "
                        f"{', '.join(found['fixed']) or 'none'}.")]  # fmt: skip
    return write_report(report_dir, title=title, meta=meta, sections=sections, methods=METHODS,
                        footer=html.escape(f"Built from {root}."), key="--report-dir")  # fmt: skip


def _factor_label(name: str) -> str:
    return "seed (luck)" if name == SEED else name


def _section(found: dict[str, Any], i: int, target: dict[str, Any]) -> Section:
    outputs = [o for o in found["outputs"] if o["target"] == i]
    name = target["name"]
    section = Section(f"sensitivity_{i}", f"What moves {name}",
                      f"How much of the variation of {name} do the rules explain, which keys, and "
                      "how much is luck?")  # fmt: skip
    section.add(_figure(found, i, target, outputs))
    for o in outputs:
        section.answers.append(_answer(found, i, target, o))
    rows = []
    for o in outputs:
        for key, v in o["shares"]["keys"].items():
            rows.append({"place": o["place"], "factor": key, **_cols("S1", v["S1"]),
                         **_cols("ST", v["ST"])})  # fmt: skip
        luck = o["shares"]["luck"]
        rows.append({"place": o["place"], "factor": f"{SEED} (luck)", **_cols("S1", [np.nan] * 3),
                     **_cols("ST", luck)})  # fmt: skip
    section.add(Table(f"sensitivity_{i}", f"Sobol indices of {name}", pl.DataFrame(rows), [
        Column.text("place", "place"), Column.text("factor", "key"),
        Column.pct_ci("S1", "alone (S1)"), Column.pct_ci("ST", "with interactions (ST)"),
    ], note="Shares of the target's variance over the keys' ranges, at "
       f"{found['games']:,} games per arm a point."))  # fmt: skip
    pairs = [{"place": o["place"], "pair": f"{p['a']} x {p['b']}", **_cols("S2", p["S2"])}
             for o in outputs for p in o["shares"]["pairs"]]  # fmt: skip
    if pairs:
        section.add(Table(f"sensitivity_pairs_{i}", f"Interactions of pairs ({name})",
                          pl.DataFrame(pairs), [Column.text("place", "place"),
                                                Column.text("pair", "pair"),
                                                Column.pct_ci("S2", "interaction (S2)")],
                          note="A pair's share of the variance beyond its two keys alone "
                          "(seed pairs: luck that depends on the key)."))  # fmt: skip
    return section


def _cols(prefix: str, v: list[float]) -> dict[str, float]:
    return columns(prefix, v[0], v[1], v[2])


def _estimate(key: str, label: str, v: list[float]) -> Estimate:
    return Estimate(key, label, v[0], v[1], v[2], unit="pct", digits=0)


def _answer(found: dict[str, Any], i: int, target: dict[str, Any], o: dict[str, Any]) -> Answer:
    s = o["shares"]
    key = f"sensitivity.{i}.{o['place']}"
    ranked = sorted(s["keys"].items(), key=lambda kv: -kv[1]["ST"][0])
    shown = [k for k in ranked if k[1]["ST"][1] > 0]
    nothing = [k for k, v in ranked if v["ST"][1] <= 0]
    by_key = joined([sentence(Label(k), " ", _estimate(f"{key}.{k}", f"{k}'s share", v["ST"]))
                     for k, v in shown], ", ", " and ")  # fmt: skip
    inter = sum(max(v["ST"][0] - v["S1"][0], 0.0) for v in s["keys"].values())
    parts = sentence(
        "The rules explain ", _estimate(f"{key}.rules", "the rules' share", s["rules"]),
        " of the variation of ", Label(target["name"]), " at ", Label(o["place"]),
        " over these ranges, luck ", _estimate(f"{key}.luck", "luck's share", s["luck"]),
        " at ", Count(found["games"], "games a point"),
        sentence("; by key, with its interactions: ", *by_key) if shown else None,
        "; the keys' interactions add to their own shares (the table: with interactions "
        "above alone)"
        if inter >= 0.01 else None,
        sentence("; not distinguishable from no effect: ", Label(", ".join(nothing)))
        if nothing else None, ".")  # fmt: skip
    return Answer(key=key, question=f"How much of {target['name']} do the rules decide "
                  f"({o['place']})?", parts=parts, kind="info",
                  headline=_estimate(f"{key}.rules", "the rules' share", s["rules"]),
                  section=f"sensitivity_{i}")  # fmt: skip


def _figure(found: dict[str, Any], i: int, target: dict[str, Any], outputs: list[dict]):
    shown = outputs[:MAX_PLACES]
    names = [*found["kept"], SEED]
    fig, axes = plots.new(1, len(shown), width=min(4.6 * len(shown) + 1, 15),
                          height=1.2 + 0.45 * len(names))  # fmt: skip
    y = np.arange(len(names))[::-1]
    for o, ax in zip(shown, axes[0], strict=True):
        s = o["shares"]
        rows = [s["keys"][n] for n in found["kept"]] + [{"S1": [np.nan] * 3, "ST": s["luck"]}]
        for what, offset, color, marker in (("S1", 0.15, plots.COLORS[0], "o"),
                                            ("ST", -0.15, plots.COLORS[1], "s")):  # fmt: skip
            v = np.array([r[what] for r in rows], dtype=float)
            ax.errorbar(
                100 * v[:, 0],
                y + offset,
                xerr=100 * np.abs(v[:, [0]] - v[:, 1:]).T,
                fmt=marker,
                color=color,
                capsize=2,
                label="alone (S1)" if what == "S1" else "with interactions (ST)",
            )
        ax.axvline(0, color=plots.FAIR, linewidth=1)
        ax.set_yticks(y, [_factor_label(n) for n in names])
        ax.set_xlim(-5, 105)
        ax.set_xlabel("share of the variance (%)")
        ax.set_title(o["place"], fontsize=9)
    plots.legend_below(fig, ncol=2)
    more = (
        f" (the first {MAX_PLACES} of {len(outputs)} places)" if len(outputs) > MAX_PLACES else ""
    )
    return plots.finish(
        fig, f"sensitivity_{i}", f"What moves {target['name']}",
        f"{target['label']}: each key's share of its variance alone (S1, circles) and with its "
        f"interactions (ST, squares), and luck's (the seed's total), with 95% intervals, at "
        f"{found['games']:,} games a point{more}.",
    )  # fmt: skip


def _morris_section(found: dict[str, Any]) -> Section:
    section = Section("sensitivity_screen", "Screening (Morris)",
                      "Which keys move any target at all?")  # fmt: skip
    rows = []
    for o in found["outputs"]:
        target = found["targets"][o["target"]]
        for key, v in o["morris"].items():
            rows.append({"target": target["name"], "place": o["place"], "factor": key,
                         "mu_star": v["mu_star"], "mu_low": v["mu_star"] - v["conf"],
                         "mu_high": v["mu_star"] + v["conf"], "sigma": v["sigma"],
                         "kept": "yes" if key in found["kept"] else ""})  # fmt: skip
    section.add(_morris_figure(found))
    section.add(
        Table(
            "sensitivity_morris",
            "Morris screening",
            pl.DataFrame(rows),
            [
                Column.text("target", "target"),
                Column.text("place", "place"),
                Column.text("factor", "key"),
                Column.num_ci("mu", "mu* (95% interval)", 4),
                Column.num("sigma", "sigma", 4),
                Column.text("kept", "Sobol"),
            ],
            note="mu*: the mean absolute change of the target per move across the key's range "
            "(the target's units); sigma: how much that change varies (interactions, bends).",
        )
    )
    return section


def _morris_figure(found: dict[str, Any]):
    """Each place's mu* per key with its interval, the Sobol factors in colour: which
    keys move a target at all, in the target's own units (one panel a place)."""
    shown = found["outputs"][:MAX_PLACES]
    names = list(shown[0]["morris"]) if shown else []
    fig, axes = plots.new(1, max(len(shown), 1), width=min(4.6 * len(shown) + 1, 15),
                          height=1.2 + 0.45 * len(names))  # fmt: skip
    sobol = {*found["kept"], SEED}  # the seed is always a Sobol factor
    colors = [plots.COLORS[0] if n in sobol else SCREENED_OUT for n in names]
    for o, ax in zip(shown, axes[0], strict=False):
        mu = [o["morris"][n]["mu_star"] for n in names]
        conf = [o["morris"][n]["conf"] for n in names]
        plots.intervals(ax, [_factor_label(n) for n in names], mu,
                        [m - c for m, c in zip(mu, conf, strict=True)],
                        [m + c for m, c in zip(mu, conf, strict=True)],
                        xlabel="mu*: mean change per move", reference=0.0,
                        colors=colors)  # fmt: skip
        ax.set_title(f"{found['targets'][o['target']]['name']}: {o['place']}", fontsize=9)
    return plots.finish(
        fig, "sensitivity_morris_mu", "Which keys move a target",
        "Morris screening: each key's mean absolute change of the target per move across its "
        "range (mu*, in the target's units) with its 95% interval; in colour the Sobol step's "
        "factors (the keys kept and the seed), in grey the keys screened out "
        f"(the first {MAX_PLACES} places).",
    )  # fmt: skip
