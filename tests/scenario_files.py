"""What every game's scenario tests share: its scenario files, each played to its `expect:`;
writing a scenario file in a test; and a malformed one refused with an error that names the
file and the key (any game's scenario format)."""

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


Test = Callable[..., None]


def every_scenario_plays(package: str, check: Callable[[str], str], *,
                         at_least: int) -> tuple[Test, Test]:  # fmt: skip
    """A game's two tests of its scenario files (tests/scenarios/<package>/): there are at least
    `at_least`, and each plays to its `expect:` (`check` returns no difference). A game's test
    module takes them as `test_there_are_enough_scenarios, test_scenario = ...`."""
    files = scenario_files(package)

    def test_there_are_enough_scenarios() -> None:
        assert len(files) >= at_least

    @pytest.mark.parametrize("path", files, ids=lambda p: p.stem)
    def test_scenario(path: Path) -> None:
        assert check(str(path)) == ""

    return test_there_are_enough_scenarios, test_scenario
