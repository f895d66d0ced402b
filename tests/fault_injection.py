"""Fault injection for the write sites (tests/test_faults.py): every write the code under test
makes below one folder is seen as an operation (a file opened for writing, a write to it, a
rename, a folder made, a file deleted, a lock file written), and from the chosen one on the
operations fail with the OSError the operating system would raise, as long as the fault
lasts (a disk stays full until space is freed):

- a full disk (ENOSPC, EDQUOT) refuses what needs more space: creating a file or a folder,
  writing to a file; renaming, deleting and writing over a file in place still work;
- a read-only file system (EROFS) or a failing disk (EIO) refuses every write;
- permission taken away (EACCES, EPERM) or the folder removed (ENOENT) refuse what names a
  path; a file already open can still be written.

A write refused for want of space writes half its bytes first, as a full disk does, so that
what a cut write leaves behind (a temporary file, half a journal line) is met as it would be."""

from __future__ import annotations

import builtins
import contextlib
import errno
import io
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_TMPFILE = getattr(os, "O_TMPFILE", 0)  # an unnamed file in a folder (tempfile's first try)


def _writes(path: Any, flags: int) -> bool:
    """Whether os.open(path, flags) writes: creates, empties or appends to a file, or opens
    one to write that exists (O_RDWR alone on a missing file fails without writing)."""
    if flags & _WRITE_FLAGS or (_TMPFILE and flags & _TMPFILE == _TMPFILE):
        return True
    return bool(flags & os.O_RDWR) and _exists(_path(path))


@dataclass
class Op:
    kind: str  # open, write, replace, mkdir, unlink, rmdir, truncate, pwrite, symlink
    path: str


@dataclass
class Injector:
    """Records the write operations below `root`; fails number `fail_at` with `code`."""

    root: str
    fail_at: int | None = None
    code: int = errno.ENOSPC
    ops: list[Op] = field(default_factory=list)
    failed: Op | None = None
    _fds: dict[int, str] = field(default_factory=dict)

    def see(self, kind: str, path: Any) -> None:
        """Count the operation; raise the fault when it is the chosen one, and from then on
        whenever the fault refuses its kind."""
        text = _path(path)
        if text is None or not text.startswith(self.root):
            return
        self.ops.append(Op(kind, text))
        if self.fail_at is None or len(self.ops) - 1 < self.fail_at:
            return
        if self.failed is None:
            self.failed = self.ops[-1]
        elif kind not in _REFUSED.get(self.code, _ALL):
            return
        raise OSError(self.code, os.strerror(self.code), text)


_ALL = frozenset({"open", "write", "replace", "mkdir", "unlink", "rmdir", "truncate", "pwrite",
                  "symlink"})  # fmt: skip
_NAMED = _ALL - {"write", "pwrite", "truncate"}  # what names a path (not an open file)
_SPACE = frozenset({"open", "write", "mkdir", "symlink"})  # what asks for space
_REFUSED = {errno.ENOSPC: _SPACE, errno.EDQUOT: _SPACE, errno.EACCES: _NAMED,
            errno.EPERM: _NAMED, errno.ENOENT: _NAMED - {"unlink", "rmdir"}}  # fmt: skip
# (a file to delete that is gone already is no fault)


def refused(code: int) -> frozenset[str]:
    """The operations a fault of this errno refuses."""
    return _REFUSED.get(code, _ALL)


def _path(path: Any) -> str | None:
    if isinstance(path, int):
        return None
    try:
        return os.path.abspath(os.fspath(path))
    except TypeError:
        return None


