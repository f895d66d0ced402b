"""The playtest report (`sim playtest fit` builds it into DIR/report/; `build(DIR)` again): per
group, the answers first (its skill on the knob, then every fact's verdict), then the
pictures (the records beside the lab's players at the fitted skill, the likelihood along the
knob with its interval, the group and its named players on the ladder), then the tables.

Built from the fit's folder alone (fit.yaml, records/, fitted/): the same report from a folder
copied elsewhere; the game's plug-in is read for its measures' words, never its engine.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl
import yaml

from sim.errors import SimError
from sim.report import folder as report_folder
from sim.report import verdicts as kinds
from sim.report import write_report
from sim.report.answers import Answer, Count, Estimate, Label, Term, sentence
from sim.report.render import Section
from sim.report.table import Column, Table
from sim.stats.interval_columns import columns

KIND = {"fits": kinds.WITHIN, "differs": kinds.FINDING, "not settled": kinds.UNSETTLED}
METHODS = [
    "The records' facts: who won from which seat, how games ended, the score per seat, the "
    "margin between first and second, and every column the records hold that the game stores "
    "(per game, or per seat as the mean over a game's seats). A fact of a game is a category: "
    "its own (a seat, an outcome) or the bin its number falls in (the simulated values' "
    "octiles).",
    "The lab's players play every candidate skill of a grid along the game's continuous knob "
    "(and every discrete skill setting, such as Space Invaders' dexterity presets) at every "
    "table the records hold, on the same seeds (common random numbers).",
    "Per fact, the share of games in each category is a multinomial logit whose log-odds are "
    "natural cubic splines of the skill, fitted to every simulated game at once. A game's "
    "log-likelihood is the sum over its facts; the facts of one game are not independent, so "
    "the curve is scaled by k = H/J (Chandler and Bate's adjusted composite likelihood: H its "
    "curvature, J the variance of the games' slopes; k at most 1).",
    "The 95% interval: every skill whose adjusted log-likelihood lies within half Student's t "
    "squared (games - 1 degrees of freedom), widened by 1 + G/M (records over simulated "
    "games), of the top. A discrete setting stays in when a paired test over the games does "
    "not put it below the best (one-sided 5%). Its coverage is measured: docs/playtest.md.",
    "Each fact's figure (a measure of the lab's registry) over the records and over the lab's "
    "games at the fitted skill: fits when their difference's 95% interval lies within the "
    "tolerance (5 pp for a share, a quarter of a simulated game's standard deviation for a "
    "mean); differs when even the grid's skill in the interval that comes closest is told "
    "apart (Bonferroni over the group's figures); not settled otherwise, with the records' "
    "games that would likely settle it.",
    "Named players (two games or more, competitive games): each fitted the same way from their "
    "own place (with their seat) and score, the lab playing their tables with the others at "
    "their own fitted skills (three rounds, the second and third halfway); beside it a "
    "Plackett-Luce rating with the seats' strengths, relative to the group.",
]


def build(root: str | Path, out: str | Path | None = None, *, key: str = "--out") -> Path:
    """Write the report of a fit's folder (default DIR/report); the path of index.html."""
    folder = Path(root)
    data = _fit_yaml(folder)
    target = Path(out) if out is not None else folder / "report"
    report_folder.check(target, key=key)
    built = sections(folder)
    return write_report(target, title=f"Playtest fit: {data['title']}", meta=_meta(data, folder),
                        sections=built, methods=METHODS, footer=_footer(folder),
                        key=key)  # fmt: skip


def sections(root: str | Path) -> list[Section]:
    """The report's sections, one per group, from the fit's folder."""
    fit = _Fit.read(root)
    return [_group(fit, name, group) for name, group in fit.data["groups"].items()]


@dataclass(frozen=True)
class _Fit:
    """A fit's folder as the report reads it: the folder, its fit.yaml and the records' games
    and seats (every group's; a group's section picks its own)."""

    folder: Path
    data: dict[str, Any]
    real_games: pl.DataFrame
    real_seats: pl.DataFrame

    @classmethod
    def read(cls, root: str | Path) -> _Fit:
        folder = Path(root)
        data = _fit_yaml(folder)
        return cls(folder, data, pl.read_parquet(folder / "records" / "games.parquet"),
                   pl.read_parquet(folder / "records" / "seats.parquet"))  # fmt: skip


def _fit_yaml(folder: Path) -> dict[str, Any]:
    path = folder / "fit.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise SimError(
            f"no fit to report ({type(err).__name__})",
            file=path,
            hint="Run `sim playtest fit FILE --game G --out DIR` first.",
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("groups"), dict):
        raise SimError("not a fit written by sim playtest fit", file=path)
    return data


