"""The `without_engines` mark is right: the modules that carry it play no compiled game, nor do
the processes they start (the suite runs them while the game engines compile)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, WITHOUT_ENGINES, slow_scale

GAME_FOLDERS = (ROOT / "sim" / "games", ROOT / "strategies")


def _cache_folders(root: Path) -> set[str]:
    """The names of numba's cache folders for the source folders under `root`."""
    from numba.core.caching import _CacheLocator

    folders = {root, *(p for p in root.rglob("*") if p.is_dir())}
    return {_CacheLocator.get_suitable_cache_subpath(str(p / "f.py")) for p in folders}


@pytest.mark.slow
def test_the_modules_marked_without_engines_compile_no_game_code(tmp_path):
    """Every module marked `without_engines`, run again in a new pytest process on an empty
    compile cache (which every process it starts shares), leaves no machine code of a game or
    its players in the cache. At full size only (SIM_SLOW_SCALE=1): it runs those modules
    again, about 50 s of CPU; in every run, tests/conftest.py checks each marked test's own
    process (its fixtures and body use no game's compiled code)."""
    if slow_scale() < 1:
        pytest.skip("runs the marked modules again: at full size only (SIM_SLOW_SCALE=1)")
    cache = tmp_path / "cache"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), SIM_SLOW_SCALE="0.1")  # as make test
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-q", "-m", WITHOUT_ENGINES,
         "-p", "no:cacheprovider", str(ROOT / "tests")],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " passed" in done.stdout.splitlines()[-1]
    games = set().union(*(_cache_folders(folder) for folder in GAME_FOLDERS))
    compiled = sorted(f"{p.parent.name}/{p.name}" for p in cache.rglob("*.nbi")
                      if p.parent.name in games)  # fmt: skip
    assert compiled == [], f"game code compiled by a module marked {WITHOUT_ENGINES}"
