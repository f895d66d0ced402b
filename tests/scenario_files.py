"""Writing scenario files in a test and checking that a malformed one is refused with an error
that names the file and the key (any game's scenario format)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sim.errors import ConfigError

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def scenario_files(package: str) -> list[Path]:
    """A game's scenario files: tests/scenarios/<package>/*.yaml, in order."""
    return sorted((SCENARIOS / package).glob("*.yaml"))


def write(folder: Path, text: str, name: str = "scenario.yaml") -> str:
    path = folder / name
    path.write_text(text)
    return str(path)


def assert_refused(check: Callable[[str], str], path: str, key: str,
                   error: type[ConfigError] = ConfigError) -> None:  # fmt: skip
    """`check(path)` raises `error` naming the file and `key`."""
    with pytest.raises(error) as err:
        check(path)
    assert path in str(err.value)
    assert f"'{key}'" in str(err.value)
