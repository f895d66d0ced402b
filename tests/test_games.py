"""One contract over every installed game, and the example games (the toy coin race, Pig,
and the plain-Python Pig and No Thanks!, installed as pip would, tests/examples/installing.py):
the plug-in is found through its entry point and is light to import, declares only the parts
sim/plugins/base.py declares and with their types, plays chunks of games as the columns the
runner and the reports read (the same games however the seeds are chunked), keeps the
contract `sim check` holds it to, and works through the generic commands: an experiment run
and reported, `sim play`, `sim rules`, `sim scenario`, `sim calibrate` along its skill knob,
and a bench row of each lineup its plan names. A game with golden files (tests/goldens.py)
still plays exactly as recorded, and its compiled code plays the same games as its
plain-Python execution."""

from __future__ import annotations

import json
from contextlib import ExitStack
from importlib.metadata import entry_points
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.errors import ConfigError
from sim.plugins import game_names, get_game
from sim.plugins.base import OptionalParts, PackageParts, StrategySpec, part, player_counts
from tests.examples.installing import PACKAGES, installed_env, installed_here
from tests.goldens import GOLDENS, check_playthrough, check_traces, probe, probe_code
from tests.modules import loaded_after
from tests.scenario_files import scenario_files

# the lab's own games: an example installed into the lab's environment (as docs/adding-a-game.md
# has a designer do) is still an example
BUILT_IN = sorted({p.name for p in entry_points(group="sim.games") if p.module.startswith("sim.")})
GAMES = [*BUILT_IN, *(name for name in PACKAGES if name not in BUILT_IN)]
REQUIRED = ("name", "title", "presets", "load_ruleset", "check_strategy", "simulate_chunk")
# a plug-in built on PackageParts also has what it finds its parts with
HELPERS = ("package", "strategies", "resolve")
HEAVY = ("numba", "sim.jit", "sim.compiling", "sim.random_streams")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("site")


@pytest.fixture(params=GAMES)
def game(request, site):
    with ExitStack() as stack:
        for package in PACKAGES.values():
            stack.enter_context(installed_here(site, package))
        yield get_game(request.param)


def _scenario_files(game) -> list[Path]:
    if game.name in PACKAGES:
        return sorted((PACKAGES[game.name] / "scenarios").glob("*.yaml"))
    return scenario_files(game.package.rsplit(".", 1)[1])


def _table(game) -> tuple[list[StrategySpec], int]:
    """A small lineup of the game (its demo, else its ladder) and a number of players."""
    names = (part(game, "demo_lineup") or ",".join(game.skills[:2])).split(",")
    players = len(names) if len(names) in player_counts(game) else min(player_counts(game))
    return [StrategySpec(name) for name in dict.fromkeys(names)], players


def test_the_game_is_installed_and_light_to_import(game, site):
    assert game.name in game_names()
    package = type(game).__module__.rsplit(".", 1)[0]
    env = installed_env(site, PACKAGES[game.name]) if game.name in PACKAGES else None
    loaded = loaded_after(
        "from sim.plugins import get_game\n"
        f"game = get_game({game.name!r})\n"
        "game.load_ruleset(game.presets[0]); game.report(); game.strategy_names()\n"
        "game.skills; getattr(game, 'skill_knob', None); getattr(game, 'skill_points', None)\n",
        env=env,
    )
    assert [m for m in loaded if m.startswith(HEAVY)] == []
    # of the players, only the plain data: the ladder and the registry of names
    players = [m for m in loaded if m.startswith("strategies.") and m.count(".") > 1]
    assert all(m.rsplit(".", 1)[1] in ("ladder", "registry") for m in players), players
    engine = [f"{package}.{m}" for m in ("chunks", "kernel", "engine", "watch", "scenario")]
    assert [m for m in loaded if m in engine] == []


