"""Compiled code is cached per version of the compiled sources."""

import os

from sim import compile_cache


def test_cache_folder_is_keyed_by_the_sources(monkeypatch, tmp_path):
    monkeypatch.delenv("SIM_NUMBA_CACHE_KEY", raising=False)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    compile_cache.configure()
    key = compile_cache.source_key()
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / key)
    compile_cache.configure()  # a worker process with the mark keeps the folder
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / key)


def test_the_key_changes_with_any_compiled_source(monkeypatch, tmp_path):
    root = tmp_path / "tree"
    for rel in ("sim/jit.py", "sim/games/g/engine.py", "strategies/g/bot.py"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x = 1\n")
    monkeypatch.setattr(compile_cache, "_ROOT", root)
    before = compile_cache.source_key()
    (root / "strategies/g/bot.py").write_text("x = 2\n")
    after_bot = compile_cache.source_key()
    assert after_bot != before
    (root / "sim/jit.py").write_text("x = 3\n")  # how the sources are compiled counts too
    assert compile_cache.source_key() != after_bot
