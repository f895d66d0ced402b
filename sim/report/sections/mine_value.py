"""Mine value: arms with the mine and without it, and with mine-using against mine-ignoring
strategies. Paired differences (same seeds) in raid rate, game length, total and per-seat scores,
and the win-share gain of the player who uses the mine."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from sim.report import fmt
from sim.report.context import Context
from sim.report.metrics import Metric, mean, per_game, prefixed, rate
from sim.report.render import Finding, Section, Text
from sim.report.sections.what_if import (
    compare,
    comparison_table,
    describe,
    forest_figure,
    ns_note,
)
from sim.report.table import Column, Table
from sim.stats.paired import paired_difference, rate_vs_reference

ID = "mine_value"
TITLE = "Mine value"
USE_THRESHOLD = 0.01  # mine explosions per seat-game that mark a strategy as a mine user


def mine_enabled(ctx: Context, arm: str) -> bool:
    g = ctx.results.arm_games(arm)
    if "mine.enabled" in g.columns:
        return bool(g.get_column("mine.enabled")[0])
    info = ctx.results.arm(arm)
    return bool(info.ruleset_values.get("mine.enabled", True))


def mine_users(ctx: Context) -> set[str]:
    """Strategies that use the mine: named for it (e.g. `miner`); failing that, those that
    explode it at least half as often as the most explosive strategy (and at all)."""
    s = ctx.results.seats
    named = {
        str(x) for x in s.get_column("strategy").unique().to_list() if "mine" in str(x).lower()
    }
    if named or "mine_explosions" not in s.columns:
        return named
    per = dict(s.group_by("strategy").agg(pl.col("mine_explosions").mean()).iter_rows())
    top = max((v for v in per.values() if v is not None), default=0.0)
    return {
        str(a) for a, v in per.items() if v is not None and v >= USE_THRESHOLD and v >= 0.5 * top
    }


def _arm_kind(ctx: Context, arm: str, users: set[str]) -> str:
    if not mine_enabled(ctx, arm):
        return "no mine"
    present = set(ctx.results.arm_seats(arm).get_column("strategy").unique().to_list())
    return "mine used" if present & users else "mine ignored"


def _metrics(players: int) -> list[Metric]:
    out = [
        Metric("raid", "invaders win (raid rate)", "pp", headline=True),
        Metric("victory", "board cleared (victory rate)", "pp"),
        Metric("stall", "stalled (stall rate)", "pp"),
        Metric("turns", "game length (turns)", "num", headline=True),
        Metric("rounds", "game length (rounds)", "num"),
        Metric("total_score", "total score of the table (points)", "num", headline=True),
        Metric("winner_score", "winner's score (points)", "num"),
    ]
    out += [
        Metric(f"score_seat{k}", f"score of seat {k + 1} (points)", "num") for k in range(players)
    ]
    out.append(Metric("mine_explosions", "mine explosions per game", "num", digits=2))
    return out


def _user_gain(ctx: Context, treated: str, control: str, users: set[str]) -> dict | None:
    """Seat-level paired gain of the mine user: its win share (and score) in `treated` minus the
    same seat's in `control`, on the same games; per game the user seats are averaged."""
    t = ctx.results.arm_seats(treated).filter(pl.col("strategy").is_in(list(users)))
    if t.height == 0:
        return None
    c = ctx.results.arm_seats(control).select(
        "game", "seat", pl.col("win_share").alias("c_win"), pl.col("score").alias("c_score")
    )
    joined = t.select("game", "seat", "strategy", "win_share", "score").join(
        c, on=["game", "seat"], how="inner"
    )
    if joined.height < 2:
        return None
    per = joined.group_by("game").agg(
        (pl.col("win_share") - pl.col("c_win")).mean().alias("dwin"),
        (pl.col("score") - pl.col("c_score")).cast(pl.Float64).mean().alias("dscore"),
    )
    dwin = paired_difference(per.get_column("dwin").to_numpy(), np.zeros(per.height))
    dscore = paired_difference(per.get_column("dscore").to_numpy(), np.zeros(per.height))
    replaced = ", ".join(
        sorted(
            set(
                ctx.results.arm_seats(control)
                .join(t.select("game", "seat"), on=["game", "seat"], how="semi")
                .get_column("strategy")
                .unique()
                .to_list()
            )
        )
    )
    return {
        "arm": treated,
        "control": control,
        "user": ", ".join(sorted(set(joined.get_column("strategy").unique().to_list()))),
        "replaced": replaced,
        "games": dwin.n,
        "win": dwin.estimate,
        "win_low": dwin.low,
        "win_high": dwin.high,
        "win_p": dwin.pvalue,
        "win_sig": dwin.significant,
        "score": dscore.estimate,
        "score_low": dscore.low,
        "score_high": dscore.high,
        "score_sig": dscore.significant,
    }


