"""One run at a time per results folder: an advisory lock on `<folder>/.lock`.

Two runs writing one folder would store games twice (different chunk sizes) or overwrite each
other's manifest. The lock is an OS file lock (flock on POSIX, msvcrt on Windows), so the
operating system releases it when its process ends in any way, kill -9 included: a lock file
left behind by a killed run is not held, and the next run takes it over. The file names the
holder (process id, host, command, start time) for the refusal message and for reports.

The file is written at its full size (LOCK_BYTES) when taken, so that it can be rewritten in
place later without asking the disk for space: a run stopped by a full disk whose manifest
cannot be written records why it stopped here instead (`record_stop`), and leaves the file for
the next run to read.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sim.errors import SimError
from sim.faults import writing

LOCK_NAME = ".lock"
LOCK_BYTES = 4096  # the file's size: the holder, and room for why it stopped

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
    info: dict[str, Any] | None = None  # what the file says of this holder
    recorded: bool = False  # why the run stopped is in the file: it stays for the next run

    def record_stop(self, stopped: dict[str, Any] | None) -> bool:
        """Write `stopped` (why the run stopped) into the file, in place: the last word of a
        run whose manifest cannot be written (None takes it back, once the manifest could
        say it). Whether it was written."""
        if self.fd < 0 or (stopped is None and not self.recorded):
            return False
        info = {**(self.info or {}), **({"stopped": stopped} if stopped else {})}
        try:
            os.pwrite(self.fd, _padded(info), 0)
        except OSError:
            return False
        self.recorded = stopped is not None
        return True

    def release(self) -> None:
        """Let the lock go and remove its file (kept when it records why the run stopped); a
        folder gone read-only or removed meanwhile is no reason to fail here."""
        if self.fd < 0:
            return
        try:
            if not self.recorded:  # while still held: nobody locks a dead file
                with contextlib.suppress(OSError):
                    self.path.unlink(missing_ok=True)
        finally:
            with contextlib.suppress(OSError):
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
        with writing("the folder's lock", path):
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
            try:
                with writing("the folder's lock", path):
                    info = _write(fd, what)
            except BaseException:
                os.close(fd)
                raise
            return FolderLock(path, fd, previous, info)
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


def _write(fd: int, what: str) -> dict[str, Any]:
    info = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "what": what,
        "command": " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(sys.argv)),
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    os.pwrite(fd, _padded(info), 0)  # in place: the file is never longer than LOCK_BYTES
    return info


def _padded(info: dict[str, Any]) -> bytes:
    """`info` as JSON, padded with spaces to LOCK_BYTES (a long `stopped.error` is cut)."""
    data = json.dumps(info).encode("utf-8")
    if len(data) > LOCK_BYTES and isinstance(info.get("stopped"), dict):
        stopped = dict(info["stopped"])
        over = len(data) - LOCK_BYTES + 10
        stopped["error"] = str(stopped.get("error", ""))[: -over or None] + " ..."
        data = json.dumps({**info, "stopped": stopped}).encode("utf-8")
    return data[:LOCK_BYTES].ljust(LOCK_BYTES)
