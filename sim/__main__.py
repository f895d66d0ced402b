"""`python -m sim` is the `sim` command."""

from sim.cli import app

app()
