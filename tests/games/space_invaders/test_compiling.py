"""Compiling Space Invaders: the loop is compiled once and reaches no strategy; a run compiles
only the policies its seats use, each on its own; after prepare, playing (and watching a game)
compiles nothing."""

import numpy as np
from numba.core import event

import sim.games.space_invaders.kernel as kernel
from sim.compile_cache import dependencies
from sim.compiling import quiet_notice
from sim.games.space_invaders.chunks import Plan
from sim.plugins import get_game
from sim.plugins.base import StrategySpec
from tests.goldens import COMPILES_HEAD, probe
from tests.test_compiling import _Compiles

GAME = get_game("space-invaders")


def _policies(jobs) -> set[str]:
    return {u.module for job in jobs for u in job if u.name == "policy"}


def test_a_lineup_compiles_only_its_own_policies():
    jobs = Plan(GAME.ready([StrategySpec("naive")])).compile_jobs()
    assert _policies(jobs) == {"strategies.space_invaders.naive"}
    loop = {u.module for job in jobs for u in job if u.name != "policy"}
    assert loop and not any(module.startswith("strategies.") for module in loop)
    every = Plan(GAME.ready([StrategySpec(name) for name in GAME.strategy_names()]))
    assert _policies(every.compile_jobs()) == {
        f"strategies.space_invaders.{name}" for name in ("naive", "tactical", "planner", "skilled")
    }


def test_seats_of_one_strategy_share_its_policy_whatever_their_parameters():
    plan = Plan(GAME.ready([StrategySpec("tactical"), StrategySpec("naive"),
                            StrategySpec("tactical", (("spread_scale", 1.5),))]))  # fmt: skip
    assert plan.which.tolist() == [0, 1, 0]
    assert plan.params[:, 0].tolist() == [1.0, 1.0, 1.5]
    assert len(plan.padded(plan.slots)) == plan.slots == 4  # padded: one loop serves up to 4


def test_each_policy_is_cached_under_the_key_the_loop_asks_for():
    """numba keys cached machine code by the signature exactly as given, and the loop's call
    through a pointer asks for the whole signature (return type included): a policy cached
    under its argument types alone would be compiled again by every new process."""
    from sim.games.space_invaders.decision import POLICY_TYPE

    lineup = [StrategySpec(name) for name in GAME.strategy_names()]
    GAME.prepare(lineup, notice=quiet_notice)
    jobs = Plan(GAME.ready(lineup)).compile_jobs()
    for unit in (u for job in jobs for u in job if u.name == "policy"):
        dispatcher = unit.dispatcher()
        cache = dispatcher._cache
        key = cache._index_key(POLICY_TYPE.signature, dispatcher.targetctx.codegen())
        assert key in cache._cache_file._load_index(), unit.module


def test_the_loop_reaches_no_strategy_and_a_policy_no_other_policy():
    """The cache stamps a function by every project file its module imports: the loop's
    machine code must not depend on a strategy, nor one policy's on another's."""
    loop = [p.as_posix() for p in dependencies(kernel.__file__)]
    assert not any("/strategies/" in p for p in loop)
    assert any(p.endswith("space_invaders/decision.py") for p in loop)
    from strategies.space_invaders import naive

    naive_deps = [p.name for p in dependencies(naive.__file__)]
    assert "tactical.py" not in naive_deps and "planner.py" not in naive_deps


def test_after_prepare_playing_and_watching_compile_nothing():
    """prepare() of every built-in (what tests/conftest.py warms) compiles units with the very
    signatures the loop and the watch view call them with; a mismatch would compile again
    mid-run (in every worker)."""
    lineup = [StrategySpec(name) for name in GAME.strategy_names()]
    GAME.prepare(lineup, notice=quiet_notice)
    listener = _Compiles()
    with event.install_listener("numba:compile", listener):
        rules = GAME.load_ruleset("space-invaders", {"setup.level": "expert"})
        seats = np.array([[0, 1, 2], [2, 1, 0]])
        chunk = GAME.simulate_chunk(rules, 3, lineup, seats, np.arange(2), trace=True)
        watched = GAME.watch(rules, lineup[:2], 3)
    assert chunk.errors == []
    assert "landed at" in watched.text
    assert listener.names == []


# a new process: prepare every built-in (all cached by then), then play with a listener
FRESH_PROCESS = (
    COMPILES_HEAD
    + """
game = get_game("space-invaders")
lineup = [StrategySpec(name) for name in game.strategy_names()]
game.prepare(lineup)
with event.install_listener("numba:compile", Compiles()):
    rules = game.load_ruleset("space-invaders")
    game.simulate_chunk(rules, 3, lineup, np.array([[0, 1, 2]]), np.arange(1))
print(json.dumps(compiled))
"""
)


def test_a_new_process_finds_everything_in_the_cache():
    """What a run's workers do: load, never compile. (numba keys cached code by the signature
    as given: a policy compiled for its argument types alone would be compiled again when the
    loop asks for it through its pointer, with the return type, in every new process.)"""
    GAME.prepare([StrategySpec(name) for name in GAME.strategy_names()], notice=quiet_notice)
    assert probe(FRESH_PROCESS, disable_jit=False) == []


def test_the_bench_times_a_first_game_in_a_new_process():
    """`sim bench --game space-invaders` (full) times a new process's first game on an empty
    and on a filled cache; here on the filled one, where it must run and load."""
    from sim.bench import Table, first_game_seconds
    from sim.compile_cache import cache_dir

    GAME.prepare([StrategySpec("naive")], notice=quiet_notice)
    table = Table("space-invaders", "space-invaders", 2)
    assert first_game_seconds(table, ["naive"], str(cache_dir())) > 0