def test_the_plugin_declares_only_declared_parts(game):
    own = {name for cls in type(game).__mro__ if cls not in (OptionalParts, PackageParts, object)
           for name in vars(cls) if not name.startswith("_")}  # fmt: skip
    declared = {*REQUIRED, *vars(OptionalParts), *HELPERS}
    assert own <= declared, f"undeclared parts: {sorted(own - declared)}"
    assert isinstance(game.title, str) and game.title
    assert game.presets and all(isinstance(p, str) for p in game.presets)
    assert isinstance(part(game, "version"), int) and part(game, "version") >= 1
    counts = player_counts(game)
    assert list(counts) == sorted(counts) and counts[0] >= 1
    outcomes = part(game, "outcomes")
    assert outcomes is None or all(isinstance(o, str) for o in outcomes)
    for preset in game.presets:
        assert game.load_ruleset(preset).name == preset


def test_preset_names_are_unique_across_games(game):
    for other in GAMES:
        if other != game.name:
            assert not set(game.presets) & set(get_game(other).presets), other


def test_every_rule_key_has_its_plain_name(game):
    """Reports, tunes and compare pages say a rule key by its plain name, given on the key's
    schema line; a key without one would show as itself in a sentence."""
    schema = game.load_ruleset(game.presets[0]).family.schema
    assert len(schema) > (10 if game.name in BUILT_IN else 2)
    assert [key for key, field in schema.items() if not field.plain] == []


def test_the_ladder_and_its_knob(game):
    names = set(part(game, "strategy_names")())
    assert set(game.skills) <= names
    for name in game.skills:
        game.check_strategy(StrategySpec(name), source="test")
    knob, points = part(game, "skill_knob"), dict(part(game, "skill_points"))
    if knob is None:
        assert not points
        return
    for skill in (0.0, 1.0):
        game.check_strategy(StrategySpec(knob[0], ((knob[1], skill),)), source="test")
    assert set(points) <= set(game.skills)
    along = [points[name] for name in game.skills if name in points]
    assert along == sorted(along) and all(0.0 <= s <= 1.0 for s in along)


def test_a_point_on_the_knob_plays_its_levels_games(game, monkeypatch):
    """The ladder's levels that are points on the continuous skill play exactly the games of
    the knob at that point (the same state after every turn, for a compiled game)."""
    knob, points = part(game, "skill_knob"), dict(part(game, "skill_points"))
    if not points:
        pytest.skip(f"{game.name} has no continuous skill")
    _cheap_search(game, monkeypatch)
    players, ruleset = min(player_counts(game)), game.load_ruleset(game.presets[0])
    trace = {"trace": True} if part(game, "compile_jobs") is not None else {}
    seats, seeds = np.zeros((12, players), np.int64), np.arange(12)

    def games(spec: StrategySpec) -> dict:
        return game.simulate_chunk(ruleset, players, [spec], seats, seeds, **trace).games

    for level, skill in points.items():
        at_level = games(StrategySpec(level))
        on_knob = games(StrategySpec(knob[0], ((knob[1], skill),)))
        assert at_level.keys() == on_knob.keys()
        for column, values in at_level.items():
            assert np.array_equal(values, on_knob[column]), (level, column)


def test_chunks_have_the_framework_columns_and_do_not_depend_on_the_chunking(game):
    lineup, players = _table(game)
    ruleset = game.load_ruleset(game.presets[0])
    seeds = np.arange(10, 16)
    seats = (np.arange(players)[None, :] + np.arange(6)[:, None]) % len(lineup)
    whole = game.simulate_chunk(ruleset, players, lineup, seats, seeds)
    halves = [game.simulate_chunk(ruleset, players, lineup, seats[k : k + 3], seeds[k : k + 3])
              for k in (0, 3)]  # fmt: skip
    outcomes = part(game, "outcomes")
    assert outcomes is None or set(whole.games["outcome"]) <= set(outcomes)
    for column in ("seat", "strategy", "score", "win_share"):
        assert len(whole.seats[column]) == 6 * players, column
    assert (np.asarray(whole.seats["win_share"]).reshape(6, players).sum(axis=1) <= 1 + 1e-9).all()
    labels = {spec.label for spec in lineup}
    assert set(whole.seats["strategy"]) <= labels
    for table in ("games", "seats"):
        for column, values in getattr(whole, table).items():
            joined = np.concatenate([getattr(h, table)[column] for h in halves])
            assert np.array_equal(np.asarray(values), joined), f"{table}.{column}"


