"""Results on disk: Parquet part files per (table, arm, chunk of games) and a JSON manifest.

Layout of a results folder (see docs/results.md):

    manifest.json
    manifest.journal                                   a line per chunk stored since it was written
    games/arm-000/part-0000000000-0000020000.parquet   one row per game, games 0..19999
    seats/arm-000/part-0000000000-0000020000.parquet   one row per (game, seat)

A part is written to a hidden temporary name and renamed when complete; a chunk counts as done
when both its games part and its seats part exist. The manifest keeps each part's rows, size and
sha256 (sim.storage.verify); `.lock` marks the folder in use by a run (sim.storage.lock).
"""

from sim.storage.manifest import read_manifest, write_manifest
from sim.storage.parts import (
    TABLES,
    arm_dir,
    cleanup,
    complete_chunks,
    encode,
    part_files,
    part_path,
    write_atomic,
)
from sim.storage.remove import remove_results

__all__ = [
    "TABLES",
    "arm_dir",
    "cleanup",
    "complete_chunks",
    "encode",
    "part_files",
    "part_path",
    "read_manifest",
    "remove_results",
    "write_atomic",
    "write_manifest",
]
