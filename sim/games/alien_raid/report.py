"""The alien-raid report sections, by the name an experiment's `report:` list uses. Each is
computed from the stored games only (polars); none imports the engine, the plug-in or the
strategies. sim.report.SECTIONS takes them in (one marked line), so the builders are imported
when a report is built, not when this module is (sim.report imports it)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any


def _later(module: str, name: str) -> Callable[[Any], Any]:
    def build(ctx: Any) -> Any:
        return getattr(import_module(f"sim.games.alien_raid.{module}"), name)(ctx)

    build.__name__ = f"{module}.{name}"
    return build


SECTIONS = {
    "alien_raid_cards": _later("report_cards", "build"),
    "alien_raid_credit_tasks": _later("report_play", "credit_tasks"),
    "alien_raid_raid_catch": _later("report_play", "raid_catch"),
    "alien_raid_fairness": _later("report_play", "fairness"),
}
