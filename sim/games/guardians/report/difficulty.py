"""Difficulty tables: the chance the invaders win (raid), game length and scores by player count
x preset x player skill, shaped like a rulebook difficulty chart; and a recommended setup per
difficulty level, found among the values of a setup knob the experiment sweeps (e.g. the number
of starting rows)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np
import polars as pl

from sim.games.guardians.report import difficulty_answers
from sim.games.guardians.report.difficulty_answers import LEVELS, TOLERANCE, suits_verdict
from sim.report import fmt, plots
from sim.report import levels as ladder
from sim.report.context import Context
from sim.report.metrics import prefixed
from sim.report.render import Finding, Section, Text
from sim.report.table import Cell, Column, Table
from sim.stats.interval_columns import columns, high_key, interval_in, low_key

ID = "difficulty"
TITLE = "Difficulty"
PLUS_MINUS = "\u00b1"
SKILL_ORDER = ("novice", "casual", "club", "strong", "expert", "master")  # weakest first
ANY = "any preset"  # the recommendation searches over the presets themselves


def skill_of(ctx: Context, arm: str) -> str:
    """The table's skill: seats.all if swept, the one strategy everybody plays, else the mix."""
    g = ctx.results.arm_games(arm)
    for key in ("seats.all", "skill"):
        if key in g.columns:
            return str(g.get_column(key)[0])
    strategies = ctx.results.arm_seats(arm).get_column("strategy").unique().sort().to_list()
    return strategies[0] if len(strategies) == 1 else "+".join(strategies)


def short_skills(skills: set[str]) -> dict[str, str]:
    """Each table's skill as the level's name alone (`club(shop=1)` -> `club`) where no two
    of them share that name; a name two of them share keeps its parameters, and a level
    whose brackets hold no parameters keeps them ("your group (fitted from 42 games)")."""
    names = {s: s.split("(", 1)[0] if "=" in s.partition("(")[2] else s for s in skills}
    counts = Counter(names.values())
    return {s: name if counts[name] == 1 else s for s, name in names.items()}


def knob_keys(ctx: Context) -> list[str]:
    """Swept setup keys: varying parameter columns other than players, preset and seats."""
    return [
        k
        for k in ctx.results.varying(ctx.results.param_columns)
        if not k.startswith("seats") and k not in ("players", "ruleset", "rotate", "skill")
    ]


def _skill_rank(skill: str) -> tuple[int, str]:
    return (SKILL_ORDER.index(skill) if skill in SKILL_ORDER else len(SKILL_ORDER), skill)


def skill_order(ctx: Context, skills: set[str]) -> list[str]:
    """The skills weakest first: the experiment's ladder order when it has one."""
    known = [lv for lv in ladder.levels(ctx.results) if lv in skills]
    return known + sorted(skills - set(known), key=_skill_rank)


