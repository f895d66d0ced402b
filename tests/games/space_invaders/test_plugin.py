"""The plug-in through the framework: found through its entry point, light to import, chunks
of games as columns (solo games too), an experiment with `game: space-invaders` through
`sim run` with both report sections (the report never importing the engine), the watch view
and `sim play`, `sim scenario`, `sim rules` and `sim bench` through the generic commands."""

import json
import re
from importlib.metadata import entry_points
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.errors import ConfigError
from sim.games import get_game
from sim.games.base import StrategySpec
from tests.modules import loaded_after

GAME = get_game("space-invaders")
ROOT = Path(__file__).resolve().parents[3]


def test_the_game_is_found_through_its_entry_point_and_imports_light():
    points = {p.name: p.value for p in entry_points(group="sim.games")}
    assert points["space-invaders"] == "sim.games.space_invaders.plugin:GAME"
    loaded = loaded_after(
        "from sim.games import get_game\n"
        "game = get_game('space-invaders')\n"
        "game.load_ruleset('space-invaders'); game.report(); game.strategy_names()\n"
    )
    heavy = ("numba", "sim.jit", "strategies")
    engine = tuple(f"sim.games.space_invaders.{m}" for m in ("engine", "kernel", "play"))
    assert [m for m in loaded if m.startswith(heavy) or m in engine] == []


def test_prepare_compiles_the_loop_the_chunks_play():
    from sim.games.space_invaders.play import Plan

    lineup = [StrategySpec("naive")]
    GAME.prepare(lineup, notice=None)
    units = [unit for job in Plan(lineup).compile_jobs() for unit in job]
    assert [u for u in units if not u.is_cached()] == []
    ruleset = GAME.load_ruleset("space-invaders")
    GAME.play_chunk(ruleset, 2, lineup, np.zeros((3, 2), np.int64), np.arange(5, 8))
    loop = next(u for u in units if u.name == "play_batch")
    assert loop.dispatcher().signatures == [loop.signature]  # the chunk played that signature


def test_a_chunk_has_the_framework_columns_and_the_games_own():
    ruleset = GAME.load_ruleset("space-invaders")
    lineup = [StrategySpec("naive"), StrategySpec("tactical", (("spread_scale", 1.3),))]
    chunk = GAME.play_chunk(ruleset, 3, lineup, np.array([[0, 1, 1], [1, 0, 0]]), np.arange(2))
    assert set(chunk.games["outcome"]) <= set(GAME.outcomes)
    assert len(chunk.seats["seat"]) == 6
    won = chunk.games["won"].repeat(3)
    assert np.allclose(chunk.seats["win_share"], won / 3)
    assert (chunk.seats["score"] == chunk.games["score"].repeat(3)).all()
    labels = ["naive", "tactical(spread_scale=1.3)", "tactical(spread_scale=1.3)"]
    assert chunk.seats["strategy"].tolist()[:3] == labels
    assert "powers" not in chunk.games  # the seats table holds each seat's cards
    dealt = [chunk.seats[f"power_{k}"] for k in (1, 2)]  # four different powers each
    assert all(len(set(column[:3])) == 3 for column in dealt)  # one card per player and level


def test_a_solo_game_is_one_person_playing_every_hand():
    ruleset = GAME.load_ruleset("space-invaders", {"setup.solo_hands": 3})
    solo = GAME.play_chunk(
        ruleset, 1, [StrategySpec("tactical")], np.zeros((4, 1), np.int64), np.arange(4)
    )
    three = GAME.play_chunk(
        ruleset, 3, [StrategySpec("tactical")], np.zeros((4, 3), np.int64), np.arange(4)
    )
    assert (solo.games["hands"] == 3).all() and (solo.games["deck_size"] == 34).all()
    assert (solo.games["score"] == three.games["score"]).all()  # the same hands, the same games
    assert (solo.seats["launches"] == three.seats["launches"].reshape(4, 3).sum(axis=1)).all()
    assert len(solo.seats["power_1"][0].split("+")) == 3


def test_unknown_strategies_and_parameters_are_refused():
    with pytest.raises(ConfigError, match="Did you mean 'planner'"):
        GAME.check_strategy(StrategySpec("planer"), source="x.yaml")
    with pytest.raises(ConfigError, match="unknown parameter"):
        GAME.check_strategy(StrategySpec("naive", (("aim", 1),)), source="x.yaml")
    with pytest.raises(ConfigError, match="out of range"):
        GAME.check_strategy(StrategySpec("naive", (("spread_scale", 9),)), source="x.yaml")


