"""Mine value: arms with the mine and without it, and with mine-using against mine-ignoring
strategies. Paired differences (same seeds) in raid rate, game length, total and per-seat scores,
and the win-share gain of the player who uses the mine."""

from __future__ import annotations

import polars as pl

from sim.games.guardians.report import mine_answers, words
from sim.games.guardians.report.compared import game_metrics
from sim.games.guardians.report.mine_answers import gain_verdict
from sim.games.guardians.report.what_if import (
    arm_answer,
    compare,
    comparison_table,
    describe,
    forest_figure,
    no_change,
    ns_note,
)
from sim.report import arms, fmt
from sim.report.answers import plain_text
from sim.report.context import Context
from sim.report.metrics import Metric, diff_cols, prefixed
from sim.report.render import Finding, Section, Text
from sim.report.table import ARM, Column, Table
from sim.report.verdicts import UNSETTLED, WITHIN, kind, to_settle
from sim.stats.interval_columns import as_columns, columns, interval_in

ID = "mine_value"
TITLE = "Mine value"
USE_THRESHOLD = 0.01  # mine explosions per seat-game that mark a strategy as a mine user
_NO_WINNER = list(words.NO_WINNER)


def mine_enabled(ctx: Context, arm: str) -> bool:
    g = ctx.results.arm_games(arm)
    if "mine.enabled" in g.columns:
        return bool(g.get_column("mine.enabled")[0])
    info = ctx.results.arm(arm)
    return bool(info.rules.get("mine.enabled", True))


def mine_users(ctx: Context) -> set[str]:
    """Strategies that use the mine: named for it (e.g. `miner`); failing that, those that
    explode it at least half as often as the most explosive strategy (and at all)."""
    s = ctx.results.seats
    named = {
        str(x) for x in s.get_column("strategy").unique().to_list() if "mine" in str(x).lower()
    }
    if named or "mine_explosions" not in s.columns:
        return named
    per = dict(
        s.group_by("strategy", maintain_order=True)
        .agg(pl.col("mine_explosions").mean())
        .iter_rows()
    )
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
    names = ["raid_rate", "victory_rate", "stall_rate", "mean_turns", "mean_rounds",
             "game_total.score", "winner_score"]  # fmt: skip
    out = game_metrics(names, {"raid_rate", "mean_turns", "game_total.score"}, players)
    out.append(Metric("game_total.mine_explosions", "mine explosions per game", "num", digits=2))
    return out


def _user_gain(ctx: Context, treated: str, control: str, users: set[str]) -> dict | None:
    """Seat-level paired gain of the mine user: its win share (and score) in `treated` minus
    the same seat's in `control`, on the same games (the registry's per-seat means of the
    users, paired seat by seat)."""
    t = ctx.results.arm_seats(treated).filter(pl.col("strategy").is_in(list(users)))
    if t.height == 0:
        return None
    who = "+".join(sorted(users))
    win = ctx.paired(control, treated, f"win_share.{who}")
    if win.n < 2:
        return None
    score = ctx.paired(control, treated, f"seat_mean.score.{who}")
    won = [  # games with a winner in either arm: the only ones a win share can move in
        set(ctx.results.arm_games(a).filter(pl.col("outcome").is_in(_NO_WINNER).not_())["game"])
        for a in (treated, control)
    ]
    informative = won[0] | won[1]
    ended = ctx.results.arm_games(treated).select("game", "outcome")
    ended = ended.filter(pl.col("game").is_in(list(informative)).not_())
    endings = dict(
        ended.group_by("outcome", maintain_order=True).len().iter_rows()
    )  # how the others ended
    replaced = (
        ctx.results.arm_seats(control)
        .join(t.select("game", "seat"), on=["game", "seat"], how="semi")
        .get_column("strategy")
    )
    return {
        "arm": treated,
        "control": control,
        "user": ", ".join(sorted(set(t.get_column("strategy").unique().to_list()))),
        "replaced": ", ".join(sorted(set(replaced.unique().to_list()))),
        "games": win.n,
        "informative": len(informative),
        "endings": {**{str(k): int(v) for k, v in endings.items()}, "a winner": len(informative)},
        **diff_cols(win, "win"),
        **diff_cols(score, "score"),
    }


def _user_vs_fair(ctx: Context, arm: str, users: set[str]) -> dict | None:
    s = ctx.results.arm_seats(arm)
    mine = s.filter(pl.col("strategy").is_in(list(users)))
    if mine.height == 0:
        return None
    players = int(ctx.results.arm_games(arm).get_column("players")[0])
    who = "+".join(sorted(users))
    dev = ctx.measure(arm, f"uplift.{who}")
    return {
        "arm": arm,
        "seat_games": mine.height,
        **prefixed(ctx.measure(arm, f"win_share.{who}"), "share"),
        "fair": ctx.measure(arm, "decided_rate").value / players,
        **as_columns("dev", dev),
        "dev_p": dev.pvalue,
    }


