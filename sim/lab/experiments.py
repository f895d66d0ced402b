"""An experiment from Python: read from a file or built from a mapping, with keys overridden as
`sim run --set/--games/--seed` does, and played by the same runner `sim run` uses.

    exp = experiment("experiments/what_if.yaml", {"mine.step": 3}, games=2000)
    exp = experiment({"ruleset": "guardians", "seats": "club", "games": 1000})
    exp = exp.set({"players": 3}, seed=7)      # a new experiment; this one is unchanged
    results = run(exp, out="results/try")     # a ResultsFolder (sim.lab.folder)
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from sim.config.keys import override_pairs
from sim.experiment import command_line
from sim.experiment.model import Arm, jsonable
from sim.experiment.model import Experiment as Parsed
from sim.experiment.parsing import load_experiment, parse_experiment
from sim.lab import html
from sim.lab.folder import ResultsFolder
from sim.lab.stops import stop_rule
from sim.runner.execute import run as play

Overrides = Mapping[str, Any] | Sequence[str] | Sequence[tuple[str, Any]]


@dataclass(frozen=True)
class Experiment:
    """A validated experiment (`parsed`, the runner's) and what it was made from: a file or a
    mapping, and the overrides applied to it in order. `set` makes a new one with more."""

    parsed: Parsed
    source: Path | Mapping[str, Any]
    overrides: tuple[tuple[str, Any], ...] = ()
    games_set: int | None = None  # as --games
    seed_set: int | None = None  # as --seed

    @property
    def name(self) -> str:
        return self.parsed.name

    @property
    def game(self) -> str:
        return self.parsed.game

    @property
    def games(self) -> int:
        """Games per arm."""
        return self.parsed.games

    @property
    def arms(self) -> list[str]:
        return [arm.name for arm in self.parsed.arms]

    def set(self, overrides: Overrides = (), *, games: int | None = None,
            seed: int | None = None) -> Experiment:  # fmt: skip
        """This experiment with more keys set (as `--set KEY=VALUE`: an experiment key, a
        dotted key inside one, or a rule key for every arm), or other games or seed."""
        return experiment(self, overrides, games=games, seed=seed)

    def run(self, **options: Any) -> ResultsFolder:
        """Play it: `sim.lab.run(self, **options)`."""
        return run(self, **options)

    def __repr__(self) -> str:  # the runner's experiment in full is `parsed`
        return (f"Experiment({self.name!r}, game={self.game!r}, arms={self.arms!r}, "
                f"games={self.games})")  # fmt: skip

    def _repr_html_(self) -> str:
        exp = self.parsed
        source = str(self.source) if isinstance(self.source, Path) else "a mapping"
        set_keys = [f"{k}={v}" for k, v in self.overrides]
        set_keys += [f"{k}={v}" for k, v in (("games", self.games_set), ("seed", self.seed_set))
                     if v is not None]  # fmt: skip
        facts = html.facts([
            ("game", f"{exp.game} (version {exp.game_version})"),
            ("from", source),
            ("overrides", ", ".join(set_keys) or None),
            ("games per arm", exp.games),
            ("root seed", exp.seed),
            ("baseline", exp.baseline),
            ("precision", None if exp.precision is None else f"until {exp.precision.text()}"),
            ("report sections", ", ".join(exp.report) or None),
        ])  # fmt: skip
        rows = [_arm_row(arm) for arm in exp.arms]
        if all(row["skill"] is None for row in rows):
            for row in rows:
                del row["skill"]
        columns = list(dict.fromkeys(k for row in rows for k in row))
        return html.panel(f"Experiment {exp.name}", exp.description, facts,
                          html.table(rows, columns))  # fmt: skip


def _arm_row(arm: Arm) -> dict[str, Any]:
    return {
        "index": arm.index,
        "arm": arm.name,
        "players": arm.players,
        "ruleset": arm.ruleset_name,
        "skill": arm.skill,
        "lineup": [spec.label for spec in arm.lineup],
        "seatings": len(arm.tables),
        **{k: jsonable(v) for k, v in arm.params},
    }


def experiment(
    source: str | Path | Mapping[str, Any] | Experiment,
    overrides: Overrides = (),
    *,
    games: int | None = None,
    seed: int | None = None,
) -> Experiment:
    """An experiment, validated before any game is played: from a file (its path), from a
    mapping (what a file would hold), or from an Experiment with more overrides. Overrides are
    a mapping or KEY=VALUE strings, read as `sim run --set` reads them; `games` and `seed` as
    `--games` and `--seed`. Bad input raises SimError naming the key and a fix."""
    if isinstance(source, Experiment):
        pairs = source.overrides + tuple(override_pairs(overrides))
        return _made(
            source.source,
            pairs,
            games=games if games is not None else source.games_set,
            seed=seed if seed is not None else source.seed_set,
        )
    return _made(source, tuple(override_pairs(overrides)), games=games, seed=seed)


def _made(
    source: str | Path | Mapping[str, Any],
    pairs: tuple[tuple[str, Any], ...],
    *,
    games: int | None,
    seed: int | None,
) -> Experiment:
    if isinstance(source, Mapping):
        data = copy.deepcopy(dict(source))  # later changes to the caller's mapping are not ours
        given = command_line.pairs(pairs, games=games, seed=seed)
        parsed = parse_experiment(data, overrides=given)
        # the manifest keeps the mapping as the experiment's text (parsed without it: a line
        # number into a text the user never saw would mislead)
        parsed = replace(parsed, text=yaml.safe_dump(jsonable(data), sort_keys=False))
        return Experiment(parsed, data, pairs, games, seed)
    path = Path(source)
    parsed = load_experiment(path, pairs, games=games, seed=seed)
    return Experiment(parsed, path, pairs, games, seed)


def _note(text: str) -> None:
    print(f"note: {text}", file=sys.stderr)


def run(
    experiment: Experiment | Parsed,
    *,
    on_note: Callable[[str], None] = _note,
    **options: Any,
) -> ResultsFolder:
    """Play the experiment as `sim run` does, with the runner's options (sim.runner.run: `out`,
    default results/<name>; `jobs`, `chunk_size`, `backend`, `address`, `fresh`, `progress`)
    until its `precision` key is met (sim.lab.stops): resuming what the folder holds,
    refusing another experiment's folder unless `fresh`; a progress bar on a terminal and in
    a notebook (with ipywidgets); what opening the folder found goes to `on_note` (default:
    stderr). Returns the folder, its `summary` the runner's
    summary. Raises sim.runner.Interrupted when stopped (the games stored are kept: the same
    call resumes) and SimError on bad input."""
    parsed = experiment.parsed if isinstance(experiment, Experiment) else experiment
    summary = play(parsed, on_note=on_note, stop=stop_rule(parsed), **options)
    return ResultsFolder(summary.out, summary=summary)
