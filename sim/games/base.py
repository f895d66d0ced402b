"""The plug-in interface under the name plug-ins were first written against: it is
sim.plugins.base (a game outside this project may still import it from here)."""

from sim.plugins.base import *  # noqa: F403
