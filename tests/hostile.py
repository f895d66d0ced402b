"""Hostile files for the readers of user files (tests/test_hostile_files.py): random bytes,
random text, UTF-16, YAML of the wrong shape and shipped files mutated, as hypothesis
strategies; and the contract every reader keeps: it passes, or it refuses with a SimError
whose one line names the file (what the command line prints, exit code 2), never another
exception (a traceback)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from sim.errors import SimError

SIZE = 400  # characters or bytes of a random file: enough to reach past the first line

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
# any YAML value: scalars, lists and mappings, a few levels deep
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),  # fmt: skip
    max_leaves=12,
)


def as_yaml(value: Any) -> bytes:
    return yaml.safe_dump(value, allow_unicode=True).encode("utf-8")


def wrong_shapes(keys: tuple[str, ...]) -> st.SearchStrategy[bytes]:
    """YAML documents of the wrong shape: any value at the top, or the format's own keys
    holding any values."""
    top = values.map(as_yaml)
    own = st.dictionaries(st.sampled_from(keys), values, min_size=1, max_size=len(keys))
    return top | own.map(as_yaml)


def _paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (keys and indices) to a value inside a parsed document."""
    out = [prefix] if prefix else []
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            out += _paths(value, (*prefix, i))
    return out


def _replace(doc: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(doc, dict):
        return {k: (_replace(v, rest, value) if k == head else v) for k, v in doc.items()}
    return [(_replace(v, rest, value) if i == head else v) for i, v in enumerate(doc)]


@st.composite
def mutated(draw: st.DrawFn, files: list[Path]) -> bytes:
    """A shipped file, changed: one value anywhere replaced by any value (or the key
    dropped), or a stretch of its text cut out or repeated."""
    path = draw(st.sampled_from(files))
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".yaml" and draw(st.booleans()):
        doc = yaml.safe_load(text)
        places = _paths(doc)
        if places:
            place = draw(st.sampled_from(places))
            return as_yaml(_replace(doc, place, draw(values)))
    start = draw(st.integers(0, len(text)))
    stop = draw(st.integers(start, min(len(text), start + 80)))
    changed = text[:start] + text[stop:] if draw(st.booleans()) else text[:stop] + text[start:]
    return changed.encode("utf-8")


def hostile(keys: tuple[str, ...], files: list[Path]) -> st.SearchStrategy[bytes]:
    """Every kind of hostile content for a reader of files with top-level `keys`."""
    return st.one_of(
        st.binary(max_size=SIZE),
        st.text(max_size=SIZE).map(lambda s: s.encode("utf-8")),
        st.text(min_size=1, max_size=SIZE // 4).map(lambda s: s.encode("utf-16")),
        wrong_shapes(keys),
        mutated(files),
    )


def assert_clean(read: Callable[[str], Any], path: Path, *named: str) -> None:
    """`read(path)` passes, or raises a SimError the command line prints as one line that
    names the file (or each of `named`); any other exception fails the test."""
    try:
        read(str(path))
    except SimError as err:
        line = f"error: {err}"
        assert "\n" not in line, line
        for name in named or (os.path.basename(path),):
            assert name in line, line
