"""Pig's players. Each builds a roll table (pig/policy.py) for the ruleset it plays:

- `hold` (`{name: hold, at: 20}`): roll until the turn total reaches `at`;
- `optimal`: the exact optimal policy, by value iteration (values.py);
- the skill ladder (ladder.yaml, plain data, read by ladder.py): levels from `careless` to
  `optimal`, each a strategy with its parameters.

`registry.py` names them and checks a spec's parameters. A game's rules never import its
players: the plug-in (pig/plugin.py) hands the rules what `registry.resolve` finds.
"""