def arm_words(ctx: Context, arm: str, base: str, kinds: dict[str, str]) -> str:
    """The arm in words: its rule changes against the baseline; an arm whose players leave the
    mine alone next to a baseline with a mine user is 'nobody moves the mine'."""
    if arm == base:
        return "the mine as printed" if kinds[arm] != "no mine" else "no mine"
    said = arms.describe(ctx, arm, base, words.RULES)
    if kinds[arm] == "mine ignored" and kinds[base] == "mine used":
        return "nobody moves the mine" + (f", as {said}" if said else "")
    return said or arm


def _role(ctx: Context, arm: str, kind: str, users: set[str]) -> str:
    """Who moves the mine in this arm."""
    if kind == "no mine":
        return "no mine on the board"
    present = set(ctx.results.arm_seats(arm).get_column("strategy").unique().to_list())
    used, others = sorted(present & users), sorted(present - users)
    if used:
        rest = f"; {', '.join(others)} never move it" if others else ""
        return f"{', '.join(used)} moves the mine{rest}"
    return f"nobody moves the mine ({', '.join(others)} leave it where it was placed)"


def build(ctx: Context) -> Section:
    section = Section(
        ID,
        TITLE,
        "What is the mine worth? Games with the mine against games "
        "without it, and players who use it against players who ignore it.",
    )
    section.glossary["mine explosions"] = words.MINE_EXPLOSIONS
    users = mine_users(ctx)
    names = ctx.arm_names
    base = ctx.results.baseline if ctx.results.baseline in names else names[0]
    kinds = {arm: _arm_kind(ctx, arm, users) for arm in names}
    said = {arm: arm_words(ctx, arm, base, kinds) for arm in names}
    arms_table = _arms_table(ctx, names, kinds, said, users)
    comparisons = _pairs(ctx, names, kinds, said, users)
    rows_all, with_base, gains, by_pair = [], [], [], {}
    for control, treated, label in comparisons:
        players = min(
            int(ctx.results.arm_games(a).get_column("players")[0]) for a in (control, treated)
        )
        rows = compare(ctx, control, treated, metrics=_metrics(players), strategies=False)
        by_pair[(control, treated)] = rows
        for r in rows:
            r["arm"] = label
        rows_all.extend(rows)
        if base in (control, treated):
            with_base.extend(rows)
        section.findings.append(_finding(ctx, label, rows))
        if kinds[treated] == "mine used" and kinds[control] in ("no mine", "mine ignored"):
            gain = _user_gain(ctx, treated, control, users)
            if gain is not None:
                gain["comparison"] = label
                gain["control_kind"] = kinds[control]
                gains.append(gain)
    section.answers.append(mine_answers.worth(ctx, base, kinds, by_pair, gains))
    for arm in names:
        if arm != base and (base, arm) in by_pair:
            what = said[arm]
            section.answers.append(arm_answer(ctx, arm, base, by_pair[(base, arm)], what, ID))
    for gain in gains:
        section.findings.append(_gain_finding(ctx, gain))
    if rows_all:
        section.add(_effects(with_base, gains))
    section.add(arms_table)
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
    if gains:
        section.add(_gain_table(gains))
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
                    ARM,
                    Column.count("seat_games", "seat-games"),
                    Column.pct_ci("share", "win share", help=words.TERMS["win share"]),
                    Column.pct("fair", "fair share", help=words.TERMS["fair share"]),
                    Column.diff("dev", "vs fair", unit="pp"),
                    Column.pvalue("dev_p", "p"),
                ],
                note="Fair share: the share of games with a winner divided by the players.",
            )
        )
    return section


def _arms_table(ctx, names, kinds, said, users) -> Table:
    overview = []
    for arm in names:
        g, s = ctx.results.arm_games(arm), ctx.results.arm_seats(arm)
        present = sorted(set(s.get_column("strategy").unique().to_list()))
        row = {
            "arm": arm,
            "words": said[arm],
            "kind": kinds[arm],
            "role": _role(ctx, arm, kinds[arm], users),
            "players": int(g.get_column("players")[0]),
            "strategies": ", ".join(present),
            "games": g.height,
            **prefixed(ctx.measure(arm, "raid_rate"), "raid"),
            **prefixed(ctx.measure(arm, "mean_turns"), "turns"),
            **prefixed(ctx.measure(arm, "game_total.score"), "total"),
        }
        if "mine_explosions" in s.columns:
            row.update(prefixed(ctx.measure(arm, "game_total.mine_explosions"), "expl"))
        overview.append(row)
    cols = [
        ARM,
        Column.text("words", "in words"),
        Column.text("role", "who moves the mine"),
        Column.count("players", "players"),
        Column.count("games", "games"),
        Column.pct_ci("raid", "raid rate", help=words.TERMS["invaders' wins"]),
        Column.num_ci("turns", "turns", help=words.TERMS["game length"]),
        Column.num_ci("total", "total score", help="Sum of every player's points at the end."),
    ]
    if any("expl" in r for r in overview):
        cols.append(Column.num_ci("expl", "mine explosions / game", 2, help=words.MINE_EXPLOSIONS))
    return Table(
        "mine_arms",
        "The arms",
        pl.DataFrame(overview),
        cols,
        note=f"Mine users: {', '.join(sorted(users)) or 'none found'} (strategies named for the "
        "mine, or exploding it at least half as often as the most explosive one); the others "
        "are taken not to move it, as no built-in strategy but miner does. "
        f"Mine explosions: {words.MINE_EXPLOSIONS}",
    )


