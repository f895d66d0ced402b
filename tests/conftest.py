"""Shared pytest helpers: the slow-test scale, the browser-test guard, one compile of the
game engine before pytest-xdist's workers start, the workers' scheduler (a module's shared
fixture built once), and no time limit on hypothesis examples."""

from __future__ import annotations

import functools
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]

# hypothesis fails an example slower than 200 ms by default: a timing assertion, which the
# shared 2-core machine and CI break at random (tests never assert on timing)
settings.register_profile("lab", deadline=None)
settings.load_profile("lab")


def slow_scale() -> float:
    """Factor for the size of slow statistical runs (SIM_SLOW_SCALE, default 1).

    `make test` and CI set SIM_SLOW_SCALE=0.1 so slow tests run slimmed; a slow test
    multiplies its game count by this (and keeps a sensible floor of its own).
    """
    return float(os.environ.get("SIM_SLOW_SCALE", "1"))


@pytest.fixture(name="slow_scale")
def _slow_scale_fixture() -> float:
    """The same factor as `slow_scale()`, as a fixture."""
    return slow_scale()


def chromium_path() -> str | None:
    """Path of a chromium binary on PATH, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def on_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def axe_core_path() -> Path | None:
    """axe-core's axe.min.js as `make test` installs it (or $AXE_CORE_JS), or None."""
    for candidate in (
        os.environ.get("AXE_CORE_JS"),
        ROOT / ".venv" / "node" / "node_modules" / "axe-core" / "axe.min.js",
    ):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def require_axe_core() -> Path:
    """axe.min.js, or skip (on a developer's machine) / fail (on CI, where `make test` installs
    it with npm)."""
    found = axe_core_path()
    if found is None:
        message = "axe-core not found (make axe; needs npm)"
        if on_ci():
            pytest.fail(message)
        pytest.skip(message)
    return found


LONG = ("slow", "browser")  # the marks of the suite's longest tests


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _long_modules_first(items)
    # Without chromium, browser tests are skipped on a developer's machine; on CI
    # (CI=true, where .ci/run installs chromium) they run and fail loudly instead.
    if chromium_path() is not None or on_ci():
        return
    skip = pytest.mark.skip(reason="chromium not found (apt-get install chromium)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def _long_modules_first(items: list[pytest.Item]) -> None:
    """The modules holding a slow or browser test run first (each module's tests together
    and in their order), so that two workers do not end on one long test while the other
    waits: the short tests fill in at the end."""

    def module(item: pytest.Item) -> str:
        return item.nodeid.split("::")[0]

    long = {module(item) for item in items if any(mark in item.keywords for mark in LONG)}
    items.sort(key=lambda item: module(item) not in long)


@pytest.hookimpl(optionalhook=True)  # xdist's hook: without xdist, never called
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With workers (`pytest -n`, default distribution): the tests of a module that defines a
    module-scoped fixture (a played run, built reports) go to one worker, so that the fixture
    is built once, not in each worker that gets some of them; every other test is handed out
    alone, as xdist's `load` does. (xdist's own `loadgroup` marks do not group under pytest 9:
    it renames `item._nodeid`, which pytest no longer reads.)"""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    # Hand the work out in collection order (the long modules first), not xdist's largest
    # group of tests first: that put the three long coverage tests (one module, few tests)
    # on one worker at the end, with the other idle for 19 s.
    config.option.loadscopereorder = False

    class ModuleFixtureScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::")[0]
            return module if _defines_module_fixture(module) else nodeid

    return ModuleFixtureScheduling(config, log)


@functools.cache
def _defines_module_fixture(module: str) -> bool:
    path = ROOT / module
    return path.is_file() and 'scope="module"' in path.read_text(encoding="utf-8")


def pytest_configure(config: pytest.Config) -> None:
    # With workers (pytest -n), compile every game's engine and built-in strategies once, here
    # in the controller and in parallel, so that each worker loads them from the cache instead
    # of compiling them again. A serial run compiles what its tests use, when they use it.
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    from sim.games import game_names, get_game
    from sim.games.base import StrategySpec, prepare_together

    wanted = []
    for name in game_names():
        game = get_game(name)
        names = dict.fromkeys(game.strategy_names())  # a ladder may name a strategy again
        wanted.append((game, [StrategySpec(strategy) for strategy in names]))
        # a loop sized for a few strategies too, as most tests' lineups are (a unit listed
        # twice compiles once)
        wanted.append((game, [StrategySpec(next(iter(names)))]))
    prepare_together(wanted)
