"""The tune report's pictures: every target against every knob, the knobs' importance, the
Pareto front of the objectives, how the recommendation moves between the candidates the
confirmation replayed, and what the search played. The targets' pictures show their band and
the 95% intervals of the confirmed candidates."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from sim.report import plots
from sim.report.plots import Figure
from sim.tune.report_data import TuneData
from sim.tune.targets import pareto_fronts

MAX_ROWS = 6  # a target's places drawn against the knobs
MAX_KNOBS = 5
MAX_PAIRS = 3  # panels of the Pareto front
GREY = "#9aa3ad"


def _scale(target: dict[str, Any]) -> tuple[float, str]:
    """The factor and unit a target's values are drawn in: shares in % (pp when signed)."""
    if target["unit"] != "share":
        return 1.0, ""
    return 100.0, " (pp)" if target["signed"] else " (%)"


def _x(values: list[Any]) -> tuple[list[float], list[str] | None]:
    """Positions of knob values: the numbers themselves, or the choices' places."""
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return [float(v) for v in values], None
    labels = list(dict.fromkeys(str(v) for v in values))
    return [float(labels.index(str(v))) for v in values], labels


def targets_against_knobs(data: TuneData) -> list[Figure]:
    """One figure per target: a row per place it is measured at, a column per knob."""
    return [_against_knobs(data, i) for i in range(len(data.targets))]


def _against_knobs(data: TuneData, target_i: int) -> Figure:
    target = data.targets[target_i]
    name = data.target_name(target)
    scale, unit = _scale(target)
    arms = [p["arm"] for p in data.confirmed[0]["places"] if p["target"] == target_i]
    knobs = data.knobs[:MAX_KNOBS]
    fig, panels = plots.grid(arms[:MAX_ROWS], knobs, cell_width=3.6, cell_height=2.6)
    for arm, knob, ax in panels:
        points = []
        for t in data.trials:
            last = t.last
            if last is None:
                continue
            games, ev = last
            for m in ev["measured"]:
                if m["target"] == target_i and m["arm"] == arm:
                    points.append((t.params[knob], m["value"]["value"], games))
        confirmed = [(c["values"][knob], _place(c, target_i, arm)) for c in data.confirmed]
        xs, labels = _x([p[0] for p in points] + [c[0] for c in confirmed])
        n = len(points)
        top = max((p[2] for p in points), default=1)
        ax.scatter(xs[:n], [scale * p[1] for p in points], s=[8 + 22 * p[2] / top for p in points],
                   color=GREY, alpha=0.7, label="trials (size: games)", zorder=2)  # fmt: skip
        for i, (_, place) in enumerate(confirmed):
            x = xs[n + i]
            color = plots.COLORS[0] if i == 0 else plots.COLORS[2]
            ax.errorbar([x], [scale * place["value"]],
                        yerr=[[scale * (place["value"] - place["low"])],
                              [scale * (place["high"] - place["value"])]],
                        fmt="*" if i == 0 else "o", color=color, markersize=10 if i == 0 else 5,
                        capsize=3, zorder=3,
                        label="recommended" if i == 0 else "confirmed")  # fmt: skip
        _band(ax, target, scale)
        if labels is not None:
            ax.set_xticks(range(len(labels)), labels)
        ax.set_xlabel(data.knob_name(knob))
        ax.set_ylabel(f"{name}{unit}", fontsize=8)
        ax.set_title(data.place(arm), fontsize=9)
    plots.legend_below(fig, ncol=4)
    more = f" (the first {MAX_ROWS} of {len(arms)} places)" if len(arms) > MAX_ROWS else ""
    return plots.finish(
        fig, f"tune_target_{target_i}", f"{name} against each knob",
        f"{name[:1].upper()}{name[1:]}, a row per place it is measured{more}. Grey: every "
        "trial at the most games it reached (larger: more games). Blue star: the "
        "recommendation; green: the other confirmed candidates, with 95% intervals at full "
        "size. Dark band or dashed line: the target; light band: within the tolerance.",
    )  # fmt: skip


