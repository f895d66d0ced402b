"""A run compiles what its lineup needs, before the first game, and nothing while playing."""

import numpy as np
from numba.core import event

from sim.compiling import quiet_notice
from sim.games.guardians.chunks import Plan
from sim.plugins import get_game
from sim.plugins.base import StrategySpec

GAME = get_game("guardians")


def test_a_lineup_compiles_only_its_own_policies():
    jobs = Plan(GAME.ready([StrategySpec("greedy"), StrategySpec("economist")])).compile_jobs()
    policies = {u.module for job in jobs for u in job if u.name == "policy"}
    assert policies == {"strategies.guardians.greedy", "strategies.guardians.economist"}
    loop = {u.module for job in jobs for u in job if u.name != "policy"}
    assert not any(module.startswith("strategies.") for module in loop)


def test_policies_compile_for_the_signature_their_pointer_asks_for():
    """numba caches a full signature apart from its argument tuple (see
    tests/test_compile_cache.py): a policy compiled for the tuple would compile again in every
    fresh process that calls the loop."""
    from sim.games.guardians.decision import POLICY_SIGNATURE

    jobs = Plan(GAME.ready([StrategySpec("greedy")])).compile_jobs()
    assert [u.signature for job in jobs for u in job if u.name == "policy"] == [POLICY_SIGNATURE]


class _Compiles(event.Listener):
    def __init__(self):
        self.names = []

    def on_start(self, ev):
        self.names.append(ev.data["dispatcher"].py_func.__qualname__)

    def on_end(self, ev):
        pass


def test_after_prepare_playing_compiles_nothing():
    """The units prepare() compiles carry the very signatures the loop calls them with; a
    mismatch would compile again mid-run (in every worker)."""
    lineup = [StrategySpec("random"), StrategySpec("greedy")]
    GAME.prepare(lineup, notice=quiet_notice)
    listener = _Compiles()
    with event.install_listener("numba:compile", listener):
        rules = GAME.load_ruleset("guardians-advanced")
        seats = np.array([[0, 1, 1], [1, 0, 1]])
        chunk = GAME.simulate_chunk(rules, 3, lineup, seats, np.arange(2), trace=True)
    assert chunk.errors == []
    assert listener.names == []


def test_a_run_says_it_compiles_and_counts_play_only(tmp_path, monkeypatch):
    import time

    from typer.testing import CliRunner

    from sim.cli import app

    real_clock, skipped = time.perf_counter, [0.0]
    monkeypatch.setattr(time, "perf_counter", lambda: real_clock() + skipped[0])

    def slow_prepare(lineup, *, notice):
        with notice(", ".join(spec.name for spec in lineup)):
            skipped[0] += 1000.0  # the clock jumps as if compiling took 1,000 s
        return 1000.0

    monkeypatch.setattr(GAME, "prepare", slow_prepare, raising=False)
    exp = tmp_path / "exp.yaml"
    exp.write_text("name: tiny\nseats: [greedy, random]\nplayers: 2\ngames: 50\n")
    result = CliRunner().invoke(app, ["run", str(exp), "--jobs", "1", "--no-report",
                                      "--out", str(tmp_path / "out")])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "compiling the game engine for greedy, random (first run only)" in result.output
    played = next(line for line in result.output.splitlines() if line.startswith("played"))
    seconds = float(played.split(" in ")[1].split(" s ")[0])
    assert seconds < 1000 and played.endswith("after 1000 s compiling")


