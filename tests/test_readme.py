"""Every command in README.md's code blocks, run as written, in order, from a fresh folder that
holds the repository's experiments, examples and scenarios (so results/ and reports/ start
empty): a README example that stops working fails here. A command that plays long gets fewer
games (and one worker) by appending options, as a user would (the last value of an option
wins), listed in SMALLER; a new command without an entry there fails until it has one. A
command that plays a shipped experiment as it is plays it as the shipped pages' check does
(tests/shipped.py), and that check reads its page instead of playing it again. A YAML block
headed by a file's path must equal that file; the Python block runs with fewer games.

`make run` runs `sim run experiments/missile_cost.yaml` (checked against the Makefile, and
played below); `make test` is this suite; `pip install -e examples/pig` installs the example
as pip would, into this process only (tests/examples/installing.py). Every page the walk
wrote (each game's report, the comparison, the tunes' and the screen's, the watched game) is
then opened in headless Chromium: any console error fails."""

from __future__ import annotations

import glob
import os
import re
import shlex
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import app
from tests.browser import assert_clean, open_pages
from tests.examples.installing import PACKAGES, installed_here
from tests.shipped import command, experiments, fewer_replicates, small

# slow: among the suite's long modules, scheduled first (tests/conftest.py); it plays every
# game's engines, so it is not `without_engines`
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
LINKED = ("experiments", "examples", "tests")  # what the commands read, linked into the folder

ONE = ["-j", "1"]  # one worker: the games are few, a pool would cost more than it saves
# command -> the shipped experiment it plays as it is (its results read by no later command):
# played with the shipped pages' options, its page serves their check too (shipped_pages)
SHIPPED = {  # (each one's report: reports/<name>/)
    "sim run experiments/missile_cost.yaml": "missile_cost",
    "sim run experiments/invaders_difficulty.yaml": "invaders_difficulty",
    "sim tune experiments/tune_invaders_chart.yaml": "tune_invaders_chart",
    "sim run experiments/alien_raid_ships.yaml": "alien_raid_ships",
    "sim run examples/no_thanks/experiments/first_player.yaml": "no_thanks_first_player",
    "sim run examples/pig/experiments/first_player.yaml": "pig_first_player",
    "sim run experiments/quality.yaml": "quality",
    "sim run experiments/invaders_quality.yaml": "invaders_quality",
    "sim run experiments/alien_raid_quality.yaml": "alien_raid_quality",
    "sim tune experiments/tune_missile.yaml": "tune_missile",
    "sim tune experiments/tune_prices.yaml": "tune_prices",
}


# command -> options appended to play it small (the README's own values stay, these win)
SMALLER: dict[str, list[str]] = {
    "sim --version": [],
    "sim games": [],
    "sim play --ruleset guardians-advanced --strategies greedy,cautious,economist,expert "
    "--seed 7": [],
    "sim rules show guardians --set missile.cost=8": [],
    "sim scenario check tests/scenarios/*/*.yaml": ["--quiet"],
    "sim run experiments/steal_highest.yaml": ["--games", "40", *ONE],
    "sim report results/steal_highest": [],
    "sim run experiments/steal_highest.yaml --seed 2 --out results/steal_highest_seed2": [
        "--games", "40", *ONE,
    ],
    "sim report --compare results/steal_highest results/steal_highest_seed2": [],
    "sim play --from-results results/steal_highest --index 17": [],
    "sim tournament --players 4 --strategies novice,casual,club,strong,master --games 20000": [
        "--games", "120", *ONE,
    ],
    "sim calibrate --players 4 --target raid=0.20": ["--games", "40"],
    "sim calibrate --game space-invaders --players 2 --set setup.level=elite "
    "--target victory=0.25": ["--games", "60"],
    "sim play --game space-invaders --strategies tactical,naive --seed 4 --html game.html": [],
    "sim rules show space-invaders-three-rows": [],
    "sim play --game alien-raid --seed 3": [],
    "sim rules list --game alien-raid": [],
    "sim bench --game alien-raid --quick": ["--games", "10", "--strategies", "naive"],
    "sim check no-thanks": ["--games", "5"],
    "sim playtest template --game guardians --out playtests.csv": [],
    "sim playtest fit examples/playtest/guardians.csv --game guardians --out results/playtest": [
        "--games", "100", *ONE, "--no-players", "--group", "newcomers",
    ],
    "sim play --game no-thanks --strategies strong,club,thrifty --seed 3": [],
    "sim play --game pig --strategies careless,optimal --seed 3": [],
    "sim screen experiments/tune_missile.yaml --set 'screen.keys=[\"*\"]' --games 4000": [
        "--games", "10", *ONE,
    ],
}  # fmt: skip
SMALLER.update({command_: small(name, experiments()[name]) for command_, name in SHIPPED.items()})
# the Python block's text -> what it runs with instead (each must be found)
PYTHON_SMALLER = {"games=2000": "games=40", 'out="results/try"': 'out="results/try", jobs=1'}
MAKE = {"make run": "$(SIM) run experiments/missile_cost.yaml", "make test": None}
PIP = ("pip install -e examples/no_thanks", "pip install -e examples/pig")