def _cheap_search(game, monkeypatch) -> None:
    """A plain-Python game's knob is the generic search's budget, up to the game's top (a
    thousand simulations a decision): here the top is 20, the knob's mechanics the same."""
    from sim.plain.plugin import plain_game

    if (plain := plain_game(game)) is not None:
        monkeypatch.setattr(plain, "search_budget", 20)


def test_an_unknown_strategy_is_refused_with_the_nearest_name(game):
    name = game.skills[-1] if game.skills else part(game, "strategy_names")()[0]
    with pytest.raises(ConfigError, match=f"Did you mean '{name}'"):
        game.check_strategy(StrategySpec(name + "x"), source="x.yaml")


def test_prepare_compiles_what_the_chunks_play(game):
    compile_jobs = part(game, "compile_jobs")
    if compile_jobs is None:
        pytest.skip(f"{game.name} compiles nothing")
    lineup, _ = _table(game)
    game.prepare(lineup, notice=None)
    assert all(unit.is_cached() for job in compile_jobs(lineup) for unit in job)


def test_an_experiment_runs_and_is_reported(game, tmp_path):
    from sim.experiment import parse_experiment
    from sim.report import build_report
    from sim.runner import run

    lineup, players = _table(game)
    seats = [lineup[k % len(lineup)].name for k in range(players)]
    exp = parse_experiment({"name": "contract", "game": game.name, "players": players,
                            "seats": seats, "games": 30, "seed": 2})  # fmt: skip
    summary = run(exp, out=tmp_path / "results", jobs=1, progress=False)
    assert summary.games_stored == 30
    index = build_report(results_dir=tmp_path / "results", report_dir=tmp_path / "report")
    assert Path(index).read_text().startswith("<!")


def test_sim_play_tells_the_game_of_a_seed(game, tmp_path):
    lineup, players = _table(game)
    names = ",".join([lineup[k % len(lineup)].name for k in range(players)])
    args = ["play", "--game", game.name, "--strategies", names, "--seed", "5"]
    first = CliRunner().invoke(app, [*args, "--html", str(tmp_path / "game.html")])
    again = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    assert again.output in first.output and len(again.output) > 100
    assert (tmp_path / "game.html").read_text().lower().startswith("<!doctype html>")


def test_rules_and_scenarios_through_the_generic_commands(game, tmp_path):
    for preset in game.presets:  # a preset names its game: no --game
        shown = CliRunner().invoke(app, ["rules", "show", preset])
        assert shown.exit_code == 0, shown.output
        assert shown.output.startswith(f"name: {preset}\n")
        # with each key's comment, the text loads back to the same rules
        copy = tmp_path / f"{preset}.yaml"
        copy.write_text(shown.output)
        assert game.load_ruleset(str(copy)).values == game.load_ruleset(preset).values
    listed = CliRunner().invoke(app, ["games", game.name])
    assert listed.exit_code == 0, listed.output
    assert all(preset in listed.output for preset in game.presets)
    assert all(section in listed.output for section in part(game, "report_sections"))
    listed = CliRunner().invoke(app, ["rules", "list", "--game", game.name])
    assert all(preset in listed.output for preset in game.presets)
    files = [str(f) for f in _scenario_files(game)]
    assert files, f"{game.name} has no scenario files"
    checked = CliRunner().invoke(app, ["scenario", "check", "--quiet", *files])
    assert checked.exit_code == 0, checked.output
    assert f"{len(files)} passed, 0 failed" in checked.output


