"""One run at a time per results folder: an advisory lock on `<folder>/.lock`.

Two runs writing one folder would store games twice (different chunk sizes) or overwrite each
other's manifest. The lock is an OS file lock (flock on POSIX, msvcrt on Windows), so the
operating system releases it when its process ends in any way, kill -9 included: a lock file
left behind by a killed run is not held, and the next run takes it over. The file names the
holder (process id, host, command, start time) for the refusal message and for reports.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sim.errors import SimError

LOCK_NAME = ".lock"

try:  # POSIX
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True

except ImportError:  # pragma: no cover - Windows
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True


@dataclass
class FolderLock:
    """A held lock; `previous` describes a holder that died without releasing it (or None)."""

    path: Path
    fd: int
    previous: dict[str, Any] | None = None

    def release(self) -> None:
        if self.fd < 0:
            return
        try:
            self.path.unlink(missing_ok=True)  # while still held: nobody locks a dead file
        finally:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> FolderLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def acquire(root: str | Path, *, what: str = "sim run") -> FolderLock:
    """Lock the folder `root` (which must exist) or raise SimError naming the holder."""
    path = Path(root) / LOCK_NAME
    for _ in range(5):  # the holder may release (and remove the file) while we open it
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        if not _try_lock(fd):
            holder = _read(fd)
            os.close(fd)
            raise SimError(
                f"is in use by another {holder.get('what', 'run')}: {describe(holder)}",
                file=root,
                hint="Two runs on one folder would mix their games. Wait for it to end, "
                f"stop it (kill {holder.get('pid', '<pid>')}), or choose another --out.",
            )
        if _same_file(fd, path):
            previous = _read(fd) or None
            _write(fd, what)
            return FolderLock(path, fd, previous)
        os.close(fd)  # locked a file that was removed meanwhile: try the new one
    raise SimError("could not lock the folder (it changed five times)", file=root)


def holder(root: str | Path) -> dict[str, Any] | None:
    """Who holds the lock of `root` now (pid, host, what, command, started), or None."""
    path = Path(root) / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return None
    try:
        if _try_lock(fd):
            return None  # nobody holds it (a file left by a killed run); ours is let go
        return _read(fd) or {"pid": "?"}
    finally:
        os.close(fd)  # closing also releases a lock taken by the probe


def describe(info: dict[str, Any]) -> str:
    where = f" on {info['host']}" if info.get("host") else ""
    since = f", started {info['started']}" if info.get("started") else ""
    command = f" ({info['command']})" if info.get("command") else ""
    return f"process {info.get('pid', '?')}{where}{command}{since}"


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False


def _read(fd: int) -> dict[str, Any]:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        found = json.loads(os.read(fd, 65536).decode("utf-8") or "{}")
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _write(fd: int, what: str) -> None:
    info = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "what": what,
        "command": " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(sys.argv)),
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, json.dumps(info).encode("utf-8"))
