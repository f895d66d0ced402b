"""What every section builder receives: the loaded results and the report's settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from sim.measures import Registry, Value, registry_for
from sim.report.data import Results
from sim.report.plain import Plain
from sim.report.plain import for_game as plain_for
from sim.report.table import ARM, Column
from sim.results import StoredArm
from sim.stats.tolerances import Tolerance, resolve

LINEUP = "seats"  # the column of named arms that change the players (their lineup, as stored)


@dataclass
class Context:
    results: Results
    n_boot: int = 1000  # bootstrap resamples for break-even intervals
    seed: int = 20240101  # the bootstrap's seed: the same data give the same report
    level: float = 0.95
    notes: list[str] = field(default_factory=list)  # caveats shown under the page header

    @cached_property
    def registry(self) -> Registry:
        """The game's measures (sim/measures): every number a section reports is one."""
        return registry_for(self.results.game)

    @cached_property
    def plain(self) -> Plain:
        """The game's plain words for rule keys and settings (sim/report/plain.py)."""
        arms = self.results.arms
        preset = (arms[0].ruleset_ref or arms[0].ruleset) if arms else ""
        return plain_for(self.results.game, preset)

    def measure(self, arm: str | StoredArm, name: str) -> Value:
        """The registry's measure `name` on one arm (by name, or a part of one:
        `StoredArm.where`); a named arm's, once per loaded results."""
        measure = self.registry.get(name)
        if not isinstance(arm, str):
            return measure.estimate(arm)
        return self.results.remember(("estimate", name, arm),
                                     lambda: measure.estimate(self._stored(arm)))  # fmt: skip

    def paired(self, base: str | StoredArm, arm: str | StoredArm, name: str) -> Value:
        """The registry's measure `name`, `arm` minus `base`, on the games both played; two
        named arms', once per loaded results."""
        measure = self.registry.get(name)

        def difference() -> Value:
            return measure.paired(self._stored(base), self._stored(arm))

        if not (isinstance(base, str) and isinstance(arm, str)):
            return difference()
        return self.results.remember(("paired", name, base, arm), difference)

    def _stored(self, arm: str | StoredArm) -> StoredArm:
        return self.results.stored(arm) if isinstance(arm, str) else arm

    def tolerance(self, name: str) -> Tolerance:
        """The experiment's tolerance for a question (its `tolerances` key, else the default
        of sim/stats/tolerances.py)."""
        return resolve(self.results.manifest.get("tolerances"))[name]

    @property
    def games_per_arm(self) -> int:
        return self.results.games_per_arm

    @property
    def arm_names(self) -> list[str]:
        """Arms in the manifest's order that have games."""
        present = set(self.results.games.get_column("arm").unique().to_list())
        return [a.name for a in self.results.arms if a.name in present]

    def label_columns(self, exclude: tuple[str, ...] = ()) -> list[str]:
        """Columns telling the arms apart (players, ruleset, varying parameters)."""
        return [c for c in self.results.varying() if c not in exclude]

    def arm_columns(self, exclude: tuple[str, ...] = ()) -> list[Column]:
        """Table columns identifying an arm: its name (always, when the experiment names its
        arms), or the values that vary between arms."""
        keys = self.label_columns(exclude)
        if not keys or self.results.named_arms:
            return [ARM]
        return [Column.text(k, _pretty(k)) for k in keys]

    def arm_label(self, arm: str, *, longest: int = 48) -> str:
        """A chart's name for `arm`: its own name when the experiment names its arms, else the
        settings that tell the arms apart (the name when those would not fit on one line of
        `longest` characters)."""
        keys = [] if self.results.named_arms else self.label_columns()
        values = self.arm_values(arm)
        text = self.plain.label({k: values.get(k) for k in keys}) if keys else _named(self, arm)
        return text if len(text) <= longest else arm

    def arm_words(self, arm: str) -> str:
        """The arm in words for a sentence or an answer's rows: the settings that tell the arms
        apart ('4 players, every seat novice, starting rows 3'), else its name. Named arms
        whose players differ go by their names ('tactical never heals', 'master in seat 2'),
        as their tables and pictures name them: a lineup as stored
        ('tactical(heal=0),tactical(heal=0)') is a label, not words."""
        keys = self.label_columns()
        if not keys or (self.results.named_arms and LINEUP in keys):
            return _named(self, arm)
        values = self.arm_values(arm)
        return self.plain.settings({k: values.get(k) for k in keys})

    def arm_values(self, arm: str) -> dict[str, object]:
        """{'arm': name, column: value} for the label columns (first game's values)."""
        g = self.results.arm_games(arm)
        row: dict[str, object] = {"arm": arm}
        for c in ("players", "ruleset", *self.results.varying()):
            row[c] = g.get_column(c)[0] if g.height else None
        return row


def _named(ctx: Context, arm: str) -> str:
    """A named arm repeated at a skill level as 'baseline (club)', not 'baseline@club'."""
    from sim.report import levels

    info = ctx.results.arm(arm)
    level, base = levels.arm_level(info), levels.base_name(info)
    return f"{base} ({level})" if level and base != arm else arm


def _pretty(key: str) -> str:
    return {"players": "players", "ruleset": "preset"}.get(key, key)
