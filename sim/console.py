"""Where the lab draws a live display (a progress bar, the compiling spinner): on a terminal,
and in a Jupyter notebook when ipywidgets is installed (rich draws into a widget there; `pip
install jupyter` and the test extras bring it). Elsewhere (a log, a pipe, a notebook without
ipywidgets) nothing is drawn live: the plain lines the commands print say what happened."""

from __future__ import annotations

from importlib.util import find_spec
from typing import Any


def draws_live(console: Any) -> bool:
    """Whether this rich Console can show a live display."""
    if console.is_terminal:
        return True
    return bool(console.is_jupyter) and find_spec("ipywidgets") is not None
