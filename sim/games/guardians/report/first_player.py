"""First-player advantage: win share by seat for each player count and preset, against the fair
share, with a test of "every seat wins equally often"; the same over the games that someone won
(not lost to a raid); score distributions by seat; a chart per player count."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from sim.games.guardians.report import words
from sim.measures import Value
from sim.measures.core import sums_by
from sim.report import data_quality, fmt, plots
from sim.report import verdicts as verdict_words
from sim.report.answers import Answer, Estimate, Label, Row, plain_text, sentence
from sim.report.context import Context
from sim.report.render import Finding, Section, Text
from sim.report.table import Column, Table
from sim.stats.interval_columns import as_columns, interval_in
from sim.stats.paired import rate_vs_reference
from sim.stats.tests import fairness_test, holm
from sim.stats.verdict import Verdict, all_of, equivalence

ID = "first_player"
TITLE = "First-player advantage"
# the percentiles of a seat's final scores shown: (quantile, key, label)
_PERCENTILES = (
    (0.1, "p10", "10%"),
    (0.25, "p25", "25%"),
    (0.5, "median", "median"),
    (0.75, "p75", "75%"),
    (0.9, "p90", "90%"),
)


def _group_label(ctx: Context, arm: str) -> str:
    if ctx.results.named_arms:  # the experiment's own names for its arms
        return arm
    values = ctx.arm_values(arm)
    keys = [k for k in ctx.label_columns() if k != "players"]
    if not keys:
        return str(values.get("ruleset") or arm)
    return ", ".join(fmt.value(values[k]) for k in keys)


def analyse(ctx: Context, arm: str) -> dict:
    """Per-seat rows (all games and decided games) and the two fairness tests of one arm."""
    r = ctx.results
    g = r.arm_games(arm)
    s = r.arm_seats(arm)
    n = g.height
    players = int(g.get_column("players")[0])
    wins = sums_by(s, "seat", ("win_share",)).get_column("win_share").to_numpy()
    if wins.size < players:
        wins = np.pad(wins, (0, players - wins.size))
    decided = float(wins.sum())  # games with a winner (shared wins add up to 1 per game)
    decided_games = int(round(decided))
    raids = int((g.get_column("outcome") == "raid").sum())
    test = fairness_test(wins)  # seats among games with a winner; same as over all games
    won_games = r.stored(arm).where(pl.col("outcome").is_in(["victory", "stall"]))
    fair_all = ctx.measure(arm, "decided_rate").value / players if n else math.nan
    rows_all, rows_dec, score_rows = [], [], []
    for k in range(players):
        base = {
            "arm": arm,
            "players": players,
            "ruleset": g.get_column("ruleset")[0],
            "group": _group_label(ctx, arm),
            "seat": k + 1,
        }
        rows_all.append({**base, "games": n, "wins": wins[k], "fair": fair_all,
                         **_r(ctx.measure(arm, f"win_share.seat.{k}"), "win"),
                         **_deviation(ctx.measure(arm, f"uplift.seat.{k}")),
                         "chi_p": test.pvalue})  # fmt: skip
        if decided > 0:
            # the seat's own test against 1/players: the score test on the registry's share
            score_test = rate_vs_reference(wins[k], decided, 1.0 / players).pvalue
            rows_dec.append({**base, "games": decided_games, "wins": wins[k],
                             "fair": 1.0 / players,
                             **_r(ctx.measure(arm, f"won_share.seat.{k}"), "win"),
                             **_deviation(ctx.measure(arm, f"seat_advantage.{k}"), score_test),
                             "chi_p": test.pvalue})  # fmt: skip
        sc = won_games.seats.filter(pl.col("seat") == k).get_column("score").to_numpy()
        if sc.size:
            q = np.quantile(sc.astype(float), [quantile for quantile, _, _ in _PERCENTILES])
            score_rows.append(
                {
                    **base,
                    "games": int(sc.size),
                    **_r(ctx.measure(won_games, f"score.seat.{k}"), "score"),
                    **{key: value for (_, key, _), value in zip(_PERCENTILES, q, strict=True)},
                }
            )
    for rows in (rows_all, rows_dec):  # each seat's own test, corrected for the P seats
        adjusted = holm([row["dev_p"] for row in rows])
        for row, p in zip(rows, adjusted, strict=True):
            row["dev_p_holm"] = p
            row["dev_sig"] = None if math.isnan(p) else bool(p < 0.05)
    return {
        "arm": arm,
        "players": players,
        "n": n,
        "decided": decided,
        "raids": raids,
        "test": test,
        "rows_all": rows_all,
        "rows_dec": rows_dec,
        "score_rows": score_rows,
        "scores": won_games.seats,
    }


def _r(v: Value, key: str) -> dict:
    return as_columns(key, v)


def _deviation(v: Value, pvalue: float | None = None) -> dict:
    """A seat's deviation from its fair share; `pvalue`: its own test's (else the
    interval's)."""
    return {**as_columns("dev", v), "dev_p": v.pvalue if pvalue is None else pvalue}


def fair_verdict(ctx: Context, a: dict) -> Verdict | None:
    """Whether the seats are fair: every seat's advantage (games with a winner) within the
    `seat_advantage` tolerance; the seat matters when the test over all seats says so."""
    rows = a["rows_dec"]
    if not rows:
        return None
    tol = ctx.tolerance("seat_advantage").value
    matters = bool(a["test"].pvalue < 0.05)
    return all_of(equivalence(*interval_in(r, "dev"), tol, games=a["n"],
                              effect_shown=matters) for r in rows)  # fmt: skip


_DEV_HELP = (
    "Win share minus the fair share, in percentage points, with the 95% interval. "
    "Grey 'n.s.': not significant once corrected for the number of seats (Holm)."
)
_SEAT_HELP = (
    "The seat's own test against the fair share (score test), Holm-corrected for the "
    "number of seats; the uncorrected p-value is in the CSV (dev_p)."
)
_TEST_HELP = (
    "p-value of the test that every seat wins equally often (chi-square; the exact "
    "multinomial test when a seat expects fewer than 5 wins)."
)


def _win_share_columns(games: str) -> list[Column]:
    """A seat's games, win share, fair share and the difference with its test."""
    return [
        Column.count("games", games),
        Column.pct_ci("win", "win share"),
        Column.pct("fair", "fair"),
        Column.diff("dev", "vs fair", unit="pp", sig_key="dev_sig", help=_DEV_HELP),
        Column.pvalue("dev_p_holm", "p (seat)", _SEAT_HELP),
    ]


def build(ctx: Context) -> Section:
    section = Section(
        ID,
        TITLE,
        "Does the seat you sit in decide who wins? Seat 1 plays first. A fair game gives every "
        "seat the same share of the wins.",
    )
    results = [analyse(ctx, arm) for arm in ctx.arm_names]
    results.sort(key=lambda a: (a["players"], _group_label(ctx, a["arm"])))
    rows_all = [row for a in results for row in a["rows_all"]]
    rows_dec = [row for a in results for row in a["rows_dec"]]
    score_rows = [row for a in results for row in a["score_rows"]]
    several_presets = len({_group_label(ctx, a["arm"]) for a in results}) > 1
    for a in results:
        section.findings.append(_finding(ctx, a))
        section.answers.append(_answer(ctx, a, several_presets))
    section.add(_advantage_figure(ctx, results))
    ident = [
        Column.count("players", "players"),
        Column.text("group", "preset"),
        Column.count("seat", "seat"),
    ]
    if rows_dec:
        test = Column.pvalue("chi_p", "p (all seats)", _TEST_HELP)
        section.add(
            Table(
                "first_player_seats",
                "Win share by seat (games with a winner)",
                pl.DataFrame(rows_dec),
                [*ident, *_win_share_columns("games won"), test],
                note="Over the games somebody won (not lost to a raid or cut at the turn cap); a "
                "shared win counts 1/k to each winner. 95% Wilson intervals.",
            )
        )
    section.add(
        Table(
            "first_player_seats_all",
            "Win share by seat (all games)",
            pl.DataFrame(rows_all),
            [*ident, *_win_share_columns("games")],
            note="Over all games: a raid is a loss for every seat, so the fair share is the share "
            "of games with a winner divided by the players.",
        )
    )
    if score_rows:
        cols = [*ident, Column.count("games", "games"), Column.num_ci("score", "mean score")]
        cols += [Column.num(key, label, 0) for _, key, label in _PERCENTILES]
        section.add(
            Table(
                "first_player_scores",
                "Final score by seat (games with a winner)",
                pl.DataFrame(score_rows),
                cols,
                note="Points at the end of the game; percentiles of the seat's scores.",
            )
        )
    for players in sorted({a["players"] for a in results}):
        group = [a for a in results if a["players"] == players]
        section.add(_figure(ctx, players, group))
    if any(a["raids"] for a in results):
        section.add(
            Text(
                "Raids (everybody loses) are left out of the first table: they say "
                "nothing about which seat is better placed to win."
            )
        )
    return section


def _finding(ctx: Context, a: dict) -> Finding:
    where = f"{a['players']} players, {_group_label(ctx, a['arm'])}"
    rows = a["rows_dec"]
    if not rows:
        return Finding(f"{where}: no game had a winner ({fmt.integer(a['n'])} games).", "info")
    first = rows[0]
    test = a["test"]
    worst = max(rows, key=lambda row: abs(row["dev"]))
    n_dec = fmt.integer(round(a["decided"]))
    share = fmt.pct_ci(*interval_in(first, "win"))
    seat1 = (
        f"seat 1 (first player) wins {share} against a fair {fmt.pct(first['fair'])}: "
        f"{fmt.pp(first['dev'])}"
    )
    v = fair_verdict(ctx, a)
    tol = ctx.tolerance("seat_advantage").text()
    if v.opposite:
        best = (
            f"; the largest deviation is seat {worst['seat']} at {fmt.pp(worst['dev'])}"
            if worst["seat"] != 1
            else ""
        )
        return Finding(
            f"{where}: the seat matters beyond the tolerance {tol} (p {_p(test.pvalue)}, "
            f"{n_dec} games won): {seat1}{best}.",
            "finding",
        )
    bound = max(max(abs(row["dev_low"]), abs(row["dev_high"])) for row in rows)
    bounds = (
        f"The 95% intervals rule out any seat deviating by more than {fmt.num(100 * bound)} pp "
        "from fair"
    )
    if v.holds:
        return Finding(
            f"{where}: the seats are fair, tolerance {tol} (p {_p(test.pvalue)}, {n_dec} games "
            f"won); {seat1}. {bounds}.",
            verdict_words.WITHIN,
        )
    return Finding(
        f"{where}: not settled whether the seats are fair, tolerance {tol} (every seat alike: "
        f"p {_p(test.pvalue)}, {n_dec} games won); {seat1}. {bounds}; "
        f"{plain_text(verdict_words.to_settle(v))}.",
        verdict_words.UNSETTLED,
    )


def _p(p: float) -> str:
    text = fmt.pvalue(p)
    return f"< {text[1:]}" if text.startswith("<") else f"= {text}"


def _figure(ctx: Context, players: int, group: list[dict]) -> plots.Figure:
    labels = [f"{_group_label(ctx, a['arm'])} (n={round(a['decided']):,})" for a in group]
    seats = [f"seat {k + 1}" for k in range(players)]
    n_text = f", {round(group[0]['decided']):,} games won" if len(group) == 1 else ""
    fig, axes = plots.new(1, 2, width=11, height=4.2)
    if all(a["rows_dec"] for a in group):
        v = np.array([[row["win"] for row in a["rows_dec"]] for a in group])
        lo = np.array([[row["win_low"] for row in a["rows_dec"]] for a in group])
        hi = np.array([[row["win_high"] for row in a["rows_dec"]] for a in group])
        plots.grouped_bars(
            axes[0, 0],
            seats,
            labels,
            v,
            lo,
            hi,
            scale=100,
            ylabel="share of the games won (%)",
            fair=1.0 / players,
            fair_label=f"fair share ({fmt.pct(1 / players, 0)})",
        )
        top = float(np.nanmax(hi)) * 100
        axes[0, 0].set_ylim(0, max(top * 1.15, 100 / players * 1.5))
    axes[0, 0].set_title(f"{players} players: win share by seat{n_text}")
    samples = []
    for a in group:
        sc = a["scores"]
        samples.append(
            [sc.filter(pl.col("seat") == k).get_column("score").to_numpy() for k in range(players)]
        )
    plots.boxes_by_group(axes[0, 1], seats, labels, samples, ylabel="final score (points)")
    axes[0, 1].set_title(f"{players} players: final score by seat{n_text}")
    plots.legend_below(fig, ncol=3)
    return plots.finish(
        fig,
        f"first_player_{players}p",
        f"{players} players: win share and scores by seat",
        f"{players} players, games with a winner (n = games won). Left: share of those games "
        "that each seat won, with 95% Wilson intervals; dashed: the fair share. Right: final "
        "scores by seat (box: quartiles, whiskers: 5th-95th percentile, dot: mean).",
    )


def _dev(row: dict, key: str) -> Estimate:
    return Estimate(key, f"seat {row['seat']}'s advantage", *interval_in(row, "dev"), unit="pp")


def _answer(ctx: Context, a: dict, several_presets: bool) -> Answer:
    """'The seat matters: the first player's seat advantage is +2.1 pp (+0.9 to +3.3)...'"""
    where = f"{a['players']} players" + (
        f" ({_group_label(ctx, a['arm'])})" if several_presets else ""
    )
    key = f"{ID}.{a['players']}p" + (f".{_group_label(ctx, a['arm'])}" if several_presets else "")
    question = f"Does the seat you sit in matter with {where}?"
    rows = a["rows_dec"]
    counts = dict(
        ctx.results.arm_games(a["arm"]).group_by("outcome", maintain_order=True).len().iter_rows()
    )
    warn = data_quality.share_warning(counts, words.NO_WINNER, "which seat is better placed to win")
    cap = data_quality.cap_warning(counts.get("cap", 0), a["n"], words.OUTCOMES["cap"])
    decided = int(round(a["decided"]))
    q = data_quality.Quality(
        games=decided,
        basis="games with a winner",
        total=a["n"],
        mde=data_quality.mde_rate(1.0 / a["players"], a["decided"]),
        mde_of="seat advantage",
        warnings=tuple(w for w in (warn, cap) if w),
    )
    if not rows:
        return Answer(key, question, ["No game had a winner: the seats cannot be compared."],
                      kind="info", quality=q, section=ID)  # fmt: skip
    first = _dev(rows[0], f"{key}.seat1")
    adv = words.term("seat advantage")
    tol = ctx.tolerance("seat_advantage")
    v = fair_verdict(ctx, a)
    per_seat = {r["seat"]: equivalence(*interval_in(r, "dev"), tol.value,
                                       games=a["n"]) for r in rows}  # fmt: skip
    worst = max(rows, key=lambda row: abs(row["dev"]))
    seat = "the first player's" if worst["seat"] == 1 else Label(f"seat {worst['seat']}'s")
    said = _dev(worst, f"{key}.seat{worst['seat']}")
    if v.opposite:
        parts = sentence("The seat matters: ", seat, " ", adv, " is ", said,
                         verdict_words.versus(v, tol), ".")  # fmt: skip
        category, word = "the seat matters", "unfair"
    elif v.holds:
        parts = sentence("The seats are fair: every seat's ", adv, " lies within the ",
                         Label(tol.text()), " tolerance; ", seat, " is ", said, ".")  # fmt: skip
        category, word = "the seats are fair", "fair"
    else:
        real = [r for r in rows if per_seat[r["seat"]].real]
        if real:
            worst = max(real, key=lambda row: abs(row["dev"]))
            seat = ("the first player's" if worst["seat"] == 1
                    else Label(f"seat {worst['seat']}'s"))  # fmt: skip
            said = _dev(worst, f"{key}.seat{worst['seat']}")
        parts = sentence("Not settled whether the seats are fair: ", seat, " ", adv, " is ",
                         said, verdict_words.versus(per_seat[worst["seat"]], tol)
                         if real else verdict_words.tolerance(tol), ".")  # fmt: skip
        category, word = "not settled whether the seats are fair", verdict_words.OPEN_WORD
    return verdict_words.judged(
        v,
        tol,
        key,
        question,
        parts,
        headline=first,
        category=category,
        quality=q,
        section=ID,
        rows=[
            Row(
                f"seat {r['seat']}",
                _dev(r, f"{key}.seat{r['seat']}"),
                verdict_words.word(per_seat[r["seat"]]),
            )
            for r in rows
        ],  # fmt: skip
        word=word,
        where=where,
        rows_head="seat",
    )


def _advantage_figure(ctx: Context, results: list[dict]) -> plots.Figure:
    """Every seat's advantage (win share minus fair, games with a winner) as bars with 95%
    intervals, one colour per player count (and preset)."""
    seats = max(a["players"] for a in results)
    groups = [a for a in results if a["rows_dec"]]
    labels = [
        f"{a['players']} players"
        + (
            f", {_group_label(ctx, a['arm'])}"
            if len({_group_label(ctx, x["arm"]) for x in results}) > 1
            else ""
        )
        + f" (n={round(a['decided']):,})"
        for a in groups
    ]
    v, lo, hi = (np.full((len(groups), seats), np.nan) for _ in range(3))
    for g, a in enumerate(groups):
        for row in a["rows_dec"]:
            k = row["seat"] - 1
            v[g, k], lo[g, k], hi[g, k] = interval_in(row, "dev")
    fig, axes = plots.new(1, 1, width=9, height=3.8)
    ax = axes[0, 0]
    if groups:
        plots.grouped_bars(
            ax, [f"seat {k + 1}" for k in range(seats)], labels, v, lo, hi,
            scale=100, ylabel="win share minus fair (pp)",
        )  # fmt: skip
    ax.axhline(0.0, color=plots.FAIR, linewidth=1)
    ax.set_title("Seat advantage (seat 1 plays first)")
    plots.legend_below(fig, ncol=min(len(labels), 3))
    return plots.finish(
        fig,
        "first_player_advantage",
        "Seat advantage by seat",
        "Each seat's win share minus the fair share (1/players), over the games with a winner "
        "(n), with 95% Wilson intervals. A bar whose interval crosses zero shows no detectable "
        "advantage, which is not the same as none: the Answers say whether the seats are fair "
        "within the tolerance.",
    )
