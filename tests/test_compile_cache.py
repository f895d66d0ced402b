"""The compile cache is stamped by what each compiled function depends on: an edit that cannot
change machine code keeps the cache, an edit to a rule the function reaches invalidates it."""

import subprocess
import sys
import textwrap
from pathlib import Path

from sim import compile_cache

ROOT = Path(__file__).resolve().parent.parent

# A tiny tracked tree: bot.py calls a rule in rules.py; notes.py is imported by nobody compiled.
RULES = "from lab.jitted import jit\n\n\n@jit\ndef points(x):\n    return x + 1\n"
BOT = (
    "from lab.jitted import jit\nfrom lab.rules import points\n\n\n"
    "@jit\ndef act(x):\n    return points(x) * 2\n"
)
NOTES = '"""Notes about the rules."""\n\nTEXT = "a"\n'
JITTED = "from sim.jit import jit\n"

PROBE = textwrap.dedent(
    """
    import sys
    from sim import compile_cache
    compile_cache.track(sys.argv[1] + "/lab")
    sys.path.insert(0, sys.argv[1])
    from lab.bot import act
    value = act(3)
    print(value, sum(act.stats.cache_hits.values()), sum(act.stats.cache_misses.values()))
    """
)


def _tree(tmp_path: Path) -> Path:
    lab = tmp_path / "lab"
    lab.mkdir()
    for name, text in {"__init__.py": "", "jitted.py": JITTED, "rules.py": RULES,
                       "bot.py": BOT, "notes.py": NOTES}.items():  # fmt: skip
        (lab / name).write_text(text)
    return lab


def _probe(tmp_path: Path) -> tuple[int, int, int]:
    """(act(3), cache hits, misses) of lab.bot.act in a fresh process, one cache folder."""
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)  # fmt: skip
    value, hits, misses = done.stdout.split()
    return int(value), int(hits), int(misses)


def test_editing_uncompiled_code_keeps_the_cache_and_a_rule_edit_invalidates_it(tmp_path):
    lab = _tree(tmp_path)
    assert _probe(tmp_path) == (8, 0, 1)  # compiled
    assert _probe(tmp_path) == (8, 1, 0)  # loaded
    (lab / "notes.py").write_text(NOTES.replace('"a"', '"b"'))  # nothing compiled imports it
    (lab / "rules.py").write_text('"""The rules."""\n' + RULES + "# a comment\n")
    assert _probe(tmp_path) == (8, 1, 0)  # a docstring and a comment are not code
    (lab / "rules.py").write_text(RULES.replace("x + 1", "x + 2"))  # the rule the bot calls
    assert _probe(tmp_path) == (10, 0, 1)  # compiled again, with the new rule
    assert _probe(tmp_path) == (10, 1, 0)


LOAD_PROBE = textwrap.dedent(
    """
    import sys
    from numba.core.registry import cpu_target
    from sim import compile_cache
    compile_cache.track(sys.argv[1] + "/lab")
    sys.path.insert(0, sys.argv[1])
    if sys.argv[2] == "unknown":  # as if the machine code named a symbol LLVM does not know
        compile_cache.unknown_symbols = lambda module, engine: ["a_symbol"]
    from lab.bot import act
    value = act(3)
    prepared = bool(cpu_target.target_context._registries)  # numba's compiler tables built
    print(value, sum(act.stats.cache_hits.values()), int(prepared), act(2.5))
    """
)


def test_loading_machine_code_leaves_the_compiler_unprepared_until_a_compile(tmp_path):
    """A process that only loads machine code skips numba's compiler tables (0.6 s of CPU);
    a compile after it still works, and a library naming a symbol LLVM does not know has the
    tables built before it loads, as numba would."""
    _tree(tmp_path)
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}

    def probe(case: str) -> list[str]:
        command = [sys.executable, "-c", LOAD_PROBE, str(tmp_path), case]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert probe("known") == ["8", "0", "1", "7.0"]  # compiled: the compiler was prepared
    assert probe("known") == ["8", "1", "0", "7.0"]  # loaded; act(2.5) loads too (compiled above)
    assert probe("unknown") == ["8", "1", "1", "7.0"]


def test_a_stamp_covers_exactly_the_files_a_module_imports():
    deps = {p.relative_to(ROOT).as_posix() for p in compile_cache.dependencies(
        ROOT / "strategies/guardians/greedy.py")}  # fmt: skip
    assert {"strategies/guardians/greedy.py", "sim/games/guardians/board.py",
            "sim/games/guardians/moves.py", "sim/jit.py"} <= deps  # fmt: skip
    not_compiled = {"sim/games/guardians/watch.py", "sim/games/guardians/scenario.py",
                    "sim/games/guardians/ruleset.py", "strategies/guardians/registry.py",
                    "strategies/guardians/miner.py", "sim/cli.py"}  # fmt: skip
    assert not deps & not_compiled
    kernel = {p.relative_to(ROOT).as_posix() for p in compile_cache.dependencies(
        ROOT / "sim/games/guardians/kernel.py")}  # fmt: skip
    assert not any(d.startswith("strategies/") for d in kernel)  # the loop calls no strategy


