"""`sim scenario`: a scenario file names its game (`game:`, default guardians); the game's
plug-in plays and checks it in its own format."""

from __future__ import annotations

from pathlib import Path

import yaml

from sim.errors import SimError
from sim.games import get_game
from sim.games.base import Scenarios, scenarios


def _scenarios_of(path: str) -> Scenarios:
    file = Path(path)
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
    except OSError as err:
        raise SimError(f"cannot read the scenario ({err.strerror})", file=file) from None
    except yaml.YAMLError as err:
        raise SimError(f"not valid YAML: {err}", file=file) from None
    name = data.get("game", "guardians") if isinstance(data, dict) else "guardians"
    return scenarios(get_game(str(name), source=str(file)))


def run_scenario(path: str) -> str:
    """The scenario's moves played, the result in the scenario format."""
    return _scenarios_of(path).run_file(path)


def check_scenario(path: str) -> str:
    """'' when the scenario's result matches its `expect:`, else the differences."""
    return _scenarios_of(path).check_file(path)
