"""Reading results back: ``load(DIR)`` gives a polars LazyFrame over the stored games.

    import polars as pl
    from sim.results import load
    games = load("results/missile_cost")                 # one row per game
    seats = load("results/missile_cost", "seats")        # one row per (game, seat)
    games.group_by("missile.cost").agg((pl.col("outcome") == "raid").mean()).collect()

Every column is documented in docs/results.md. Only completed chunks are read (a chunk whose
games or seats part is missing, from an interrupted run, is left out); a folder with a damaged
part is refused, naming the part (the same `sim run` again plays exactly its games again).
This module is the one reader of a results folder: the reports (sim/report/data.py), the
tournament's ranking, the precision stop and the Python API (sim.lab) read through it.

One arm in memory is a `StoredArm`: its games, its seats (games stopped on an illegal move
left out) and its `Settings` (what its manifest entry says it was played with); `first(n)`
keeps games 0..n-1, what a stop rule or a search's rung reads whatever else is stored:

    arm = read_arm("results/missile_cost", "cost=8@club", seats_columns=["score"])
    arm.first(1000).seats                               # games 0..999, one row per seat
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq

from sim.errors import SimError
from sim.plugins.base import StrategySpec
from sim.storage import complete_chunks, part_files, read_manifest
from sim.storage.lock import holder
from sim.storage.manifest import fields_of, ruleset_values
from sim.storage.parts import MANIFEST
from sim.storage.verify import incomplete_note, refuse_damaged
from sim.stored_arm import Settings, StoredArm

TABLES = ("games", "seats")
# the game of the results written before manifests named their game (the lab had one game
# then): history, not a default (sim.games.DEFAULT_GAME is what a command plays unnamed)
UNNAMED_GAME = "guardians"


def check_folder(results_dir: str | Path) -> Path:
    """The folder, if it can be a results folder (it exists, is a folder and holds a
    manifest.json); else a SimError with a hint."""
    root = Path(results_dir)
    if not root.exists():
        hint = "Give the folder `sim run` wrote, e.g. results/missile_cost."
        raise SimError("results folder not found", file=root, hint=hint)
    if not root.is_dir():
        raise SimError("not a folder", file=root, hint="Give a results folder, not a file.")
    if not (root / "manifest.json").is_file():
        raise SimError(
            "no manifest.json here: not a results folder",
            file=root,
            hint="Run `sim run EXPERIMENT.yaml` first, or point at the folder it wrote.",
        )
    return root


def manifest(results_dir: str | Path) -> dict[str, Any]:
    """The run's manifest.json (experiment text, rulesets per arm, seeds, versions, chunks),
    refused unless `sim run` wrote it."""
    found = read_manifest(check_folder(results_dir))
    assert found is not None  # check_folder saw the file
    return found


def game_name(found: dict[str, Any]) -> str:
    """The game a manifest's games were played with."""
    return str(found.get("game") or UNNAMED_GAME)


def table_files(results_dir: str | Path, table: str, arms: list[int] | None = None) -> list[Path]:
    """The parts of `table`: the completed chunks (`sim.storage.part_files`), optionally of some
    arms; in a folder whose parts do not have the runner's names (hand-copied, hive style
    `games/arm=<k>/*.parquet`), every Parquet file under the table's folder."""
    root = Path(results_dir)
    files = part_files(root, table, arms)
    folder = root / table
    if files or arms is not None or not folder.is_dir():
        return files
    return sorted(p for p in folder.rglob("*.parquet") if not p.name.startswith("."))


def incomplete(results_dir: str | Path) -> str | None:
    """Why and how far the run of a results folder is incomplete, or None (also None when the
    folder cannot be read: its reader says why)."""
    root = Path(results_dir)
    try:
        found = manifest(root)
        if not table_files(root, "games"):
            return None
        with fields_of(root / "manifest.json"):
            return incomplete_note(root, found, holder(root))
    except SimError:
        return None


