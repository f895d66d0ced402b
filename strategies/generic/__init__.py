"""Players for any plain-Python game (sim/plain/): they know nothing of a game's rules but
what its state offers (the legal actions, applying one, the end, and where given the
heuristic `value` and, for hidden information, `resample`). One file each:

- `random.py`: a legal action, each as likely;
- `greedy.py`: the action whose outcome the game's heuristic values most, one step ahead;
- `mcts.py`: Monte Carlo tree search, open loop (chance drawn anew in every simulation),
  planning on resampled states where the seat cannot see everything (information-set
  search); its budget of simulations is the skill knob;
- `ladder.py`: the skill ladder, novice .. master, as points on that knob (plain data).
"""
