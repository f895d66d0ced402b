"""Where numba keeps compiled code: a folder per version of the compiled sources.

numba checks a cached function against its own file only, not against the files of the
functions it calls, so a changed rule or strategy could leave stale machine code in play.
Keying the cache folder by a hash of every compiled source (the engine, the built-in
strategies and the decorators that compile them) rules that out. Runs before numba is
imported (from sim/__init__.py).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_MARK = "SIM_NUMBA_CACHE_KEY"  # set once, so that worker processes keep the same folder
_ROOT = Path(__file__).resolve().parent.parent


def source_key() -> str:
    digest = hashlib.sha256()
    sources = [_ROOT / "sim" / "jit.py"]
    for folder in (_ROOT / "sim" / "games", _ROOT / "strategies"):
        sources += sorted(folder.rglob("*.py"))
    for path in sources:
        digest.update(path.relative_to(_ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _default_base() -> Path:
    local = _ROOT / ".numba_cache"
    if os.access(_ROOT, os.W_OK):
        return local
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "sim-numba"


def configure() -> None:
    """Point NUMBA_CACHE_DIR at <base>/<source key> (base: NUMBA_CACHE_DIR if set)."""
    key = source_key()
    if os.environ.get(_MARK) == key:
        return
    base = Path(os.environ.get("NUMBA_CACHE_DIR") or _default_base())
    os.environ["NUMBA_CACHE_DIR"] = str(base / key)
    os.environ[_MARK] = key
