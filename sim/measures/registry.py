"""A registry of measures: every name once, fixed names and families of names.

A *family* is a pattern with one placeholder, `win_share.seat.<k>` or `<outcome>_rate`, and a
factory that makes the measure for the text in its place (or None when the text does not fit,
for example an outcome the game does not have). `get(name)` tries the fixed names, then the
families in the order they were added; adding a name or a pattern twice is refused.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable

from sim.errors import SimError
from sim.measures.core import Measure

Factory = Callable[[str], Measure | None]
_PLACEHOLDER = re.compile(r"<([a-z_]+)>")


class UnknownMeasure(SimError):
    """A measure name no registry entry answers."""


class Registry:
    def __init__(self, measures: Iterable[Measure] = ()) -> None:
        self._fixed: dict[str, Measure] = {}
        self._families: dict[str, tuple[re.Pattern[str], Factory, str]] = {}
        self._examples: list[str] = []  # names the families answer, offered for a typo
        for m in measures:
            self.add(m)

    def add(self, measure: Measure) -> Measure:
        """Register a measure under its name; a name already taken is refused."""
        if not measure.name:
            raise ValueError(f"{measure!r} has no name")
        if measure.name in self._fixed:
            raise ValueError(f"a measure named {measure.name!r} is registered already")
        self._fixed[measure.name] = measure
        return measure

    def family(self, pattern: str, factory: Factory, about: str = "",
               examples: Iterable[str] = ()) -> None:  # fmt: skip
        """Register names of the form `pattern` (one `<placeholder>`, any text without a space
        in its place), made by `factory(text)`; `examples`: names of it that exist (offered
        when a name is mistyped)."""
        if pattern in self._families:
            raise ValueError(f"a measure family {pattern!r} is registered already")
        holes = _PLACEHOLDER.findall(pattern)
        if len(holes) != 1:
            raise ValueError(f"a family pattern has exactly one <placeholder>: {pattern!r}")
        head, tail = pattern.split(f"<{holes[0]}>")
        regex = re.compile(f"^{re.escape(head)}(\\S+?){re.escape(tail)}$")
        self._families[pattern] = (regex, factory, about)
        self._examples.extend(examples)

    def extend(self, other: Registry) -> None:
        """Add every entry of `other` (duplicates refused)."""
        for m in other._fixed.values():
            self.add(m)
        for pattern, (_, factory, about) in other._families.items():
            self.family(pattern, factory, about)
        self._examples.extend(other._examples)

    def find(self, name: str) -> Measure | None:
        if name in self._fixed:
            return self._fixed[name]
        for regex, factory, _ in self._families.values():
            m = regex.match(name)
            if m:
                found = factory(m.group(1))
                if found is not None:
                    return found
        return None

    def get(self, name: str, *, examples: Iterable[str] = ()) -> Measure:
        """The measure called `name`; if none, an UnknownMeasure error naming the closest of
        the names, the families' examples and `examples` (names the caller knows exist)."""
        found = self.find(name)
        if found is None:
            close = closest(name, [*self._fixed, *self._examples, *examples])
            hint = f"Did you mean '{close}'? " if close else ""
            raise UnknownMeasure(f"unknown measure {name!r}",
                                 hint=f"{hint}Measures: {', '.join(self.names())}.")  # fmt: skip
        return found

    def names(self) -> list[str]:
        """Fixed names, then the family patterns."""
        return [*self._fixed, *self._families]

    def describe(self) -> list[tuple[str, str]]:
        """(name or pattern, definition) for every entry."""
        return [(m.name, m.definition) for m in self._fixed.values()] + [
            (p, about) for p, (_, _, about) in self._families.items()
        ]

    def __contains__(self, name: str) -> bool:
        return self.find(name) is not None


def closest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate most like `name` (difflib), if any is close."""
    found = difflib.get_close_matches(name, list(dict.fromkeys(candidates)), n=1)
    return found[0] if found else None
