"""Pig, the jeopardy dice game, as a balance-lab plug-in (README.md beside this package)."""
