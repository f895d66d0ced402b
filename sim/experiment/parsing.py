"""Experiment files: parsed and validated into a frozen Experiment of arms before any game runs.

The format is documented in docs/results.md. Every error names the file (or the command-line
option), the key (``arms[1].rules.shot.steal``), the line where it can, and a suggestion.
Game-specific checks (rule keys and values, strategy names and parameters, player counts)
are the plugin's, reached through the game's plug-in; the errors it raises are re-labelled
with the experiment's key.

Parsing is a line of steps, each on a Reading (sim/experiment/reading.py: the data and where each
key was written): read the file; apply the command line to the raw mapping
(command_line.py); read `strategies` as `seats`; check each value once (checks.py, and for
the keys with a grammar of their own sweep.py, skills.py, precision_settings.py,
tolerance_settings.py); build the arms (arms.py). model.py holds the result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from sim.config.files import read_yaml
from sim.experiment import arms as arm_expansion
from sim.experiment import checks, command_line, skills
from sim.experiment.model import Experiment, jsonable
from sim.experiment.precision_settings import precision
from sim.experiment.reading import KeyPath, Reading
from sim.experiment.sweep import param_columns
from sim.experiment.tolerance_settings import tolerances
from sim.plugins.base import version


def load_experiment(
    path: str | Path,
    overrides: Sequence[str] | Mapping[str, Any] = (),
    *,
    games: int | None = None,
    seed: int | None = None,
) -> Experiment:
    """Read, override (``--set KEY=VALUE``, ``--games``, ``--seed``) and validate a file."""
    path = Path(path)
    data = read_yaml(path)  # missing file, YAML syntax (with line), top-level type
    text = path.read_text(encoding="utf-8")
    pairs = command_line.pairs(overrides, games=games, seed=seed)
    return _parse(Reading(data, file=str(path), text=text), pairs)


def parse_experiment(
    data: Mapping[str, Any],
    *,
    file: str | None = None,
    text: str = "",
    overrides: Sequence[tuple[str, Any] | command_line.Override] = (),
) -> Experiment:
    """Validate an experiment given as a mapping (the content of an experiment file), with
    overrides: (key, value) pairs as `--set` gives them, or (key, value, option) as
    `command_line.pairs` makes them (`--games`, `--seed`)."""
    pairs = [(o[0], o[1], o[2] if len(o) == 3 else "--set") for o in overrides]
    return _parse(Reading(dict(data), file=file, text=text), pairs)


def _parse(reading: Reading, overrides: list[command_line.Override]) -> Experiment:
    r = _seats_for_strategies(command_line.apply(reading, overrides))
    checks.top_keys(r)
    r = replace(r, game=checks.game(r))
    assert r.game is not None
    name, games, seed = checks.name(r), checks.games(r), checks.seed(r)
    report = checks.report_sections(r)
    if "sweep" in r.data and "arms" in r.data:
        raise r.fail(
            "give either a sweep or a list of arms, not both",
            ("arms",),
            "Use a sweep for a grid of values, arms for named what-ifs.",
        )
    if r.data.get("skills") not in (None, []):  # every arm at each level
        arms, baseline, columns = skills.repeat_arms(r)
    else:
        arms = arm_expansion.expand(r)
        baseline = checks.baseline(r, arms)
        columns = param_columns(r, arms)
    return Experiment(
        name=name,
        game=r.game.name,
        seed=seed,
        games=games,
        arms=tuple(arms),
        file=r.file,
        text=r.text,
        cli_overrides=tuple((k, jsonable(v)) for k, v, _ in overrides),
        baseline=baseline,
        precision=precision(r, games, arms),
        report=report,
        description=str(r.data.get("description", "") or ""),
        param_columns=columns,
        game_version=version(r.game),
        tolerances=tolerances(r),
    )


def _seats_for_strategies(r: Reading) -> Reading:
    """`strategies` (at the top and in an arm) read as `seats`; errors keep the user's word."""
    data, aliases, origin = dict(r.data), dict(r.aliases), dict(r.origin)
    places: list[tuple[dict[str, Any], KeyPath]] = [(data, ())]
    if isinstance(data.get("arms"), list):
        data["arms"] = [dict(a) if isinstance(a, Mapping) else a for a in data["arms"]]
        places += [(a, ("arms", i)) for i, a in enumerate(data["arms"]) if isinstance(a, dict)]
    for where, path in places:
        if "strategies" not in where:
            continue
        if "seats" in where:
            raise r.fail("give either seats or strategies (the same key), not both",
                         (*path, "strategies"))  # fmt: skip
        where["seats"] = where.pop("strategies")
        aliases[(*path, "seats")] = "strategies"
        for set_path, option in r.origin.items():  # a --set of strategies.1 names seats[1]
            if set_path[: len(path) + 1] == (*path, "strategies"):
                origin[(*path, "seats", *set_path[len(path) + 1 :])] = option
    return replace(r, data=data, aliases=aliases, origin=origin)
