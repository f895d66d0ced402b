"""`sim playtest fit FILE --game G --out DIR`: each group of a playtest record file fitted to
the game's continuous skill, checked fact by fact, its named players placed on the same scale.

    from sim.playtest.fit import fit
    answer = fit("playtests.csv", "guardians", out="results/playtest")   # what fit.yaml holds

1. The records are read and checked (read.py); the game's stored columns are learnt from one
   game, so that every column of the records is a known fact (facts.py).
2. The lab's players play every candidate (candidates.py) at every table the records hold, on
   common seeds (`simulated/`); per group, the likelihood of its games' facts along the knob
   and its 95% interval (study.py, likelihood.py).
3. The lab's players play each group's tables at its fitted skill (`fitted/`), and each fact
   gets its verdict: fits, differs or not settled (verdicts.py).
4. Named players who sat in several games of a competitive game are fitted at their own
   tables and rated with the seats taken into account (players.py, ratings.py).
5. DIR/fit.yaml holds the answers, DIR/records/ the records as the lab's tables (output.py),
   read by the report and by an experiment's `{fit: DIR/fit.yaml}`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from sim.errors import SimError
from sim.paths import make_folder
from sim.playtest.read import read_records
from sim.playtest.simulate import experiment, fitted_arm, frames, play, workers
from sim.playtest.study import GroupFit, Study, columns
from sim.plugins import get_game

GAMES = 1000  # the lab's games per candidate and table
MIN_GAMES = 100


def fit(
    path: str | os.PathLike[str],
    game: str,
    *,
    out: str | os.PathLike[str],
    fmt: str | None = None,
    name: str | None = None,
    group: str | None = None,
    games: int = GAMES,
    seed: int = 0,
    jobs: int | None = None,
    progress: bool = True,
    on_note: Callable[[str], None] | None = None,
    players: bool = True,
) -> dict[str, Any]:
    """Fit the records of `path` (see the module doc); returns what DIR/fit.yaml holds. Without
    `players` the named players are not fitted (the group's fit alone: faster)."""
    from sim.playtest import output
    from sim.playtest import players as rating

    if games < MIN_GAMES:
        raise SimError(
            f"play at least {MIN_GAMES} games per candidate skill",
            key="--games",
            hint=f"The default is {GAMES}.",
        )
    plugin = get_game(game, source="--game")
    records = read_records(path, plugin, fmt=fmt, name=name)
    if group is not None:
        records = records.group(group)
    root = make_folder(out, key="--out", what="the playtest fit's folder")
    with workers(jobs, plugin.name) as pool:
        run = {"jobs": jobs, "pool": pool, "progress": progress, "on_note": on_note}
        study = Study.prepare(records, plugin, root, games=games, seed=seed, run=run)
        fits = study.fit_groups()
        _judge(study, fits, root, games=games, seed=seed, run=run)
        if players:
            rating.rate(fits, records, study.cands, plugin, root, games=games, seed=seed, run=run)
    data = output.document(records, plugin, study.cands, fits, games=games, seed=seed)
    output.write(root, data, records, study.real_games, study.real_seats)
    return data


def _judge(
    study: Study, fits: list[GroupFit], root: Any, *, games: int, seed: int, run: dict[str, Any]
) -> None:
    """The lab's players at each group's fitted skill (`fitted/`), and every fact's verdict."""
    arms = [
        fitted_arm(study.cands, table, f.name, f.skill, f.level, f.rules)
        for f in fits
        for table in f.tables
    ]
    exp = experiment(
        "playtest-fitted",
        study.cands,
        arms,
        games=games,
        seed=seed + 1,
        description="Each group's tables at its fitted skill (sim playtest fit).",
    )
    play(exp, root / "fitted", **run)
    stored = frames(root / "fitted", [a.name for a in arms], **columns(study.facts))
    for f in fits:
        study.judge(f, {a.table: stored[a.name] for a in arms if a.group == f.name})
