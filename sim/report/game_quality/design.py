"""What an experiment's arms are for, as the quality section reads them (docs/reports.md,
`quality`): the level each arm is played at, the tables the per-level questions describe, the
mixed tables skill depth is read from, and the groups of arms that replay the same deals with
the players' seats rotated.

- **level**: the arm's skill level (experiments with `skills:`); else the value of the game's
  setting columns (Space Invaders: the printed level); else, for an even table (every seat the
  same strategy), that strategy; else none ('').
- **replay group**: two or more arms, each one seating with no rotation, with the same rules
  and players, whose seatings are the first one's moved on seat by seat, in the order the arms
  are listed (the second arm seats the first arm's seat-1 player in seat 2, and so on). Game i
  of every arm is the same deal (the same seed), so each deal is played with every player in
  every seat.
- **mixed table**: an arm (not in a replay group) whose pool lists two or more different
  strategies, each once, seated over several seatings (a rotated pool, a ladder): skill depth
  compares its strategies in the order its pool lists them, weakest first. (A pool that
  repeats a strategy, such as one buyer among three alike, is a table, not a ladder.)
- **views**: per level, the arms the per-level questions describe: the baseline arm of that
  level when the experiment names one, else its arms outside replay groups and mixed tables
  (or the mixed tables, when that leaves none), their games taken together by game index.
  Arms without a level are described only when no arm has one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sim.measures.spec import GameMeasures
from sim.report import levels as skills
from sim.report.data import Results
from sim.results import StoredArm


@dataclass(frozen=True)
class Arm:
    name: str
    level: str
    seats: tuple[tuple[str, ...], ...]  # the seatings (labels by seat), one per table
    pool: tuple[str, ...]  # the strategies in the order the experiment lists them
    players: int
    rules: dict[str, Any]
    ladder: bool = False  # a pool of two or more different strategies, each listed once

    @property
    def strategies(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(label for table in self.seats for label in table))

    @property
    def single_seating(self) -> bool:
        return len(self.seats) == 1


@dataclass
class ReplayGroup:
    arms: list[str]  # in rotation order: arm r seats the first arm's player of seat k at k + r
    base: tuple[str, ...]  # the first arm's seating
    level: str


@dataclass
class Design:
    arms: dict[str, Arm]
    levels: list[str]
    views: dict[str, list[str]] = field(default_factory=dict)
    mixed: dict[str, list[str]] = field(default_factory=dict)  # level -> mixed tables
    replays: list[ReplayGroup] = field(default_factory=list)
    baselines: dict[str, str] = field(default_factory=dict)  # level -> its baseline arm

    def others(self, level: str) -> list[str]:
        """The arms compared with the level's baseline (not in a replay group)."""
        base = self.baselines.get(level)
        replayed = {a for g in self.replays for a in g.arms}
        return [
            a
            for a, arm in self.arms.items()
            if arm.level == level and a != base and a not in replayed
        ]


def _seatings(entry: dict[str, Any], players: int) -> tuple[tuple[str, ...], ...]:
    lineup = [str(x) for x in entry.get("lineup") or []]
    tables = entry.get("tables")
    if tables and lineup:
        return tuple(tuple(lineup[j] for j in table) for table in tables)
    pool = [str(x) for x in entry.get("pool") or lineup]
    if not pool:
        return ()
    if str(entry.get("rotate", "none")) in ("none", "false", "False"):
        return (tuple(pool[:players]),)
    return tuple(tuple(pool[(r + k) % len(pool)] for k in range(players)) for r in range(len(pool)))


def _level(results: Results, name: str, entry: dict[str, Any], seats, spec: GameMeasures) -> str:
    info = results.arm(name)
    if skills.SKILL in results.games.columns:
        return skills.arm_level(info)
    if spec.settings:
        games = results.arm_games(name)
        values = [
            str(games.get_column(c)[0])
            for c in spec.settings
            if c in games.columns and games.height
        ]
        return ", ".join(values)
    labels = {label for table in seats for label in table}
    return next(iter(labels)) if len(labels) == 1 else ""


def read_design(results: Results, spec: GameMeasures) -> Design:
    present = set(results.games.get_column("arm").unique().to_list())
    entries = {
        str(e.get("name")): e for e in results.manifest.get("arms", []) if isinstance(e, dict)
    }
    arms: dict[str, Arm] = {}
    for info in results.arms:
        if info.name not in present:
            continue
        entry = entries.get(info.name, {})
        seats = _seatings(entry, info.players)
        listed = [str(x) for x in entry.get("pool") or info.lineup]
        arms[info.name] = Arm(
            info.name,
            _level(results, info.name, entry, seats, spec),
            seats,
            tuple(dict.fromkeys(listed)),
            info.players,
            dict(info.rules),
            len(listed) >= 2 and len(set(listed)) == len(listed),
        )
    levels = list(dict.fromkeys(a.level for a in arms.values()))
    design = Design(arms, levels)
    design.replays = _replay_groups(arms)
    replayed = {a for g in design.replays for a in g.arms}
    baseline = results.baseline
    for level in levels:
        at_level = [a for a, arm in arms.items() if arm.level == level]
        here = [a for a in at_level if a not in replayed]
        mixed = [a for a in here if arms[a].ladder and not arms[a].single_seating]
        design.mixed[level] = mixed
        base = _baseline_at(results, baseline, level, here)
        if base is not None:
            design.baselines[level] = base
            design.views[level] = [base]
        else:  # the plain tables, else the mixed ones, else the replayed deals
            plain = [a for a in here if a not in mixed]
            design.views[level] = plain or mixed or at_level
    named = [lv for lv in levels if lv and design.views[lv]]
    design.levels = named or [lv for lv in levels if design.views[lv]][:1]
    return design


def _baseline_at(results: Results, baseline: str | None, level: str, here: list[str]):
    if not baseline or len(here) < 2:
        return None
    base = baseline.rsplit("@", 1)[0] if "@" in baseline else baseline
    for name in here:
        info = results.arm(name)
        if name == baseline or skills.base_name(info) == base:
            return name
    return None


def _replay_groups(arms: dict[str, Arm]) -> list[ReplayGroup]:
    """Arms that replay the first one's deals with its seating moved on seat by seat."""
    groups: list[ReplayGroup] = []
    used: set[str] = set()
    single = [a for a in arms.values() if a.single_seating and a.seats]
    for i, first in enumerate(single):
        if first.name in used:
            continue
        base = first.seats[0]
        members = [first.name]
        for other in single[i + 1 :]:
            r = len(members)
            if r >= first.players:
                break
            if (
                other.name not in used
                and other.players == first.players
                and other.rules == first.rules
                and other.level == first.level
                and other.seats[0] == _moved(base, r)
            ):
                members.append(other.name)
        if len(members) > 1:
            used.update(members)
            groups.append(ReplayGroup(members, base, first.level))
    return groups


def _moved(base: tuple[str, ...], r: int) -> tuple[str, ...]:
    """The seating with every player moved r seats on: seat k holds base[(k - r) mod P]."""
    p = len(base)
    return tuple(base[(k - r) % p] for k in range(p))


# --- columns ----------------------------------------------------------------------------------


def has_columns(arms: list[StoredArm], games: tuple[str, ...], seats: tuple[str, ...]) -> bool:
    return all(set(games) <= set(a.games.columns) and set(seats) <= set(a.seats.columns)
               for a in arms)  # fmt: skip
