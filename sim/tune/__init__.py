"""`sim tune`: find the rule values that meet a designer's targets, with intervals, at every
skill level; `sim screen`: which rule keys move the targets at all.

A tune file is an experiment (the keys of `sim run`: game, ruleset, rules, players, seats,
skills, arms, games, seed ...) plus

    tune:      the knobs: rule keys with a range or a list of choices (sim/tune/knobs.py)
    targets:   named measures of the game's registry (sim.measures) with a value or a band, a
               tolerance, the skill levels and arms they must hold at (sim/tune/targets.py)
    search:    trials, rungs, the share kept at each rung, the candidates confirmed, the
               sampler (sim/tune/spec.py)

How it works: an optuna study in the output folder (a journal file) asks for candidates; each
is played by the runner into its own results folder on the runner's seeds (game i has the
same seed for every candidate: common random numbers), first on the first rung's games, and
goes on to the next rung only while it ranks among the best (successive halving,
sim/tune/search.py). The best few are then replayed at the experiment's `games` per arm and
every target gets its 95% interval and a verdict, met / missed / not distinguishable
(sim/tune/confirm.py, sim/tune/verdict.py). The recommendation is written as rule overrides
(`recommended.yaml`, usable as an experiment's `rules:`), printed, and reported with pictures
(sim/tune/report.py). A stopped tune resumes: the study's trials and every candidate's games
are kept.

    from sim.runner.options import RunOptions
    from sim.tune import load_tune, run_tune
    tune = load_tune("experiments/tune_missile.yaml")
    summary = run_tune(tune, root=Path("results/tune_missile"), options=RunOptions(jobs=2))
    summary["recommended"]["rules"]   # {'missile.cost': 13}
"""

from importlib import import_module
from typing import Any

_API = {"Tune": "sim.tune.spec", "load_tune": "sim.tune.spec", "parse_tune": "sim.tune.spec",
        "run_tune": "sim.tune.run"}  # fmt: skip
__all__ = list(_API)


def __getattr__(name: str) -> Any:
    """The API, imported on first use: the report (sim.tune.report) reads a tune's folder
    without the runner."""
    if name not in _API:
        raise AttributeError(f"module 'sim.tune' has no attribute {name!r}")
    return getattr(import_module(_API[name]), name)