def test_calibrate_finds_a_skill_between_the_ends_of_the_knob(game, monkeypatch):
    from sim.lab.calibrate import calibrate, describe
    from sim.seeds import game_seeds, root_keys

    knob = part(game, "skill_knob")
    if knob is None:
        pytest.skip(f"{game.name} has no continuous skill")
    _cheap_search(game, monkeypatch)
    # a plain game's search plays every seat: fewer games (calibrate's floor is 10)
    compiled = part(game, "compile_jobs") is not None
    players, games = min(player_counts(game)), 40 if compiled else 16
    seeds = game_seeds(root_keys(0), 0, games)  # calibrate's games: the target lies between
    ends = [game.simulate_chunk(game.load_ruleset(game.presets[0]), players,
                            [StrategySpec(knob[0], ((knob[1], s),))],
                            np.zeros((games, players), np.int64), seeds).games
            for s in (0.0, 1.0)]  # fmt: skip
    column = max(  # the per-game column that moves most along the knob
        (c for c in ends[0] if ends[0][c].dtype.kind in "iuf" and c not in ("trace_hash",)),
        key=lambda c: (
            abs(float(np.mean(ends[1][c]) - np.mean(ends[0][c])))
            / (float(np.std(ends[0][c])) + 1e-9)
        ),
    )
    middle = float(np.mean(ends[0][column]) + np.mean(ends[1][column])) / 2
    cal = calibrate(players=players, target=f"{column}={middle}", game=game.name, games=games,
                    seed=0, grid=5, refine=2)  # fmt: skip
    assert 0.0 <= cal.low <= cal.skill <= cal.high <= 1.0, cal
    assert cal.ladder == dict(part(game, "skill_points"))
    # the answer says how to seat the skill found, as an experiment reads it
    assert f"seats: [{cal.seat}" in describe(cal)
    game.check_strategy(StrategySpec(knob[0], ((knob[1], round(cal.skill, 3)),)),
                        source="calibrate")  # fmt: skip


def test_every_lineup_of_the_bench_plan_is_timed(game):
    from sim.bench import Table, strategy_rate

    plan = part(game, "bench_plan")
    assert plan.players in player_counts(game)
    table = Table(game.name, game.presets[0], plan.players,
                  tuple(sorted(plan.rules.items())))  # fmt: skip
    rows = {name: (name,) for name in game.skills[:1]} | dict(plan.lineups)
    for label, names in rows.items():
        row = strategy_rate(table, names, games=4, repeats=1, label=label, counted=plan.counted)
        assert row["strategy"] == label and row["games_per_s_per_core"] > 0
        assert all(row[f"{c}_per_game"] > 0 for c in plan.counted)


def test_the_game_keeps_the_contract_sim_check_holds_it_to(game):
    from sim.contract import check_game, describe

    contract = check_game(game.name, games=20, seed=100)
    assert contract.ok, describe(contract)
    assert contract.passed


# --- golden files ---------------------------------------------------------------------------

RECORDED = [(name, stem) for name, make in GOLDENS.items() for stem in make().playthroughs()]


@pytest.mark.parametrize("name", list(GOLDENS))
def test_golden_traces_are_unchanged(name):
    check_traces(GOLDENS[name]())


@pytest.mark.parametrize(("name", "stem"), RECORDED)
def test_golden_playthroughs_are_unchanged(name, stem):
    """The recorded game, turn by turn; a change shows the first turn that differs."""
    golden = GOLDENS[name]()
    recorded = golden.playthrough_file(stem).read_text()
    check_playthrough(f"{name}/{stem}", recorded, golden.played(stem), golden.turn)


@pytest.mark.parametrize("name", list(GOLDENS))
def test_compiled_and_plain_python_play_the_same_games(name):
    code = probe_code(GOLDENS[name]())
    plain, compiled = probe(code, disable_jit=True), probe(code, disable_jit=False)
    assert plain == compiled
    assert all(len(set(hashes)) == len(hashes) for hashes in plain)


def test_every_game_with_a_compiled_engine_has_golden_files():
    compiled = [n for n in BUILT_IN if part(get_game(n), "compile_jobs") is not None]
    assert sorted(GOLDENS) == compiled
    for name in GOLDENS:
        assert json.loads(GOLDENS[name]().traces_file.read_text())["traces"]
