"""Bounds on YAML documents, checked before they are built: size, nesting depth and the
number of values that aliases expand to.

PyYAML builds an alias as a shared reference, so a "billion laughs" document (nine levels of
`&a [*a, *a, ...]`) loads in a blink but explodes in whatever walks it afterwards (flattening,
the line map, JSON); an alias inside its own anchor makes a cycle that no walk ends; and
PyYAML composes nested collections recursively, so a few thousand levels of `[[[...]]]`
overflow Python's stack. ``check(text, source)`` reads the parser's event stream (which is
iterative) once and refuses such documents with a ConfigError naming the file and the line.
Experiment, ruleset and scenario files are a few kilobytes; the bounds are far above them.
"""

from __future__ import annotations

import os
from typing import Any

import yaml

from sim.errors import ConfigError

MAX_BYTES = 1_000_000  # characters of a YAML document
MAX_DEPTH = 50  # collections inside collections
MAX_VALUES = 100_000  # scalars and collections, with every alias expanded

Source = str | os.PathLike[str] | None

# libyaml's parser where PyYAML was built with it (its wheels are), else the pure-Python one:
# the same documents, events and marks, about ten times faster (presets are read on every
# ruleset load). Every YAML reader of the lab parses through this one.
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(text: str) -> Any:
    """`yaml.safe_load` through the parser above (no bounds: `check` is for untrusted text)."""
    return yaml.load(text, Loader=SafeLoader)


def check(text: str, source: Source) -> None:
    """Raise ConfigError if `text` is too large, too deep or expands (aliases) too far."""
    if len(text) > MAX_BYTES:
        raise ConfigError(
            f"the document is {len(text):,} characters long; at most {MAX_BYTES:,} are read",
            file=source,
            hint="Experiment, ruleset and scenario files are a few kilobytes; is this the "
            "right file?",
        )
    _Walk(source).run(text)


class _Walk:
    """One pass over the events: a stack of open collections with their expanded sizes."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.open: list[list[Any]] = []  # [anchor, expanded size so far]
        self.sizes: dict[str, int] = {}  # anchor -> expanded size of its finished value
        self.total = 0

    def run(self, text: str) -> None:
        try:
            for event in yaml.parse(text, Loader=SafeLoader):
                self.step(event)
        except (yaml.YAMLError, ValueError) as exc:
            if "nesting depth" in str(getattr(exc, "problem", "")):  # libyaml's bound (1,000)
                raise self.too_deep(exc) from None
            return  # a syntax error (or an escape no character has): the loader reports it

    def step(self, event: Any) -> None:
        if isinstance(event, yaml.CollectionStartEvent):
            self.count(1, event)
            self.open.append([event.anchor, 1])
            if len(self.open) > MAX_DEPTH:
                raise self.too_deep(event)
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, size = self.open.pop()
            if anchor is not None:
                self.sizes[anchor] = size
            self.grow(size)
        elif isinstance(event, yaml.ScalarEvent):
            if event.anchor is not None:
                self.sizes[event.anchor] = 1
            self.count(1, event)
            self.grow(1)
        elif isinstance(event, yaml.AliasEvent):
            if any(anchor == event.anchor for anchor, _ in self.open):
                raise self.fail(
                    f"the alias *{event.anchor} stands inside its own anchor &{event.anchor}, "
                    "a value that contains itself",
                    event,
                    "Point the alias at a value defined before it, outside it.",
                )
            size = self.sizes.get(event.anchor, 1)
            self.count(size, event)
            self.grow(size)

    def grow(self, size: int) -> None:
        """The open collection (if any) holds `size` more values, aliases expanded."""
        if self.open:
            self.open[-1][1] += size

    def count(self, size: int, event: Any) -> None:
        """`size` more values in the document, aliases expanded."""
        self.total += size
        if self.total > MAX_VALUES:
            raise self.fail(
                f"the document expands to more than {MAX_VALUES:,} values (aliases repeat "
                "what they point at)",
                event,
                "Write the values out, or use fewer aliases.",
            )

    def too_deep(self, where: Any) -> ConfigError:
        return self.fail(
            f"nested more than {MAX_DEPTH} levels deep", where, "Flatten the document."
        )

    def fail(self, message: str, where: Any, hint: str) -> ConfigError:
        """The error at an event, or at a parser error's mark."""
        mark = getattr(where, "start_mark", None) or getattr(where, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        return ConfigError(f"invalid YAML: {message}", file=self.source, line=line, hint=hint)
