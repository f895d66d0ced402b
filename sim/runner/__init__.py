"""Running experiments: parse and validate experiment files, play their arms in chunks on
local workers or a Dask cluster, and store every game (see docs/results.md).

    from sim.runner import load_experiment, run
    exp = load_experiment("experiments/missile_cost.yaml", ["missile.cost=8"], games=1000)
    summary = run(exp, out="results/try", jobs=2)
"""

from sim.runner.execute import (
    DEFAULT_CHUNK_SIZE,
    Interrupted,
    RunSummary,
    default_jobs,
    play_task,
    run,
)
from sim.runner.experiment import Arm, Experiment, Precision
from sim.runner.parsing import load_experiment, parse_experiment
from sim.runner.seeds import game_seed, game_seeds
from sim.runner.tournament import ranking, tournament_experiment

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "Arm",
    "Experiment",
    "Interrupted",
    "Precision",
    "RunSummary",
    "default_jobs",
    "game_seed",
    "game_seeds",
    "load_experiment",
    "parse_experiment",
    "play_task",
    "ranking",
    "run",
    "tournament_experiment",
]