def _group(fit: _Fit, name: str, group: dict) -> Section:
    from sim.playtest import figures

    data = fit.data
    slug = "".join(c if c.isalnum() else "_" for c in name)
    section = Section(
        f"group_{slug}",
        f"{name}: {group['label']}",
        "At what skill does the group play, and where do the lab's players play like it?",
    )
    section.answers.append(_skill_answer(name, group, data))
    for fact, answer in group["facts"].items():
        section.answers.append(_fact_answer(name, fact, answer))
    shown = _distributions(fit, name, group)
    if shown:
        words = {f: a["words"] for f, a in group["facts"].items()}
        section.add(figures.facts(f"playtest_{slug}_facts", name, shown, words))
    points = data["ladder"] if isinstance(data["ladder"], dict) else {}
    if data.get("knob"):
        section.add(
            figures.likelihood(
                f"playtest_{slug}_likelihood", name, group["likelihood"], group["skill"], points
            )
        )
        rows = [(group["label"], group["skill"])]
        rows += [
            (f"{p} ({r['games']} games)", r["skill"])
            for p, r in (group.get("players") or {}).items()
        ]
        section.add(figures.ladder(f"playtest_{slug}_ladder", rows, points))
    section.add(_facts_table(slug, group))
    if group.get("players"):
        section.add(_players_table(slug, group["players"]))
    return section


def _skill_answer(name: str, group: dict, data: dict) -> Answer:
    skill = group["skill"]
    estimate = Estimate(
        f"playtest.{name}.skill",
        "skill",
        skill["estimate"],
        skill["low"],
        skill["high"],
        unit="num",
        digits=2,
        signed=False,
    )
    if data.get("knob"):
        parts = sentence("The group plays at skill ", estimate, ", ", Label(group["on_ladder"]))
    else:
        parts = sentence(
            "The group plays like ",
            Label(str(group["level"])),
            " on the ladder",
            " (" if len(group["levels"]) > 1 else None,
            Label(", ".join(group["levels"])) if len(group["levels"]) > 1 else None,
            " not told apart)" if len(group["levels"]) > 1 else None,
        )
    rules = group.get("rules") or {}
    if rules:
        parts += sentence(", with ", Label(", ".join(f"{k} {v}" for k, v in rules.items())))
    parts += sentence(", fitted from ", Count(group["games"], "games"), ".")
    return Answer(
        key=f"playtest.{name}.skill",
        question=f"At what skill does {name} play?",
        parts=parts,
        kind=kinds.INFO,
        headline=estimate,
        section=f"group_{name}",
    )


def _fact_answer(name: str, fact: str, answer: dict) -> Answer:
    verdict = answer["verdict"]
    parts = sentence(answer["words"][:1].upper() + answer["words"][1:], f" {verdict} (")
    for i, f in enumerate(answer["figures"]):
        share = f["unit"] == "share"
        unit, digits = ("pct", 0) if share else ("num", 1)
        parts += sentence(
            "; " if i else None,
            Term(f["label"], f["measure"]),
            ": records ",
            _figure(name, f, "real", unit=unit, digits=digits),
            ", simulated ",
            _figure(name, f, "simulated", unit=unit, digits=digits),
        )
    parts += sentence(")")
    if verdict == "differs":
        parts += sentence(": here the lab's players differ from people")
    elif verdict == "not settled" and answer.get("games_to_settle"):
        parts += sentence(
            "; about ", Count(answer["games_to_settle"], "games"), " would likely settle it"
        )
    parts += sentence(".")
    return Answer(
        key=f"playtest.{name}.{fact}",
        question=f"Does {answer['words']} fit?",
        parts=parts,
        kind=KIND[verdict],
        category=verdict,
        section=f"group_{name}",
    )


def _figure(name: str, figure: dict, side: str, *, unit: str, digits: int) -> Estimate:
    """One side ("real" or "simulated") of a fact's figure, with its interval."""
    value = figure[side]
    return Estimate(f"playtest.{name}.{figure['measure']}.{side}", figure["label"],
                    _n(value["value"]), _n(value["low"]), _n(value["high"]), unit=unit,
                    digits=digits, signed=False)  # fmt: skip


def _n(x: Any) -> float:
    return float("nan") if x is None else float(x)


