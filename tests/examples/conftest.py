"""The example game packages (examples/<game>/) importable by their tests, as if installed:
their Python packages on the path. Their `sim.games` entry points are NOT declared here, so
the lab's own test session never plays them; the tests that drive `sim` through an example's
entry point install it in an environment of their own (test_pig_plugin.py)."""

from __future__ import annotations

import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

for package in ("pig", "plain_pig", "no_thanks"):
    if str(EXAMPLES / package) not in sys.path:
        sys.path.insert(0, str(EXAMPLES / package))
