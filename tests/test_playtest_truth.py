"""Known truth recovered (issue 38, slow): records written from the lab's own players at a known
skill give an interval that holds it, more games a narrower one, and over many such files the
95% intervals hold it about 95% of the time; named players of two levels come out ranked, each
interval holding the level played; every game's example records fit the skills they were
played at.

Slimmed by SIM_SLOW_SCALE (tests/conftest.py). At full size, `SIM_SLOW_SCALE=1 .venv/bin/python
-m pytest -s tests/test_playtest_truth.py -k coverage` prints the coverage row docs/playtest.md
quotes: every replicate file is fitted against lab's games of its own (a root seed each), so
the coverage is the whole procedure's, simulation noise included; slimmed, the replicates
share one run of the lab's games (a check of the same intervals, given those games)."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import pytest

from sim.playtest.fit import fit
from sim.playtest.read import read_records
from sim.playtest.simulate import workers
from sim.playtest.study import Study
from sim.playtest.synthetic import lab_records
from sim.plugins import get_game
from tests.conftest import slow_scale
from tests.examples.installing import PACKAGES, installed_here
from tests.playtest_examples import EXAMPLES, written
from tests.test_coverage import Coverage

pytestmark = pytest.mark.slow
TRUTH = 0.4  # between the ladder's points: read off the curve, not a grid point
COLUMNS = ("turns", "outcome")


def _games() -> int:
    """The lab's games per candidate skill."""
    return max(100, round(1000 * slow_scale()))


def _records(folder: Path, name: str, **kwargs) -> Path:
    path = folder / name
    path.write_text(lab_records("guardians", **kwargs), encoding="utf-8")
    return path


def test_known_truth_recovered_and_more_games_narrower(tmp_path):
    plugin = get_game("guardians")
    run = {"jobs": 1, "pool": None, "progress": False, "on_note": None}
    found, study = {}, None
    for games in (120, 30):
        path = _records(
            tmp_path,
            f"g{games}.csv",
            skills=TRUTH,
            games=games,
            players=4,
            columns=COLUMNS,
            seed=7000 + games,
        )
        records = read_records(path, plugin)
        study = study or Study.prepare(records, plugin, tmp_path, games=_games(), seed=3, run=run)
        found[games] = study.with_records(records).fit_groups()[0]
    for games, f in found.items():
        assert f.low <= TRUTH <= f.high, (games, f.low, f.high)
    widths = {games: f.high - f.low for games, f in found.items()}
    assert widths[120] < 0.75 * widths[30], widths  # four times the games: about half as wide


def test_two_strong_and_two_novice_players_come_out_ranked(tmp_path):
    levels = {"Anna": 0.75, "Ben": 0.75, "Cleo": 0.0, "Dan": 0.0}  # strong, strong, novices
    path = _records(
        tmp_path, "table.csv", skills=levels, games=80, players=4, columns=COLUMNS, seed=7200
    )
    answer = fit(path, "guardians", out=tmp_path / "fit", games=_games(), jobs=1, progress=False)
    players = answer["groups"]["all"]["players"]
    ranked = sorted(players, key=lambda p: -players[p]["skill"]["estimate"])
    assert set(ranked[:2]) == {"Anna", "Ben"} and set(ranked[2:]) == {"Cleo", "Dan"}, players
    for name, level in levels.items():
        skill = players[name]["skill"]
        assert skill["low"] <= level <= skill["high"], (name, skill)
    ratings = {p: players[p]["rating"]["theta"] for p in players}
    assert min(ratings["Anna"], ratings["Ben"]) > max(ratings["Cleo"], ratings["Dan"]), ratings


COVERED = {  # game -> (players, the columns its files hold, the rules its games are played with)
    "guardians": (4, COLUMNS, {}),
    "space-invaders": (2, ("rounds", "outcome"), {"dexterity.skill": "practised"}),
}


@pytest.mark.parametrize("game", list(COVERED))
def test_coverage_of_the_group_interval(tmp_path_factory, game):
    """Replicate files of 60 games at TRUTH, each fitted; the share whose interval holds it
    (Space Invaders: its dexterity to be found too)."""
    players, columns, rules = COVERED[game]
    replicates = max(20, round((200 if game == "guardians" else 100) * slow_scale()))
    shared = slow_scale() < 1
    plugin = get_game(game)
    folder = tmp_path_factory.mktemp("coverage")
    covered = 0
    jobs = 2 if not shared else 1  # full size: a pool for the replicates' own lab's games
    with workers(jobs, plugin.name) as pool:
        run = {"jobs": jobs, "pool": pool, "progress": False, "on_note": None}
        study = None
        for r in range(replicates):
            path = folder / f"r{r}.csv"
            path.write_text(
                lab_records(
                    game,
                    skills=TRUTH,
                    games=60,
                    players=players,
                    columns=columns,
                    rules=rules,
                    seed=80_000 + r,
                )
            )
            records = read_records(path, plugin)
            if study is None or not shared:
                study = Study.prepare(
                    records,
                    plugin,
                    folder / f"lab{r % 2}",
                    games=_games(),
                    seed=90_000 + r,
                    run=run,
                )
            found = study.with_records(records).fit_groups()[0]
            covered += found.low <= TRUTH <= found.high
    result = Coverage(
        f"sim playtest fit, group skill ({game}, {players} players, skill "
        f"{TRUTH}, 60 games a file, {_games():,} of the lab's games a skill)",
        covered,
        replicates,
    )
    print(f"\n{result.row()}")
    assert result.share >= result.floor(), result.row()


@pytest.mark.parametrize("game", list(EXAMPLES))
def test_every_examples_records_are_as_written_and_fit_their_skills(game, tmp_path):
    """Each game's example file is what its groups write, and each group of one skill gets an
    interval that holds it (its named players: test_two_strong_and_two_novice_...)."""
    with ExitStack() as stack:
        if game in PACKAGES:
            stack.enter_context(installed_here(tmp_path / "site", PACKAGES[game]))
        path, groups = EXAMPLES[game]
        assert path.read_text(encoding="utf-8") == written(game)
        answer = fit(
            path,
            game,
            out=tmp_path / "fit",
            games=_games(),
            seed=1,
            jobs=1,
            progress=False,
            players=False,
        )
    for group in groups:
        found = answer["groups"][group["group"]]
        assert found["games"] == group["games"]
        if isinstance(group["skills"], float):  # one skill at every seat
            skill = found["skill"]
            assert skill["low"] <= group["skills"] <= skill["high"], (group, skill)
        if isinstance(group["skills"], str):  # one ladder level at every seat (no knob)
            assert group["skills"] in found["levels"], (group, found["levels"])
        for rule, value in (group.get("rules") or {}).items():
            assert value in found["rules_within"][rule], found
