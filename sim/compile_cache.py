"""Where numba keeps compiled code, and when a cached function is still good.

numba stamps a cached function with a hash of its own source file only, so a change to a
function it calls from another file (a rule in engine.py, called by a strategy) would leave
stale machine code in play. Here each function compiled from a tracked folder (this project's
`sim/` and `strategies/`, and any folder a game plug-in adds with `track`) is stamped instead
with a hash of its own file and of every tracked file that file imports, directly or through
others, read as code: docstrings and comments do not count. So a changed rule invalidates
exactly the functions that can reach it, and an edit to a file no compiled code imports (the
CLI, the reports, a rules docstring) keeps the whole cache.

`configure()` runs when `sim` is imported (before numba is) and points NUMBA_CACHE_DIR at one
folder; `install()` runs when `sim.jit` is imported (before any compiled function is defined)
and puts the locator below ahead of numba's own. It also lets a process that only loads
machine code skip the building of numba's compiler tables (`_load_without_the_compiler`).

A cache folder that cannot be written (a read-only install, a full disk) is a warning, not an
error: `problem()` says why, the compiled functions are then made without a cache (each
process compiles in memory), and a save the disk refuses later is dropped with the same
warning (numba would raise it from the middle of a compile).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import itertools
import json
import os
import sys
import tempfile
import warnings
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
_TRACKED: list[Path] = [_ROOT / "sim", _ROOT / "strategies"]


def track(folder: str | Path) -> None:
    """Stamp the functions compiled from files under `folder` by what they import, too
    (for a game plug-in that lives outside this project)."""
    path = Path(folder).resolve()
    if path not in _TRACKED:
        _TRACKED.append(path)


def is_tracked(path: str | Path) -> bool:
    resolved = Path(path).resolve()
    return any(resolved.is_relative_to(root) for root in _TRACKED)


# --- what a file depends on ---------------------------------------------------------------


def _module_file(name: str) -> Path | None:
    """The source file of module `name` if it is tracked: found from the tracked folders alone
    (each is a package named after its folder), without importing anything or searching
    sys.path (which took most of a new process's start-up)."""
    top, *rest = name.split(".")
    for root in _TRACKED:
        if root.name == top:
            module = root.joinpath(*rest)
            for candidate in (module / "__init__.py", module.parent / f"{module.name}.py"):
                if candidate.is_file() and is_tracked(candidate):
                    return candidate
    return None


def _package_of(path: Path) -> str:
    """The dotted module name of a tracked file, from the folders that hold it."""
    root = next(r for r in _TRACKED if path.is_relative_to(r))
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_options(path: Path, tree: ast.Module) -> list[list[str]]:
    """What `path` imports, as lists of module names: the first of each that is a tracked
    file counts (`from X import y` names X.y first: a submodule is its own file)."""
    options: list[list[str]] = []
    here = _package_of(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            options.extend([alias.name] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = here if path.name == "__init__.py" else here.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            options.extend([f"{base}.{alias.name}", base] for alias in node.names)
    return options


def _imported_files(path: Path, options: list[list[str]]) -> frozenset[Path]:
    """The tracked files `path` imports names from (see _import_options)."""
    found = set()
    for names in options:
        file = next(filter(None, map(_module_file, names)), None)
        if file is not None:
            found.add(file)
    found.discard(path)
    return frozenset(found)


def _without_docstrings(tree: ast.Module) -> ast.Module:
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            del body[0]
    return tree


@functools.cache
def _read(path: Path, mtime_ns: int, size: int) -> tuple[str, frozenset[Path]]:
    """(hash of the file's code, the tracked files it imports); keyed by mtime and size so an
    edit during the process is read again."""
    digest, options = _parsed(path, mtime_ns, size)
    return digest, _imported_files(path, options)


def _parsed(path: Path, mtime_ns: int, size: int) -> tuple[str, list[list[str]]]:
    """(hash of the file's code, its _import_options): parsed once per edit on this machine,
    then read from the index of parsed files in the cache folder (a new process, such as
    every worker of a run, would otherwise parse every file it compiles from again)."""
    index = _parsed_index()
    known = index.get(str(path))
    if known is not None and known[:2] == [mtime_ns, size]:
        return known[2], known[3]
    tree = ast.parse(path.read_bytes(), filename=str(path))
    options = _import_options(path, tree)
    code = ast.dump(_without_docstrings(tree), include_attributes=False)
    digest = hashlib.sha256(code.encode()).hexdigest()
    index[str(path)] = [mtime_ns, size, digest, options]
    _unsaved.append(path)
    return digest, options


_INDEX_NAME = f"parsed-sources-v1-py{sys.version_info[0]}{sys.version_info[1]}.json"


_unsaved: list[Path] = []  # files parsed since the index was last written


@functools.cache
def _parsed_index() -> dict[str, list]:
    try:
        return json.loads((cache_dir() / _INDEX_NAME).read_text())
    except (OSError, ValueError):
        return {}


def _save_parsed_index() -> None:
    """Write the index whole if anything was parsed, under a temporary name first (processes
    may write at once: the last one wins, and what another added is parsed again)."""
    if not _unsaved:
        return
    _unsaved.clear()
    index, folder = _parsed_index(), cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = folder / f"{_INDEX_NAME}.{os.getpid()}.tmp"
        temporary.write_text(json.dumps(index))
        os.replace(temporary, folder / _INDEX_NAME)
    except OSError:
        pass  # a read-only cache folder: parse again next time


def _read_file(path: Path) -> tuple[str, frozenset[Path]]:
    st = path.stat()
    return _read(path, st.st_mtime_ns, st.st_size)


def dependencies(path: str | Path) -> list[Path]:
    """`path` and every tracked file it imports, directly or not, sorted."""
    start = Path(path).resolve()
    seen = {start}
    todo = [start]
    while todo:
        for dep in _read_file(todo.pop())[1]:
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    _save_parsed_index()
    return sorted(seen)


def source_stamp(path: str | Path) -> str:
    """A hash of the code of `path` and of everything it imports from tracked folders."""
    digest = hashlib.sha256()
    for dep in dependencies(path):
        digest.update(_stamp_name(dep))
        digest.update(_read_file(dep)[0].encode())
    return digest.hexdigest()


@functools.cache  # numba asks for a function's stamp at every load, and a run for every unit
def _stamp_name(path: Path) -> bytes:
    """A tracked file's name in the stamp: its path from its tracked folder's parent (folders
    are only ever added to `_TRACKED`, after the ones a path already lay in)."""
    root = next(r for r in _TRACKED if path.is_relative_to(r))
    return path.relative_to(root.parent).as_posix().encode()


# --- the cache folder and numba's locator ----------------------------------------------------


def _default_base() -> Path:
    local = _ROOT / ".numba_cache"
    if os.access(_ROOT, os.W_OK):
        return local
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "sim-numba"


def cache_dir() -> Path:
    return Path(os.environ.get("NUMBA_CACHE_DIR") or _default_base())


def configure() -> None:
    """Point NUMBA_CACHE_DIR at the cache folder unless it is set (worker processes inherit it).
    A relative setting is made absolute here: a process started in another folder (a worker, a
    test that changes folder, a notebook's kernel) would otherwise find an empty cache there
    and compile everything again."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    os.environ["NUMBA_CACHE_DIR"] = str(Path(given).absolute() if given else _default_base())


# why the cache is off, for the processes this one starts (they neither probe nor warn again)
OFF = "SIM_COMPILE_CACHE_OFF"


class CompileCacheWarning(UserWarning):
    """The compile cache cannot be written: the run goes on, compiling in memory (the command
    line prints it as one `warning:` line). This module imports nothing of the lab: every
    compiled function's cache stamp covers it."""


@functools.cache
def problem() -> str | None:
    """Why compiled code cannot be kept in the cache folder (it cannot be created or written
    in), or None: tried once per process, by writing a file there."""
    if os.environ.get(OFF):
        return os.environ[OFF]
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return _turn_off(folder, exc)
    return None


def _turn_off(folder: Path, exc: OSError) -> str:
    why = (exc.strerror or str(exc)).lower()
    reason = f"the compile cache {folder} cannot be written ({why})"
    os.environ[OFF] = reason
    return reason


@functools.cache
def warn_if_off() -> None:
    """Say once per process, as a CompileCacheWarning, that the cache is off and why."""
    reason = problem()
    if reason:
        warnings.warn(
            CompileCacheWarning(f"{reason}: compiling in memory, so every run compiles again. "
                                "Set NUMBA_CACHE_DIR to a folder you can write to keep the "
                                "machine code between runs."),
            stacklevel=2,
        )  # fmt: skip


@functools.cache
def install() -> None:
    """Put the source-tree locator ahead of numba's own, and let a save the disk refuses
    drop with a warning (once per process)."""
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    impl._locator_classes.insert(0, _source_tree_locator(caching))
    save = caching.Cache.save_overload

    def save_overload(self, sig, data):  # noqa: ANN001, ANN202 - numba's own signature
        if os.environ.get(OFF):
            return  # the folder refused a save before: compile in memory from now on
        try:
            save(self, sig, data)
        except OSError as exc:
            problem.cache_clear()
            _turn_off(cache_dir(), exc)
            warn_if_off.cache_clear()
            warn_if_off()

    caching.Cache.save_overload = save_overload
    caching.IndexDataCacheFile.save = _locked_save
    _load_without_the_compiler(caching)


def _locked_save(self, key, data) -> None:  # noqa: ANN001 - numba's IndexDataCacheFile.save
    """numba's save of one overload, one process at a time per function, data before index.

    numba reads a function's index, adds the entry and writes the index back: two processes
    saving overloads of one function at once (the test session's workers, a run's compiling
    processes) each wrote the index without the other's entry, and could give two entries
    the same data file. Under a lock on the index, with the data written first, an entry
    in the index always names its own machine code."""
    with _index_lock(self._index_path):
        overloads = self._load_index()
        name = overloads.get(key)
        if name is None:
            taken = set(overloads.values())
            name = next(n for i in itertools.count(1) if (n := self._data_name(i)) not in taken)
        self._save_data(name, data)
        if overloads.get(key) != name:
            overloads[key] = name
            self._save_index(overloads)


@contextlib.contextmanager
def _index_lock(index_path: str):
    try:
        import fcntl
    except ImportError:  # no flock (Windows): numba's own unlocked save
        yield
        return
    with open(index_path + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


# --- loading machine code without preparing the compiler -------------------------------------


def _load_without_the_compiler(caching) -> None:  # noqa: ANN001 - numba's caching module
    """numba's `Cache.load_overload`, preparing only what loading machine code needs.

    Before a load numba prepares its whole compiler (`target_context.refresh()`: it imports
    and registers every implementation it can compile), about 0.6 s of CPU in every process
    that loads a game's engine: each command, each run's worker, each test worker. Loading
    needs numba's runtime (NRT) and the symbols numba registers with LLVM as it starts it and as
    it imports its hashing. A library that names any other symbol LLVM does not know prepares
    the compiler first, as numba would (`_finalize_specific`); a compile prepares it itself,
    as before."""
    from numba.core import codegen
    from numba.core.cpu import CPUContext

    cache, library = caching.Cache, codegen.JITCodeLibrary
    expected = (hasattr(cache, "_guard_against_spurious_io_errors")
                and hasattr(cache, "_load_overload")
                and hasattr(codegen.JitEngine, "is_symbol_defined"))  # fmt: skip
    if not expected:
        return  # a numba built otherwise: its own load
    load = cache.load_overload

    def load_overload(self, sig, target_context):  # noqa: ANN001, ANN202 - numba's own
        if not isinstance(target_context, CPUContext):
            return load(self, sig, target_context)  # another target's runtime: numba's way
        _prepare_to_load(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    finalize = library._finalize_specific

    def _finalize_specific(self) -> None:  # noqa: ANN001 - numba's JITCodeLibrary
        loaded = getattr(self, "_compiled_object", None) is not None  # read from the cache
        module = self._shared_module
        if loaded and module is not None and unknown_symbols(module, self._codegen._engine):
            from numba.core.registry import cpu_target

            cpu_target.target_context.refresh()  # registers the rest, as numba's load did
        finalize(self)

    cache.load_overload = load_overload
    library._finalize_specific = _finalize_specific


def _prepare_to_load(target_context) -> None:  # noqa: ANN001 - numba's CPUContext
    from numba.core.runtime import rtsys

    rtsys.initialize(target_context)  # the runtime's symbols (numba does it on every load)
    import numba.cpython.hashing  # noqa: F401 - registers the hash secret's symbols


def unknown_symbols(module, engine) -> list[str]:  # noqa: ANN001 - llvmlite's, numba's
    """The functions and globals `module` declares that neither LLVM's table of this process's
    symbols nor numba's JIT `engine` (the runtime's own functions live there) defines."""
    from llvmlite import binding

    declared = [f.name for f in module.functions
                if f.is_declaration and not f.name.startswith("llvm.")]  # fmt: skip
    declared += [g.name for g in module.global_variables if g.is_declaration]
    known = binding.address_of_symbol
    return [name for name in declared if not known(name) and not engine.is_symbol_defined(name)]


def _source_tree_locator(caching):
    class SourceTreeLocator(caching._CacheLocator):
        """Caches functions of tracked files under NUMBA_CACHE_DIR, stamped by
        `source_stamp` (the file and everything it imports)."""

        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = str(cache_dir() / self.get_suitable_cache_subpath(py_file))

        def get_cache_path(self):
            return self._cache_path

        def get_source_stamp(self):
            return source_stamp(self._py_file)

        def get_disambiguator(self):
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):
            if not os.path.exists(py_file) or not is_tracked(py_file):
                return None
            locator = cls(py_func, py_file)
            try:
                locator.ensure_cache_path()
            except OSError:
                return None
            return locator

    return SourceTreeLocator


def index_is_fresh(dispatcher, signature) -> bool:
    """Whether `dispatcher`'s cache index carries the current stamp and an entry for
    `signature` (an argument tuple, or a full signature as a function pointer asks for it):
    its machine code will load instead of being compiled."""
    import pickle

    import numba

    cache = getattr(dispatcher, "_cache", None)
    locator = getattr(getattr(cache, "_impl", None), "locator", None)
    if locator is None:
        return False
    index = Path(locator.get_cache_path()) / (cache._impl.filename_base + ".nbi")
    try:
        with open(index, "rb") as f:
            version = pickle.load(f)
            stamp, overloads = pickle.loads(f.read())
    except (OSError, EOFError, pickle.UnpicklingError, ValueError):
        return False
    if version != numba.__version__ or stamp != locator.get_source_stamp():
        return False
    return any(key[0] == signature for key in overloads)
