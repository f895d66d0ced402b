"""Every reader of a user file keeps its contract on hostile files (issue 24): random bytes,
random text, UTF-16, YAML of the wrong shape and shipped files mutated either pass or are
refused on one line that names the file (exit code 2 at the command line), never with a
traceback. Readers: experiments, tune files, each game's scenarios (through `sim scenario`
too; Pig's, the example game installed from examples/pig, too), each game's rulesets, the card
catalogs (and Space Invaders' geometry file), a results folder's manifest, and a user
strategy's module. The example counts stay modest: the default suite runs them every time
(SIM_FUZZ_EXAMPLES=500 runs a deeper search by hand)."""

from __future__ import annotations

import itertools
import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.experiment import load_experiment
from sim.experiment.model import TOP_KEYS as EXPERIMENT_KEYS
from sim.games.alien_raid.scenario import TOP_KEYS as ALIEN_RAID_KEYS
from sim.games.guardians.scenario import TOP_KEYS as GUARDIANS_KEYS
from sim.games.space_invaders.scenario import TOP_KEYS as SPACE_INVADERS_KEYS
from sim.plugins import get_game
from sim.plugins.base import scenarios
from sim.report.data import load_results
from sim.results import replay
from sim.runner import run
from sim.tune.spec import SEARCH_KEYS, TARGET_KEYS, TUNE_KEYS, load_tune
from tests.cli_checks import invoke
from tests.examples.installing import PACKAGES, installed_here
from tests.hostile import assert_clean, hostile, values
from tests.scenario_files import scenario_files

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = int(os.environ.get("SIM_FUZZ_EXAMPLES", "25"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])  # fmt: skip
GAMES = {  # game -> (its package, the top-level keys of its scenarios)
    "guardians": ("guardians", GUARDIANS_KEYS),
    "space-invaders": ("space_invaders", SPACE_INVADERS_KEYS),
    "alien-raid": ("alien_raid", ALIEN_RAID_KEYS),
}
RULESET_KEYS = ("name", "title", "extends", "setup", "launch", "powers", "game", "credit",
                "mine", "missile", "catalog", "fuel")  # fmt: skip
_names = itertools.count()


def _write(folder: Path, name: str, content: bytes) -> Path:
    path = folder / name
    path.write_bytes(content)
    return path


def _rulesets(package: str) -> list[Path]:
    return sorted(
        p
        for p in (ROOT / "sim" / "games" / package / "rulesets").glob("*.yaml")
        if not p.name.startswith(("catalog-", "geometry-", "dexterity-"))
    )


# --- experiments and user strategies --------------------------------------------------------


@FUZZ
@given(content=hostile(EXPERIMENT_KEYS, sorted((ROOT / "experiments").glob("*.yaml"))))
def test_experiment_files(tmp_path_factory, content):
    folder = tmp_path_factory.mktemp("experiment")
    assert_clean(load_experiment, _write(folder, "experiment.yaml", content))


TUNE_FILES = [*sorted((ROOT / "experiments").glob("tune_*.yaml")),
              *sorted((ROOT / "examples" / "pig" / "experiments").glob("tune_*.yaml"))]  # fmt: skip


@FUZZ
@given(content=hostile((*EXPERIMENT_KEYS, *TUNE_KEYS, *SEARCH_KEYS, *TARGET_KEYS), TUNE_FILES))
def test_tune_files(tmp_path_factory, content):
    """`sim tune` and `sim screen` read the experiment and its `tune:`, `targets:`, `search:`."""
    folder = tmp_path_factory.mktemp("tune")
    assert_clean(load_tune, _write(folder, "tune.yaml", content))


@FUZZ
@given(content=hostile(("PARAMS", "policy"), [ROOT / "tests" / "userbots" / "bots.py"]))
def test_user_strategy_modules(tmp_path_factory, content):
    """A strategy module named in an experiment (`module:Name`) that does not import, or
    holds no strategy, is refused naming the experiment and the module."""
    folder = tmp_path_factory.mktemp("bots")
    module = f"hostile_bot_{next(_names)}"
    _write(folder, f"{module}.py", content)
    experiment = _write(
        folder,
        "experiment.yaml",
        f"name: bots\nplayers: 2\nseats: [{module}:Bot, greedy]\n".encode(),
    )
    assert_clean(load_experiment, experiment, "experiment.yaml", module)


# --- scenarios --------------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
@FUZZ
@given(data=st.data())
def test_scenario_files(tmp_path_factory, game, data):
    package, keys = GAMES[game]
    content = data.draw(hostile(keys, scenario_files(package)))
    path = _write(tmp_path_factory.mktemp("scenario"), "scenario.yaml", content)
    assert_clean(scenarios(get_game(game)).check_file, path)


@pytest.fixture(scope="module")
def pig(tmp_path_factory):
    """Pig installed in this process while the module's tests run: its plug-in and its
    scenario format's top-level keys."""
    with installed_here(tmp_path_factory.mktemp("site"), PACKAGES["pig"]):
        from pig.scenario import TOP_KEYS

        yield get_game("pig"), TOP_KEYS


