"""Stopping a command: Ctrl-C and SIGTERM end a run the same way, with the games kept, a
message and the exit code a shell expects."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer

INTERRUPTED_EXIT = 130  # 128 + SIGINT, as a shell reports Ctrl-C; SIGTERM gives 128 + 15


@contextmanager
def sigterm_as_interrupt() -> Iterator[dict[str, int]]:
    """SIGTERM (sent by `timeout`, a job scheduler, a cancelled CI job) stops the run the way
    Ctrl-C does: finished chunks kept, workers stopped, the manifest closed, a message, and
    exit code 128 + 15. A second SIGTERM during that cleanup is ignored."""
    caught: dict[str, int] = {}

    def stop(signum: int, frame: Any) -> None:
        if "signal" in caught:
            return
        caught["signal"] = signum
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread: signals cannot be handled here
        yield caught
        return
    try:
        yield caught
    finally:
        signal.signal(signal.SIGTERM, previous)


def stopped_by(caught: dict[str, int]) -> str:
    return "terminated (SIGTERM)" if caught.get("signal") == signal.SIGTERM else "interrupted"


def exit_code(caught: dict[str, int]) -> int:
    return 128 + caught["signal"] if "signal" in caught else INTERRUPTED_EXIT


@contextmanager
def stopping(kept: str, *, catch: tuple[type[BaseException], ...] = ()) -> Iterator[None]:
    """Work a command may be stopped in (Ctrl-C, or SIGTERM as sigterm_as_interrupt makes it):
    the run's Interrupted (and `catch`) ends the command with one line, how it was stopped and
    `kept` (what is kept, how to go on), and the exit code a shell expects."""
    from sim.runner.execute import Interrupted

    with sigterm_as_interrupt() as caught:
        try:
            yield
        except (Interrupted, *catch):
            typer.echo(f"\n{stopped_by(caught)}: {kept}", err=True)
            raise typer.Exit(exit_code(caught)) from None
