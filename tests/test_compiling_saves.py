"""Processes saving machine code of one function at once keep every entry (sim.compile_cache):
numba's own save rewrote the function's index from what it read before, so one process's entry
could vanish, or two entries name one data file (a unit a test had just compiled was then not
in the cache)."""

import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.without_engines  # numba's cache files only, no game code

# One process: `n` entries (key, data) saved into one index, as a compiling process saves
# the overloads of one function; numba's own save (argv[4] == "numba") or the locked one.
SAVER = textwrap.dedent(
    """
    import sys
    from numba.core import caching
    from sim import compile_cache

    import os, time

    folder, who, n, which = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    open(os.path.join(folder, who + ".ready"), "w").close()
    while not os.path.exists(os.path.join(folder, "go")):  # both start saving together
        time.sleep(0.001)
    if which == "numba":
        save = caching.IndexDataCacheFile.save
    else:
        compile_cache.install()
        save = compile_cache._locked_save
    cache_file = caching.IndexDataCacheFile(folder, "f-1.py1", "stamp")
    for i in range(n):
        save(cache_file, (who, i), f"{who}-{i}")
    """
)


def _save_at_once(folder, which: str, n: int = 150) -> dict:
    from numba.core import caching

    savers = [
        subprocess.Popen([sys.executable, "-c", SAVER, str(folder), who, str(n), which])
        for who in ("a", "b")
    ]
    while not all((folder / f"{who}.ready").exists() for who in ("a", "b")):
        time.sleep(0.01)
    (folder / "go").touch()
    assert [saver.wait() for saver in savers] == [0, 0]
    cache_file = caching.IndexDataCacheFile(str(folder), "f-1.py1", "stamp")
    return {key: cache_file.load(key) for key in cache_file._load_index()}


def test_two_processes_saving_one_function_keep_every_entry_and_its_own_data(tmp_path):
    entries = _save_at_once(tmp_path, "locked")
    expected = {(who, i): f"{who}-{i}" for who in "ab" for i in range(150)}
    assert entries == expected