def build(ctx: Context) -> Section:
    section = Section(
        ID,
        TITLE,
        "How hard is the game? The chance that the invaders win (a raid: "
        "everybody loses) for each number of players, preset and player skill.",
    )
    knobs = knob_keys(ctx)
    rows = []
    for arm in ctx.arm_names:
        g = ctx.results.arm_games(arm)
        values = ctx.arm_values(arm)
        row = {
            "arm": arm,
            "players": int(g.get_column("players")[0]),
            "preset": str(g.get_column("ruleset")[0]),
            "skill": skill_of(ctx, arm),
            "knob": ", ".join(f"{k} {fmt.value(values.get(k))}" for k in knobs),
            "knob_values": tuple(values.get(k) for k in knobs),
            "games": g.height,
        }
        for k in knobs:
            row[k] = values.get(k)
        row.update(prefixed(ctx.measure(arm, "raid_rate"), "raid"))
        length = "rounds" if "rounds" in g.columns else "turns"
        row.update(prefixed(ctx.measure(arm, f"mean_{length}"), "length"))
        row["length_unit"] = length
        row.update(prefixed(ctx.measure(arm, "mean_score"), "score"))
        row["capped"] = int((g.get_column("outcome") == "cap").sum())
        row.update(prefixed(ctx.measure(arm, "decided_rate"), "won"))
        rows.append(row)
    short = short_skills({r["skill"] for r in rows})
    played = sorted({f"{name} as {s}" for s, name in short.items() if name != s})
    for r in rows:
        r["skill"] = short[r["skill"]]
    if played:
        section.add(Text(f"Levels named without their parameters: {', '.join(played)}."))
    standard = _standard_values(ctx, knobs)
    chart_rows = [r for r in rows if not knobs or r["knob_values"] == standard] or rows
    unit = chart_rows[0]["length_unit"]
    presets = sorted({r["preset"] for r in rows})
    players = sorted({r["players"] for r in rows})
    setting = (
        (
            " at the standard setup ("
            + ", ".join(f"{k} {fmt.value(v)}" for k, v in zip(knobs, standard, strict=True))
            + ")"
        )
        if knobs and standard
        else ""
    )
    section.add(
        _chart(
            "difficulty_raid",
            f"Chance the invaders win{setting}",
            chart_rows,
            players,
            lambda r: fmt.pct_ci(*interval_in(r, "raid")),
            "raid",
        )
    )
    section.add(
        _chart(
            "difficulty_length",
            f"Game length ({unit}){setting}",
            chart_rows,
            players,
            lambda r: fmt.num_ci(*interval_in(r, "length")),
            "length",
        )
    )
    section.add(
        _chart(
            "difficulty_score",
            f"Score per player (points){setting}",
            chart_rows,
            players,
            lambda r: fmt.num_ci(*interval_in(r, "score")),
            "score",
        )
    )
    section.findings.extend(_findings(chart_rows, presets))
    order = skill_order(ctx, {r["skill"] for r in rows})
    rec = None
    if knobs:
        section.add(
            Table(
                "difficulty_all",
                "Every setup tried",
                _frame(rows),
                [
                    Column.count("players", "players"),
                    Column.text("preset", "preset"),
                    Column.text("skill", "skill"),
                    *[Column.text(k, k) for k in knobs],
                    Column.count("games", "games"),
                    Column.pct_ci("raid", "invaders win"),
                    Column.num_ci("length", f"length ({unit})"),
                    Column.num_ci("score", "score"),
                ],
            )
        )
        rec = _recommend(rows, knobs)
        section.add(_recommend_table(rec, knobs))
        section.findings.extend(_recommend_findings(rec, knobs))
        section.add(_knob_figure(rows, knobs, presets, players))
    elif len(presets) > 1:
        rec_rows = [{**r, "knob": f"preset {r['preset']}", "preset": ANY} for r in rows]
        rec = _recommend(rec_rows, ["preset"])
        section.add(_recommend_table(rec, ["preset"]))
        section.findings.extend(_recommend_findings(rec, ["preset"]))
        section.add(
            Text(
                "The experiment sweeps no setup knob (such as board.start_rows), so the "
                "recommended setup is the preset whose raid rate is nearest each level's "
                "target. Sweep a knob to tune within a preset."
            )
        )
    else:
        section.add(
            Text(
                "The experiment sweeps no setup knob (such as board.start_rows), so no "
                "setup is recommended per difficulty level."
            )
        )
    section.blocks.insert(0, _chart_figure(chart_rows, presets, players, setting))
    section.answers.extend(difficulty_answers.answers(ctx, chart_rows, rec, order, setting))
    return section