def load(
    results_dir: str | Path,
    table: str = "games",
    *,
    arms: Iterable[int | str] | None = None,
    columns: Iterable[str] | None = None,
) -> pl.LazyFrame:
    """A LazyFrame over the `games` or `seats` table of a results folder.

    ``arms`` keeps some arms only, by index or name (the manifest lists them); ``columns``
    keeps some columns only (a name ending in * keeps every column it begins). Parts whose
    columns differ (hand-made data) are joined, a column missing from a part left empty and
    whole numbers widened to the widest.
    """
    root = Path(results_dir)
    if table not in TABLES:
        raise SimError(f"unknown table '{table}'", hint="Tables: games, seats.")
    indices = None if arms is None else [_arm_index(root, a) for a in arms]
    files = table_files(root, table, indices)
    found = read_manifest(root) if files else None
    if isinstance(found, dict):
        refuse_damaged(root, found)  # polars would fail later, naming no file
    if not files:
        if not root.exists():
            raise SimError("results folder not found", file=root, hint="Run `sim run FILE` first.")
        which = "" if indices is None else f" for arms {indices}"
        raise SimError(f"no {table} stored{which}", file=root, hint="Run `sim run FILE` first.")
    keep = list(columns) if columns is not None else None
    try:
        schemas = [pq.read_schema(f).remove_metadata() for f in files]
    except OSError as exc:
        raise SimError(f"cannot read the {table} parts: {exc}", file=root / table) from None
    if all(s == schemas[0] for s in schemas):  # the runner's parts: one scan
        scan = pl.scan_parquet([str(f) for f in files], hive_partitioning=False)
        return scan.select(_kept(schemas[0].names, keep))
    parts = [pl.scan_parquet(f, hive_partitioning=False).select(_kept(s.names, keep))
             for f, s in zip(files, schemas, strict=True)]  # fmt: skip
    return pl.concat(parts, how="diagonal_relaxed")


def _kept(names: list[str], keep: list[str] | None) -> list[str]:
    """The columns of `names` that `keep` names (all without `keep`)."""
    if keep is None:
        return names
    starts = tuple(k[:-1] for k in keep if k.endswith("*"))
    return [c for c in names if c in keep or (bool(starts) and c.startswith(starts))]


def arms(results_dir: str | Path) -> pl.DataFrame:
    """One row per arm: index, name, players, ruleset, games stored, and its parameters."""
    rows = []
    for arm in manifest(results_dir)["arms"]:
        rows.append(
            {
                "index": arm["index"],
                "arm": arm["name"],
                "players": arm["players"],
                "ruleset": arm["ruleset"],
                "games": arm.get("games", 0),
                **arm.get("params", {}),
            }
        )
    return pl.DataFrame(rows)


# --- one arm in memory ------------------------------------------------------------------------


def settings_of(entry: dict[str, Any], position: int = 0) -> Settings:
    """An arm's Settings from its manifest entry (`position`: its place in the manifest)."""
    overrides = [o for o in entry.get("overrides") or [] if isinstance(o, list | tuple) and o]
    return Settings(
        players=int(entry.get("players") or 0),
        lineup=tuple(
            str(x if isinstance(x, str) else x.get("label", x)) for x in entry.get("lineup") or []
        ),  # fmt: skip
        rules=ruleset_values(entry),
        index=int(entry.get("index", position)),
        name=str(entry.get("name", f"arm {position}")),
        ruleset=str(entry.get("ruleset", "")),
        params=dict(entry.get("params") or {}),
        ruleset_ref=str(entry.get("ruleset_ref") or entry.get("ruleset") or ""),
        overrides=tuple(str(o[0]) for o in overrides),
        override_values={str(o[0]): o[1] for o in overrides if len(o) > 1},
        skill=str(entry.get("skill") or ""),
        base_arm=str(entry.get("base_arm") or ""),
    )


