"""The experiment file language: an experiment file (or a mapping, or the command line's
`--set`) read, checked and made into a frozen Experiment of arms before any game is played.
The format is documented in docs/results.md; parsing.py says how a file is read.

    from sim.experiment import load_experiment
    exp = load_experiment("experiments/missile_cost.yaml", ["missile.cost=8"], games=1000)
    exp.arms[0].lineup, exp.arms[0].tables      # who sits where, game by game

It knows the games through their plug-ins (sim.games) and plays nothing: the runner
(sim.runner) plays what it describes.
"""

from sim.experiment.model import Arm, Experiment, Precision
from sim.experiment.parsing import load_experiment, parse_experiment

__all__ = ["Arm", "Experiment", "Precision", "load_experiment", "parse_experiment"]
