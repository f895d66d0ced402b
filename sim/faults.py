"""Faults of the machine, not of the input: a write the operating system refuses (the disk is
full, the folder went read-only, permission was taken away, an I/O error, the folder was
removed while the command ran) and a Dask cluster lost mid-run.

The handling is written once, here. A write site wraps its writes in `writing(what, path)`,
which turns an OSError into a WriteFault naming what was being written, where, why in words
and the remedy. The code that knows what is stored (the runner, the tune, the report) wraps
its work in `keeping(kept)`, which adds what is kept ("45,000 of 200,000 games stored") and
what to run once the remedy is applied. The command line prints a Fault as one line and exits
with FAULT_EXIT (sim/cli.py); from Python it is raised like any SimError.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sim.errors import SimError

# sysexits' EX_IOERR: "an error occurred while doing I/O on some file"; 2 stays the exit code of
# a mistake in the command or its files, 130 and 143 that of Ctrl-C and SIGTERM
FAULT_EXIT = 74
AGAIN = "run the same command again"
RESUME = "run the same command again to resume"

# errno -> (the reason in words, the remedy); what is not listed gets its strerror and CHECK
CHECK = "Check the folder"
_WORDS: dict[int, tuple[str, str]] = {
    errno.ENOSPC: ("no space left on the device", "Free space on that disk"),
    errno.EDQUOT: ("disk quota exceeded", "Free space within your disk quota"),
    errno.EROFS: (
        "the file system is read-only",
        "Make its file system writable again (remount it)",
    ),  # fmt: skip
    errno.EACCES: ("permission denied", "Give yourself write permission on that folder"),
    errno.EPERM: ("operation not permitted", "Give yourself write permission on that folder"),
    errno.EIO: (
        "an input/output error (the disk may be failing)",
        "Check the disk and its connection (the system log names the error)",
    ),  # fmt: skip
    errno.ENOENT: (
        "the folder is gone (removed while the command ran)",
        "Leave the folder in place while the command runs",
    ),  # fmt: skip
}


def reason_of(exc: OSError) -> tuple[str, str]:
    """(why the write failed, in words; the remedy) for an OSError."""
    if exc.errno in _WORDS:
        return _WORDS[exc.errno]
    return (exc.strerror or str(exc)).lower(), CHECK


class Fault(SimError):
    """A fault of the machine stopped the command; what was stored is kept. Its one line says
    what happened, what is kept and the fix: `remedy`, then `then`."""

    exit_code = FAULT_EXIT

    def __init__(self, message: str, *, remedy: str, kept: str | None = None, then: str = AGAIN,
                 file: str | os.PathLike[str] | None = None) -> None:  # fmt: skip
        super().__init__(message, file=file)
        self.remedy = remedy
        self.kept = kept
        self.then = then

    @property
    def happened(self) -> str:
        """What happened, without what is kept and the fix (as the manifest records it)."""
        return " ".join(self.message.splitlines())

    def __str__(self) -> str:
        kept = f"; kept: {self.kept}" if self.kept else ""
        return " ".join(f"{self.happened}{kept}. {self.remedy}, then {self.then}.".split())

    def __reduce__(self) -> tuple[Any, ...]:
        # every field, whatever the subclass's own arguments (a worker's fault crosses intact)
        return (_rebuild, (type(self), self.message, dict(vars(self))))


def _rebuild(cls: type[Fault], message: str, state: dict[str, Any]) -> Fault:
    fault = cls.__new__(cls)
    Exception.__init__(fault, message)
    vars(fault).update(state)
    return fault


class WriteFault(Fault):
    """An OSError met while writing: `cannot <verb> <what> (<path>): <reason>`."""

    def __init__(self, what: str, path: str | os.PathLike[str], exc: OSError, *,
                 verb: str = "write") -> None:  # fmt: skip
        reason, remedy = reason_of(exc)
        super().__init__(f"cannot {verb} {what} ({os.fspath(path)}): {reason}", remedy=remedy,
                         file=path)  # fmt: skip
        self.errno = exc.errno


class ClusterLost(Fault):
    """The Dask cluster a run plays on went away (its scheduler, or every worker)."""


@contextmanager
def writing(what: str, path: str | os.PathLike[str], *, verb: str = "write") -> Iterator[None]:
    """Writes to `path` (a file, or a folder written into) inside: an OSError becomes a
    WriteFault naming `what` (the manifest, a results part, the report, ...) and the file."""
    try:
        yield
    except OSError as exc:
        raise WriteFault(what, path, exc, verb=verb) from None


@contextmanager
def keeping(kept: Callable[[], str | None], *, then: str | None = None) -> Iterator[None]:
    """Work inside that stores something: a Fault raised in it says what is kept (`kept()`,
    asked when the fault happens; an outer `keeping` knows more and has the last word) and
    what to run once the fault is mended (`then`)."""
    try:
        yield
    except Fault as fault:
        try:
            found = kept()
        except Exception:  # noqa: BLE001 - a folder that cannot be read: say nothing false
            found = None
        if found:
            fault.kept = found
        if then:
            fault.then = then
        raise


def stop_reason(exc: BaseException) -> str:
    """One line on why a command stopped, for the manifest and the next run's note."""
    if isinstance(exc, Fault):
        return exc.happened
    if isinstance(exc, SimError):
        return str(exc)
    return " ".join(f"{type(exc).__name__}: {exc}".split())
