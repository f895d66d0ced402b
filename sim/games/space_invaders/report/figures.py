"""The Space Invaders report's pictures, each with its intervals: the win rate at each printed
level (per player count and dexterity, a line per team skill), paired differences as interval
plots (power uplift, sensitivity), and how every arm's games end."""

from __future__ import annotations

import numpy as np

from sim.games.space_invaders.report.common import OUTCOME_LABELS, OUTCOMES, team_skills
from sim.games.space_invaders.schema import DEXTERITIES, LEVELS
from sim.report import plots
from sim.stats.interval_columns import high_key, low_key

OUTCOME_COLORS = {"victory": "#2ca02c", "planet_destroyed": "#d62728",
                  "ufo_survived": "#ff7f0e", "cap": "#7f7f7f"}  # fmt: skip
MAX_ARMS = 40  # the overview's picture of every arm, up to this many arms


def _ranked(values, ladder) -> list:
    present = list(dict.fromkeys(values))
    return sorted(present, key=lambda v: (ladder.index(v) if v in ladder else len(ladder), v))


def _players(p: int) -> str:
    return f"{p} player" + ("s" if p != 1 else "")


def _games_text(counts) -> str:
    games = sorted(set(counts))
    return f"{games[0]:,}" if len(games) == 1 else f"{games[0]:,} to {games[-1]:,}"


def levels(rows: list[dict]) -> plots.Figure:
    """Win rate by printed level: a panel per dexterity (rows) and player count (columns), a
    line per team skill. rows: outcome_stats of each main-grid arm with its table and level."""
    players = sorted({r["players"] for r in rows})
    dexterities = _ranked([r["dexterity"] for r in rows], DEXTERITIES)
    skills = _ranked([r["skill"] for r in rows], team_skills())
    fig, panels = plots.grid(dexterities, players, cell_width=3.4, cell_height=2.8)
    for dexterity, p, ax in panels:
        for k, skill in enumerate(skills):
            pts = sorted(
                (
                    r
                    for r in rows
                    if (r["players"], r["dexterity"], r["skill"]) == (p, dexterity, skill)
                ),
                key=lambda r: LEVELS.index(r["level"]),
            )
            if pts:
                plots.curve(ax, [LEVELS.index(r["level"]) for r in pts],
                            [r["victory"] for r in pts], [r["victory_low"] for r in pts],
                            [r["victory_high"] for r in pts], label=skill, scale=100,
                            color=plots.COLORS[k % len(plots.COLORS)])  # fmt: skip
        ax.set_xticks(range(len(LEVELS)), [lv.capitalize() for lv in LEVELS], fontsize=8)
        ax.set_ylim(0, 100)
        ax.set_title(f"{_players(p)}, {dexterity}", fontsize=10)
        if p == players[0]:
            ax.set_ylabel("team wins (%)")
    plots.legend_below(fig, ncol=min(len(skills), 5), title="team skill")
    return plots.finish(
        fig,
        "invaders_levels",
        "Win rate at each printed level",
        f"The share of games the team wins with the printed chart's numbers, by level "
        f"({_games_text(r['games'] for r in rows)} games per point), 95% Wilson bands.",
    )


def differences(rows: list[dict], what: str, name: str, title: str) -> plots.Figure:
    """Paired win-rate differences (rows: `what`, the table, diff/uplift with its interval) as
    interval plots, a panel per reference table; coloured when the interval excludes zero."""
    key = "uplift" if "uplift" in rows[0] else "diff"
    tables = list(dict.fromkeys((r["players"], r["level"], r["dexterity"], r["skill"])
                                for r in rows))  # fmt: skip
    height = max(2.6, 0.32 * max(sum(1 for r in rows if _table(r) == t) for t in tables) + 1.4)
    fig, axes = plots.new(1, len(tables), width=min(5.0 * len(tables) + 1.5, 15), height=height)
    for j, table in enumerate(tables):
        own = sorted((r for r in rows if _table(r) == table), key=lambda r: -_finite(r[key]))
        low = [100 * r[low_key(key)] for r in own]
        high = [100 * r[high_key(key)] for r in own]
        plots.forest(axes[0, j], [str(r[what]) for r in own], [100 * r[key] for r in own], low,
                     high, [lo > 0 or hi < 0 for lo, hi in zip(low, high, strict=True)],
                     xlabel="win-rate change (pp)")  # fmt: skip
        players, level, dexterity, skill = table
        axes[0, j].set_title(f"{_players(players)}, {level}, {dexterity}, {skill}", fontsize=10)
    return plots.finish(
        fig, name, title,
        "Paired by game (the same seeds in both arms), 95% intervals; in colour when the "
        "interval excludes zero.",
    )  # fmt: skip


def _table(r: dict) -> tuple:
    return r["players"], r["level"], r["dexterity"], r["skill"]


def _finite(x: float) -> float:
    return x if np.isfinite(x) else -np.inf


def outcomes(rows: list[dict], labels: list[str]) -> plots.Figure | None:
    """How every arm's games end (stacked shares), with the win rate's 95% interval; None
    with more than MAX_ARMS arms."""
    if not 1 < len(rows) <= MAX_ARMS:
        return None
    shown = [o for o in OUTCOMES if any(r[o] > 0 for r in rows)]
    fig, axes = plots.new(1, 1, width=9, height=max(2.4, 0.3 * len(rows) + 1.3))
    ax = axes[0, 0]
    y = np.arange(len(rows))[::-1]
    left = np.zeros(len(rows))
    for o in shown:
        share = np.array([r[o] for r in rows]) * 100
        ax.barh(y, share, left=left, color=OUTCOME_COLORS[o], alpha=0.85, label=OUTCOME_LABELS[o])
        left += share
    won = np.array([r["victory"] for r in rows]) * 100
    err = np.vstack([won - np.array([r["victory_low"] for r in rows]) * 100,
                     np.array([r["victory_high"] for r in rows]) * 100 - won])  # fmt: skip
    ax.errorbar(won, y, xerr=err, fmt="none", ecolor="black", capsize=2, elinewidth=1)
    ax.set_yticks(y, [f"{label} (n={r['games']:,})" for label, r in zip(labels, rows, strict=True)])
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of games (%)")
    plots.legend_below(fig, ncol=len(shown))
    return plots.finish(
        fig,
        "overview_outcome_shares",
        "How games end, by arm",
        "Share of games by outcome; whiskers: the win rate's 95% interval.",
    )