class _File:
    """A file opened for writing: each write is an operation; the failing one writes half its
    bytes first."""

    def __init__(self, raw: Any, injector: Injector, path: str) -> None:
        self._raw, self._injector, self._path = raw, injector, path

    def write(self, data: Any) -> int:
        try:
            self._injector.see("write", self._path)
        except OSError:
            self._raw.write(data[: len(data) // 2])
            with contextlib.suppress(OSError):
                self._raw.flush()
            raise
        return self._raw.write(data)

    def __enter__(self) -> _File:
        return self

    def __exit__(self, *exc: object) -> None:
        self._raw.close()

    def __iter__(self) -> Iterator[Any]:
        return iter(self._raw)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


@contextlib.contextmanager
def injected(injector: Injector) -> Iterator[Injector]:
    """The write primitives of this process patched to go through `injector`."""
    real_open, real = io.open, {name: getattr(os, name) for name in _OS}

    def open_(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        writes = any(c in mode for c in "wax+")
        if writes:
            injector.see("open", file)
        raw = real_open(file, mode, *args, **kwargs)
        path = _path(file)
        if writes and path is not None and path.startswith(injector.root):
            return _File(raw, injector, path)
        return raw

    def os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if _writes(path, flags) and kwargs.get("dir_fd") is None:
            injector.see("open", path)
        fd = real["open"](path, flags, *args, **kwargs)
        if (text := _path(path)) is not None:
            injector._fds[fd] = text
        return fd

    def by_fd(kind: str, name: str):  # noqa: ANN202
        def call(fd: int, *args: Any, **kwargs: Any) -> Any:
            injector.see(kind, injector._fds.get(fd, fd))
            return real[name](fd, *args, **kwargs)

        return call

    def on_path(kind: str, name: str, *, when=None):  # noqa: ANN001, ANN202
        def call(path: Any, *args: Any, **kwargs: Any) -> Any:
            where = _at(path, kwargs.get("dir_fd"))
            if when is None or when(where):
                injector.see(kind, where)
            return real[name](path, *args, **kwargs)

        return call

    def renamed(name: str):  # noqa: ANN202
        def call(src: Any, dst: Any, *args: Any, **kwargs: Any) -> Any:
            injector.see("replace", dst)
            return real[name](src, dst, *args, **kwargs)

        return call

    def link(src: Any, dst: Any, *args: Any, **kwargs: Any) -> Any:
        injector.see("symlink", dst)
        return real["symlink"](src, dst, *args, **kwargs)

    patched = {
        "open": os_open,
        "pwrite": by_fd("pwrite", "pwrite"),
        "write": by_fd("write", "write"),
        "ftruncate": by_fd("truncate", "ftruncate"),
        "truncate": on_path("truncate", "truncate"),
        "replace": renamed("replace"),
        "rename": renamed("rename"),
        "mkdir": on_path("mkdir", "mkdir", when=lambda p: p is not None and not os.path.isdir(p)),
        "unlink": on_path("unlink", "unlink", when=_exists),
        "remove": on_path("unlink", "remove", when=_exists),
        "rmdir": on_path("rmdir", "rmdir", when=_exists),
        "symlink": link,
    }
    try:
        builtins.open = io.open = open_
        for name, fn in patched.items():
            setattr(os, name, fn)
        yield injector
    finally:
        builtins.open = io.open = real_open
        for name, fn in real.items():
            setattr(os, name, fn)


_OS = ("open", "pwrite", "write", "ftruncate", "truncate", "replace", "rename", "mkdir",
       "unlink", "remove", "rmdir", "symlink")  # fmt: skip


def _at(path: Any, dir_fd: int | None) -> str | None:
    """The path named, resolved against `dir_fd` (shutil.rmtree deletes by folder handle)."""
    if dir_fd is None:
        return _path(path)
    with contextlib.suppress(OSError):
        return os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), os.fspath(path))
    return None


def _exists(path: str | None) -> bool:
    return path is not None and os.path.lexists(path)


def files(root: Path) -> dict[str, bytes]:
    """Every file below `root` with its bytes, by its path relative to `root`."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}  # fmt: skip


# --- the writes in the code that no `writing(...)` covers --------------------------------------

_WRITING_ATTRS = {"write_text", "write_bytes", "mkdir", "unlink", "rmdir", "touch", "symlink_to",
                  "rename"}  # fmt: skip
_WRITING_CALLS = {
    *(("os", n) for n in ("replace", "rename", "remove", "unlink", "mkdir", "makedirs", "rmdir",
                          "pwrite", "write", "ftruncate", "truncate", "open", "symlink", "link")),
    *(("shutil", n) for n in ("rmtree", "copy", "copy2", "copyfile", "copytree", "move")),
    *(("tempfile", n) for n in ("TemporaryFile", "NamedTemporaryFile", "mkdtemp", "mkstemp",
                                "TemporaryDirectory")),
    ("json", "dump"), ("pq", "write_table"),
}  # fmt: skip
_TO_PATH = {"write_csv", "write_parquet", "to_csv", "to_parquet", "savefig"}  # with a target


def uncovered_writes(root: Path) -> set[tuple[str, str, str]]:
    """(file, function, call) of every call below `root` that can write a file, lexically
    outside a `with writing(...)` block (sim.faults): a write site without its handling."""
    import ast

    found: set[tuple[str, str, str]] = set()

    def visit(node: ast.AST, covered: bool, function: str, where: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = node.name
        if isinstance(node, ast.With | ast.AsyncWith) and any(
            isinstance(i.context_expr, ast.Call) and getattr(i.context_expr.func, "id", "")
            == "writing" for i in node.items):  # fmt: skip
            covered = True
        call = _writing_call(node)
        if call and not covered:
            found.add((where, function, call))
        for child in ast.iter_child_nodes(node):
            visit(child, covered, function, where)

    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root.parent).as_posix()
        visit(ast.parse(path.read_text(encoding="utf-8")), False, "<module>", where)
    return found


def _writing_call(node: Any) -> str | None:
    import ast

    if not isinstance(node, ast.Call):
        return None
    f = node.func
    if isinstance(f, ast.Attribute):
        if isinstance(f.value, ast.Name) and (f.value.id, f.attr) in _WRITING_CALLS:
            return f"{f.value.id}.{f.attr}"
        if f.attr in _WRITING_ATTRS or (f.attr in _TO_PATH and node.args):
            return f".{f.attr}"
    if isinstance(f, ast.Name) and f.id == "open":
        mode = node.args[1] if len(node.args) > 1 else None
        mode = next((k.value for k in node.keywords if k.arg == "mode"), mode)
        if isinstance(mode, ast.Constant) and any(c in str(mode.value) for c in "wax+"):
            return "open"
    return None
