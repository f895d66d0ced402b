"""Built-in alien-raid strategies by name, their compiled policies and parameters. A strategy
is a module of this package (PARAMS and a compiled `policy`, see common.py); the rules call its
policy through a function pointer (decision.py)."""

from sim.config.fields import Field
from strategies.alien_raid.ladder import KNOB, LADDER
from strategies.registry import ModuleRegistry

# every built-in strategy: the ladder, weakest first (tests/games/alien_raid/test_ladder.py),
# then its continuous knob
BUILTIN = (*LADDER, KNOB[0])
REGISTRY = ModuleRegistry("strategies.alien_raid", BUILTIN,
                          fields={KNOB[1]: Field("float", min=0, max=1)})  # fmt: skip
