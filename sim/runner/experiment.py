"""Experiment files: parsed and validated into a frozen Experiment of arms before any game runs.

The format is documented in docs/results.md. Every error names the file (or ``--set``), the key
(``arms[1].rules.shot.steal``), the line where it can, and a suggestion. Game-specific checks
(rule keys and values, strategy names and parameters, player counts) are the plugin's, reached
through ``get_game(name)``; the errors it raises are re-labelled with the experiment's key.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from sim.config import flatten, nearest, override_pairs, read_yaml
from sim.errors import ConfigError
from sim.games import get_game
from sim.games.base import Game, StrategySpec, outcomes, player_counts
from sim.runner.lineups import ROTATIONS, build_lineup

TOP_KEYS = (
    "name", "description", "game", "ruleset", "rules", "players", "seats", "strategies", "pool",
    "rotate", "games", "seed", "sweep", "arms", "baseline", "precision", "report",
)  # fmt: skip
ARM_KEYS = (
    "name", "description", "ruleset", "rules", "players", "seats", "strategies", "pool", "rotate",
)  # fmt: skip
PRECISION_KEYS = ("metric", "width", "step", "max_games")
REPORT_SECTIONS = (
    "first_player", "mine_value", "missile_pricing", "upgrade_pricing", "power_up_pricing",
    "difficulty", "what_if",
    # the alien-raid plug-in's sections (issue 18):
    "alien_raid_cards", "alien_raid_credit_tasks", "alien_raid_raid_catch", "alien_raid_fairness",
)  # fmt: skip
# sweep keys that are not rule keys; `seats.<k>`, `seats.<k>.<param>`, `seats.all[.<param>]`
SWEEP_SPECIAL = ("players", "ruleset")
# columns the runner writes itself; parameter columns must not take these names
BASE_COLUMNS = ("arm", "game", "seed", "players", "ruleset", "seat")

DEFAULT_GAMES = 10_000
DEFAULT_SEED = 0
DEFAULT_MAX_GAMES = 1_000_000
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_SEAT_KEY_RE = re.compile(r"^seats\.(\d+|all)(?:\.([A-Za-z_][A-Za-z0-9_]*))?$")
_SEED_MAX = 2**63 - 1

Path_ = tuple[str | int, ...]


# --- the parsed experiment ----------------------------------------------------------------


@dataclass(frozen=True)
class Arm:
    """One setting of the experiment: a ruleset, players and a lineup, played `games` times."""

    index: int
    name: str
    ruleset_ref: str  # preset name or absolute path of a ruleset file
    overrides: tuple[tuple[str, Any], ...]  # rule overrides on top of ruleset_ref, in order
    ruleset: Any = field(compare=False, repr=False)  # the plugin's effective ruleset
    players: int = 4
    pool: tuple[StrategySpec, ...] = ()
    rotate: str = "none"
    lineup: tuple[StrategySpec, ...] = ()  # distinct strategies; tables index into it
    tables: tuple[tuple[int, ...], ...] = ()  # lineup index per seat, one row per table
    params: tuple[tuple[str, Any], ...] = ()  # parameter column -> value

    @property
    def ruleset_name(self) -> str:
        return str(self.ruleset.name)

    def table_array(self) -> np.ndarray:
        return np.array(self.tables, dtype=np.int64)

    def effective(self) -> dict[str, Any]:
        """What decides this arm's games (JSON-able)."""
        return {
            "name": self.name,
            "ruleset": self.ruleset_name,
            "ruleset_fingerprint": self.ruleset.fingerprint(),
            "players": self.players,
            "lineup": [spec.label for spec in self.lineup],
            "tables": [list(t) for t in self.tables],
            "params": {k: _jsonable(v) for k, v in self.params},
        }


@dataclass(frozen=True)
class Precision:
    """Add games in steps of `step` until `metric`'s 95% interval is narrower than `width`."""

    metric: str
    width: float
    step: int
    max_games: int