EXPERIMENT = """\
name: tiny
game: space-invaders
games: 40
seed: 3
report: [invaders_difficulty, invaders_chart]
arms:
  - {name: a, players: 2, seats: [naive], rules: {setup.level: training}}
  - {name: b, players: 2, seats: [naive], rules: {setup.level: standard}}
  - {name: c, players: 2, seats: [naive], rules: {setup.level: standard, powers.plain: pierce}}
  - {name: d, players: 2, seats: [naive], rules: {setup.level: standard, catalog.file: fast}}
  - {name: e, players: 2, seats: [naive], rules: {search.knob: ufo, search.factor: 0.5}}
  - {name: f, players: 2, seats: [naive], rules: {search.knob: ufo, search.factor: 1.0}}
  - {name: g, players: 2, seats: [naive], rules: {search.knob: ufo, search.factor: 2.0}}
"""


def test_sim_run_plays_the_game_and_writes_both_sections(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(EXPERIMENT)
    out, reports = tmp_path / "results", tmp_path / "reports"
    result = CliRunner().invoke(
        app, ["run", str(path), "--out", str(out), "-j", "1", "--report-dir", str(reports)]
    )
    assert result.exit_code == 0, result.output
    text = (reports / "report.md").read_text()
    assert "The printed chart's implied win rates" in text
    assert "Is each printed level harder than the one below?" in text
    assert "win-rate uplift against a plain token" in text
    assert "Sensitivity to the assumed card catalog" in text
    assert "The chart re-derived" in text
    for table in ("invaders_outcomes", "invaders_power_uplift", "invaders_rederived_chart",
                  "overview_outcomes", "overview_strategies"):  # fmt: skip
        assert (reports / "tables" / f"{table}.csv").is_file()
    assert text.startswith("# Space Invaders difficulty report: tiny")
    page = (reports / "index.html").read_text()
    for word in ("Guardians", "raid", "missile", "fighter", "mine", "upgrade", "turn cap"):
        assert not re.search(rf"\b{word}\b", text + page, re.IGNORECASE), word
    assert_report_never_imports_the_engine(out, tmp_path / "again")


def assert_report_never_imports_the_engine(results, report_dir):
    """The report reads the game's plug-in object and its report sections, never its engine,
    its strategies, numba or the other game."""
    loaded = loaded_after(
        "from sim.report import build_report\n"
        f"build_report(results_dir={str(results)!r}, report_dir={str(report_dir)!r}, n_boot=20)\n"
    )
    heavy = ("numba", "sim.jit", "sim.compiling", "strategies", "sim.runner", "sim.results",
             "sim.random_streams", "sim.games.guardians")  # fmt: skip
    engine = ("engine", "kernel", "play", "rounds", "board", "advance", "resolve", "dexterity",
              "watch", "scenario", "params")  # fmt: skip
    own = [m.rsplit(".", 1)[1] for m in loaded if m.startswith("sim.games.space_invaders.")]
    assert [m for m in loaded if m.startswith(heavy)] == []
    assert [m for m in own if m in engine] == []


def test_watch_and_sim_play(tmp_path):
    ruleset = GAME.load_ruleset("space-invaders")
    watched = GAME.watch(ruleset, [StrategySpec("planner")] * 2, 4)
    assert watched.text == GAME.watch(ruleset, [StrategySpec("planner")] * 2, 4).text
    assert "landed at" in watched.text and "round 1: seat 1" in watched.text
    page = tmp_path / "game.html"
    result = CliRunner().invoke(
        app,
        [
            "play",
            "--game",
            "space-invaders",
            "--strategies",
            "tactical,naive",
            "--seed",
            "4",
            "--html",
            str(page),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "the invaders advance" in result.output
    assert page.read_text().startswith("<!doctype html>")


def test_scenarios_and_rules_through_the_generic_commands():
    files = sorted(str(p) for p in (ROOT / "tests" / "scenarios" / "space_invaders").glob("*.yaml"))
    result = CliRunner().invoke(app, ["scenario", "check", "--quiet", *files])
    assert result.exit_code == 0, result.output
    assert f"{len(files)} passed, 0 failed" in result.output
    shown = CliRunner().invoke(app, ["rules", "show", "space-invaders", "--game", "space-invaders",
                                     "--set", "setup.level=elite"])  # fmt: skip
    assert shown.exit_code == 0, shown.output
    assert "level: elite" in shown.output and "token_diameter_mm: 20" in shown.output
    listed = CliRunner().invoke(app, ["rules", "list", "--game", "space-invaders"])
    assert "space-invaders-three-rows" in listed.output


def test_sim_bench_prints_the_games_own_rows():
    result = CliRunner().invoke(app, ["bench", "--game", "space-invaders", "--quick", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["rates"]
    assert [r["strategy"] for r in rows] == list(GAME.skills)
    for row in rows:
        assert row["game"] == "space-invaders" and row["players"] == 2
        assert row["games_per_s_per_core"] > 0 and row["launches_per_game"] > 0
    refused = CliRunner().invoke(app, ["bench", "--game", "space-invaders", "--presets", "x"])
    assert refused.exit_code == 2 and "--presets" in refused.output
