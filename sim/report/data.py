"""The data a report is computed from: a results folder's manifest and its Parquet parts, read
through sim.results (the one reader of a results folder), loaded into memory once.

Nothing here imports a game's engine or strategies (only its plug-in object, for the columns
its report reads and the values of its presets): a report is rebuilt from the files alone, so
results copied from another machine give the same report.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import polars as pl

from sim import results, safe_yaml
from sim.errors import SimError
from sim.results import Settings, StoredArm, drop_illegal, game_name, settings_of
from sim.storage.manifest import fields_of
from sim.stored_arm import first_games


@dataclass
class Results:
    """A results folder, loaded: the manifest, the two tables (collected, every arm's rows,
    `arm` its name), and the arms' settings; `stored(arm)` is one arm (sim.results)."""

    root: Path
    manifest: dict[str, Any]
    games: pl.DataFrame
    seats: pl.DataFrame
    arms: list[Settings]
    excluded: dict[str, int] = field(default_factory=dict)  # games stopped on an illegal move
    incomplete: str | None = None  # why and how far the run is incomplete (None: complete)
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    # --- experiment-level facts ----------------------------------------------------------

    @property
    def name(self) -> str:
        return str(
            self.manifest.get("name")
            or self.manifest.get("experiment", {}).get("name")
            or self.root.name
        )

    @property
    def description(self) -> str:
        exp = self.manifest.get("experiment")
        found = self.manifest.get("description") or (exp or {}).get("description") or ""
        return str(found).strip()

    @property
    def game(self) -> str:
        """The game plug-in the games were played with."""
        return game_name(self.manifest)

    @property
    def sections(self) -> list[str]:
        exp = self.manifest.get("experiment") or {}
        value = self.manifest.get("report", exp.get("report") if isinstance(exp, dict) else None)
        if value is None:
            return []
        from sim.plugins import get_game
        from sim.plugins.base import report_section_name

        game = get_game(self.game)
        names = [value] if isinstance(value, str) else [str(v) for v in value]
        return [report_section_name(game, name) for name in names]  # older names as today's

    @property
    def baseline(self) -> str | None:
        exp = self.manifest.get("experiment") or {}
        value = self.manifest.get(
            "baseline", exp.get("baseline") if isinstance(exp, dict) else None
        )
        return str(value) if value else None

    @property
    def named_arms(self) -> bool:
        """The experiment names its arms itself (its `arms:` key, no sweep): the report calls
        them by those names rather than by the settings that tell them apart."""
        if "named_arms" not in self._cache:  # asked for every label a report writes
            self._cache["named_arms"] = _names_its_arms(self.manifest.get("experiment_text"))
        return self._cache["named_arms"]

    @property
    def param_columns(self) -> list[str]:
        """The experiment's parameter columns that are present in the games table."""
        declared = self.manifest.get("param_columns")
        if declared:
            names = [c[0] if isinstance(c, list | tuple) else str(c) for c in declared]
        else:
            names = sorted({k for arm in self.arms for k in arm.params})
        return [n for n in names if n in self.games.columns]

    def varying(self, candidates: list[str] | None = None) -> list[str]:
        """Columns (players, ruleset and parameters) whose value differs between arms."""
        cols = ["players", "ruleset", *self.param_columns] if candidates is None else candidates
        distinct = self._cache.setdefault("n_unique", {})
        out = []
        for c in cols:
            if c not in self.games.columns:
                continue
            if c not in distinct:
                distinct[c] = self.games.select(pl.col(c).n_unique()).item()
            if distinct[c] > 1:
                out.append(c)
        return out

    def arm(self, name: str) -> Settings:
        for a in self.arms:
            if a.name == name:
                return a
        raise KeyError(name)

    def stored(self, name: str) -> StoredArm:
        """One arm's games, seats and settings (what the measures read)."""
        views = self._cache.setdefault("stored", {})
        if name not in views:
            games, seats = (self._by_arm(t).get(name, f.clear())
                            for t, f in (("games", self.games), ("seats", self.seats)))  # fmt: skip
            views[name] = StoredArm(games, seats, self.arm(name))
        return views[name]

    def all_games(self) -> StoredArm:
        """Every arm's games as one sample, a game of each arm one unit (its `game` made
        unique): what a share over the whole run reads."""
        units = self.games.select("arm", "game").with_row_index("unit")
        games, seats = (f.join(units, on=["arm", "game"]).drop("game").rename({"unit": "game"})
                        for f in (self.games, self.seats))  # fmt: skip
        return StoredArm(games, seats)

    def remember(self, key: tuple, make: Callable[[], Any]) -> Any:
        """`make()` once per loaded results for `key`: a report's sections ask for the same
        numbers (a section and the overview both read an arm's rates)."""
        kept = self._cache.setdefault("remembered", {})
        if key not in kept:
            kept[key] = make()
        return kept[key]

    def arm_games(self, name: str) -> pl.DataFrame:
        return self.stored(name).games

    def arm_seats(self, name: str) -> pl.DataFrame:
        return self.stored(name).seats

    def first(self, games: int) -> Results:
        """The results of games 0..games-1 of every arm (sim.results.first_games)."""
        keep = first_games(games)
        return replace(self, games=self.games.filter(keep), seats=self.seats.filter(keep),
                       _cache={})  # fmt: skip

    def _by_arm(self, table: str) -> dict[str, pl.DataFrame]:
        cache = self._cache.get(table)
        if cache is None:
            frame = self.games if table == "games" else self.seats
            cache = {str(k[0]): v for k, v in frame.partition_by("arm", as_dict=True).items()}
            self._cache[table] = cache
        return cache

    @property
    def total_games(self) -> int:
        return self.games.height

    @property
    def games_per_arm(self) -> int:
        """The most games any arm has (the arms of a run normally have the same number)."""
        if "games_per_arm" not in self._cache:
            counts = self.games.group_by("arm", maintain_order=True).len().get_column("len")
            self._cache["games_per_arm"] = int(counts.max()) if counts.len() else 0
        return self._cache["games_per_arm"]

    def rulebook_value(self, arm: str, key: str) -> Any:
        """The value of rule `key` in the preset the arm starts from, before the experiment's
        overrides (None if unknown). Read from the arm's effective ruleset when the arm did not
        override the key, else from the preset as the game's plug-in loads it."""
        info = self.arm(arm)
        if key not in info.overrides and key in info.rules:
            return info.rules[key]
        return preset_value(self.game, info.ruleset_ref or info.ruleset, key)