@dataclass(frozen=True)
class Experiment:
    name: str
    game: str
    seed: int
    games: int  # per arm (the first checkpoint when `precision` is set)
    arms: tuple[Arm, ...]
    file: str | None = None
    text: str = ""  # the experiment file as read
    cli_overrides: tuple[tuple[str, Any], ...] = ()
    baseline: str | None = None
    precision: Precision | None = None
    report: tuple[str, ...] = ()
    description: str = ""
    param_columns: tuple[tuple[str, str], ...] = ()  # (column, kind: int|float|bool|str)

    def arm(self, name: str) -> Arm:
        for arm in self.arms:
            if arm.name == name:
                return arm
        raise KeyError(name)

    def effective(self) -> dict[str, Any]:
        """Everything that decides the games (not the number of games nor the chunking)."""
        return {
            "game": self.game,
            "seed": self.seed,
            "param_columns": [list(c) for c in self.param_columns],
            "arms": [arm.effective() for arm in self.arms],
        }

    def fingerprint(self) -> str:
        canonical = json.dumps(self.effective(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]

    def with_games(self, games: int) -> Experiment:
        return _replace(self, games=games)


def _replace(exp: Experiment, **changes: Any) -> Experiment:
    from dataclasses import replace

    return replace(exp, **changes)


# --- loading ------------------------------------------------------------------------------


def load_experiment(
    path: str | Path,
    overrides: Sequence[str] | Mapping[str, Any] = (),
    *,
    games: int | None = None,
    seed: int | None = None,
) -> Experiment:
    """Read, override (``--set KEY=VALUE``, ``--games``, ``--seed``) and validate a file."""
    path = Path(path)
    data = read_yaml(path)  # missing file, YAML syntax (with line), top-level type
    text = path.read_text(encoding="utf-8")
    pairs = override_pairs(overrides, source="--set")
    if games is not None:
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise ConfigError(f"expected a positive number of games, got {games}", key="--games")
        pairs.append(("games", games))
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _SEED_MAX:
            raise ConfigError(f"expected a seed in 0..2**63-1, got {seed}", key="--seed")
        pairs.append(("seed", seed))
    return parse_experiment(data, file=str(path), text=text, overrides=pairs)


def parse_experiment(
    data: Mapping[str, Any],
    *,
    file: str | None = None,
    text: str = "",
    overrides: Sequence[tuple[str, Any]] = (),
) -> Experiment:
    """Validate an experiment given as a mapping (the content of an experiment file)."""
    return _Parser(dict(data), file=file, text=text).parse(list(overrides))


# --- the parser ---------------------------------------------------------------------------


@dataclass
class _Group:
    """Rule overrides from one place of the file (for re-labelling the plugin's errors)."""

    path: Path_
    pairs: list[tuple[str, Any]]
    cli: bool = False


@dataclass
class _Entry:
    """A seat entry and where it was written."""

    spec: StrategySpec
    path: Path_
    cli: bool = False


class _Parser:
    def __init__(self, data: dict[str, Any], *, file: str | None, text: str) -> None:
        self.data = data
        self.file = file
        self.text = text
        self.lines = _line_map(text)
        self.cli_paths: set[Path_] = set()
        self.cli_rules: list[tuple[str, Any]] = []
        self.game: Game | None = None
        self._strategy_ok: dict[StrategySpec, None] = {}
        self.aliases: dict[Path_, str] = {}  # path as parsed -> the key the file used
        self.base_dir = Path(file).resolve().parent if file else Path.cwd()

    # errors ---------------------------------------------------------------------------------

    def fail(self, message: str, path: Path_, hint: str | None = None) -> ConfigError:
        cli = any(path[: len(p)] == p for p in self.cli_paths)
        path = self._as_written(path)
        key = _render(path) if path else None
        if cli:
            return ConfigError(message, file="--set", key=key, hint=hint)
        return ConfigError(message, file=self.file, key=key, line=self._line(path), hint=hint)

    def _line(self, path: Path_) -> int | None:
        segments = _segments(path)
        for n in range(len(segments), 0, -1):
            if segments[:n] in self.lines:
                return self.lines[segments[:n]]
        return None

    def relabel(self, err: ConfigError, path: Path_) -> ConfigError:
        return self.fail(err.message, path, err.hint)

    # top level ------------------------------------------------------------------------------

    def parse(self, overrides: list[tuple[str, Any]]) -> Experiment:
        d = self.data
        for key in d:
            if key not in TOP_KEYS:
                raise self._unknown(key, TOP_KEYS, ())
        self.apply_cli(overrides)
        for key in d:  # --set may have added keys
            if key not in TOP_KEYS:
                raise self._unknown(key, TOP_KEYS, ())
        if "seats" in d and "strategies" in d:
            raise self.fail(
                "give either seats or strategies (the same key), not both", ("strategies",)
            )
        if "strategies" in d:
            d["seats"] = d.pop("strategies")
            self._rename_path("strategies", "seats")
        name = self.name()
        game_name = self.string("game", default="guardians")
        try:
            self.game = get_game(game_name, source=self.file)
        except ConfigError as err:
            raise self.relabel(err, ("game",)) from None
        games = self.integer(("games",), d.get("games", DEFAULT_GAMES), low=1)
        seed = self.integer(("seed",), d.get("seed", DEFAULT_SEED), low=0, high=_SEED_MAX)
        report = self.report()
        if "sweep" in d and "arms" in d:
            raise self.fail(
                "give either a sweep or a list of arms, not both",
                ("arms",),
                "Use a sweep for a grid of values, arms for named what-ifs.",
            )
        arms = self.arms()
        baseline = self.baseline(arms)
        precision = self.precision(games, arms)
        columns = self.param_columns(arms)
        return Experiment(
            name=name,
            game=game_name,
            seed=seed,
            games=games,
            arms=tuple(arms),
            file=self.file,
            text=self.text,
            cli_overrides=tuple((k, _jsonable(v)) for k, v in self._overrides),
            baseline=baseline,
            precision=precision,
            report=report,
            description=str(d.get("description", "") or ""),
            param_columns=columns,
        )

    def _unknown(self, key: Any, known: Sequence[str], where: Path_) -> ConfigError:
        near = nearest(str(key), known)
        hint = f"Did you mean '{near}'?" if near else f"Valid keys: {', '.join(known)}."
        return self.fail("unknown key", (*where, str(key)), hint)

    def _rename_path(self, old: str, new: str) -> None:
        """The file says `old` (strategies) for `new` (seats): errors keep the user's word."""
        for p in list(self.cli_paths):
            if p and p[0] == old:
                self.cli_paths.add((new, *p[1:]))
        self.aliases[(new,)] = old

    def _as_written(self, path: Path_) -> Path_:
        for n in (3, 1):
            alias = self.aliases.get(path[:n])
            if alias is not None:
                return (*path[: n - 1], alias, *path[n:])
        return path

    # --set --------------------------------------------------------------------------------

    def apply_cli(self, overrides: list[tuple[str, Any]]) -> None:
        """Apply --set KEY=VALUE: experiment keys (games, seats.1, precision.width...) or rules."""
        self._overrides = overrides
        d = self.data
        for key, raw in overrides:
            value = _parse_value(raw)
            head, _, rest = key.partition(".")
            path: Path_
            if head == "rules" and rest:
                self.cli_rules.append((rest, value))
                self._drop_from_sweep(rest)
                continue
            if head in ("seats", "strategies", "pool") and rest:
                path = self._set_seat(head, rest, value, key)
            elif head in ("sweep", "precision") and rest:
                section = d.get(head)
                if section is None:
                    section = {}
                if not isinstance(section, Mapping):
                    raise self.fail("expected a mapping", (head,))
                section = (
                    dict(flatten(section, file=self.file)) if head == "sweep" else dict(section)
                )
                section[rest] = value
                d[head] = section
                path = (head, rest)
            elif head in TOP_KEYS and not rest:
                d[head] = value
                path = (head,)
                if head in SWEEP_SPECIAL:
                    self._drop_from_sweep(head)
            elif head in TOP_KEYS:
                raise ConfigError(
                    "cannot be set from the command line",
                    file="--set",
                    key=key,
                    hint="Edit the experiment file, or set a rule key (e.g. missile.cost=8).",
                )
            else:
                self.cli_rules.append((key, value))
                self._drop_from_sweep(key)
                continue
            self.cli_paths.add(path)

    def _set_seat(self, head: str, rest: str, value: Any, key: str) -> Path_:
        index_text, _, param = rest.partition(".")
        if head not in self.data and head == "seats" and "strategies" in self.data:
            head = "strategies"
        entries = self.data.get(head)
        if isinstance(entries, str | Mapping):
            entries = [entries]
        if not isinstance(entries, list) or not index_text.isdigit():
            raise ConfigError(
                "expected seats.<index>[.<parameter>]=VALUE for a list of seats",
                file="--set",
                key=key,
                hint="For example seats.0=greedy or seats.0.missile_at=15.",
            )
        index = int(index_text)
        if index >= len(entries):
            raise ConfigError(
                f"there are {len(entries)} seat entries (0..{len(entries) - 1})",
                file="--set",
                key=key,
            )
        entries = list(entries)
        if param:
            entry = entries[index]
            entry = dict(entry) if isinstance(entry, Mapping) else {"name": entry}
            entry[param] = value
            entries[index] = entry
        else:
            entries[index] = value
        self.data[head] = entries
        return (head, index)

    def _drop_from_sweep(self, key: str) -> None:
        sweep = self.data.get("sweep")
        if not isinstance(sweep, Mapping):
            return
        flat = flatten(sweep, file=self.file)
        kept = {k: v for k, v in flat.items() if _strip_rules(k) != key}
        if len(kept) != len(flat):
            if kept:
                self.data["sweep"] = kept
            else:
                del self.data["sweep"]

    # scalars ------------------------------------------------------------------------------

    def name(self) -> str:
        default = Path(self.file).stem if self.file else "experiment"
        value = self.data.get("name", default)
        if not isinstance(value, str) or not _NAME_RE.match(value):
            raise self.fail(
                f"expected a name of letters, digits, '_', '-' or '.', got {_show(value)}",
                ("name",),
                "It names the results folder, e.g. name: missile_cost.",
            )
        return value

    def string(self, key: str, *, default: str) -> str:
        value = self.data.get(key, default)
        if not isinstance(value, str):
            raise self.fail(f"expected a string, got {_show(value)}", (key,))
        return value

    def integer(self, path: Path_, value: Any, *, low: int, high: int | None = None) -> int:
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
            value = int(value)  # 1e6 in YAML is a float
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(f"expected a whole number, got {_show(value)}", path)
        if value < low or (high is not None and value > high):
            span = f"{low}..{high}" if high is not None else f">= {low}"
            raise self.fail(f"out of range: expected {span}, got {value}", path)
        return value

    def report(self) -> tuple[str, ...]:
        value = self.data.get("report", [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            raise self.fail(f"expected a list of report sections, got {_show(value)}", ("report",))
        for i, section in enumerate(value):
            if section not in REPORT_SECTIONS:
                near = nearest(str(section), REPORT_SECTIONS)
                mean = f"Did you mean '{near}'? " if near else ""
                raise self.fail(
                    f"unknown report section {_show(section)}",
                    ("report", i),
                    f"{mean}Sections: {', '.join(REPORT_SECTIONS)}.",
                )
        return tuple(value)

    def players(self, value: Any, path: Path_) -> int:
        assert self.game is not None
        counts = player_counts(self.game)
        if isinstance(value, int) and not isinstance(value, bool) and value in counts:
            return value
        raise self.fail(
            f"expected a number of players, one of {', '.join(map(str, counts))}; "
            f"got {_show(value)}",
            path,
            f"{self.game.name} is played by {min(counts)} to {max(counts)} players.",
        )

    def rotate(self, value: Any, path: Path_) -> str:
        if value is True:
            return "cyclic"
        if value is False or value is None:
            return "none"
        if isinstance(value, str) and value in ROTATIONS:
            return value
        raise self.fail(
            f"expected true, false, cyclic or permutations, got {_show(value)}",
            path,
            "true rotates the seats cyclically so every strategy sits in every seat equally often.",
        )

    # rulesets -----------------------------------------------------------------------------

    def ruleset_ref(self, value: Any, path: Path_) -> str:
        assert self.game is not None
        if not isinstance(value, str):
            raise self.fail(f"expected a preset name or a file path, got {_show(value)}", path)
        if value in self.game.presets:
            return value
        for candidate in (self.base_dir / value, Path(value)):
            if candidate.is_file():
                return str(candidate.resolve())
        return value  # unknown: the plugin explains

    def load_rules(self, ref: str, ref_path: Path_, groups: list[_Group]) -> Any:
        assert self.game is not None
        pairs = [pair for group in groups for pair in group.pairs]
        source = self.file or "experiment"
        try:
            return self.game.load_ruleset(ref, pairs, source=source)
        except ConfigError as err:
            if err.key is None:  # the preset or the ruleset file itself
                where = f" ({err.file})" if err.file and err.file != source else ""
                raise self.fail(f"{err.message}{where}", ref_path, err.hint) from None
            if err.file not in (source, None):
                raise  # a mistake inside a ruleset file: that file is named already
            for group in reversed(groups):
                if err.key in dict(group.pairs):
                    if group.cli:
                        raise ConfigError(
                            err.message, file="--set", key=err.key, hint=err.hint
                        ) from None
                    raise self.fail(err.message, (*group.path, err.key), err.hint) from None
            raise self.fail(err.message, ref_path, err.hint) from None

    def rule_pairs(self, value: Any, path: Path_) -> list[tuple[str, Any]]:
        if value is None:
            return []
        if not isinstance(value, Mapping):
            raise self.fail(
                f"expected a mapping of rule keys to values, got {_show(value)}",
                path,
                "For example rules: {missile.cost: 8}.",
            )
        try:
            flat = flatten(value, file=self.file)
        except ConfigError as err:
            raise self.fail(err.message, (*path, err.key or ""), err.hint) from None
        return [(_strip_rules(k), v) for k, v in flat.items()]

    # strategies ---------------------------------------------------------------------------

    def seat_entries(self, value: Any, path: Path_) -> list[_Entry]:
        if isinstance(value, str | Mapping):
            value = [value]  # one entry: every seat
        if not isinstance(value, list) or not value:
            raise self.fail(
                f"expected a list of strategies, got {_show(value)}",
                path,
                "For example seats: [economist, greedy, greedy, greedy].",
            )
        return [self.entry(item, (*path, i)) for i, item in enumerate(value)]

    def entry(self, item: Any, path: Path_) -> _Entry:
        if isinstance(item, str):
            spec = StrategySpec(item)
        elif isinstance(item, Mapping):
            if "name" not in item or not isinstance(item["name"], str):
                raise self.fail(
                    "a strategy with parameters needs a name",
                    path,
                    "For example {name: economist, missile_at: 15}.",
                )
            params = {str(k): v for k, v in item.items() if k != "name"}
            spec = StrategySpec(item["name"], tuple(sorted(params.items())))
        else:
            raise self.fail(
                f"expected a strategy name or {{name: ..., parameter: value}}, got {_show(item)}",
                path,
            )
        cli = any(path[: len(p)] == p for p in self.cli_paths)
        return _Entry(spec, path, cli)

    def check_entry(self, entry: _Entry, param_paths: Mapping[str, Path_] | None = None) -> None:
        assert self.game is not None
        spec = entry.spec
        if spec in self._strategy_ok:
            return
        try:
            _hashable(spec)
            self.game.check_strategy(spec, source=self.file or "experiment")
        except ConfigError as err:
            key = err.key or ""
            param = key.partition(".")[2] if "." in key else ""
            path = entry.path
            if param and param_paths and param in param_paths:
                path = param_paths[param]
            elif param:
                path = (*path, param)
            raise self.fail(err.message, path, err.hint) from None
        except TypeError:
            raise self.fail("strategy parameters must be plain values", entry.path) from None
        self._strategy_ok[spec] = None

    # arms ---------------------------------------------------------------------------------

    def arms(self) -> list[Arm]:
        d = self.data
        if "arms" in d:
            return self.named_arms()
        base = self.arm_settings(d, ())
        sweep = self.sweep()
        if not sweep:
            return [self.make_arm(0, "default", base, {})]
        arms = []
        keys = [k for k, _ in sweep]
        for index, combo in enumerate(itertools.product(*(values for _, values in sweep))):
            chosen = dict(zip(keys, combo, strict=True))
            name = ", ".join(f"{k}={_label(v)}" for k, v in chosen.items())
            arms.append(self.make_arm(index, name, base, chosen))
        return arms

    def arm_settings(self, d: Mapping[str, Any], path: Path_) -> dict[str, Any]:
        """Settings given at this level (top or one arm), validated where context-free."""
        out: dict[str, Any] = {}
        if "ruleset" in d:
            out["ruleset"] = (d["ruleset"], (*path, "ruleset"))
        if "rules" in d:
            rules_path = (*path, "rules")
            out["rules"] = [_Group(rules_path, self.rule_pairs(d["rules"], rules_path))]
        if "players" in d:
            out["players"] = (d["players"], (*path, "players"))
        if "seats" in d and "pool" in d:
            raise self.fail(
                "give either seats (one per player) or a pool to rotate, not both",
                (*path, "pool"),
            )
        if "seats" in d:
            out["seats"] = ("seats", self.seat_entries(d["seats"], (*path, "seats")))
        if "pool" in d:
            out["seats"] = ("pool", self.seat_entries(d["pool"], (*path, "pool")))
        if "rotate" in d:
            out["rotate"] = self.rotate(d["rotate"], (*path, "rotate"))
        return out

    def named_arms(self) -> list[Arm]:
        value = self.data["arms"]
        if not isinstance(value, list) or not value:
            raise self.fail(
                f"expected a list of arms, got {_show(value)}",
                ("arms",),
                "For example arms: [{name: baseline}, {name: x, rules: {shot.steal: highest}}].",
            )
        base = self.arm_settings(self.data, ())
        arms: list[Arm] = []
        seen: dict[str, int] = {}
        for i, item in enumerate(value):
            path: Path_ = ("arms", i)
            if not isinstance(item, Mapping):
                raise self.fail(f"expected a mapping with a name, got {_show(item)}", path)
            for key in item:
                if key not in ARM_KEYS:
                    raise self._unknown(key, ARM_KEYS, path)
            name = item.get("name")
            if not isinstance(name, str) or not name.strip():
                raise self.fail(
                    "every arm needs a name", (*path, "name"), "For example name: baseline."
                )
            if name in seen:
                raise self.fail(
                    f"duplicate arm name '{name}' (also arms[{seen[name]}])",
                    (*path, "name"),
                    "Give every arm its own name.",
                )
            seen[name] = i
            item = dict(item)
            if "strategies" in item:
                if "seats" in item:
                    raise self.fail(
                        "give either seats or strategies, not both", (*path, "strategies")
                    )
                item["seats"] = item.pop("strategies")
                self.aliases[("arms", i, "seats")] = "strategies"
            own = self.arm_settings(item, path)
            merged = {**base, **own}
            merged["rules"] = base.get("rules", []) + own.get("rules", [])
            arms.append(self.make_arm(i, name, merged, {}))
        return arms

    def sweep(self) -> list[tuple[str, list[Any]]]:
        value = self.data.get("sweep")
        if value is None:
            return []
        if not isinstance(value, Mapping) or not value:
            raise self.fail(
                f"expected a mapping of keys to lists of values, got {_show(value)}",
                ("sweep",),
                "For example sweep: {missile.cost: [5, 8, 10]}.",
            )
        flat = flatten(value, file=self.file)
        out = []
        for key, values in flat.items():
            path: Path_ = ("sweep", key)
            if not isinstance(values, list) or not values:
                raise self.fail(
                    f"expected a list of values to sweep, got {_show(values)}",
                    path,
                    f"For example {key}: [{_label(values)}, ...]; a single value belongs in rules.",
                )
            if len({json.dumps(_jsonable(v), sort_keys=True) for v in values}) != len(values):
                raise self.fail("a value is listed twice", path)
            key = _strip_rules(key)
            if key == "seats" or key.startswith(("seats.", "strategies.", "pool.")):
                key = "seats." + key.partition(".")[2] if "." in key else key
                if not _SEAT_KEY_RE.match(key):
                    raise self.fail(
                        "expected seats.<index>, seats.<index>.<parameter>, seats.all or "
                        "seats.all.<parameter>",
                        path,
                        "For example seats.0.missile_at: [10, 15, 20] or "
                        "seats.all: [novice, expert].",
                    )
            out.append((key, values))
        return out

    def make_arm(
        self,
        index: int,
        name: str,
        settings: Mapping[str, Any],
        chosen: Mapping[str, Any],
    ) -> Arm:
        d = settings
        sweep_path = lambda key: ("sweep", key)  # noqa: E731
        # players
        if "players" in chosen:
            players = self.players(chosen["players"], sweep_path("players"))
        elif "players" in d:
            players = self.players(*d["players"])
        else:
            players = 4 if 4 in player_counts(self.game) else max(player_counts(self.game))
        # ruleset
        if "ruleset" in chosen:
            ref_value, ref_path = chosen["ruleset"], sweep_path("ruleset")
        elif "ruleset" in d:
            ref_value, ref_path = d["ruleset"]
        else:
            ref_value, ref_path = self.game.presets[0], ("ruleset",)
        ref = self.ruleset_ref(ref_value, ref_path)
        groups: list[_Group] = list(d.get("rules", []))
        sweep_rules = [
            (k, v)
            for k, v in chosen.items()
            if k not in SWEEP_SPECIAL and not k.startswith("seats")
        ]
        for k, v in sweep_rules:
            groups.append(_Group(("sweep",), [(k, v)]))
        if self.cli_rules:
            groups.append(_Group((), list(self.cli_rules), cli=True))
        ruleset = self.load_rules(ref, ref_path, groups)
        overrides = tuple(pair for group in groups for pair in group.pairs)
        # seats
        kind, entries = d.get("seats", ("seats", None))
        if entries is None:
            raise self.fail(
                "no strategies given",
                ("seats",),
                "Add seats: [greedy, greedy, greedy, greedy] (one per player) or a pool.",
            )
        entries = list(entries)
        rotate = d.get("rotate", "cyclic" if kind == "pool" else "none")
        seats_path = entries[0].path[:-1]
        if len(entries) == 1 and kind == "seats":
            entries = [_Entry(entries[0].spec, entries[0].path, entries[0].cli)] * players
        param_paths: dict[int, dict[str, Path_]] = {}
        for key, value in chosen.items():
            m = _SEAT_KEY_RE.match(key)
            if not m:
                continue
            which, param = m.group(1), m.group(2)
            targets = range(len(entries)) if which == "all" else [int(which)]
            for t in targets:
                if t >= len(entries):
                    raise self.fail(
                        f"there is no seat entry {t} (the lineup has {len(entries)})",
                        sweep_path(key),
                    )
                spec = entries[t].spec
                if param:
                    params = dict(spec.params)
                    params[param] = value
                    spec = StrategySpec(spec.name, tuple(sorted(params.items())))
                    param_paths.setdefault(t, {})[param] = sweep_path(key)
                    entries[t] = _Entry(spec, entries[t].path, entries[t].cli)
                else:
                    if not isinstance(value, str):
                        raise self.fail(
                            f"expected a strategy name, got {_show(value)}", sweep_path(key)
                        )
                    spec = StrategySpec(value, spec.params)
                    entries[t] = _Entry(spec, sweep_path(key))
        for t, entry in enumerate(entries):
            self.check_entry(entry, param_paths.get(t))
        if kind == "seats" and len(entries) != players:
            blame = sweep_path("players") if "players" in chosen else seats_path
            raise self.fail(
                f"{len(entries)} seats for {players} players",
                blame,
                "List one strategy per player (or a single one for every seat), "
                "or use a pool with rotate.",
            )
        if kind == "pool" and len(entries) < players:
            raise self.fail(
                f"a pool of {len(entries)} strategies cannot fill {players} seats",
                seats_path,
                "Add strategies to the pool, or list the seats instead.",
            )
        if kind == "pool" and rotate == "none":
            rotate = "cyclic"
        pool = tuple(e.spec for e in entries)
        lineup, tables = build_lineup(pool, players, rotate)
        params = self.arm_params(chosen, ruleset)
        return Arm(
            index=index,
            name=name,
            ruleset_ref=ref,
            overrides=overrides,
            ruleset=ruleset,
            players=players,
            pool=pool,
            rotate=rotate,
            lineup=lineup,
            tables=tuple(tuple(int(x) for x in row) for row in tables),
            params=params,
        )

    def arm_params(self, chosen: Mapping[str, Any], ruleset: Any) -> tuple[tuple[str, Any], ...]:
        """A sweep's parameter columns: the swept keys with the arm's effective values."""
        out: dict[str, Any] = {}
        for key, value in chosen.items():
            if key in SWEEP_SPECIAL:  # `players` and `ruleset` are columns of every run
                continue
            out[key] = value if key.startswith("seats.") else ruleset.values[key]
        return tuple(out.items())

    def param_columns(self, arms: list[Arm]) -> tuple[tuple[str, str], ...]:
        """Fix each parameter column's type; in arms mode the columns are the rule keys any
        arm changes (with every arm's effective value), plus `seats`/`rotate` if an arm
        changes its lineup."""
        if "arms" in self.data:
            items = [i for i in self.data["arms"] if isinstance(i, Mapping)]
            rule_keys = list(dict.fromkeys(
                k for item in items for k, _ in self.rule_pairs(item.get("rules"), ())
            ))  # fmt: skip
            lineup_keys = ("seats", "strategies", "pool")
            seats = any(k in item for item in items for k in lineup_keys)
            rotate = any("rotate" in item for item in items)
            for i, arm in enumerate(arms):
                values: dict[str, Any] = {k: arm.ruleset.values[k] for k in rule_keys}
                if seats:
                    values["seats"] = ",".join(spec.label for spec in arm.pool)
                if rotate:
                    values["rotate"] = arm.rotate
                arms[i] = _replace_arm(arm, params=tuple(values.items()))
        names = [k for k, _ in arms[0].params] if arms else []
        columns = []
        for key in names:
            if key in BASE_COLUMNS:
                raise self.fail(f"'{key}' cannot be a parameter column", ("sweep", key))
            columns.append((key, _column_kind([dict(arm.params)[key] for arm in arms])))
        for i, arm in enumerate(arms):
            params = dict(arm.params)
            typed = tuple((k, _cast(params[k], kind)) for k, kind in columns)
            arms[i] = _replace_arm(arm, params=typed)
        return tuple(columns)

    # baseline and precision -----------------------------------------------------------------

    def baseline(self, arms: list[Arm]) -> str | None:
        value = self.data.get("baseline")
        names = [arm.name for arm in arms]
        if value is None:
            return names[0] if "arms" in self.data else None
        if not isinstance(value, str) or value not in names:
            near = nearest(str(value), names)
            mean = f"Did you mean '{near}'? " if near else ""
            shown = ", ".join(f"'{n}'" for n in names[:8]) + (" ..." if len(names) > 8 else "")
            raise self.fail(
                f"baseline {_show(value)} is not one of the arms",
                ("baseline",),
                f"{mean}Arms: {shown}.",
            )
        return value

    def precision(self, games: int, arms: list[Arm]) -> Precision | None:
        value = self.data.get("precision")
        if value is None:
            return None
        path: Path_ = ("precision",)
        if not isinstance(value, Mapping):
            raise self.fail(
                f"expected a mapping, got {_show(value)}",
                path,
                "For example precision: {metric: raid_rate, width: 0.01, max_games: 1000000}.",
            )
        for key in value:
            if key not in PRECISION_KEYS:
                raise self._unknown(key, PRECISION_KEYS, path)
        for key in ("metric", "width"):
            if key not in value:
                raise self.fail(f"missing key '{key}'", path, "precision needs metric and width.")
        metric = value["metric"]
        self.check_metric(metric, arms, (*path, "metric"))
        width = value["width"]
        if isinstance(width, bool) or not isinstance(width, int | float) or not width > 0:
            raise self.fail(
                "expected a positive number (the full width of the 95% interval), "
                f"got {_show(width)}",
                (*path, "width"),
            )
        step = self.integer((*path, "step"), value.get("step", games), low=1)
        max_games = self.integer(
            (*path, "max_games"), value.get("max_games", max(DEFAULT_MAX_GAMES, games)), low=games
        )
        return Precision(str(metric), float(width), step, max_games)

    def check_metric(self, metric: Any, arms: list[Arm], path: Path_) -> None:
        from sim.runner.precision import METRIC_FORMS, parse_metric

        if not isinstance(metric, str):
            raise self.fail(f"expected a metric name, got {_show(metric)}", path)
        parsed = parse_metric(metric)
        if parsed is None:
            raise self.fail(f"unknown metric '{metric}'", path, f"Metrics: {METRIC_FORMS}.")
        kind, arg = parsed
        if kind == "rate":
            known = outcomes(self.game)
            if known is not None and arg not in known:
                near = nearest(arg, known)
                mean = f"Did you mean '{near}_rate'? " if near else ""
                rates = ", ".join(f"{o}_rate" for o in known)
                raise self.fail(f"unknown metric '{metric}'", path, f"{mean}Rates: {rates}.")
        elif kind == "seat":
            if any(int(arg) >= arm.players for arm in arms):
                raise self.fail(f"seat {arg} does not exist in every arm", path)
        elif kind == "strategy":
            labels = sorted({spec.label for arm in arms for spec in arm.lineup})
            if any(arg not in {spec.label for spec in arm.lineup} for arm in arms):
                near = nearest(arg, labels)
                mean = f"Did you mean 'win_share.{near}'? " if near else ""
                raise self.fail(
                    f"strategy '{arg}' does not play in every arm",
                    path,
                    f"{mean}Strategies: {', '.join(labels)}.",
                )


# --- helpers ------------------------------------------------------------------------------


def _replace_arm(arm: Arm, **changes: Any) -> Arm:
    from dataclasses import replace

    return replace(arm, **changes)


def _strip_rules(key: str) -> str:
    return key[len("rules.") :] if key.startswith("rules.") else key


def _parse_value(raw: Any) -> Any:
    if not isinstance(raw, str):
        return raw
    try:
        return yaml.safe_load(raw) if raw.strip() else raw
    except yaml.YAMLError:
        return raw


def _render(path: Path_) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part:
            out += f".{part}" if out else str(part)
    return out


def _segments(path: Path_) -> tuple[Any, ...]:
    out: list[Any] = []
    for part in path:
        if isinstance(part, str):
            out.extend(p for p in part.split(".") if p)
        else:
            out.append(part)
    return tuple(out)


def _line_map(text: str) -> dict[tuple[Any, ...], int]:
    """Line (1-based) of every mapping key and list item, by path of segments."""
    lines: dict[tuple[Any, ...], int] = {}
    if not text:
        return lines
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return lines

    def walk(node: Any, prefix: tuple[Any, ...]) -> None:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    continue
                path = prefix + tuple(p for p in str(key_node.value).split(".") if p)
                lines.setdefault(path, key_node.start_mark.line + 1)
                walk(value_node, path)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                lines.setdefault((*prefix, i), item.start_mark.line + 1)
                walk(item, (*prefix, i))

    walk(root, ())
    return lines


def _show(value: Any) -> str:
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list" if len(value) > 5 else repr(value)
    return repr(value)


def _label(value: Any) -> str:
    if isinstance(value, Mapping):
        return json.dumps(_jsonable(value), sort_keys=True)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_label(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, np.generic):
        return value.item()
    return value


def _hashable(spec: StrategySpec) -> None:
    hash(spec)


def _column_kind(values: list[Any]) -> str:
    if all(isinstance(v, bool) for v in values):
        return "bool"
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "int"
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return "float"
    return "str"


def _cast(value: Any, kind: str) -> Any:
    if kind == "float":
        return float(value)
    if kind == "str" and not isinstance(value, str):
        return _label(value)
    return value
