"""Built-in alien-raid strategies by name, their compiled policies, parameters and the skill
ladder. A strategy is a module of this package (PARAMS and a compiled `policy`, see
common.py); the rules call its policy through a function pointer (decision.py)."""

from sim.games.alien_raid.schema import SKILLS
from strategies.registry import ModuleRegistry

ORDER = LADDER = SKILLS  # every built-in strategy, weakest first (tests/alien_raid/test_ladder.py)
REGISTRY = ModuleRegistry("strategies.alien_raid", ORDER)
