"""Every game's example playtest records (examples/playtest/; Pig's and the coin race's beside
their packages): what they were written from, so that a test can write them again and compare,
and a fit can be checked against the skills they were played at. Each is a group of people as
the lab's players at known skills (sim/playtest/synthetic.py); docs/playtest.md shows their
fits.

    python -m tests.playtest_examples        # write them again (the engines compile first)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.examples.installing import PACKAGES

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "examples" / "playtest"
TITLE = {"guardians": "Guardians of Space"}  # the apps' name of the game, for their exports

# game -> (file, its groups: lab_records' arguments each)
EXAMPLES: dict[str, tuple[Path, list[dict[str, Any]]]] = {
    "guardians": (FOLDER / "guardians.csv", [
        {"group": "tuesday", "skills": {"Anna": 0.75, "Ben": 0.75, "Cleo": 0.25, "Dan": 0.25},
         "games": 40, "players": 4, "columns": ("turns", "outcome"), "seed": 3801},
        {"group": "newcomers", "skills": 0.1, "games": 30, "players": 3,
         "columns": ("turns", "outcome"), "seed": 3802},
    ]),
    "space-invaders": (FOLDER / "space-invaders.csv", [
        {"group": "family", "skills": 0.5, "games": 40, "players": 2,
         "rules": {"dexterity.skill": "child"}, "columns": ("rounds", "outcome"), "seed": 3803},
    ]),
    "alien-raid": (FOLDER / "alien-raid.csv", [
        {"group": "friday", "skills": {"Eve": 1.0, "Finn": 0.3, "Gus": 0.3}, "games": 24,
         "players": 3, "columns": ("conquests",), "seed": 3804},
    ]),
    "pig": (PACKAGES["pig"] / "playtest" / "pig.csv", [
        {"group": "lunch", "skills": {"Ivy": "shrewd", "Jon": "careless"}, "games": 40,
         "players": 2, "columns": ("turns",), "seed": 3805},
    ]),
    "coin-race": (PACKAGES["coin-race"] / "playtest" / "coin-race.csv", [
        {"group": "cautious", "skills": "steady", "games": 40, "players": 3,
         "columns": ("turns", "outcome"), "seed": 3806},
    ]),
}  # fmt: skip
APPS = {  # the tuesday group of Guardians as the apps export it
    FOLDER / "guardians-bgstats.json": "bgstats",
    FOLDER / "guardians-bgg.xml": "bgg",
}


def written(game: str) -> str:
    """The example file of `game` as its groups write it."""
    from sim.playtest.synthetic import lab_records

    parts = [lab_records(game, **group) for group in EXAMPLES[game][1]]
    return parts[0] + "".join(p.split("\n", 1)[1] for p in parts[1:])


def app_files() -> dict[Path, str]:
    """The app exports of Guardians' first group."""
    from sim.playtest.synthetic import as_bgg, as_bgstats, lab_records

    tuesday = lab_records("guardians", **EXAMPLES["guardians"][1][0])
    return {path: (as_bgstats if kind == "bgstats" else as_bgg)(tuesday, TITLE["guardians"])
            for path, kind in APPS.items()}  # fmt: skip


def write_all() -> None:
    from contextlib import ExitStack
    from tempfile import mkdtemp

    from tests.examples.installing import installed_here

    with ExitStack() as stack:
        for package in PACKAGES.values():
            stack.enter_context(installed_here(Path(mkdtemp()), package))
        for game, (path, _) in EXAMPLES.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(written(game), encoding="utf-8")
        for path, text in app_files().items():
            path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write_all()
