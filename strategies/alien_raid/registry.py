"""Built-in alien-raid strategies by name, their compiled policies, parameters and the skill
ladder. A strategy is a module of this package (PARAMS and a compiled `policy`, see
common.py); the rules call its policy through a function pointer (decision.py)."""

from sim.games.alien_raid.schema import SKILLS
from strategies.registry import ModuleRegistry

# every built-in strategy, weakest first (tests/games/alien_raid/test_ladder.py)
ORDER = LADDER = SKILLS
REGISTRY = ModuleRegistry("strategies.alien_raid", ORDER)
