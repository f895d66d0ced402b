"""The interface every game plug-in offers the runner, storage, reports and command line.

A game is one plug-in object (see docs/adding-a-game.md). The runner, the storage, the report
framework and the CLI reach a game only through it, and never import a game's modules. The
object itself must be cheap to import: it names the game's parts and imports its engine,
strategies and report sections only when a method needs them, so that building a report
never loads the engine.

Every part is declared here: the required ones in `Game`, the optional ones with their
default in `OptionalParts`. The core reads an optional part through `part(game, name)` (or the
helpers at the end, which add a clear refusal where a command needs the part), so a plug-in
that leaves one out gets the declared default, and a part the core reads is always declared.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from types import MappingProxyType
from typing import Any, Protocol

import numpy as np

from sim.errors import SimError


@dataclass(frozen=True)
class StrategySpec:
    """A strategy as an experiment names it: a registered name or `module:Class`, plus
    parameters (validated by the game's strategy registry)."""

    name: str
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        if not self.params:
            return self.name
        inner = ",".join(f"{k}={v}" for k, v in self.params)
        return f"{self.name}({inner})"


@dataclass(frozen=True, eq=False)
class Player:
    """A lineup entry ready to play: its spec, the strategy the game's registry found for it
    and that strategy's parameters, checked, as a vector. The framework resolves a lineup
    once (`PackageParts.ready`) and hands the game's loop these."""

    spec: StrategySpec
    strategy: Any
    params: Any  # a vector of floats for a compiled loop (PolicyTable)

    @property
    def label(self) -> str:
        return self.spec.label


@dataclass
class Chunk:
    """The results of a chunk of games as columns: one row per game, one per (game, seat).

    Per game, `outcome` (one of the game's `outcomes`); per seat, `seat`, `strategy`, `score`
    and `win_share` (a shared win counts 1/k to each of the k winners); then the game's own."""

    games: dict[str, np.ndarray]
    seats: dict[str, np.ndarray]
    errors: list[str] = field(default_factory=list)  # illegal moves, as readable messages
    # games stopped by an illegal move, per strategy label (the runner fails a run when a
    # strategy's share grows too large); a plugin that leaves it empty gets warnings only
    illegal: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Watch:
    """One game told turn by turn, as `sim play` shows it: text and a page to step through."""

    text: str
    html: Callable[[str], str]  # title -> a self-contained HTML page


@dataclass(frozen=True)
class Scenarios:
    """A game's executable rule scenarios (a position, moves, the expected result)."""

    run_file: Callable[[str], str]  # play the file's moves, the result in the file's format
    check_file: Callable[[str], str]  # '' when the result matches the file's `expect:`


class Game(Protocol):
    """The parts every plug-in has."""

    name: str  # as experiments and --game name it, e.g. "space-invaders"
    title: str
    presets: tuple[str, ...]  # ruleset names; unique across the installed games

    def load_ruleset(self, name_or_path: str, overrides: Any = (), *, source: str = "--set"):
        """A validated, immutable ruleset (has .name, .title, .values, .to_yaml(),
        .fingerprint())."""

    def check_strategy(self, spec: StrategySpec, *, source: str) -> StrategySpec:
        """Validate a strategy name and its parameters; raise ConfigError naming `source`."""

    def simulate_chunk(
        self,
        ruleset: Any,
        n_players: int,
        lineup: list[StrategySpec],
        seat_lineup: np.ndarray,
        seeds: np.ndarray,
    ) -> Chunk:
        """Play len(seeds) games; game g seats lineup[seat_lineup[g, k]] in seat k."""


@dataclass(frozen=True)
class BenchPlan:
    """What `sim bench --game NAME` measures (sim/bench.py): each strategy of the game alone in
    every seat, and the `lineups` beside them (row label -> strategies alternating seats: a
    pool, or a plain-Python strategy), on `players` seats of the game's first preset (every
    preset in the full bench with `every_preset`) with `rules` set. A row named in `share`
    plays that share of the games (a slow strategy); each of `counted` (per-game columns) is
    reported per game and per second. The worker scaling and the whole run (`run_games`
    games) play `run_lineup` (default: the game's first strategy). `engines` names other ways
    the game plays the same games (label -> "module:function" with the signature of its
    chunks.py's `simulate_chunk`, which plays the lineup's ready players: e.g. a plain-Python
    reference of a compiled loop): each row is benched with each too, as "row [label]"."""

    players: int = 4
    lineups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    share: Mapping[str, float] = field(default_factory=dict)
    counted: tuple[str, ...] = ()
    every_preset: bool = False
    rules: Mapping[str, Any] = field(default_factory=dict)
    run_lineup: tuple[str, ...] = ()
    run_games: int = 1_000_000
    engines: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ReportSection:
    """A section of a game's report as its plug-in's `report_sections` names it, when the
    report should build it otherwise than by default: `builder` ("module:function", imported
    when a report is built) and `reads_skill` (the builder reads the skill column itself: it
    is built once on the games of every level, not once per level and merged)."""

    builder: str
    reads_skill: bool = False


class OptionalParts:
    """Every optional part of a plug-in, with its default. A plug-in may derive from this
    class (PackageParts does) or leave a part out: `part(game, name)` then gives the default
    declared here. A method part defaults to None (the game lacks it; the helpers below say
    so where a command needs it)."""

    version: int = 1  # bumped when the rules or the built-in strategies play differently
    player_counts: tuple[int, ...] = (2, 3, 4)
    outcomes: tuple[str, ...] | None = None  # the values of the per-game `outcome` column
    skills: tuple[str, ...] = ()  # the skill ladder: strategy names, weakest first
    # (strategy, parameter) of the continuous skill, 0 (weakest) .. 1, for `sim calibrate`
    skill_knob: tuple[str, str] | None = None
    skill_points: Mapping[str, float] = MappingProxyType({})  # ladder levels on the knob
    demo_lineup: str | None = None  # `sim play` without --strategies: "name,name"
    bench_plan: BenchPlan = BenchPlan()  # `sim bench --game NAME`
    # the report's sections: an experiment's `report:` name -> "module:function" building it
    # (or a ReportSection, or QUALITY: the framework's own). Light: `sim run` checks the names
    # without importing the report (and matplotlib); the game's report reads the same mapping
    # for its builders (sim.report.spec.section_builders)
    report_sections: Mapping[str, str | ReportSection] = MappingProxyType({})
    # a section's older `report:` name -> its name now: a renamed section is still found by
    # its old name, in experiment files and in results stored before
    report_aliases: Mapping[str, str] = MappingProxyType({})
    # methods: () -> names; (lineup) -> its ready players; (lineup, *, notice) -> seconds;
    # (lineup) -> sim.compiling jobs; (ruleset, lineup, seed) -> Watch; () -> Scenarios;
    # () -> sim.report.spec.GameReport
    strategy_names: Callable[[], tuple[str, ...]] | None = None
    ready: Callable[..., list[Player]] | None = None
    prepare: Callable[..., float] | None = None
    compile_jobs: Callable[..., list] | None = None
    watch: Callable[..., Watch] | None = None
    scenarios: Callable[[], Scenarios] | None = None
    report: Callable[[], Any] | None = None
    # () -> sim.measures.spec.GameMeasures: what the measures (the quality report, `sim tune`)
    # need to know of the game, and its own measures
    measures: Callable[[], Any] | None = None


# the quality section: the report framework's own (sim.report.game_quality), the same for
# every game that lists it in `report_sections` by its name
QUALITY = "quality"
QUALITY_SECTION = MappingProxyType({QUALITY: QUALITY})


def part(game: Any, name: str) -> Any:
    """The plug-in's optional part `name`, or its default (`OptionalParts`); a name it does
    not declare is a bug, not a missing part."""
    return getattr(game, name, getattr(OptionalParts, name))


# --- helpers for plug-ins ------------------------------------------------------------------


def lazy(module: str, name: str) -> Callable[..., Any]:
    """A plug-in method that imports `module` when it is first called and calls its `name`:
    the plug-in object stays cheap to import, its heavy half loaded by what needs it."""

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(import_module(module), name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"{module}.{name}, imported when called."
    return method


class _Part:
    """A plug-in method that is function `name` of the game's module `<package>.<module>`,
    imported when the method is first looked up."""

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __get__(self, game: Any, owner: type | None = None) -> Any:
        if game is None:
            return self
        return getattr(import_module(f"{game.package}.{self.module}"), self.name)


# the modules PackageParts imports by name: of the rules' package, of the players' package
PACKAGE_MODULES = ("layout", "ruleset", "chunks", "watch", "scenario", "report")
STRATEGY_MODULES = ("registry", "ladder")


class PackageParts(OptionalParts):
    """A plug-in's parts found by the usual layout (docs/adding-a-game.md), each module
    imported when the part is first looked up, so the plug-in object stays cheap to import.
    The rules' package `package`: `layout` (ENGINE_VERSION, the `version`), `ruleset` (PRESETS
    and load_ruleset), `chunks` (simulate_chunk and Plan(players).compile_jobs(), for prepare),
    `watch` (watch_game), `scenario` (scenarios), `report` (game_report). The players'
    package `strategies` (strategies/<game>/ for sim/games/<game>/): `registry` (BUILTIN and
    REGISTRY, whose `resolve(spec, source=)` finds a strategy and checks its parameters) and
    `ladder` (the skill ladder as plain data: LADDER, KNOB, POINTS). The plug-in is the one
    place where the rules and the players meet: it resolves a lineup once (`ready`) and hands
    the game's loop (chunks.py) and its watch (watch.py) the ready players."""

    package: str  # the game's Python package, e.g. "sim.games.alien_raid"
    strategies: str  # the game's players' package, e.g. "strategies.alien_raid"

    @property
    def presets(self) -> tuple[str, ...]:
        return tuple(self._module("ruleset").PRESETS)

    @property
    def version(self) -> int:  # type: ignore[override]
        return int(self._module("layout").ENGINE_VERSION)

    def _module(self, name: str) -> Any:
        assert name in PACKAGE_MODULES, name
        return import_module(f"{self.package}.{name}")

    def _strategies(self, name: str) -> Any:
        assert name in STRATEGY_MODULES, name
        return import_module(f"{self.strategies}.{name}")

    def resolve(self, spec: StrategySpec, *, source: str | None = None) -> tuple[Any, Any]:
        """The strategy `spec` names and its parameter vector, each parameter checked (a
        ConfigError naming `source` if not): `<strategies>.registry.REGISTRY.resolve`."""
        return self._strategies("registry").REGISTRY.resolve(spec, source=source)

    def ready(self, lineup: Sequence[StrategySpec]) -> list[Player]:
        """The lineup's players, each strategy resolved and its parameters checked."""
        return [Player(spec, *self.resolve(spec)) for spec in lineup]

    def check_strategy(self, spec: StrategySpec, *, source: str) -> StrategySpec:
        """`spec`, once `resolve` has found its strategy and checked its parameters."""
        self.resolve(spec, source=source)
        return spec

    def strategy_names(self) -> tuple[str, ...]:
        """The built-in strategies and the ladder's levels (a level may be a built-in)."""
        return tuple(dict.fromkeys((*self._strategies("registry").BUILTIN, *self.skills)))

    @property
    def skills(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(self._strategies("ladder").LADDER)

    @property
    def skill_knob(self) -> tuple[str, str] | None:  # type: ignore[override]
        return self._strategies("ladder").KNOB

    @property
    def skill_points(self) -> Mapping[str, float]:  # type: ignore[override]
        return MappingProxyType(dict(self._strategies("ladder").POINTS))

    def compile_jobs(self, lineup: Sequence[StrategySpec]) -> list:
        """The `sim.compiling` jobs playing `lineup` needs, longest first:
        `<package>.chunks.Plan(players).compile_jobs()`."""
        return self._module("chunks").Plan(self.ready(lineup)).compile_jobs()

    def prepare(self, lineup: Sequence[StrategySpec], *, notice: Any = None) -> float:
        """Compile (or find in the cache) what playing `lineup` needs, before any game: its
        `compile_jobs`, nothing else. Returns the seconds spent compiling (0.0 when everything
        was cached)."""
        from sim.compiling import ensure_compiled

        names = ", ".join(dict.fromkeys(spec.name for spec in lineup)) or self.name
        return ensure_compiled(self.compile_jobs(list(lineup)), what=names, notice=notice)

    @property
    def simulate_chunk(self) -> Callable[..., Chunk]:
        """Game.simulate_chunk (and `trace`: hash each turn): `<package>.chunks.simulate_chunk`
        on the lineup's ready players (the engine is imported when this part is looked up)."""
        simulate = self._module("chunks").simulate_chunk

        def simulate_chunk(ruleset: Any, n_players: int, lineup: Sequence[StrategySpec],
                       seat_lineup: np.ndarray, seeds: np.ndarray,
                       **options: Any) -> Chunk:  # fmt: skip
            return simulate(ruleset, n_players, self.ready(lineup), seat_lineup, seeds, **options)

        return simulate_chunk

    def watch(self, ruleset: Any, lineup: Sequence[StrategySpec], seed: int) -> Watch:  # type: ignore[override]
        """One game told turn by turn: `<package>.watch.watch_game` on the ready players."""
        return self._module("watch").watch_game(ruleset, self.ready(lineup), seed)

    load_ruleset = _Part("ruleset", "load_ruleset")  # (name_or_path, overrides=(), *, source)
    scenarios = _Part("scenario", "scenarios")  # () -> Scenarios
    report = _Part("report", "game_report")  # () -> sim.report.spec.GameReport


def seat_table(seat_lineup: Any, games: int, n_players: int) -> np.ndarray:
    """`simulate_chunk`'s seat_lineup checked (one row of n_players lineup indices per game), as a
    C-contiguous int64 array."""
    if np.shape(seat_lineup) != (games, n_players):
        raise ValueError(f"seat_lineup must have one row of {n_players} per seed "
                         f"({games}, {n_players}); got {np.shape(seat_lineup)}")  # fmt: skip
    return np.ascontiguousarray(seat_lineup, np.int64)


def chunk_arrays(
    seat_lineup: Any, seeds: np.ndarray, n_players: int, game_width: int, seat_shape: tuple
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`simulate_chunk`'s seat_lineup checked (`seat_table`) and the zeroed int64 arrays a loop
    fills: `game_width` values per game, `seat_shape` per game."""
    n = len(seeds)
    games = np.zeros((n, game_width), np.int64)
    return seat_table(seat_lineup, n, n_players), games, np.zeros((n, *seat_shape), np.int64)


def game_columns(games: np.ndarray, names: Sequence[str], *, trace: bool, outcome: int,
                 outcome_names: Sequence[str]) -> dict[str, np.ndarray]:  # fmt: skip
    """A chunk's per-game columns from the loop's games array (one column per name; the
    `trace_hash` column only with `trace`) and `outcome` as a name from column `outcome`."""
    cols = {name: games[:, i] for i, name in enumerate(names)}
    if not trace:
        del cols["trace_hash"]
    cols["outcome"] = np.array(outcome_names, dtype=object)[games[:, outcome]]
    return cols


def winner_seat_columns(winners: np.ndarray, score: np.ndarray, seat_lineup: np.ndarray,
                        labels: list[str]) -> dict[str, np.ndarray]:  # fmt: skip
    """The framework's per-seat columns (seat, strategy, score, win_share) of a chunk whose
    games record their winners as a bit mask of seats (a shared win counts 1/k to each of
    the k winners); `score` has one value per (game, seat) row."""
    n, players = seat_lineup.shape
    seat = np.tile(np.arange(players), n)
    won = (np.repeat(winners, players) >> seat) & 1
    n_winners = np.repeat(np.bitwise_count(winners.astype(np.uint64)), players)
    return {
        "seat": seat,
        "strategy": np.array(labels, dtype=object)[seat_lineup.reshape(-1)],
        "score": score,
        "win_share": np.where(won == 1, 1.0 / np.maximum(n_winners, 1), 0.0),
    }


def refusals(
    error: np.ndarray,
    error_seat: np.ndarray,
    seat_lineup: np.ndarray,
    labels: list[str],
    *,
    error_names: Sequence[str],
    made: str,
) -> tuple[list[str], dict[str, int]]:
    """`Chunk.errors` and `Chunk.illegal` of a chunk: per game the error code (0: none) and
    the seat that caused it (-1: the engine's own check); `made` says what the seat did
    ("an illegal move")."""
    errors: list[str] = []
    illegal: dict[str, int] = {}
    for g in np.flatnonzero(error):
        seat = int(error_seat[g])
        who = labels[int(seat_lineup[g, seat])] if seat >= 0 else "the engine"
        errors.append(f"game {g}: {who} in seat {seat} made {made} ({error_names[error[g]]})")
        illegal[who] = illegal.get(who, 0) + 1
    return errors, illegal


# --- reading the optional parts -----------------------------------------------------------


def version(game: Game) -> int:
    """The game's behaviour version: stored games of another version are not mixed with new
    ones."""
    return int(part(game, "version"))


def player_counts(game: Game) -> tuple[int, ...]:
    """The numbers of players `game` takes."""
    return tuple(part(game, "player_counts"))


def outcomes(game: Game) -> tuple[str, ...] | None:
    """The values of the per-game `outcome` column, or None if the game does not say."""
    found = part(game, "outcomes")
    return tuple(found) if found is not None else None


def strategy_names(game: Game) -> tuple[str, ...]:
    """The game's named strategies and skill levels (for help texts and suggestions)."""
    names = part(game, "strategy_names")
    return tuple(names()) if names is not None else ()


def prepare(game: Game, lineup: Sequence[StrategySpec], *, notice: Any = None) -> float:
    """Let the game compile (or load) what playing `lineup` needs; seconds it took."""
    method = part(game, "prepare")
    return float(method(list(lineup), notice=notice) or 0.0) if method is not None else 0.0


def prepare_together(wanted: Sequence[tuple[Game, Sequence[StrategySpec]]], *,
                     notice: Any = None) -> float:  # fmt: skip
    """Compile what several games' lineups need in one go, so that every game's units share
    the compiling processes (the test session: every game's built-ins). A game without the
    optional `compile_jobs(lineup)` prepares on its own. Seconds it took."""
    from sim.compiling import ensure_compiled

    per_game, names, seconds = [], [], 0.0
    for game, lineup in wanted:
        method = part(game, "compile_jobs")
        if method is None:
            seconds += prepare(game, lineup, notice=notice)
            continue
        per_game.append(list(method(list(lineup))))
        names.append(game.name)
    # each game lists its longest job first: take the games' jobs in turn, longest ones first
    jobs = [job for row in itertools.zip_longest(*per_game) for job in row if job is not None]
    return seconds + ensure_compiled(jobs, what=", ".join(names), notice=notice)


def needed(game: Game, name: str, what: str) -> Any:
    """The optional part `name` a command needs, or a SimError saying the game lacks `what`."""
    found = part(game, name)
    if found is None:
        raise SimError(f"the game {game.name!r} has no {what}", key="--game")
    return found


def watch(game: Game, ruleset: Any, lineup: list[StrategySpec], seed: int) -> Watch:
    """One game of `game`, told turn by turn (`sim play`)."""
    return needed(game, "watch", "turn-by-turn view (sim play)")(ruleset, lineup, seed)


def scenarios(game: Game) -> Scenarios:
    """The game's scenario runner (`sim scenario`)."""
    return needed(game, "scenarios", "rule scenarios (sim scenario)")()


def report(game: Game) -> Any:
    """The game's report (a sim.report.spec.GameReport; `sim report`)."""
    return needed(game, "report", "report sections")()


def report_section_name(game: Game, name: str) -> str:
    """The section an experiment's `report:` name means: itself, or the section it is an
    older name of (`report_aliases`)."""
    return str(part(game, "report_aliases").get(name, name))


def report_section_names(game: Game) -> tuple[str, ...]:
    """The section names an experiment's `report:` may give: the plug-in's light
    `report_sections`; for a plug-in that declares none, its report's (imported)."""
    if names := tuple(part(game, "report_sections")):
        return names
    return tuple(report(game).sections) if part(game, "report") is not None else ()
