"""Built-in Space Invaders strategies by name, their compiled policies and parameter checks.

Every strategy's first parameter is `spread_scale`, the seat's own dexterity factor (it
multiplies the table's launch error: 1.5 for a child among adults)."""

from sim.config.fields import Field
from strategies.registry import ModuleRegistry
from strategies.space_invaders.ladder import KNOB, LADDER

BUILTIN = (*LADDER, KNOB[0])  # every built-in strategy: the ladder, then its knob
REGISTRY = ModuleRegistry(
    "strategies.space_invaders",
    BUILTIN,
    fields={
        "spread_scale": Field("float", min=0.1, max=5.0),
        KNOB[1]: Field("float", min=0, max=1),
    },
)