@functools.cache
def _preset(game: str, preset: str) -> Any:
    from sim.plugins import get_game

    try:
        return get_game(game).load_ruleset(preset)
    except SimError:  # a game or a ruleset file this machine does not have
        return None


def ruleset_for(game: str, preset: str) -> Any:
    """The ruleset of a preset (or a ruleset file) of `game` as its plug-in loads it, or None
    when this machine cannot load it."""
    return _preset(game, preset)


def preset_value(game: str, preset: str, key: str) -> Any:
    """The value of rule `key` in a preset (or a ruleset file) of `game`, as its plug-in loads
    it (lists as lists, as a manifest holds them), or None if it cannot be loaded."""
    ruleset = _preset(game, preset)
    if ruleset is None or key not in ruleset.values:
        return None
    value = ruleset.values[key]
    return list(value) if isinstance(value, tuple) else value


# --- loading --------------------------------------------------------------------------------


def load_results(results_dir: str | Path) -> Results:
    """Read a results folder (sim.results); every problem is a SimError with a hint."""
    root = results.check_folder(results_dir)
    games = _collect(results.load(root, "games"), "games", root)
    manifest = results.manifest(root)
    with fields_of(root / "manifest.json"):  # a field missing or of the wrong kind
        keep = (*_seat_columns(manifest, root / "manifest.json"), "seats*")
        arms = [settings_of(e, i) for i, e in enumerate(manifest["arms"]) if isinstance(e, dict)]
    seats = _collect(_narrow(results.load(root, "seats", columns=keep)), "seats", root)
    games, seats = _normalise(games, seats, arms)
    games, seats, excluded = _drop_illegal(games, seats)
    if games.height == 0:
        raise SimError(
            "every stored game stopped on an illegal move; there is nothing to report",
            file=root,
            hint="See illegal_moves in manifest.json: a strategy is broken.",
        )
    return Results(root=root, manifest=manifest, games=games, seats=seats, arms=arms,
                   excluded=excluded, incomplete=results.incomplete(root))  # fmt: skip


