"""`sim sensitivity FILE`: how much of each target's variation the numeric rule keys explain,
which keys and which interactions, and how much is luck.

The file is a tune file (its experiment and targets; docs/tune.md) with an optional section

    sensitivity:
      keys: [missile.cost, "upgrade.*"]  # default: the numeric knobs of `tune:`, else every key
      range: 0.25                         # a key that is no knob moves +-25% of its value
      games: 200                          # games per arm at each point
      trajectories: 10                    # Morris: one-at-a-time paths through the ranges
      base: 32                            # Sobol: Saltelli's base sample (a power of 2)
      max_keys: 6                         # Sobol on at most this many keys that matter

Two steps (sim/sensitivity/analysis.py, through SALib): Morris screening moves every key and
the game's seed one at a time along random paths and ranks them by their mean absolute effect
(mu*); Sobol's variance decomposition then runs on the keys that matter and the seed: each
key's first-order index (its share of the variation alone), its total index (with its
interactions), the second-order index of each pair, and the seed's total index: the luck of
`games` games. Every index has a bootstrap interval. A point is an experiment of its own,
played by the runner into `<out>/trials/<id>/` (as a tune's candidate; sim/tune/evaluate.py),
its seed the experiment's plus the seed factor's offset; points with the same seed play the
same games (common random numbers), which is what makes a key's effect visible against luck.

    sensitivity.json    the design, every point's targets, the indices
    report/             the picture first, a sentence per target and place, the tables
"""