def drop_illegal(
    games: pl.DataFrame, seats: pl.DataFrame, by: tuple[str, ...] = ("game",)
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The games and seats without the games a strategy stopped with an illegal move (their
    outcome is meaningless), and those games (columns `by`, which name a game)."""
    if "error" not in games.columns:
        return games, seats, pl.DataFrame(schema={c: games.schema.get(c, pl.Int64) for c in by})
    bad = games.filter(pl.col("error") != 0).select(by)
    if bad.height == 0:
        return games, seats, bad
    keep = {"on": list(by), "how": "anti"}
    return games.join(bad, **keep), seats.join(bad, **keep), bad


def read_arm(
    results_dir: str | Path,
    arm: int | str,
    *,
    games_columns: Iterable[str] | None = None,
    seats_columns: Iterable[str] | None = None,
    reader: str = "",
) -> StoredArm:
    """One arm (by index or name) with the columns named (and `game`, `seat`; None: every
    column) read from its stored parts, games stopped on an illegal move left out; a column
    the folder does not have is a clear error (results stored before it existed), `reader`
    saying who wants it."""
    root = Path(results_dir)
    index = _arm_index(root, arm)
    named = {"games": games_columns, "seats": seats_columns}
    want = {}
    frames = {}
    for table in TABLES:
        lazy = load(root, table, arms=[index])
        have = set(lazy.collect_schema().names())
        keys = {"game", "seat"} if table == "seats" else {"game"}
        want[table] = keys | set(have if named[table] is None else named[table])
        missing = sorted(want[table] - have)
        if missing:
            raise SimError(
                f"the {table} table has no column {', '.join(missing)}"
                + (f" ({reader})" if reader else ""),
                file=root,
                hint="These results were stored before that column existed: run the "
                "experiment again with --fresh.",
            )
        keep = [c for c in lazy.collect_schema().names()
                if c in want[table] or (table == "games" and c == "error")]  # fmt: skip
        frames[table] = lazy.select(keep).collect()
    games, seats, _ = drop_illegal(frames["games"], frames["seats"])
    games = games.select(c for c in games.columns if c in want["games"])
    return StoredArm(games, seats, settings_of(manifest(root)["arms"][index], index))


@dataclass(frozen=True)
class Replay:
    """Everything needed to play one stored game again, exactly."""

    arm: str
    game: int
    seed: int
    players: int
    ruleset_ref: str  # preset name or file path
    overrides: tuple[tuple[str, Any], ...]  # rule overrides, applied in order
    ruleset_yaml: str  # the effective ruleset, as a file
    seats: tuple[StrategySpec, ...]  # the strategy in each seat of this game
    game_name: str = UNNAMED_GAME


def replay(results_dir: str | Path, game: int, arm: int | str | None = None) -> Replay:
    """The seed, ruleset and seat lineup of game `game` (of `arm`, default the first arm)."""
    man = manifest(results_dir)
    with fields_of(Path(results_dir) / MANIFEST):
        return _replay(results_dir, man, game, arm)


def _replay(results_dir: str | Path, man: dict[str, Any], game: int,
            arm: int | str | None) -> Replay:  # fmt: skip
    from sim.seeds import game_seed

    index = 0 if arm is None else _arm_index(Path(results_dir), arm)
    entry = man["arms"][index]
    if game < 0:
        raise SimError(f"game index {game} is negative", key="--index")
    stored = complete_chunks(results_dir).get(index, [])
    if not any(start <= game < stop for start, stop in stored):
        ranges = ", ".join(f"{a}-{b - 1}" for a, b in _merged(stored)) or "none"
        raise SimError(
            f"game {game} of arm '{entry['name']}' is not stored",
            file=results_dir,
            key="--index",
            hint=f"Stored games of this arm: {ranges}.",
        )
    lineup = [
        StrategySpec(s["name"], tuple((k, v) for k, v in s["params"]))
        for s in entry["lineup_specs"]
    ]
    table = entry["tables"][game % len(entry["tables"])]
    return Replay(
        arm=entry["name"],
        game=game,
        seed=game_seed(int(man["seed"]["root"]), game),
        players=int(entry["players"]),
        ruleset_ref=entry["ruleset_ref"],
        overrides=tuple((k, v) for k, v in entry["overrides"]),
        ruleset_yaml=entry["ruleset_yaml"],
        seats=tuple(lineup[j] for j in table),
        game_name=game_name(man),
    )


def _merged(chunks: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, stop in sorted(chunks):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], stop))
        else:
            out.append((start, stop))
    return out


def _arm_index(root: Path, arm: int | str) -> int:
    entries = manifest(root)["arms"]
    if isinstance(arm, int) and not isinstance(arm, bool):
        if 0 <= arm < len(entries):
            return arm
        names = ", ".join(f"{e['index']} '{e['name']}'" for e in entries)
        raise SimError(f"there is no arm {arm}", file=root, key="--arm",
                       hint=f"Arms (by index or name): {names}.")  # fmt: skip
    for entry in entries:
        if entry["name"] == arm:
            return int(entry["index"])
    names = ", ".join(f"'{e['name']}'" for e in entries)
    raise SimError(f"no arm named '{arm}'", file=root, key="--arm", hint=f"Arms: {names}.")