@FUZZ
@given(data=st.data())
def test_pig_scenario_files(tmp_path_factory, pig, data):
    game, keys = pig
    shipped = sorted((PACKAGES["pig"] / "scenarios").glob("*.yaml"))
    content = data.draw(hostile(keys, shipped))
    path = _write(tmp_path_factory.mktemp("scenario"), "scenario.yaml", content)
    assert_clean(scenarios(game).check_file, path)


@FUZZ
@given(content=hostile(("game", "name"), scenario_files("space_invaders")))
def test_sim_scenario_check_never_prints_a_traceback(tmp_path_factory, content):
    """The command a new user tries first: one error line or a result, whatever the file."""
    path = _write(tmp_path_factory.mktemp("check"), "scenario.yaml", content)
    result = invoke("scenario", "check", str(path))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        errors = [line for line in result.output.splitlines() if line.startswith("error:")]
        assert len(errors) == 1 and "scenario.yaml" in errors[0], result.output


def test_a_scenario_of_random_bytes_or_utf16_is_one_error_line(tmp_path):
    for name, content in (("bytes.yaml", b"\xff\xfe\x00garbage\x81"),
                          ("utf16.yaml", "game: alien-raid\n".encode("utf-16"))):  # fmt: skip
        result = invoke("scenario", "check", str(_write(tmp_path, name, content)))
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output
        assert result.output.count("error:") == 1 and name in result.output
        assert "not a UTF-8 text file" in result.output


# --- rulesets, catalogs, geometry ---------------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
@FUZZ
@given(data=st.data())
def test_ruleset_files(tmp_path_factory, game, data):
    content = data.draw(hostile(RULESET_KEYS, _rulesets(GAMES[game][0])))
    path = _write(tmp_path_factory.mktemp("ruleset"), "rules.yaml", content)
    assert_clean(get_game(game).load_ruleset, path)


DATA_FILES = {  # (game, the ruleset key naming the file) -> the shipped files of that kind
    ("space-invaders", "catalog"): "catalog-*.yaml",
    ("space-invaders", "geometry"): "geometry-*.yaml",
    ("alien-raid", "catalog"): "catalog-*.yaml",
}


@pytest.mark.parametrize(("game", "kind"), list(DATA_FILES))
@FUZZ
@given(data=st.data())
def test_catalog_and_geometry_files(tmp_path_factory, game, kind, data):
    """A ruleset naming a hostile data file: the error names the data file."""
    package = GAMES[game][0]
    shipped = sorted((ROOT / "sim" / "games" / package / "rulesets").glob(DATA_FILES[game, kind]))
    content = data.draw(hostile(("cards", "ships", "cities", "card_width_mm"), shipped))
    folder = tmp_path_factory.mktemp("data")
    data_file = _write(folder, f"my-{kind}.yaml", content)
    ruleset = _write(folder, "rules.yaml",
                     f"extends: {game}\n{kind}: {{file: {data_file}}}\n".encode())  # fmt: skip
    assert_clean(get_game(game).load_ruleset, ruleset, data_file.name)


# --- a results folder's manifest --------------------------------------------------------------


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> Path:
    """A results folder of one arm, 40 games."""
    folder = tmp_path_factory.mktemp("stored")
    experiment = _write(
        folder,
        "small.yaml",
        b"name: small\nplayers: 2\nseats: [greedy, random]\ngames: 40\nseed: 3\n",
    )
    run(load_experiment(experiment), out=folder / "r", jobs=1, progress=False)
    return folder / "r"


def _manifests(stored: Path) -> st.SearchStrategy[bytes]:
    text = (stored / "manifest.json").read_text()
    found = json.loads(text)
    changed = st.builds(lambda key, value: json.dumps({**found, key: value}, default=str).encode(),
                        st.sampled_from(sorted(found)), values)  # fmt: skip
    return st.one_of(
        st.binary(max_size=400),
        st.text(max_size=400).map(str.encode),
        st.text(min_size=1, max_size=100).map(lambda s: s.encode("utf-16")),
        values.map(lambda v: json.dumps(v, default=str).encode()),
        changed,
    )


@FUZZ
@given(data=st.data())
def test_manifest_files(tmp_path_factory, stored, data):
    folder = tmp_path_factory.mktemp("results") / "r"
    shutil.copytree(stored, folder)
    (folder / "manifest.json").write_bytes(data.draw(_manifests(stored)))
    for read in (load_results, lambda p: replay(p, 0)):
        assert_clean(read, folder, "manifest.json")


def test_every_manifest_key_of_a_wrong_kind_is_one_clean_error(tmp_path, stored):
    # the fuzz above draws these among much else; here every key meets every wrong kind
    found = json.loads((stored / "manifest.json").read_text())
    folder = tmp_path / "r"
    shutil.copytree(stored, folder)
    for key in sorted(found):
        for value in (True, 3, "x", None, {}, []):
            (folder / "manifest.json").write_text(json.dumps({**found, key: value}))
            for read in (load_results, lambda p: replay(p, 0)):
                assert_clean(read, folder, "manifest.json")