def _distributions(fit: _Fit, name: str, group: dict) -> dict[str, tuple[list, list]]:
    """fact -> (the records' per-game values, the lab's at the fitted skill)."""
    from sim.measures.spec import for_game as measures
    from sim.playtest.facts import Fact, values
    from sim.plugins import get_game
    from sim.results import load, manifest

    spec = measures(get_game(fit.data["game"]))
    fitted = fit.folder / "fitted"
    arms = [
        str(a["name"])
        for a in manifest(fitted)["arms"]
        if str(a["name"]).startswith(f"group={name}, ")
    ]
    lab_games = load(fitted, "games", arms=arms).collect()
    lab_seats = load(fitted, "seats", arms=arms).collect()
    keep = pl.col("group") == name
    rg, rs = fit.real_games.filter(keep), fit.real_seats.filter(keep)
    # every arm's games are numbered from 0: keep them apart
    key = pl.col("game") + pl.col("arm").rank("dense").cast(pl.Int64) * 1_000_000_000
    lab_games = lab_games.with_columns(key.alias("game"))
    lab_seats = lab_seats.with_columns(key.alias("game"))
    out = {}
    for fact, answer in group["facts"].items():
        f = Fact(
            fact,
            answer["words"],
            answer["kind"],
            answer.get("column") or "",
            bool(answer.get("per_seat")),
        )
        try:
            real = values(f, rg, rs, spec).get_column("value").to_list()
            lab = values(f, lab_games, lab_seats, spec).get_column("value").to_list()
        except pl.exceptions.ColumnNotFoundError:
            continue
        out[fact] = (real, lab)
    return out


def _facts_table(slug: str, group: dict) -> Table:
    rows = []
    for answer in group["facts"].values():
        for f in answer["figures"]:
            scale = 100.0 if f["unit"] == "share" else 1.0
            rows.append(
                {
                    "fact": answer["words"],
                    "verdict": answer["verdict"],
                    "measure": f["label"],
                    **_side_columns(f, "real", scale),
                    **_side_columns(f, "simulated", scale),
                    "tolerance": scale * _n(f["tolerance"]),
                    "games": answer["games"],
                    "games_to_settle": answer.get("games_to_settle"),
                }
            )
    return Table(
        f"playtest_{slug}_facts",
        "Every fact: the records and the lab's players",
        pl.DataFrame(rows),
        [
            Column.text("fact", "fact"),
            Column.text("verdict", "verdict"),
            Column.text("measure", "measure"),
            Column.num_ci("real", "records (95% interval)", 1, help="Shares in %."),
            Column.num_ci("simulated", "the lab's players at the fitted skill", 1),
            Column.num("tolerance", "tolerance", 2),
            Column.count("games", "games"),
            Column.count("games_to_settle", "games to settle"),
        ],
        note="Fits: the difference's 95% interval lies within the tolerance; "
        "differs: even the interval's closest skill is told apart.",
    )


def _side_columns(figure: dict, side: str, scale: float) -> dict[str, float]:
    """One side ("real" or "simulated") of a fact's figure as the table's value and interval
    columns (side, side_low, side_high), times `scale`."""
    value = figure[side]
    return columns(
        side, scale * _n(value["value"]), scale * _n(value["low"]), scale * _n(value["high"])
    )


def _players_table(slug: str, players: dict) -> Table:
    rows = [
        {
            "player": p,
            "games": r["games"],
            **columns("skill", r["skill"]["estimate"], r["skill"]["low"], r["skill"]["high"]),
            "rating": (r.get("rating") or {}).get("theta"),
            "rating_se": (r.get("rating") or {}).get("se"),
        }
        for p, r in players.items()
    ]
    return Table(
        f"playtest_{slug}_players",
        "Named players on the knob",
        pl.DataFrame(rows),
        [
            Column.text("player", "player"),
            Column.count("games", "games"),
            Column.num_ci("skill", "skill (95% interval)", 2),
            Column.num(
                "rating",
                "rating (relative)",
                2,
                help="Plackett-Luce strength with the seats taken into account, relative to "
                "the group.",
            ),
            Column.num("rating_se", "its standard error", 2),
        ],
    )


def _meta(data: dict, folder: Path) -> list[str]:
    e = html.escape
    sim = data["simulated"]
    knob = data.get("knob")
    where = (
        f"the knob {e(knob['strategy'])}'s {e(knob['parameter'])}"
        + (f" with {e(str(knob['params']))}" if knob and knob.get("params") else "")
        if knob
        else "the ladder's levels"
    )
    lines = [
        f"Records <code>{e(str(data['records']))}</code>; game {e(data['game'])}; "
        f"{len(data['groups'])} group(s); fit folder <code>{e(str(folder))}</code>",
        f"Fitted to {where}; {sim['games']:,} of the lab's games per candidate and table, "
        f"root seed {sim['seed']}.",
    ]
    lines += [f"Note: {e(n)}" for n in data.get("notes") or []]
    return lines


def _footer(folder: Path) -> str:
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"Built {when} from {html.escape(str(folder))}. Tables as CSV in tables/, charts "
        "as PNG in figures/, the same in report.md."
    )