# A function reached through a function pointer, as the game loops call their policies: numba
# asks the cache for it by its full signature, which it keys apart from the argument tuple.
POINTED = "from lab.jitted import jit\n\n\n@jit\ndef double(x):\n    return x * 2\n"
POINTER_PROBE = textwrap.dedent(
    """
    import sys
    from numba import njit, types
    from sim import compile_cache
    from sim.compiling import Unit, ensure_compiled, quiet_notice
    compile_cache.track(sys.argv[1] + "/lab")
    sys.path.insert(0, sys.argv[1])
    import lab.pointed
    signature = types.int64(types.int64)
    ensure_compiled([[Unit("lab.pointed", "double", signature)]], what="double",
                    notice=quiet_notice, processes=1)
    @njit(types.int64(types.FunctionType(signature), types.int64))
    def call(f, x):
        return f(x)
    misses = sum(lab.pointed.double.stats.cache_misses.values())
    print(call(lab.pointed.double, 4), misses)
    """
)


def test_a_unit_reached_through_a_pointer_loads_in_a_fresh_process(tmp_path):
    """prepare() in one process, play in another: the unit compiled for a pointer's full
    signature is the one the pointer loads (were it compiled for the argument tuple, every
    fresh process would compile it again under the other key)."""
    lab = _tree(tmp_path)
    (lab / "pointed.py").write_text(POINTED)
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}

    def probe() -> list[str]:
        command = [sys.executable, "-c", POINTER_PROBE, str(tmp_path)]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert probe() == ["8", "1"]  # the first process compiles it (one miss)
    assert probe() == ["8", "0"]  # a fresh one finds it fresh and loads it at the call


def test_a_relative_cache_folder_is_made_absolute_for_processes_started_elsewhere(tmp_path):
    # `NUMBA_CACHE_DIR=.numba_cache pytest`: a worker or a test that changes folder must still
    # find the one cache, not an empty one under its own folder.
    env = {"NUMBA_CACHE_DIR": "some/cache", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    probe = "import os, sim; print(os.environ['NUMBA_CACHE_DIR'])"
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=True)  # fmt: skip
    assert done.stdout.strip() == str(tmp_path / "some" / "cache")


# A cache folder that cannot be written (issue 42): a warning, and the run compiles in memory.
UNWRITABLE_PROBE = textwrap.dedent(
    """
    import sys
    from numba import types
    from sim import compile_cache
    from sim.compiling import Unit, ensure_compiled, quiet_notice
    compile_cache.track(sys.argv[1] + "/lab")
    sys.path.insert(0, sys.argv[1])
    import lab.bot
    ensure_compiled([[Unit("lab.bot", "act", (types.int64,))]], what="act",
                    notice=quiet_notice)
    print(lab.bot.act(3))
    """
)


def _unwritable(tmp_path: Path, cache: Path, *, setup: str = "") -> subprocess.CompletedProcess:
    _tree(tmp_path)
    env = {"NUMBA_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    command = [sys.executable, "-c", setup + UNWRITABLE_PROBE, str(tmp_path)]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)


def test_a_cache_folder_that_cannot_be_made_is_a_warning_and_the_code_compiles_in_memory(
    tmp_path,
):
    # under a file, so that no user (root included) can make it: as a read-only install
    (tmp_path / "afile").write_text("not a folder")
    done = _unwritable(tmp_path, tmp_path / "afile" / "cache")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["8"]
    assert "CompileCacheWarning" in done.stderr and "cannot be written (not a directory)" in (
        done.stderr) and "compiling in memory" in done.stderr  # fmt: skip
    assert "Traceback" not in done.stderr and done.stderr.count("CompileCacheWarning") == 1


def test_a_save_the_disk_refuses_is_a_warning_and_the_run_goes_on(tmp_path):
    refuse = textwrap.dedent(
        """
        import errno, os
        from numba.core import caching
        def full(self, *args):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        caching.IndexDataCacheFile._save_data = full  # the write of the machine code
        """
    )
    done = _unwritable(tmp_path, tmp_path / "cache", setup=refuse)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["8"]
    assert "cannot be written (no space left on device)" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_command_line_prints_the_warning_as_one_line():
    show = (
        "import warnings, sim.cli\nfrom sim.compile_cache import CompileCacheWarning\n"
        "warnings.warn(CompileCacheWarning('the compile cache X cannot be written'))"
    )
    done = subprocess.run([sys.executable, "-c", show], cwd=ROOT, capture_output=True, text=True)
    assert done.stderr == "warning: the compile cache X cannot be written\n"
