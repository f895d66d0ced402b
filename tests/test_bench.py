"""The benchmark's pieces run and report the figures the JSON promises (no timing asserted);
`sim bench` measures any game through its plug-in's bench plan."""

import json

from typer.testing import CliRunner

from sim.bench import Bench, Table, machine, scaling, strategy_rate, table
from sim.cli import app

GUARDIANS = Table("guardians", "guardians", 4)


def test_strategy_rate_reports_per_core_figures():
    rate = strategy_rate(GUARDIANS, ["greedy"], games=40, repeats=2, counted=["turns"])
    assert rate["games"] == 40 and rate["repeats"] == 2
    assert rate["turns_per_s_per_core"] > 0 and rate["games_per_s_per_core"] > 0
    assert rate["games_per_cpu_s"] > 0
    assert rate["turns_per_game"] > 10  # whole games were played


def test_bench_json_and_table_name_every_rate():
    rate = strategy_rate(GUARDIANS, ["random"], games=20, repeats=1, counted=["turns"])
    bench = Bench(machine=machine(), rates=[rate], counted=("turns",))
    data = bench.as_dict()
    assert set(data["turns_per_s_per_core"]) == {"guardians/random"}
    assert data["machine"]["cores"] >= 1
    assert "guardians" in table(bench) and "turns/s/core" in table(bench)


def test_a_lineup_alternates_seats_under_its_label():
    pool = Table("alien-raid", "alien-raid", 4)
    rate = strategy_rate(pool, ["naive", "random"], games=6, repeats=1, label="naive pool")
    assert rate["strategy"] == "naive pool" and rate["game"] == "alien-raid"
    python = strategy_rate(GUARDIANS, ["strategies.guardians.examples:Sniper"], games=4,
                           repeats=1, label="python-user", counted=["turns"])  # fmt: skip
    assert python["strategy"] == "python-user" and python["turns_per_game"] > 10


def test_scaling_pairs_one_and_two_workers_on_the_same_games():
    out = scaling(GUARDIANS, ["greedy"], games=400, pairs=2)
    assert out["pairs"] == 2 and out["one_worker_s"] > 0 and out["two_workers_s"] > 0
    low, high = out["speedup_range"]
    assert low <= out["speedup_2_workers"] <= high


def test_sim_bench_measures_the_game_a_preset_names(monkeypatch):
    """`sim bench` of another game: its plan's players and strategies, the game found from
    a preset without --game (the scaling, the slow part, left out here)."""
    from sim import bench

    monkeypatch.setattr(bench, "scaling", lambda *args, **kw: {"stubbed": True})
    result = CliRunner().invoke(app, ["bench", "--quick", "--json", "--presets", "space-invaders",
                                      "--strategies", "naive"])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [(r["game"], r["strategy"], r["players"]) for r in data["rates"]] == [
        ("space-invaders", "naive", 2)
    ]
    assert data["rates"][0]["launches_per_game"] > 0
    assert set(data["launches_per_s_per_core"]) == {"space-invaders/naive"}


def test_without_strategies_the_bench_rates_every_strategy_and_the_plan_lineups(monkeypatch):
    """What a bench plays, its rates and the scaling left out (tests/examples/test_pig_plugin.py
    runs `sim bench` with its engine rows)."""
    from sim import bench
    from sim.plugins import get_game
    from sim.plugins.base import strategy_names

    played = []

    def rate(table, lineup, **kw):
        played.append((kw["label"], tuple(lineup)))

    monkeypatch.setattr(bench, "scaling", lambda *args, **kw: {"stubbed": True})
    monkeypatch.setattr(bench, "strategy_rate", rate)
    bench.run_bench("guardians", quick=True)
    game = get_game("guardians")
    names = list(strategy_names(game))
    lineups = [(label, tuple(seats)) for label, seats in game.bench_plan.lineups.items()]
    assert played == [(name, (name,)) for name in names] + lineups
    assert {"greedy", "master"} <= set(names) and len(lineups) == 2