def _collect(lazy: pl.LazyFrame, table: str, root: Path) -> pl.DataFrame:
    try:
        return lazy.collect()
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise SimError(f"cannot read the {table} parts: {exc}", file=root / table) from None


def _drop_illegal(
    games: pl.DataFrame, seats: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame, dict[str, int]]:
    """Leave out games a strategy stopped with an illegal move; how many, per arm."""
    games, seats, bad = drop_illegal(games, seats, by=("arm", "game"))
    counts = dict(bad.group_by("arm", maintain_order=True).len().iter_rows()) if bad.height else {}
    return games, seats, {str(k): int(v) for k, v in counts.items()}


# seat columns every run writes; a game's report names the others its sections read (the rest
# stay on disk: a million games of 4 seats read whole would not fit in 1 GB)
BASE_SEAT_COLUMNS = (
    "arm", "game", "seat", "strategy", "score", "win_share", "players", "ruleset", "skill",
)  # fmt: skip


def _seat_columns(manifest: dict[str, Any], source: Path) -> tuple[str, ...]:
    from sim.plugins import get_game
    from sim.plugins.base import report

    game = get_game(game_name(manifest), source=str(source))
    return (*BASE_SEAT_COLUMNS, *report(game).seat_columns)


def _narrow(lazy: pl.LazyFrame) -> pl.LazyFrame:
    """Whole numbers as Int32 (a million games of four seats must fit in memory)."""
    schema = lazy.collect_schema()
    return lazy.with_columns(
        pl.col(c).cast(pl.Int32)
        for c, t in schema.items()
        if t in (pl.Int64, pl.UInt64, pl.Int16, pl.Int8) and c != "game"
    )


def _normalise(
    games: pl.DataFrame, seats: pl.DataFrame, arms: list[Settings]
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """`arm` becomes the arm's name (string) in both tables; players and ruleset columns exist
    in games; seats gain the game's outcome, players and ruleset."""
    by_index = {a.index: a.name for a in arms}
    names = {a.name for a in arms}

    def fix_arm(df: pl.DataFrame, table: str) -> pl.DataFrame:
        if "arm" not in df.columns:
            if len(arms) == 1:
                return df.with_columns(pl.lit(arms[0].name).alias("arm"))
            raise SimError(f"the {table} table has no `arm` column", hint="Re-run `sim run`.")
        dtype = df.schema["arm"]
        if dtype.is_integer():
            return df.with_columns(
                pl.col("arm").replace_strict(by_index, default=None, return_dtype=pl.String)
            )
        df = df.with_columns(pl.col("arm").cast(pl.String))
        values = set(df.get_column("arm").unique().to_list())
        if not values <= names and all(v.isdigit() for v in values if v is not None):
            df = df.with_columns(
                pl.col("arm")
                .cast(pl.Int64)
                .replace_strict(by_index, default=None, return_dtype=pl.String)
            )
        return df

    games = fix_arm(games, "games")
    seats = fix_arm(seats, "seats")
    for table, df in (("games", games), ("seats", seats)):
        missing = [c for c in _REQUIRED[table] if c not in df.columns]
        if missing:
            raise SimError(
                f"the {table} table lacks column(s) {', '.join(missing)}",
                hint="These results were written by an incompatible version; re-run `sim run`.",
            )
    info = {a.name: a for a in arms}
    if "players" not in games.columns:
        counts = seats.group_by("arm", "game", maintain_order=True).agg(pl.len().alias("players"))
        games = games.join(counts, on=["arm", "game"], how="left")
    if "ruleset" not in games.columns:
        games = games.with_columns(
            pl.col("arm")
            .replace_strict({k: v.ruleset for k, v in info.items()}, default="")
            .alias("ruleset")
        )
    games = games.sort("arm", "game")
    extra = [c for c in ("players", "ruleset") if c not in seats.columns]
    if extra:
        seats = seats.join(games.select("arm", "game", *extra), on=["arm", "game"], how="left")
    return games, seats


_REQUIRED = {
    "games": ("game", "outcome", "turns"),
    "seats": ("game", "seat", "strategy", "score", "win_share"),
}


def _names_its_arms(experiment_text: object) -> bool:
    try:
        data = safe_yaml.load(str(experiment_text or ""))
    except Exception:  # a folder written by hand or damaged: tell arms by their settings
        return False
    return isinstance(data, dict) and bool(data.get("arms")) and not data.get("sweep")
