"""How the `sim` command line reads and shows its options, written once for every command: a
switch (`--fresh`, `--quick`) is shown without a type, as it takes no value; and the two slips
the parser cannot explain, a switch given a value (`--fresh true`) and a `--set` written with
spaces (`--set missile.cost = 8`), are refused with the fix before anything runs.

Every command and group of `sim` is made with these classes (sim/cli.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

# words a user may give a switch, meaning "on" or "off"
SWITCH_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "1", "0"})


def _plain_switches(params: Sequence[Any]) -> None:
    """A switch (a flag) is shown without a type: `--fresh`, not `--fresh <bool>`."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""


def slip(args: Sequence[str], switches: Sequence[str]) -> str | None:
    """What is wrong with `args` and how to write it, for the slips the parser reports only as
    unexpected extra arguments; None when there is none of them. `switches` are the
    command's options that take no value."""
    for i, arg in enumerate(args):
        nxt = args[i + 1] if i + 1 < len(args) else None
        if arg in switches and nxt is not None and nxt.lower() in SWITCH_WORDS:
            off = nxt.lower() in ("false", "no", "off", "0")
            fix = "leave it out to keep it off." if off else f"write {arg} alone."
            return f"{arg} is a switch and takes no value (got '{nxt}'): {fix}"
        if arg == "--set" and nxt is not None:
            spaced = _spaced_setting(args[i + 1 : i + 4])
            if spaced:
                return (f"--set takes KEY=VALUE as one word, without spaces around '=': write "
                        f"--set {spaced}")  # fmt: skip
    return None


def _spaced_setting(words: Sequence[str]) -> str | None:
    """'missile.cost=8' when `words` start with a setting split at its '=' by spaces
    (`missile.cost = 8`, `missile.cost =8`, `missile.cost= 8`); else None."""
    key = words[0]
    rest = list(words[1:])
    if key.endswith("=") and key.count("=") == 1 and rest and not rest[0].startswith("-"):
        return f"{key}{rest[0]}"
    if "=" in key or not rest or not rest[0].startswith("="):
        return None
    if rest[0] == "=":
        return f"{key}={rest[1]}" if len(rest) > 1 and not rest[1].startswith("-") else None
    return f"{key}{rest[0]}"


def reflowed(text: str | None) -> str | None:
    """A docstring's paragraphs each on one line, for the terminal to wrap (its line breaks,
    made for the source's width, would show as ragged lines in --help)."""
    if not text:
        return text
    return "\n\n".join(" ".join(p.split()) for p in text.strip().split("\n\n"))


class SimCommand(TyperCommand):
    """A `sim` command: its help reflowed, switches shown without a type, the slips above
    explained."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = reflowed(self.help)

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        _plain_switches(params)
        return params

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        switches = [name for p in self.params if getattr(p, "is_flag", False) for name in p.opts]
        problem = slip(args, switches)
        if problem:
            ctx.fail(problem)
        return super().parse_args(ctx, args)


class SimGroup(TyperGroup):
    """A group of `sim` commands (`sim`, `sim rules`, `sim scenario`): its switches (--help,
    --version) shown without a type; its commands are listed in the order sim/cli.py writes
    them."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        _plain_switches(params)
        return params


def command(app: typer.Typer, name: str, *, panel: str | None = None) -> Any:
    """`app.command(name)` made with SimCommand, listed under `panel` in `sim --help`."""
    return app.command(name, cls=SimCommand, rich_help_panel=panel)


__all__ = ["SimCommand", "SimGroup", "command", "reflowed", "slip"]
