"""Shared pytest helpers: the slow-test scale, the browser-test guard, one compile of the
game engines while pytest-xdist's workers run the tests that need none, the workers' scheduler
(a module's shared fixture built once), and no time limit on hypothesis examples."""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import sys
import tempfile
import threading
import time
import traceback
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


@pytest.fixture(scope="session")
def shipped_pages() -> dict[str, Path]:
    """Shipped experiments' pages this process played as tests/shipped.py plays them, by name:
    the README walk adds those its commands play (tests/test_readme.py), the shipped pages'
    check reads them instead of playing them again (the scheduler below keeps the two modules
    on one worker, in that order)."""
    return {}


LONG = ("slow", "browser")  # the marks of the suite's longest tests


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _in_running_order(items)
    # Without chromium, browser tests are skipped on a developer's machine; on CI
    # (CI=true, where .ci/run installs chromium) they run and fail loudly instead.
    if chromium_path() is not None or on_ci():
        return
    skip = pytest.mark.skip(reason="chromium not found (apt-get install chromium)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def _in_running_order(items: list[pytest.Item]) -> None:
    """The modules that need no engine first (they run while the engines compile), then the
    modules holding a slow or browser test (each module's tests together and in their order),
    the longest of them, the README walk with the shipped pages' check (TOGETHER), first: so
    that two workers do not end on one long test while the other waits: the short tests fill
    in at the end."""

    def module(item: pytest.Item) -> str:
        return item.nodeid.split("::")[0]

    long = {module(item) for item in items if any(mark in item.keywords for mark in LONG)}
    items.sort(key=lambda item: (_needs_engines(item), module(item) not in long,
                                 module(item) not in TOGETHER))  # fmt: skip


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
            if module in TOGETHER:
                return TOGETHER[module]
            return module if _defines_module_fixture(module) else nodeid

    return ModuleFixtureScheduling(config, log)


# modules run by one worker, in collection order, as one module: the shipped pages' check
# reads the pages of the README walk's plays (the `shipped_pages` fixture)
TOGETHER = {
    "tests/test_readme.py": "tests/test_readme.py",
    "tests/test_report_browser_shipped.py": "tests/test_readme.py",
}


@functools.cache
def _defines_module_fixture(module: str) -> bool:
    path = ROOT / module
    return path.is_file() and 'scope="module"' in path.read_text(encoding="utf-8")


# --- the engines compile once, while the tests that need none run -----------------------------

WITHOUT_ENGINES = "without_engines"  # the mark of a module that plays no compiled game
ENGINES_READY = "SIM_TEST_ENGINES_READY"  # the file the controller writes when it is done
WORKER_NICENESS = 5  # a worker's share of a core against a compiling process: about a quarter
_compiling: dict[str, Any] = {}


def _needs_engines(item: pytest.Item) -> bool:
    return item.get_closest_marker(WITHOUT_ENGINES) is None


def pytest_configure(config: pytest.Config) -> None:
    # With workers (pytest -n), compile every game's engine and built-in strategies once, in
    # the controller and in parallel, so that each worker loads them from the cache instead of
    # compiling them again. It runs in the background: the workers start, and run the modules
    # marked `without_engines`, meanwhile; every other test waits for it (pytest_runtest_setup).
    # A serial run compiles what its tests use, when they use it.
    if hasattr(config, "workerinput"):
        if os.environ.get(ENGINES_READY):
            # below the compiling processes, which every other test waits for: the engine-free
            # tests take what the compile leaves of the cores, not its share (for the whole
            # session, as niceness cannot come down again; afterwards every busy process is a
            # worker or a test's subprocess, all at this niceness)
            os.nice(WORKER_NICENESS)
        return
    if not getattr(config.option, "numprocesses", None):
        return
    ready = Path(tempfile.mkdtemp(prefix="sim-engines-")) / "ready"
    os.environ[ENGINES_READY] = str(ready)  # the workers, started next, inherit it
    print("the game engines compile in the background (the first run; later ones load them)",
          file=sys.stderr, flush=True)  # fmt: skip
    thread = threading.Thread(target=_compile_engines, args=(ready,), daemon=True)
    _compiling.update(thread=thread, ready=ready, began=time.perf_counter())
    thread.start()


def _compile_engines(ready: Path) -> None:
    """Compile (or find in the cache) every game's built-ins; then write `ready`: empty, or
    the error that stopped it."""
    error = ""
    try:
        from sim.compiling import quiet_notice
        from sim.plugins import game_names, get_game
        from sim.plugins.base import StrategySpec, prepare_together

        wanted = []
        for name in game_names():
            game = get_game(name)
            names = dict.fromkeys(game.strategy_names())  # a ladder may name a strategy again
            wanted.append((game, [StrategySpec(strategy) for strategy in names]))
            # a loop sized for a few strategies too, as most tests' lineups are (a unit listed
            # twice compiles once)
            wanted.append((game, [StrategySpec(next(iter(names)))]))
        prepare_together(wanted, notice=quiet_notice)
    except BaseException:  # the tests that need the engines fail with it
        error = traceback.format_exc()
    finally:
        _compiling["seconds"] = time.perf_counter() - _compiling["began"]
        partial = ready.with_suffix(".partial")
        with contextlib.suppress(OSError):  # gone if the session was interrupted
            partial.write_text(error, encoding="utf-8")
            partial.replace(ready)  # whole or not at all: a worker may read it at any moment


@functools.cache
def _engines_error() -> str:
    """In a worker: wait until the controller's compile is done; its error, or ''."""
    ready = os.environ.get(ENGINES_READY)
    if not ready:  # a serial run: nothing compiles in the background
        return ""
    while not os.path.exists(ready):
        time.sleep(0.05)
    return Path(ready).read_text(encoding="utf-8")


@pytest.hookimpl(wrapper=True, tryfirst=True)  # before the test's fixtures, which may play games
def pytest_runtest_setup(item: pytest.Item) -> Any:
    if _needs_engines(item) and (error := _engines_error()):
        pytest.fail(f"compiling the game engines failed:\n{error}", pytrace=False)
    return (yield from _engine_free(item, "fixtures"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    return (yield from _engine_free(item, "test"))


# --- the mark is checked: a test marked without_engines uses no game's compiled code ----------

GAME_CODE = ("sim.games.", "strategies.")  # the packages of the games and their players


def _engine_free(item: pytest.Item, what: str) -> Any:
    """A hook wrapper's body: a test marked `without_engines` whose fixtures or body compiled or
    loaded a game's machine code fails, naming it (the suite runs it while the engines
    compile: it would compile them again, or wait for them on another machine). The test's
    own subprocesses are checked by tests/test_marks.py (at full size)."""
    if _needs_engines(item):
        return (yield)
    before = _game_code_in_use()
    result = yield
    used = sorted(name for name, n in _game_code_in_use().items() if n > before.get(name, 0))
    if used:
        pytest.fail(f"{item.nodeid} is marked {WITHOUT_ENGINES} but its {what} used compiled game "
                    f"code: {', '.join(used[:4])}{' ...' if len(used) > 4 else ''} (unmark it)",
                    pytrace=False)  # fmt: skip
    return result


def _game_code_in_use() -> dict[str, int]:
    """Every compiled function of a game or its players imported so far, with how many machine
    codes it holds (compiled here or loaded from the cache: either way, used)."""
    if "numba" not in sys.modules:
        return {}
    from numba.core.dispatcher import Dispatcher

    found = {}
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(GAME_CODE):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, Dispatcher) and value.py_func.__module__ == name:
                found[f"{name}.{value.py_func.__qualname__}"] = len(value.overloads)
    return found


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    # the browser a module's page checks share (tests/devtools.py) ends with the module
    devtools = sys.modules.get("tests.devtools")
    if devtools is not None and (nextitem is None or nextitem.module is not item.module):
        devtools.close_shared()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if "seconds" in _compiling:
        terminalreporter.write_line(
            f"the game engines compiled (or came from the cache) in {_compiling['seconds']:.0f} s"
        )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # a session of engine-free tests alone ends after the compile, not in it; an interrupted
    # one does not wait (its compiling processes stop after their unit)
    if (thread := _compiling.get("thread")) and exitstatus != pytest.ExitCode.INTERRUPTED:
        thread.join()


def pytest_unconfigure(config: pytest.Config) -> None:
    if "ready" in _compiling:
        shutil.rmtree(_compiling["ready"].parent, ignore_errors=True)