def _place(candidate: dict[str, Any], target: int, arm: str) -> dict[str, Any]:
    return next(p for p in candidate["places"] if p["target"] == target and p["arm"] == arm)


def _band(ax, target: dict[str, Any], scale: float) -> None:
    low, high, tol = target["low"], target["high"], target["tolerance"]
    ax.axhspan(scale * (low - tol), scale * (high + tol), color=plots.COLORS[2], alpha=0.08,
               linewidth=0, label="within tolerance")  # fmt: skip
    if high > low:
        ax.axhspan(scale * low, scale * high, color=plots.COLORS[2], alpha=0.18, linewidth=0,
                   label="target band")  # fmt: skip
    else:
        ax.axhline(scale * low, color=plots.FAIR, linestyle="--", linewidth=1, label="target")


def importance(names: list[str], values: list[float]) -> Figure:
    fig, axes = plots.new(1, 1, width=7, height=0.6 + 0.45 * len(names))
    ax = axes[0, 0]
    order = np.argsort(values)
    ax.barh([names[i] for i in order], [values[i] for i in order], color=plots.COLORS[0])
    ax.set_xlabel("importance (share of the explained variation of the score)")
    ax.set_xlim(0, 1)
    return plots.finish(
        fig, "tune_importance", "Which knobs matter for the score",
        "optuna's PED-ANOVA importance of each knob for the score on the first rung, where every "
        "trial played the same games; the shares add up to 1.",
    )  # fmt: skip


def pareto(data: TuneData) -> Figure | None:
    names = list(data.summary["objectives"])
    if len(names) < 2:
        return None
    pairs = list(combinations(range(len(names)), 2))[:MAX_PAIRS]
    top = max((t.last[0] for t in data.trials if t.last), default=0)
    points = [t.last[1]["objectives"] for t in data.trials if t.last and t.last[0] == top]
    confirmed = [c["objectives"] for c in data.confirmed]
    fig, axes = plots.new(1, len(pairs), width=4.2 * len(pairs) + 0.6, height=3.8)
    for (i, j), ax in zip(pairs, axes[0], strict=True):
        pts = np.array([[p[i], p[j]] for p in points]) if points else np.zeros((0, 2))
        if len(pts):
            fronts = pareto_fronts(pts.tolist())
            ax.scatter(pts[:, 0], pts[:, 1], color=GREY, s=14, label=f"trials at {top:,} games")
            front = pts[np.array(fronts) == 0]
            front = front[np.argsort(front[:, 0])]
            ax.plot(front[:, 0], front[:, 1], color=plots.COLORS[1], marker="o", markersize=4,
                    label="Pareto front")  # fmt: skip
        conf = np.array([[c[i], c[j]] for c in confirmed])
        ax.scatter(conf[:1, 0], conf[:1, 1], marker="*", s=120, color=plots.COLORS[0],
                   label="recommended (full size)", zorder=3)  # fmt: skip
        ax.scatter(conf[1:, 0], conf[1:, 1], s=30, color=plots.COLORS[2],
                   label="confirmed (full size)", zorder=3)  # fmt: skip
        ax.set_xlabel(f"miss: {names[i]}", fontsize=8)
        ax.set_ylabel(f"miss: {names[j]}", fontsize=8)
    plots.legend_below(fig, ncol=4)
    return plots.finish(
        fig, "tune_pareto", "Where the objectives trade off",
        "Each objective's miss in tolerances (0: within its band; 1: one tolerance outside). "
        "The front joins the trials no other trial beats on every objective: where it is a "
        "single point near 0, the targets do not conflict.",
    )  # fmt: skip


