"""Compiling alien-raid: each policy is cached under the key the loop's pointer asks for, so a
new process (a run's worker, a test session's worker) loads every policy and compiles none."""

from sim.compiling import quiet_notice
from sim.games.alien_raid.chunks import Plan
from sim.games.alien_raid.decision import POLICY_TYPE
from sim.plugins import get_game
from sim.plugins.base import StrategySpec
from tests.goldens import COMPILES_HEAD, probe

GAME = get_game("alien-raid")
EVERY = [StrategySpec(name) for name in dict.fromkeys(GAME.strategy_names())]


def test_each_policy_is_cached_under_the_key_the_loop_asks_for():
    """numba keys cached machine code by the signature exactly as given, and the loop's call
    through a pointer asks for the whole signature (return type included): a policy cached
    under its argument types alone was compiled again by every new process that played."""
    GAME.prepare(EVERY, notice=quiet_notice)
    jobs = Plan(GAME.ready(EVERY)).compile_jobs()
    policies = [u for job in jobs for u in job if u.signature == POLICY_TYPE.signature]
    assert {u.module for u in policies} >= {f"strategies.alien_raid.{s.name}" for s in EVERY}
    for unit in policies:
        dispatcher = unit.dispatcher()
        cache = dispatcher._cache
        key = cache._index_key(POLICY_TYPE.signature, dispatcher.targetctx.codegen())
        assert key in cache._cache_file._load_index(), unit.module


# a new process: prepare every built-in (all cached by then), then play with a listener
FRESH_PROCESS = (
    COMPILES_HEAD
    + """
game = get_game("alien-raid")
lineup = [StrategySpec(name) for name in dict.fromkeys(game.strategy_names())]
game.prepare(lineup)
with event.install_listener("numba:compile", Compiles()):
    rules = game.load_ruleset("alien-raid")
    game.simulate_chunk(rules, 3, lineup, np.array([[0, 1, 2], [3, 4, 5]]), np.arange(2))
print(json.dumps(compiled))
"""
)


def test_a_new_process_finds_everything_in_the_cache():
    """What a run's workers do: load, never compile."""
    GAME.prepare(EVERY, notice=quiet_notice)
    assert probe(FRESH_PROCESS, disable_jit=False) == []