def blocks(lang: str) -> list[str]:
    """The README's fenced code blocks of one language, in order."""
    return [body for found, body in re.findall(r"```(\w+)\n(.*?)```", README.read_text(), re.S)
            if found == lang]  # fmt: skip


def commands() -> list[str]:
    """Every command of the shell blocks, in order, without its trailing comment."""
    out = []
    for body in blocks("sh"):
        for line in body.splitlines():
            text = re.split(r"\s+#\s", line.strip(), maxsplit=1)[0].strip()
            if text and not text.startswith("#"):
                out.append(text)
    return out


COMMANDS = commands()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh working folder beside the repository's inputs, with the examples installed
    (as `pip install -e examples/pig` installs Pig: the README's line is checked below)."""
    work = tmp_path_factory.mktemp("readme")
    for name in LINKED:
        (work / name).symlink_to(ROOT / name, target_is_directory=True)
    with ExitStack() as stack:
        for package in PACKAGES.values():
            stack.enter_context(installed_here(tmp_path_factory.mktemp("site"), package))
        yield work


def test_the_readme_has_its_commands():
    assert len(COMMANDS) >= 30 and COMMANDS[0] == "make run"
    sim = [c for c in COMMANDS if c.startswith("sim ")]
    missing = [c for c in sim if c not in SMALLER]
    assert not missing, f"give each new README command its small size in SMALLER: {missing}"
    assert not [c for c in SMALLER if c not in sim], "SMALLER lists a command the README lost"
    others = [c for c in COMMANDS if not c.startswith("sim ")]
    assert others == [*MAKE, *PIP], others


def test_make_run_runs_the_readmes_first_experiment():
    makefile = (ROOT / "Makefile").read_text()
    target = re.search(r"^run:.*\n\t(.+)$", makefile, re.M)
    assert target and target[1].strip() == MAKE["make run"]
    assert "sim run experiments/missile_cost.yaml" in COMMANDS


def test_a_shipped_experiment_is_played_as_the_shipped_pages_play_it():
    """The README's command and the shipped pages' small options are the shipped pages'
    command but for the folder: one play, whose page that check reads."""
    found = experiments()
    for line, name in SHIPPED.items():
        words = [*shlex.split(line)[1:], *SMALLER[line]]
        assert [*words, "--out", "X"] == command(name, found[name], Path("X")), line


def test_pip_install_names_the_example_packages():
    for line in PIP:
        folder = ROOT / line.split()[-1]
        assert folder in PACKAGES.values() and (folder / "pyproject.toml").is_file(), line


def test_every_yaml_block_named_after_a_file_is_that_file():
    named = [body for body in blocks("yaml") if re.match(r"# [\w./-]+\.yaml\n", body)]
    assert named, "the README shows no experiment file"
    for body in named:
        path = ROOT / body.splitlines()[0][2:]
        assert path.is_file(), f"{path.name}: shown in README.md but not shipped"
        assert path.read_text() == body, f"{path.name} differs from its README block"


@pytest.mark.parametrize("line", [c for c in COMMANDS if c.startswith("sim ")])
def test_every_command_runs_as_written(line, folder, monkeypatch, shipped_pages):
    monkeypatch.chdir(folder)
    args = [found for word in shlex.split(line)[1:] for found in _globbed(word)]
    with fewer_replicates():  # a tune's model: a tenth of its bootstrap (tests/shipped.py)
        done = CliRunner().invoke(app, [*args, *SMALLER[line]])
    assert done.exit_code == 0, f"{line}\n{done.output[-3000:]}"
    assert "Traceback" not in done.output and "error:" not in done.output, done.output[-3000:]
    if line in SHIPPED:  # its page, for the shipped pages' check (tests/conftest.py)
        page = folder / "reports" / SHIPPED[line] / "index.html"
        assert page.is_file(), f"{line} wrote no {page.relative_to(folder)}"
        shipped_pages[SHIPPED[line]] = page


def _globbed(word: str) -> list[str]:
    """A shell's expansion of a pattern (sorted, as bash sorts it), else the word."""
    return sorted(glob.glob(word)) if any(c in word for c in "*?[") and glob.glob(word) else [word]


def test_the_python_block_runs(folder, monkeypatch):
    (code,) = blocks("python")
    for old, new in PYTHON_SMALLER.items():
        assert old in code, f"the README's Python block no longer holds {old!r}"
        code = code.replace(old, new)
    monkeypatch.chdir(folder)
    exec(compile(code, "README.md (python)", "exec"), {})  # as a notebook cell runs it


def test_the_run_wrote_where_the_readme_says(folder):
    assert (folder / "reports" / "missile_cost" / "index.html").is_file()
    assert (folder / "results" / "steal_highest_seed2" / "report" / "index.html").is_file()
    assert (folder / "reports" / "tune_missile" / "index.html").is_file()
    assert (folder / "game.html").is_file()
    assert os.path.isdir(folder / "results" / "try")


# the pages the walk must have written: a report of every game, the comparison's, a tune's
# and a screen's, and the watched game's (a page missing means a command wrote elsewhere)
WALK_PAGES = (
    "reports/missile_cost/index.html", "reports/steal_highest/index.html",
    "results/steal_highest_seed2/report/index.html",
    "reports/compare-steal_highest-vs-steal_highest_seed2/index.html",
    "reports/invaders_difficulty/index.html",
    "reports/alien_raid_ships/index.html", "reports/pig_first_player/index.html",
    "reports/quality/index.html", "reports/invaders_quality/index.html",
    "reports/alien_raid_quality/index.html", "reports/tune_invaders_chart/index.html",
    "reports/tune_missile/index.html", "reports/tune_missile_screen/index.html",
    "game.html",
)  # fmt: skip
# after load: the verdict is what the recorder of tests/browser.py caught
LOADED = """
  window.addEventListener('load', function () {
    setTimeout(function () {
      report({problems: problems, text: document.body.innerText.length});
    }, 300);
  });
"""


@pytest.mark.browser
def test_every_page_the_walk_wrote_opens_without_a_console_error(folder):
    written = sorted(str(p.relative_to(folder)) for top in ("reports", "results")
                     for p in (folder / top).rglob("*.html")) + ["game.html"]  # fmt: skip
    missing = [page for page in WALK_PAGES if page not in written]
    assert not missing, f"the walk wrote no {missing}"
    opened = open_pages([folder / page for page in written], LOADED)
    for page, (verdict, console) in zip(written, opened, strict=True):
        assert_clean(page, verdict, console)
        assert verdict["text"] > 200, f"{page}: drew almost nothing"
