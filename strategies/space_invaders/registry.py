"""Built-in Space Invaders strategies by name, their compiled policies and parameter checks.

Every strategy's first parameter is `spread_scale`, the seat's own dexterity factor (it
multiplies the table's launch error: 1.5 for a child among adults)."""

from sim.config import Field
from sim.games.space_invaders.schema import TEAM_SKILLS as ORDER
from strategies.registry import ModuleRegistry

# the team-skill ladder, weakest first
SKILLS = ORDER
REGISTRY = ModuleRegistry("strategies.space_invaders", ORDER,
                          fields={"spread_scale": Field("float", min=0.1, max=5.0)})  # fmt: skip
