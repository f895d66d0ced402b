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


# A YAML syntax error in the lab's words: (what the parser's problem contains, what went wrong,
# how to fix it). The first that matches is said; the parser's own words otherwise.
_TAB = (
    "a tab character, where YAML allows only spaces",
    "Replace the tabs with spaces (two per level of indentation).",
)
_SYNTAX = (
    ("mapping values are not allowed", "a ':' where no new key can start here",
     "Put each 'key: value' on a line of its own, indented two spaces more than the key it "
     "belongs to, and quote a text that holds ': ' (title: 'Guardians: advanced')."),
    ("expected <block end>", "the line is indented differently from the keys around it",
     "Start the keys of one mapping in the same column, and indent a nested key two spaces "
     "more than the key above it (spaces, not tabs)."),
    ("did not find expected key", "the line is indented differently from the keys around it",
     "Start the keys of one mapping in the same column, and indent a nested key two spaces "
     "more than the key above it (spaces, not tabs)."),
    ("could not find expected ':'", "a line that is neither 'key: value' nor a list item",
     "Write key: value, with a space after the colon."),
    ("expected ',' or ']'", "a list in [ ] is not closed before this point",
     "Close the bracket on the line it opens: seats: [greedy, random]."),
    ("expected ',' or '}'", "a mapping in { } is not closed before this point",
     "Close the brace on the line it opens: rules: {missile.cost: 8}."),
    ("end of stream", "the file ends inside a quoted text or an open bracket",
     "Close the quote or the bracket opened above."),
)  # fmt: skip


def syntax_error(exc: yaml.MarkedYAMLError, text: str, source: Source) -> ConfigError:
    """A parser's syntax error as the lab says it: the file, the line and column, what is
    wrong in plain words and how to fix it, with the line quoted (tabs shown as \\t)."""
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or exc.context or "syntax error"
    lines = text.splitlines()
    shown = lines[mark.line] if mark is not None and mark.line < len(lines) else ""
    words, fix = next(((w, f) for key, w, f in _SYNTAX if key in problem),
                      (problem, "Check the indentation (spaces only, two per level) and the "
                       "quotes and brackets near this line."))  # fmt: skip
    if "\t" in shown or "'\\t'" in problem:  # the parsers word a tab in several ways
        words, fix = _TAB
    if mark is None:
        return ConfigError(f"invalid YAML: {words}", file=source, hint=fix)
    quoted = shown.replace("\t", "\\t").rstrip()
    reads = f" Line {mark.line + 1} reads: {quoted}" if quoted.strip() else ""
    return ConfigError(f"invalid YAML at column {mark.column + 1}: {words}", file=source,
                       line=mark.line + 1, hint=fix + reads)  # fmt: skip