def _user_vs_fair(ctx: Context, arm: str, users: set[str]) -> dict | None:
    s = ctx.results.arm_seats(arm)
    g = ctx.results.arm_games(arm)
    mine = s.filter(pl.col("strategy").is_in(list(users)))
    if mine.height == 0:
        return None
    players = int(g.get_column("players")[0])
    decided = float(s.get_column("win_share").sum()) / g.height
    wins = float(mine.get_column("win_share").sum())
    d = rate_vs_reference(wins, mine.height, decided / players)
    return {
        "arm": arm,
        "seat_games": mine.height,
        **prefixed(rate(wins, mine.height), "share"),
        "fair": decided / players,
        "dev": d.estimate,
        "dev_low": d.low,
        "dev_high": d.high,
        "dev_p": d.pvalue,
    }


def build(ctx: Context) -> Section:
    section = Section(
        ID,
        TITLE,
        "What is the mine worth? Games with the mine against games "
        "without it, and players who use it against players who ignore it.",
    )
    users = mine_users(ctx)
    names = ctx.arm_names
    kinds = {arm: _arm_kind(ctx, arm, users) for arm in names}
    frames: dict[str, pl.DataFrame] = {arm: per_game(ctx.results, arm) for arm in names}
    overview = []
    for arm in names:
        g, f = ctx.results.arm_games(arm), frames[arm]
        present = sorted(set(ctx.results.arm_seats(arm).get_column("strategy").unique().to_list()))
        row = {
            "arm": arm,
            "kind": kinds[arm],
            "players": int(g.get_column("players")[0]),
            "strategies": ", ".join(present),
            "games": g.height,
            **prefixed(rate(float(f.get_column("raid").sum()), f.height), "raid"),
            **prefixed(mean(f.get_column("turns").to_numpy()), "turns"),
            **prefixed(mean(f.get_column("total_score").to_numpy()), "total"),
        }
        if "mine_explosions" in f.columns:
            row.update(prefixed(mean(f.get_column("mine_explosions").to_numpy()), "expl"))
        overview.append(row)
    cols = [
        Column.text("arm", "arm"),
        Column.text("kind", "mine"),
        Column.count("players", "players"),
        Column.text("strategies", "strategies"),
        Column.count("games", "games"),
        Column.pct_ci("raid", "raid rate"),
        Column.num_ci("turns", "turns"),
        Column.num_ci("total", "total score"),
    ]
    if any("expl" in r for r in overview):
        cols.append(Column.num_ci("expl", "mine explosions / game", 2))
    section.add(
        Table(
            "mine_arms",
            "The arms",
            pl.DataFrame(overview),
            cols,
            note=f"Mine users: {', '.join(sorted(users)) or 'none found'} (strategies "
            "that explode the mine or are named for it).",
        )
    )
    comparisons = _pairs(ctx, names, kinds)
    rows_all, gains = [], []
    for control, treated, label in comparisons:
        players = min(
            int(ctx.results.arm_games(a).get_column("players")[0]) for a in (control, treated)
        )
        rows = compare(
            ctx, control, treated, frames=frames, metrics=_metrics(players), strategies=False
        )
        for r in rows:
            r["arm"] = label
        rows_all.extend(rows)
        section.findings.append(_finding(label, rows))
        if kinds[treated] == "mine used" and kinds[control] in ("no mine", "mine ignored"):
            gain = _user_gain(ctx, treated, control, users)
            if gain is not None:
                gain["comparison"] = label
                gains.append(gain)
    if not comparisons:
        section.add(
            Text(
                "No pair of arms to compare: the experiment needs an arm without the mine "
                "or with mine users next to an arm where the mine is ignored."
            )
        )
    if rows_all:
        section.add(
            comparison_table(
                "mine_differences",
                "Paired differences (with minus without)",
                rows_all,
                note="Each comparison reads 'with the change minus without it', on the same games.",
            )
        )
        section.add(
            forest_figure(
                "mine_differences",
                [r for r in rows_all if r["headline"]],
                "the arm without",
                "What the mine changes",
            )
        )
    if gains:
        for gain in gains:
            section.findings.append(_gain_finding(gain))
        section.add(
            Table(
                "mine_user_gain",
                "Win-share gain of the player who uses the mine",
                pl.DataFrame(gains),
                [
                    Column.text("comparison", "comparison"),
                    Column.text("user", "mine user"),
                    Column.text("replaced", "instead of"),
                    Column.count("games", "paired games"),
                    Column.diff("win", "win-share gain", unit="pp", sig_key="win_sig"),
                    Column.pvalue("win_p", "p"),
                    Column.diff("score", "score gain (points)", sig_key="score_sig"),
                ],
                note="The seats the mine user holds, compared with the same seats in the arm where "
                "another strategy sits there, game by game.",
            )
        )
    fair_rows = [
        r
        for arm in names
        if kinds[arm] == "mine used"
        for r in [_user_vs_fair(ctx, arm, users)]
        if r
    ]
    if fair_rows:
        section.add(
            Table(
                "mine_user_share",
                "Win share of the mine users against the fair share",
                pl.DataFrame(fair_rows),
                [
                    Column.text("arm", "arm"),
                    Column.count("seat_games", "seat-games"),
                    Column.pct_ci("share", "win share"),
                    Column.pct("fair", "fair share"),
                    Column.diff("dev", "vs fair", unit="pp"),
                    Column.pvalue("dev_p", "p"),
                ],
                note="Fair share: the share of games with a winner divided by the players.",
            )
        )
    return section


