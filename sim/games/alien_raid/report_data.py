"""What the alien-raid report sections read: this game's own seat columns (straight from the
stored Parquet parts, since the shared loader keeps only the common ones), each arm's card
catalog as stored in the manifest, and how an arm is named (its skill level).

Nothing here imports the engine, the plug-in or the strategies.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl

from sim.report.context import Context
from sim.report.render import Finding
from sim.stats.paired import Difference, welch_difference
from sim.storage import part_files

CATALOG = "catalog."


def seats(ctx: Context, columns: list[str]) -> pl.DataFrame:
    """The seats table with `columns` (this game's own), games stopped by a refusal left out."""
    results = ctx.results
    cache: dict[tuple[str, ...], pl.DataFrame] = results._cache.setdefault("alien_raid", {})
    key = tuple(sorted(set(columns)))
    if key not in cache:
        files = part_files(results.root, "seats")
        wanted = ["arm", "game", "seat", "strategy", "score", "win_share", "players", *key]
        lazy = pl.scan_parquet([str(f) for f in files], hive_partitioning=False)
        present = [c for c in dict.fromkeys(wanted) if c in lazy.collect_schema().names()]
        frame = lazy.select(present).collect().with_columns(pl.col("arm").cast(pl.String))
        kept = results.games.select("arm", "game")
        cache[key] = frame.join(kept, on=["arm", "game"], how="semi")
    return cache[key]


def arm_seats(ctx: Context, arm: str, columns: list[str]) -> pl.DataFrame:
    return seats(ctx, columns).filter(pl.col("arm") == arm)


def catalog(ctx: Context, arm: str) -> dict[str, Any]:
    """The arm's catalog keys (catalog.<section>.<card>.<field>) as stored in the manifest."""
    values = ctx.results.arm(arm).ruleset_values
    return {k: v for k, v in values.items() if k.startswith(CATALOG)}


def cards(values: dict[str, Any], section: str) -> list[str]:
    names: dict[str, None] = {}
    for key in values:
        parts = key.split(".")
        if len(parts) == 4 and parts[1] == section:
            names[parts[2]] = None
    return list(names)


def column(card: str) -> str:
    return card.replace("-", "_")


def skill(ctx: Context, arm: str) -> str:
    """The arm as a reader names it: its strategies without their parameters (one name when
    every seat plays the same), with the arm's name when other arms play the same."""

    def bases(name: str) -> str:
        labels = dict.fromkeys(label.split("(")[0] for label in ctx.results.arm(name).lineup)
        return ", ".join(labels) or name

    mine = bases(arm)
    shared = sum(bases(other) == mine for other in ctx.arm_names) > 1
    return f"{mine} ({arm})" if shared and mine != arm else mine


def assumed_note(ctx: Context) -> list[Finding]:
    """The warning that the numbers rest on the assumed catalog (when any arm uses it)."""
    assumed = [a for a in ctx.arm_names if catalog(ctx, a).get("catalog.assumed")]
    if not assumed:
        return []
    text = (
        "These numbers rest on the ASSUMED card catalog (sim/games/alien_raid/rulesets/"
        "assumed-catalog.yaml), not the published cards: prices, attacks, city values and "
        "most traits are assumptions. Replace it with the designer's list (catalog_file) "
        "and run again."
    )
    return [Finding(text, "info")]


def diff_row(d: Difference, key: str) -> dict[str, Any]:
    return {
        key: d.estimate,
        f"{key}_low": d.low,
        f"{key}_high": d.high,
        f"{key}_p": d.pvalue,
        f"{key}_sig": None if math.isnan(d.pvalue) else d.significant,
    }


def welch(frame: pl.DataFrame, flag: str, value: str) -> Difference:
    """mean(value | flag = 1) - mean(value | flag = 0)."""
    yes = frame.filter(pl.col(flag) == 1).get_column(value).to_numpy().astype(float)
    no = frame.filter(pl.col(flag) == 0).get_column(value).to_numpy().astype(float)
    return welch_difference(yes, no)


def bucket(values: np.ndarray, edges: list[int]) -> list[str]:
    """Labels such as '<=4', '5-8', '>=17' for values cut at `edges` (upper bounds)."""
    labels = []
    for v in values:
        low = None
        for e in edges:
            if v <= e:
                labels.append(f"<={e}" if low is None else f"{low + 1}-{e}")
                break
            low = e
        else:
            labels.append(f">={edges[-1] + 1}")
    return labels
