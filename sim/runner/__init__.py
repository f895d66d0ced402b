"""The runner: an experiment's games played in chunks, on local workers or a Dask cluster,
and stored (see docs/results.md). It plays what the experiment language (sim.experiment)
describes; the caller hands it the rule that says when to stop adding games.

    from sim.experiment import load_experiment
    from sim.runner import run
    exp = load_experiment("experiments/missile_cost.yaml", ["missile.cost=8"], games=1000)
    summary = run(exp, out="results/try", jobs=2)
"""

from sim.runner.execute import Interrupted, RunSummary, run
from sim.runner.options import DEFAULT_CHUNK_SIZE, RunOptions, default_jobs
from sim.runner.tasks import simulate_task

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "Interrupted",
    "RunOptions",
    "RunSummary",
    "default_jobs",
    "simulate_task",
    "run",
]