def test_games_prepared_together_share_one_compile(monkeypatch):
    """The test session compiles every game's built-ins in one go: the games' jobs are taken
    in turn (each game's longest first); a game without compile_jobs prepares on its own."""
    import sim.compiling
    from sim.plugins.base import prepare_together

    given = []

    def compile_all(jobs, *, what, notice=None):
        given.append((jobs, what))
        return 1.0

    monkeypatch.setattr(sim.compiling, "ensure_compiled", compile_all)

    class Jobs:
        def __init__(self, name, jobs):
            self.name, self._jobs = name, jobs

        def compile_jobs(self, lineup):
            return self._jobs

    class Alone:
        name = "alone"
        prepared = []

        def prepare(self, lineup, *, notice=None):
            self.prepared.append(lineup)
            return 2.0

    alone = Alone()
    seconds = prepare_together([(Jobs("a", ["a1", "a2", "a3"]), []), (alone, ["x"]),
                                (Jobs("b", ["b1"]), [])])  # fmt: skip
    assert given == [(["a1", "b1", "a2", "a3"], "a, b")]
    assert alone.prepared == [["x"]] and seconds == 3.0


class _Fake:
    """A unit of sim.compiling's plan: hashable, cached or not."""

    def __init__(self, name, cached=False):
        self.name, self.cached = name, cached

    def is_cached(self):
        return self.cached

    def __repr__(self):
        return self.name


def test_a_unit_several_jobs_name_compiles_in_the_first_and_the_others_wait_for_it():
    """numba compiles a callee into every process that compiles a caller before the callee is
    cached: a job naming a unit an earlier job compiles waits for that job, then loads it."""
    from sim.compiling import _plan

    a, b, c, d, e = (_Fake(n) for n in "abcde")
    done = _Fake("done", cached=True)
    todo, waits = _plan([[a, b], [a, c], [d, done], [c, e], [a, b], [done]])
    assert todo == [[a, b], [c], [d], [e]]  # a job all compiled elsewhere or cached: dropped
    assert waits == [set(), {0}, set(), {1}]


def test_a_job_is_handed_out_once_the_jobs_it_waits_for_are_done():
    import threading

    from sim.compiling import _Queue

    queue = _Queue([["a"], ["b"], ["c"]], [set(), {0}, set()])
    assert queue.take() == 0
    assert queue.take() == 2  # job 1 waits for job 0: the next one that is ready comes first
    taken = []
    waiting = threading.Thread(target=lambda: taken.append(queue.take()))
    waiting.start()
    waiting.join(0.2)
    assert waiting.is_alive() and taken == []  # nothing ready: it waits
    queue.finish(0)
    waiting.join(10)
    assert taken == [1]
    assert queue.take() is None


def test_a_policy_compiles_after_the_policies_of_the_lineup_it_builds_on():
    """The master calls the expert's shortlist and plays skilled seats in its search: with
    them in the lineup, its job names their policies first (sim.compiling: it waits for them
    and loads what they compiled); without them, it compiles on its own."""

    def policy_jobs(*names):
        jobs = Plan(GAME.ready([StrategySpec(name) for name in names])).compile_jobs()
        return [
            [u.module.rpartition(".")[2] for u in job] for job in jobs if job[-1].name == "policy"
        ]

    assert policy_jobs("expert", "greedy", "master") == [["expert"], ["greedy"],
                                                        ["expert", "master"]]  # fmt: skip
    assert policy_jobs("master", "skilled") == [["skilled", "master"], ["skilled"]]
    assert policy_jobs("master", "greedy") == [["master"], ["greedy"]]


def test_a_strategy_builds_on_built_ins_of_its_game():
    from importlib import import_module

    from sim.plugins import game_names, get_game

    for name in game_names():
        game = get_game(name)
        if not hasattr(game, "ready"):
            continue
        players = game.ready([StrategySpec(s) for s in dict.fromkeys(game.strategy_names())])
        bases = {p.strategy.policy_source: getattr(p.strategy, "builds_on", ()) for p in players}
        for source, built_on in bases.items():
            for module, attribute in built_on:
                assert getattr(import_module(module), attribute).py_func, (name, module)
            # no circle: the policy jobs put a policy's bases before it, and would never end
            seen, todo = set(), list(built_on)
            while todo:
                base = todo.pop()
                assert base != source, (name, source, "builds on itself")
                if base not in seen:
                    seen.add(base)
                    todo.extend(bases.get(base, ()))