def _pairs(ctx: Context, names: list[str], kinds: dict[str, str]) -> list[tuple[str, str, str]]:
    """(control, treated, label), each read 'treated minus control': every arm against the
    baseline (an arm without the mine the other way round: the mine minus no mine), then the
    mine against no mine and mine users against the mine ignored among the other arms; arms
    are matched on players and preset."""
    base = ctx.results.baseline if ctx.results.baseline in names else names[0]

    def key(arm: str) -> tuple:
        v = ctx.arm_values(arm)
        return tuple(v.get(k) for k in ("players", "ruleset"))

    out: list[tuple[str, str, str]] = []
    seen: set[frozenset] = set()

    def add(control: str, treated: str, label: str) -> None:
        pair = frozenset((control, treated))
        if pair not in seen:
            seen.add(pair)
            out.append((control, treated, label))

    if names:
        for arm in names:
            if arm == base or key(arm) != key(base):
                continue
            if kinds[arm] == "no mine" and kinds[base] != "no mine":
                add(arm, base, f"mine ({base}) vs no mine ({arm})")
            else:
                add(base, arm, f"{arm} vs {base}")
    for treated in names:
        for control in names:
            if treated == control or key(treated) != key(control):
                continue
            kt, kc = kinds[treated], kinds[control]
            if kt == "mine ignored" and kc == "no mine":
                add(control, treated, f"mine ({treated}) vs no mine ({control})")
            elif kt == "mine used" and kc == "mine ignored":
                add(control, treated, f"mine used ({treated}) vs ignored ({control})")
            elif kt == "mine used" and kc == "no mine":
                add(control, treated, f"mine used ({treated}) vs no mine ({control})")
    return out


def _finding(label: str, rows: list[dict]) -> Finding:
    order = {
        "invaders win (raid rate)": 0,
        "game length (turns)": 1,
        "total score of the table (points)": 2,
    }
    head = sorted((r for r in rows if r["headline"]), key=lambda r: order.get(r["metric"], 9))
    head = {r["metric"]: r for r in head}
    parts = [describe(r) + ns_note(r) for r in head.values()]
    if not any(r.get("diff_sig_holm") for r in head.values()):
        n = max((r["games"] for r in rows), default=0)
        return Finding(
            f"{label}: no detectable change in raid rate, game length or total score "
            f"({fmt.integer(n)} paired games): " + "; ".join(parts) + ".",
            "null",
        )
    return Finding(f"{label}: " + "; ".join(parts) + ".", "finding")


def _gain_finding(gain: dict) -> Finding:
    same = gain["replaced"] == gain["user"]
    other = (
        "with the mine than without it"
        if same
        else f"than {gain['replaced'] or 'the other strategy'} in its place"
    )
    text = (
        f"{gain['comparison']}: the mine user ({gain['user']}) wins "
        f"{fmt.pp_ci(gain['win'], gain['win_low'], gain['win_high'])} more {other} "
        f"(same seats, same games; p {fmt.pvalue(gain['win_p'])}) and scores "
        f"{fmt.signed_ci(gain['score'], gain['score_low'], gain['score_high'])} points more"
    )
    significant = not math.isnan(gain["win_p"]) and gain["win_sig"]
    return Finding(text + ".", "finding" if significant else "null")