def _frame(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(
        [{k: v for k, v in r.items() if k != "knob_values"} for r in rows], infer_schema_length=None
    )


def _standard_values(ctx: Context, knobs: list[str]) -> tuple:
    """The preset's own knob values (if every arm's preset agrees and they were tried)."""
    if not knobs:
        return ()
    arm = ctx.arm_names[0]
    values = tuple(ctx.results.rulebook_value(arm, k) for k in knobs)
    tried = {tuple(ctx.arm_values(a).get(k) for k in knobs) for a in ctx.arm_names}
    if values in tried:
        return values
    # not tried: the middle of what was tried
    ordered = sorted(tried, key=lambda t: tuple(str(x) for x in t))
    return ordered[len(ordered) // 2]


def _chart(
    name: str,
    title: str,
    rows: list[dict],
    players: list[int],
    cell: Callable[[dict], str],
    key: str,
) -> Table:
    """Rows preset x skill, one column per player count (a rulebook chart)."""
    wide: dict[tuple, dict] = {}
    for r in rows:
        k = (r["preset"], r["skill"])
        entry = wide.setdefault(k, {"preset": r["preset"], "skill": r["skill"]})
        entry.update(columns(f"p{r['players']}", r[key], r.get(low_key(key)), r.get(high_key(key))))
        entry[f"p{r['players']}_games"] = r["games"]
        entry[f"p{r['players']}_text"] = cell(r)
    ordered = sorted(wide.values(), key=lambda e: (e["preset"], _skill_rank(e["skill"])))

    def col(p: int) -> Column:
        return Column.custom(
            f"{p} players",
            lambda e, p=p: Cell(e.get(f"p{p}_text", "\u2014"), e.get(f"p{p}")),
            f"p{p}",
        )

    data = pl.DataFrame(
        [{k: v for k, v in e.items() if not k.endswith("_text")} for e in ordered],
        infer_schema_length=None,
    )
    return Table(
        name,
        title,
        data,
        [
            Column.text("preset", "preset"),
            Column.text("skill", "skill"),
            *[col(p) for p in players],
        ],
        note=f"95% intervals in brackets; {_games_text(rows).replace('point', 'cell')}.",
        rows=ordered,
    )


def _findings(rows: list[dict], presets: list[str]) -> list[Finding]:
    out = []
    for preset in presets:
        mine = [r for r in rows if r["preset"] == preset]
        parts = []
        for skill in sorted({r["skill"] for r in mine}, key=_skill_rank):
            cells = sorted((r for r in mine if r["skill"] == skill), key=lambda r: r["players"])
            parts.append(
                f"{skill}: " + ", ".join(f"{r['players']}p {fmt.pct(r['raid'], 0)}" for r in cells)
            )
        out.append(Finding(f"{preset}: chance the invaders win: " + "; ".join(parts) + ".", "info"))
    return out


def _recommend(rows: list[dict], knobs: list[str]) -> list[dict]:
    """For each (preset, players, skill) and level: the tried setup closest to the target."""
    out = []
    keys = sorted(
        {(r["preset"], r["players"], r["skill"]) for r in rows},
        key=lambda k: (k[0], k[1], _skill_rank(k[2])),
    )
    for preset, players, skill in keys:
        options = [
            r for r in rows if (r["preset"], r["players"], r["skill"]) == (preset, players, skill)
        ]
        entry = {"preset": preset, "players": players, "skill": skill,
                 "raid_min": min(r["raid"] for r in options),
                 "raid_max": max(r["raid"] for r in options)}  # fmt: skip
        for level, target in LEVELS.items():
            best = min(
                options, key=lambda r: (abs(r["raid"] - target), r["raid_high"] - r["raid_low"])
            )
            v = suits_verdict(best, target, TOLERANCE[level])
            share = fmt.pct_ci(*interval_in(best, "raid"), 0)
            entry[level] = best["knob"] if v.holds else None
            entry[f"{level}_nearest"] = best["knob"]
            entry[f"{level}_raid"] = best["raid"]
            entry[low_key(level)], entry[high_key(level)] = best["raid_low"], best["raid_high"]
            entry[f"{level}_suits"] = v.holds
            entry[f"{level}_verdict"] = v
            if v.holds:
                entry[f"{level}_text"] = f"{best['knob']}: {share}"
            elif v.opposite:
                side = "easier" if best["raid"] < target else "harder"
                entry[f"{level}_text"] = f"none ({side}; nearest {best['knob']}: {share})"
            else:
                entry[f"{level}_text"] = f"not settled ({best['knob']}: {share})"
        out.append(entry)
    return out


def _recommend_table(rec: list[dict], knobs: list[str]) -> Table:
    cols = [] if knobs == ["preset"] else [Column.text("preset", "preset")]
    cols += [Column.count("players", "players"), Column.text("skill", "skill")]
    for level, target in LEVELS.items():
        cols.append(
            Column.custom(
                f"{level} ({fmt.pct(target, 0)})",
                lambda e, level=level: Cell(e[f"{level}_text"], e[f"{level}_raid"]),
                level,
            )
        )
    data = pl.DataFrame(
        [{k: v for k, v in e.items() if not k.endswith(("_text", "_verdict"))} for e in rec],
        infer_schema_length=None,
    )
    return Table(
        "difficulty_setup",
        "Recommended setup per difficulty level (target chance the invaders win)",
        data,
        cols,
        rows=rec,
        note=f"The tried value of {', '.join(knobs)} whose raid rate is nearest the level's "
        "target, when it suits the level: its whole 95% interval within half the distance to "
        "the next level's target "
        f"({', '.join(f'{lv} {PLUS_MINUS}{fmt.pct(t, 1)}' for lv, t in TOLERANCE.items())}). "
        "'none': no tried setup suits (the nearest one's interval excludes the target: it is "
        "easier or harder); the nearest is named: try values beyond it. 'not settled': the "
        "nearest one's interval neither excludes the target nor lies within reach of it: run "
        "more games.",
    )


def _recommend_findings(rec: list[dict], knobs: list[str]) -> list[Finding]:
    """One line per preset and skill: for each player count, the setup of every level that a
    tried setup suits; the levels no tried setup reaches are named."""
    out = []
    what = ", ".join(knobs)
    for preset in sorted({e["preset"] for e in rec}):
        for skill in sorted({e["skill"] for e in rec if e["preset"] == preset}, key=_skill_rank):
            parts = []
            entries = sorted(
                (e for e in rec if e["preset"] == preset and e["skill"] == skill),
                key=lambda e: e["players"],
            )
            for e in entries:
                hit = [f"{lv} {_short_setup(e[lv], knobs)}" for lv in LEVELS if e[f"{lv}_suits"]]
                missed = [lv for lv in LEVELS if e[f"{lv}_verdict"].opposite]
                open_ = [lv for lv in LEVELS if not e[f"{lv}_verdict"].settled]
                span = fmt.pct(e["raid_min"], 0)
                if e["raid_max"] != e["raid_min"]:
                    span += f" to {fmt.pct(e['raid_max'], 0)}"
                none = f"no tried setup suits a level (the invaders win {span})"
                text = f"{e['players']}p " + (", ".join(hit) if hit else none)
                if missed and hit:
                    text += f" (no tried setup for {', '.join(missed)})"
                if open_:
                    text += f" (not settled for {', '.join(open_)})"
                parts.append(text)
            who = f"{skill} players" if preset == ANY else f"{preset}, {skill} players"
            out.append(Finding(f"{who}, {what} per level: " + "; ".join(parts) + ".", "info"))
    return out


def _short_setup(text: str, knobs: list[str]) -> str:
    return text.split(" ", 1)[-1] if len(knobs) == 1 else text


def _chart_figure(rows: list[dict], presets: list[str], players: list[int], setting: str):
    fig, axes = plots.new(1, len(presets), width=min(5.2 * len(presets), 16), height=4.2)
    skills = sorted({r["skill"] for r in rows}, key=_skill_rank)
    for i, preset in enumerate(presets):
        ax = axes[0, i]
        for j, skill in enumerate(skills):
            pts = sorted(
                (r for r in rows if r["preset"] == preset and r["skill"] == skill),
                key=lambda r: r["players"],
            )
            if not pts:
                continue
            x = (
                np.array([r["players"] for r in pts], dtype=float)
                + (j - (len(skills) - 1) / 2) * 0.06
            )
            y = np.array([r["raid"] for r in pts]) * 100
            lo = np.array([r["raid_low"] for r in pts]) * 100
            hi = np.array([r["raid_high"] for r in pts]) * 100
            ax.errorbar(
                x,
                y,
                yerr=np.vstack([y - lo, hi - y]),
                marker="o",
                capsize=3,
                label=skill,
                color=plots.COLORS[j % len(plots.COLORS)],
            )
        for level, target in LEVELS.items():
            ax.axhline(100 * target, color="#bbbbbb", linestyle=":", linewidth=1)
            ax.text(
                max(players) + 0.3, 100 * target, level, fontsize=8, va="center", color="#777777"
            )
        ax.set_xticks(players, [str(p) for p in players])
        ax.set_xlim(min(players) - 0.4, max(players) + 0.9)
        ax.set_ylim(0, 100)
        ax.set(title=preset, xlabel="players", ylabel="invaders win (%)" if i == 0 else "")
    return _finish(fig, skills, "difficulty_chart", "Chance the invaders win",
                   f"Raid rate{setting} by players and skill ({_games_text(rows)}), 95% "
                   "Wilson intervals; dotted: the difficulty levels' targets.")  # fmt: skip


def _finish(fig, skills: list[str], key: str, title: str, caption: str):
    """The chart with its legend of skills below it."""
    plots.legend_below(fig, ncol=min(len(skills), 5), title="skill")
    return plots.finish(fig, key, title, caption)


def _knob_figure(rows: list[dict], knobs: list[str], presets: list[str], players: list[int]):
    fig, axes = plots.new(
        len(presets), len(players), width=min(4.0 * len(players), 14), height=3.3 * len(presets)
    )
    skills = sorted({r["skill"] for r in rows}, key=_skill_rank)
    numeric = len(knobs) == 1 and all(
        isinstance(r[knobs[0]], int | float) and not isinstance(r[knobs[0]], bool) for r in rows
    )
    for i, preset in enumerate(presets):
        for j, p in enumerate(players):
            ax = axes[i, j]
            for k, skill in enumerate(skills):
                pts = [
                    r
                    for r in rows
                    if r["preset"] == preset and r["players"] == p and r["skill"] == skill
                ]
                if not pts:
                    continue
                if numeric:
                    pts.sort(key=lambda r: r[knobs[0]])
                    x = [r[knobs[0]] for r in pts]
                else:
                    pts.sort(key=lambda r: r["knob"])
                    x = list(range(len(pts)))
                    ax.set_xticks(x, [r["knob"] for r in pts], rotation=30, fontsize=7)
                plots.curve(
                    ax,
                    x,
                    [r["raid"] for r in pts],
                    [r["raid_low"] for r in pts],
                    [r["raid_high"] for r in pts],
                    label=skill,
                    scale=100,
                    color=plots.COLORS[k % len(plots.COLORS)],
                )
            for target in LEVELS.values():
                ax.axhline(100 * target, color="#bbbbbb", linestyle=":", linewidth=1)
            ax.set_ylim(0, 100)
            if numeric:
                from matplotlib.ticker import MaxNLocator

                ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_title(f"{preset}, {p} players", fontsize=10)
            ax.set_xlabel(knobs[0] if len(knobs) == 1 else "setup")
            if j == 0:
                ax.set_ylabel("invaders win (%)")
    targets = ", ".join(f"{k} {fmt.pct(v, 0)}" for k, v in LEVELS.items())
    return _finish(fig, skills, "difficulty_knob", "Raid rate by setup",
                   f"Chance the invaders win by setup value ({_games_text(rows)}), 95% "
                   f"bands; dotted: the targets ({targets}).")  # fmt: skip


def _games_text(rows: list[dict]) -> str:
    games = sorted({r["games"] for r in rows})
    n = f"{games[0]:,}" if len(games) == 1 else f"{games[0]:,} to {games[-1]:,}"
    return f"{n} games per point"