def moves(data: TuneData) -> Figure:
    """Per knob: the confirmed candidates' values, best first, each with its score."""
    knobs = data.knobs[:MAX_KNOBS]
    fig, axes = plots.new(1, len(knobs), width=min(3.4 * len(knobs) + 1, 15),
                          height=0.9 + 0.42 * len(data.confirmed))  # fmt: skip
    labels = [f"#{i + 1} (score {c['score']:.2g})" for i, c in enumerate(data.confirmed)]
    y = np.arange(len(data.confirmed))[::-1]
    for knob, ax in zip(knobs, axes[0], strict=True):
        xs, ticks = _x([c["values"][knob] for c in data.confirmed])
        colors = [_verdict_color(c["verdicts"]) for c in data.confirmed]
        ax.scatter(xs, y, c=colors, s=50, zorder=3)
        ax.axvline(xs[0], color=plots.COLORS[0], linestyle=":", linewidth=1)
        ax.set_yticks(y, labels if knob == knobs[0] else [""] * len(labels))
        if ticks is not None:
            ax.set_xticks(range(len(ticks)), ticks)
        span = max(xs) - min(xs)
        ax.set_xlim(min(xs) - max(span * 0.2, 1.0), max(xs) + max(span * 0.2, 1.0))
        ax.set_xlabel(data.knob_name(knob))
    for verdict, color in VERDICT_COLORS.items():
        axes[0, 0].scatter([], [], color=color, label=f"targets {verdict}")
    plots.legend_below(fig, ncol=3)
    return plots.finish(
        fig, "tune_moves", "How much the recommendation moves between the top candidates",
        "The candidates the confirmation replayed at full size, best first (#1 is recommended), "
        "coloured by their targets' verdicts; the dotted line marks the recommendation.",
    )  # fmt: skip


def search(data: TuneData) -> Figure:
    """Each trial's score at the most games it reached, in the order the search asked for them
    (larger: more games); the trials the rules refused have no score and are left out."""
    fig, axes = plots.new(1, 1, width=7, height=3.4)
    ax = axes[0, 0]
    top = max((t.last[0] for t in data.trials if t.last), default=1)
    for state, color in STATE_COLORS.items():
        shown = [(t.number + 1, t.last) for t in data.trials if t.state == state and t.last]
        shown = [(n, last) for n, last in shown if np.isfinite(last[1]["score"])]
        if shown:
            ax.scatter([n for n, _ in shown], [last[1]["score"] for _, last in shown],
                       s=[12 + 40 * last[0] / top for _, last in shown], color=color,
                       alpha=0.8, label=STATE_WORDS[state], zorder=2)  # fmt: skip
    best = data.confirmed[0].get("score")
    if best is not None and np.isfinite(best):
        ax.axhline(best, color=plots.COLORS[0], linestyle=":", linewidth=1,
                   label="the recommendation (full size)")  # fmt: skip
    scores = [t.last[1]["score"] for t in data.trials if t.last]
    top = max([s for s in scores if np.isfinite(s)] + [1.0])
    ax.set_yscale("symlog", linthresh=1.0)  # 0 (in the bands) to far misses on one axis
    ax.set_ylim(0.0, 2.0 * top)
    ax.set_xlabel("trial")
    ax.set_ylabel("score (0: every target in its band)", fontsize=8)
    plots.legend_below(fig, ncol=3)
    return plots.finish(
        fig, "tune_search", "What the search played",
        "Each trial's score (the sum of its targets' squared misses, in tolerances) at the most "
        "games it reached (larger: more games), in the order the sampler asked for them; the "
        "dotted line is the recommendation's score at full size. Linear from 0 to 1 (one target "
        "a tolerance outside its band), logarithmic above.",
    )  # fmt: skip


STATE_COLORS = {"complete": plots.COLORS[0], "pruned": GREY}
STATE_WORDS = {"complete": "to the last rung", "pruned": "stopped early"}

VERDICT_COLORS = {"all met": plots.COLORS[2], "some missed": plots.COLORS[1],
                  "not all settled": GREY}  # fmt: skip


def _verdict_color(verdicts: list[str]) -> str:
    if all(v == "met" for v in verdicts):
        return VERDICT_COLORS["all met"]
    if any(v == "missed" for v in verdicts):
        return VERDICT_COLORS["some missed"]
    return VERDICT_COLORS["not all settled"]
