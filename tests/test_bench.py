"""The benchmark's pieces run and report the figures the JSON promises (no timing asserted)."""

from sim.bench import Bench, machine, strategy_rate, table


def test_strategy_rate_reports_per_core_figures():
    rate = strategy_rate("guardians", "greedy", games=40, repeats=2)
    assert rate["games"] == 40 and rate["repeats"] == 2
    assert rate["turns_per_s_per_core"] > 0 and rate["games_per_s_per_core"] > 0
    assert rate["turns_per_game"] > 10  # whole games were played


def test_bench_json_and_table_name_every_rate():
    bench = Bench(machine=machine(), rates=[strategy_rate("guardians", "random", games=20,
                                                          repeats=1)])  # fmt: skip
    data = bench.as_dict()
    assert set(data["turns_per_s_per_core"]) == {"guardians/random"}
    assert data["machine"]["cores"] >= 1
    assert "guardians" in table(bench)


def test_a_plain_python_strategy_is_timed_under_its_label():
    from sim.bench import BENCH_GAME
    from sim.games import get_game

    label, spec = get_game(BENCH_GAME).bench_python[0]
    rate = strategy_rate("guardians", spec, games=4, repeats=1, label=label)
    assert rate["strategy"] == "python-user"
    assert rate["games_per_s_per_core"] > 0 and rate["turns_per_game"] > 10


def test_scaling_pairs_one_and_two_workers_on_the_same_games():
    from sim.bench import scaling

    out = scaling(games=400, pairs=2)
    assert out["pairs"] == 2 and out["one_worker_s"] > 0 and out["two_workers_s"] > 0
    low, high = out["speedup_range"]
    assert low <= out["speedup_2_workers"] <= high
