"""A game package from outside the lab, installed as pip would install it, for `sim`
subprocesses: a folder holding its distribution's metadata (`METADATA`, and `entry_points.txt`
with the `sim.games` entry points of its pyproject.toml) and the package's folder, both on
their PYTHONPATH. The test process itself never sees the entry point, so the lab's own test
session never registers the game."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def installed_env(site: Path, package: Path) -> dict[str, str]:
    """The environment of a process in which the package at `package` is installed; its
    metadata is written to the empty folder `site`."""
    project = tomllib.loads((package / "pyproject.toml").read_text())["project"]
    name, version = project["name"], project["version"]
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    points = project["entry-points"]["sim.games"]
    lines = "".join(f"{game} = {target}\n" for game, target in points.items())
    (info / "entry_points.txt").write_text(f"[sim.games]\n{lines}")
    path = os.pathsep.join([str(site), str(package), os.environ.get("PYTHONPATH", "")])
    return dict(os.environ, PYTHONPATH=path)


def sim(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    """`sim ARGS` run from the repository in the environment `env`."""
    return subprocess.run([sys.executable, "-m", "sim", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True)  # fmt: skip