def _gain_table(gains: list[dict]) -> Table:
    return Table(
        "mine_user_gain",
        "Win-share gain of the player who uses the mine",
        pl.DataFrame([{k: v for k, v in g.items() if k != "endings"} for g in gains]),
        [
            Column.text("comparison", "comparison"),
            Column.text("user", "mine user"),
            Column.text("replaced", "instead of"),
            Column.count("games", "paired games"),
            Column.count("informative", "with a winner", help="Games with a winner in either arm."),
            Column.diff("win", "win-share gain", unit="pp", sig_key="win_sig"),
            Column.pvalue("win_p", "p"),
            Column.diff("score", "score gain (points)", sig_key="score_sig"),
        ],
        note="The seats the mine user holds, compared with the same seats in the arm where "
        "another strategy sits there (or the mine is missing), game by game.",
    )


def _effects(rows: list[dict], gains: list[dict]):
    """The effects chart: the headline metrics of the comparisons with the baseline, and the
    mine users' gains (every other pairing is in the table)."""
    shown = [r for r in rows if r["headline"]]
    for g in gains:
        shown.append(
            {
                "arm": g["comparison"], "metric": f"win share of {g['user']}", "unit": "pp",
                **columns("diff", *interval_in(g, "win")),
                "diff_sig_holm": g["win_sig"], "base": 1.0, "games": g["games"],
            }
        )  # fmt: skip
    return forest_figure("mine_differences", shown, "the arm without", "What the mine changes")


def _pairs(
    ctx: Context, names: list[str], kinds: dict[str, str], said: dict[str, str], users: set[str]
) -> list[tuple[str, str, str]]:
    """(control, treated, label), each read 'treated minus control': every arm against the
    baseline (an arm without the mine the other way round: the mine minus no mine), then the
    mine against no mine and mine users against the mine ignored among the other arms; arms
    are matched on players and preset. Labels say the arms in words, their keys beside."""
    base = ctx.results.baseline if ctx.results.baseline in names else names[0]
    who = ", ".join(sorted(users)) or "a mine user"

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

    for arm in names:
        if arm == base or key(arm) != key(base):
            continue
        if kinds[arm] == "no mine" and kinds[base] != "no mine":
            add(arm, base, f"the mine as printed ({base}) vs no mine ({arm})")
        else:
            add(base, arm, f"{said[arm]} ({arm}) vs {base}")
    for treated in names:
        for control in names:
            if treated == control or key(treated) != key(control):
                continue
            kt, kc = kinds[treated], kinds[control]
            if kt == "mine ignored" and kc == "no mine":
                add(control, treated, f"a mine nobody moves ({treated}) vs no mine ({control})")
            elif kt == "mine used" and kc == "mine ignored":
                add(control, treated, f"{who} moving the mine ({treated}) vs nobody ({control})")
            elif kt == "mine used" and kc == "no mine":
                add(control, treated, f"the mine moved by {who} ({treated}) vs no mine ({control})")
    return out


def _finding(ctx: Context, label: str, rows: list[dict]) -> Finding:
    order = {
        "invaders win (raid rate)": 0,
        "game length (turns)": 1,
        "total score of the table (points)": 2,
    }
    head = sorted((r for r in rows if r["headline"]), key=lambda r: order.get(r["metric"], 9))
    head = {r["metric"]: r for r in head}
    parts = "; ".join(describe(r) + ns_note(r) for r in head.values())
    v, tolerances = no_change(ctx, list(head.values()))
    if v is not None and v.holds:
        return Finding(f"{label}: no change in raid rate, game length or total score beyond "
                       f"their tolerances{plain_text(tolerances)}: {parts}.", WITHIN)  # fmt: skip
    if not any(r.get("diff_sig_holm") for r in head.values()):
        n = max((r["games"] for r in rows), default=0)
        settle = "" if v is None else (
            f"; whether any changes beyond its tolerance{plain_text(tolerances)} is not "
            "settled: "
            f"{plain_text(to_settle(v))}"
        )  # fmt: skip
        return Finding(
            f"{label}: no detectable change in raid rate, game length or total score "
            f"({fmt.integer(n)} paired games): {parts}{settle}.",
            UNSETTLED if v is not None else "info",
        )
    return Finding(f"{label}: {parts}.", "finding")


def _gain_finding(ctx: Context, gain: dict) -> Finding:
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
    v = gain_verdict(ctx, gain)
    tol = ctx.tolerance("win_share").text()
    if v.holds:
        text += f": no value to its user (tolerance {tol})"
    elif not v.settled:
        text += (f"; whether it is worth anything to its user (tolerance {tol}) is not "
                 f"settled: {plain_text(to_settle(v))}")  # fmt: skip
    return Finding(text + ".", kind(v))
