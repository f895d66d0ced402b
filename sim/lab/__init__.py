"""The lab from Python (a notebook, a script): what the `sim` command does, as functions and
objects a notebook shows (each has an HTML form). `sim run` and `sim report` call the same.

    from sim import lab

    exp = lab.experiment("experiments/what_if.yaml", games=2000)    # a file, or a mapping
    exp = exp.set({"mine.step": 3}, seed=7)                         # as --set, --games, --seed
    results = lab.run(exp, out="results/try")     # progress bar; resumes an interrupted run
    results = lab.open_results("results/try")     # or a folder stored before

    results.games()                               # polars LazyFrame, one row per game
    results.seats(pandas=True)                    # pandas DataFrame, one row per game and seat
    results.measures(["close_rate", "seat_advantage.0"])    # value, low, high, se, n per arm
    results.compare("baseline", "steal_highest", ["close_rate"])   # b - a on the same games
    results.figure("quality_lead")                # a report figure, as a matplotlib Figure
    results.report()                              # the report, as `sim report` builds it
    lab.report("results/try", "reports/try")      # the same from a folder's path

    fitted = lab.playtest_fit("playtests.csv", "guardians", out="results/playtest")
    fitted.skills(); fitted.facts(); fitted.players()      # the lab's players fitted to them

The walk-through notebook is examples/notebooks/walkthrough.ipynb; docs/results.md lists every
column and how to read the tables from polars, pandas and DuckDB.
"""

from sim.lab.experiments import Experiment, experiment, run
from sim.lab.folder import ResultsFolder, open_results, report, to_pandas
from sim.lab.playtest import PlaytestFit, open_fit, playtest_fit

__all__ = [
    "Experiment",
    "PlaytestFit",
    "ResultsFolder",
    "experiment",
    "open_fit",
    "open_results",
    "playtest_fit",
    "report",
    "run",
    "to_pandas",
]
