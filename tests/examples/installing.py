"""A game package from outside the lab (examples/<package>), installed as pip would install
it: a folder holding its distribution's metadata (`METADATA`, and `entry_points.txt` with the
`sim.games` entry points of its pyproject.toml) and the package's folder, both on the path.
For a new process (`installed_env`, then `sim`) or for this one while a block runs
(`installed_here`), so that the plug-in boundary an example crosses stays real and the lab's
own test session never registers the game for good."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
# the example games' packages, by the game name their entry point declares
PACKAGES = {"coin-race": EXAMPLES / "coin_race", "pig": EXAMPLES / "pig"}


def _project(package: Path) -> dict:
    return tomllib.loads((package / "pyproject.toml").read_text())["project"]


def games_of(package: Path) -> dict[str, str]:
    """The package's `sim.games` entry points: game name -> plug-in object."""
    return dict(_project(package)["entry-points"]["sim.games"])


def write_site(site: Path, package: Path) -> Path:
    """Write the distribution metadata of the package at `package` into the folder `site`."""
    project = _project(package)
    name, version = project["name"], project["version"]
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    lines = "".join(f"{game} = {target}\n" for game, target in games_of(package).items())
    (info / "entry_points.txt").write_text(f"[sim.games]\n{lines}")
    return site


def installed_env(site: Path, package: Path) -> dict[str, str]:
    """The environment of a process in which the package at `package` is installed; its
    metadata is written to the folder `site`."""
    write_site(site, package)
    path = os.pathsep.join([str(site), str(package), os.environ.get("PYTHONPATH", "")])
    return dict(os.environ, PYTHONPATH=path)


@contextmanager
def installed_here(site: Path, package: Path) -> Iterator[None]:
    """The package at `package` installed in this process while the block runs."""
    from sim import plugins

    added = [str(write_site(site, package)), str(package)]
    sys.path[:0] = added
    try:
        yield
    finally:
        for entry in added:
            sys.path.remove(entry)
        for name in games_of(package):
            plugins._GAMES.pop(name, None)


def sim(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    """`sim ARGS` run from the repository in the environment `env`."""
    return subprocess.run([sys.executable, "-m", "sim", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True)  # fmt: skip
