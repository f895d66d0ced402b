"""Every shipped experiment (experiments/*.yaml, and each example plug-in's experiments),
played small and reported: one results folder and one page per experiment. The browser test
checks every page (tests/test_report_browser.py); `make screenshots` shoots each page's first
screen into docs/screenshots/<experiment>.png:

    python -m tests.shipped --out docs/screenshots

Each experiment is played in this process with the command its file is for (`sim run`, `sim
tune` or `sim screen`), with few games (a tune's model with a tenth of its bootstrap), and the
example games installed for the length of the build (tests/examples/installing.py), so the
pages are those a designer gets, only smaller.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
GAMES = "20"  # games per arm (a tune's and a screen's own small sizes below)
# a tune small enough to play in seconds: two trials on two small rungs, one confirmed at the
# larger (Space Invaders' chart, whose every trial plays each printed level: smaller still)
TUNE_GAMES = {"tune_invaders_chart": 20}


@contextmanager
def fewer_replicates() -> Iterator[None]:
    """`sim tune`'s model bootstrapped with a tenth of its replicates while the block runs, as
    a small tune's games are a tenth or less: each tune still fits its model, finds the
    interval, the region and the alternatives and draws every picture of its page, where the
    full 400 replicates took most of a small tune's time (the shipped pages and the README
    walk); the bootstrap's coverage at its own size is checked in tests/test_tune_region.py."""
    import functools
    from unittest import mock

    from sim.tune import model_data, region

    small = functools.partial(region.locate, replicates=region.REPLICATES // 10)
    with mock.patch.object(model_data, "locate", small):
        yield


def small_tune(name: str) -> list[str]:
    games = TUNE_GAMES.get(name, 80)
    return ["--games", str(games), "--trials", "2", "--set",
            f"search.games=[{games // 2}, {games}]", "--set", "search.confirm=1"]  # fmt: skip


# a sensitivity analysis small enough to play in seconds: two Morris paths, Sobol on two keys
SENSITIVITY_SIZES = {"games": 10, "trajectories": 2, "base": 4, "max_keys": 2}
SMALL_SENSITIVITY = [f"--set=sensitivity.{k}={v}" for k, v in SENSITIVITY_SIZES.items()]

# experiments whose own settings need a word more to play small
EXTRA = {
    "first_player": ["--set", "precision.max_games=40"],
    "pig_first_player": ["--set", "precision.max_games=40"],
    "no_thanks_first_player": ["--games", "4"],  # a searching player: about a game a second
    "no_thanks_quality": ["--games", "3"],
    # master searches 1,000 simulations a decision in plain Python: the page has every section,
    # picture, table and scorecard row at 5 games a table as at 20 (a few pairings unplayed)
    "plain_pig_quality": ["--games", "5"],
    # the optimal player's table is solved per goal (value iteration, goal^3 states): three goals
    # of the five keep every section, the picture and every table (10 of 13 CPU s were 150, 200)
    "pig_goal": ["--set", "sweep.goal.points=[25, 50, 100]"],
    "invaders_difficulty": ["--games", "6"],
    "invaders_quality": ["--games", "6"],
}
SHOT = (1280, 900)  # the first screen of a desktop window


def experiments() -> dict[str, Path]:
    """name -> file of every shipped experiment: experiments/<name>.yaml, an example's
    examples/<game>/experiments/<name>.yaml as <game>_<name> (its own name when that already
    starts with the game's), and the coin race's experiment.yaml as coin_race."""
    out = {p.stem: p for p in sorted((ROOT / "experiments").glob("*.yaml"))}
    for p in sorted((ROOT / "examples").glob("*/experiments/*.yaml")):
        game = p.parents[1].name
        out[p.stem if p.stem.startswith(game) else f"{game}_{p.stem}"] = p
    for p in sorted((ROOT / "examples").glob("*/experiment.yaml")):
        out[p.parent.name] = p
    return out


def command(name: str, path: Path, out: Path) -> list[str]:
    """The `sim` command (without `sim`) that plays the experiment small into `out`."""
    return [_verb(path), str(path.relative_to(ROOT)), *small(name, path), "--out", str(out)]


def small(name: str, path: Path) -> list[str]:
    """The options that play the experiment small (its command's, without the folder). The
    README walk plays the shipped experiments it names with these too (tests/test_readme.py):
    its play is the one this build would make, and the browser check reads its page."""
    verb = _verb(path)
    if verb == "sensitivity":
        sized = SMALL_SENSITIVITY
    elif verb == "tune":
        sized = small_tune(name)
    else:
        sized = ["--games", GAMES]
    return [*sized, *EXTRA.get(name, []), "-j", "1"]


def _verb(path: Path) -> str:
    """The command the experiment's file is for: sensitivity, screen, tune or run."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return next((verb for verb in ("sensitivity", "screen", "tune") if verb in data), "run")


@contextmanager
def examples_installed(site: Path) -> Iterator[None]:
    """Every example game installed in this process while the block runs."""
    from tests.examples.installing import PACKAGES, installed_here

    with ExitStack() as stack:
        for package in dict.fromkeys(PACKAGES.values()):
            stack.enter_context(installed_here(site, package))
        yield


def build(base: Path, names: list[str] | None = None, *, played: dict[str, Path] | None = None,
          log=None) -> dict[str, Path]:  # fmt: skip
    """Play and report every shipped experiment (or those `names`) into base/<name>; name ->
    its page (index.html). `played`: pages this process already made with the same play
    (`small`'s options), taken as they are. A command that fails raises, naming the
    experiment and its output."""
    from typer.testing import CliRunner

    from sim.cli import app

    found = experiments()
    pages = {name: page for name, page in (played or {}).items() if name in (names or found)}
    with examples_installed(base / "site"), fewer_replicates():
        for name in [name for name in names or found if name not in pages]:
            out = base / name
            started = _cpu()
            done = CliRunner().invoke(app, command(name, found[name], out))
            if done.exit_code != 0:
                raise RuntimeError(f"{name}: {' '.join(command(name, found[name], out))} "
                                   f"failed:\n{done.output[-3000:]}")  # fmt: skip
            pages[name] = out / "report" / "index.html"
            if log:
                log(f"{name}: {_cpu() - started:.1f} CPU s")
    return pages


def _cpu() -> float:
    """CPU seconds of this process and its finished children (a run's worker processes)."""
    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def shoot(page: Path, png: Path, *, width: int = SHOT[0], height: int = SHOT[1]) -> Path:
    """The page's first screen at `width` pixels in headless Chromium, written to `png` with
    at most 256 colours (a few tens of kB)."""
    from PIL import Image

    from tests.browser import FLAGS
    from tests.conftest import chromium_path

    browser = chromium_path()
    if browser is None:
        raise SystemExit("chromium not found (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "shot.png"
        cmd = [browser, *FLAGS, f"--user-data-dir={tmp}/profile", "--hide-scrollbars",
               f"--window-size={width},{height}", f"--screenshot={raw}",
               "--virtual-time-budget=10000", page.resolve().as_uri()]  # fmt: skip
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
        if done.returncode != 0 or not raw.is_file():
            raise RuntimeError(f"{page}: no screenshot\n{done.stderr[-2000:]}")
        with Image.open(raw) as image:
            small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
            png.parent.mkdir(parents=True, exist_ok=True)
            small.save(png, optimize=True)
    return png


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="docs/screenshots", help="folder of the PNGs")
    parser.add_argument("--work", default="", help="folder for the small runs (default: temp)")
    parser.add_argument("names", nargs="*", help="experiments (default: every shipped one)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.work or tmp)
        pages = build(work, args.names or None, log=lambda line: print(line, flush=True))
        for name, page in pages.items():
            print(shoot(page, Path(args.out) / f"{name}.png"), flush=True)


if __name__ == "__main__":
    sys.exit(main())
