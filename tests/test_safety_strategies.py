"""User strategies that fail (issue 13): every failure is one error line naming the strategy
(and, mid-game, the arm, the game and its seed), also with two workers; a strategy whose moves
are mostly illegal fails the run; user modules are found beside the experiment file and in the
current folder, as docs/games/guardians/strategies.md promises."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from sim.errors import ConfigError
from sim.plugins import get_game
from sim.plugins.base import StrategySpec
from tests.cli_checks import invoke, one_error_line

ROOT = Path(__file__).resolve().parents[1]
GAME = get_game("guardians")

BOTS = '''
from sim.games.guardians.session import Turn
from strategies.guardians.examples import Sniper


class Crash(Sniper):
    """Plays like Sniper and raises on its fifth turn of every game."""

    def __init__(self, **params):
        super().__init__(**params)
        self.turns = 0

    def turn(self, view):
        self.turns += 1
        if self.turns == 5:
            raise ValueError("boom")
        return super().turn(view)


class Wrong(Sniper):
    def turn(self, view):
        return 3


class OffBoard(Sniper):
    def turn(self, view):
        return Turn(move=(99, 99))
'''


@pytest.fixture
def bots(tmp_path, monkeypatch, request) -> str:
    """A module of failing strategies beside an experiment file; its (unique) module name."""
    name = f"bots_{re.sub(r'[^a-z0-9]', '_', request.node.name.lower())}"
    (tmp_path / f"{name}.py").write_text(BOTS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))  # found however user modules are looked for
    yield name
    sys.modules.pop(name, None)


def experiment(folder: Path, seats: str, games: int = 400) -> Path:
    path = folder / "exp.yaml"
    path.write_text(f"name: bots\nplayers: 2\nseats: [{seats}]\ngames: {games}\nseed: 3\n")
    return path


# --- the module cannot be used ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "name", "words"),
    [
        (None, ":Bot", "no module before ':'"),
        ("raise RuntimeError('no network')\n", "{m}:Bot", "raised RuntimeError: no network"),
        ("def broken(:\n", "{m}:Bot", "has a syntax error at"),
        ("x = 1\n", "{m}:Bot", "has no 'Bot'"),
    ],
    ids=["empty-module", "raises-on-import", "syntax-error", "no-such-name"],
)
def test_a_module_that_cannot_be_used_is_one_error(tmp_path, monkeypatch, request, source, name,
                                                   words):  # fmt: skip
    module = f"mod_{request.node.callspec.id.replace('-', '_')}"
    if source is not None:
        (tmp_path / f"{module}.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        with pytest.raises(ConfigError, match=re.escape(words)):
            GAME.check_strategy(StrategySpec(name.format(m=module)), source="exp.yaml")
        exp = experiment(tmp_path, f"'{name.format(m=module)}', greedy")
        message = one_error_line(invoke("run", str(exp), "--out", str(tmp_path / "r")))
        assert "exp.yaml" in message and words in message
    finally:
        sys.modules.pop(module, None)


# --- failures during a game --------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_strategy_that_raises_mid_game_is_named_once(bots, tmp_path, jobs):
    exp = experiment(tmp_path, f"'{bots}:Crash', greedy")
    result = invoke("run", str(exp), "--jobs", jobs, "--chunk-size", "50", "--out",
                    str(tmp_path / "r"), "--no-report")  # fmt: skip
    message = one_error_line(result)
    assert "Warning" not in result.output
    line = BOTS.splitlines().index('            raise ValueError("boom")') + 1
    pattern = (
        rf"strategy '(\S+)' failed in seat 0: ValueError: boom \(at \S+\.py:{line} in turn\), "
        r"in arm 'default', game (\d+) \(seed (\d+)\)"
    )
    found = re.search(pattern, message)
    assert found, message
    game, seed = int(found.group(2)), int(found.group(3))
    assert found.group(1) == f"{bots}:Crash"
    from sim.seeds import game_seed

    assert seed == game_seed(3, game)
    assert "sim play --ruleset guardians" in message and f"--seed {seed}" in message


def test_sim_play_names_a_failing_strategy(bots):
    message = one_error_line(invoke("play", "--strategies", f"{bots}:Crash,greedy", "--seed", "4"))
    assert f"strategy '{bots}:Crash' failed in seat 0: ValueError: boom" in message
    assert "seed 4" in message


def test_a_turn_of_the_wrong_type_is_named(bots, tmp_path):
    exp = experiment(tmp_path, f"greedy, '{bots}:Wrong'")
    message = one_error_line(invoke("run", str(exp), "--jobs", "1", "--out", str(tmp_path / "r")))
    assert f"strategy '{bots}:Wrong' failed in seat 1" in message
    assert "turn() returned int 3, expected a Turn" in message and "game 0 (seed" in message


def test_a_strategy_with_illegal_moves_fails_the_run(bots, tmp_path):
    """A tournament ranking built from void games was printed with only a warning."""
    result = invoke("tournament", "--strategies", f"{bots}:OffBoard,greedy", "--players", "2",
                    "--games", "200", "--jobs", "2", "--out", str(tmp_path / "t"))  # fmt: skip
    message = one_error_line(result)
    assert f"strategy '{bots}:OffBoard' made an illegal move in" in message
    assert "(100%)" in message and "move_off_board" in message
    assert "win share" not in result.output  # no ranking of void games


def test_a_rare_illegal_move_is_only_a_warning():
    from sim.experiment.parsing import parse_experiment
    from sim.runner.illegal import MAX_ILLEGAL_SHARE, IllegalMoves

    exp = parse_experiment({"players": 2, "seats": ["greedy", "random"], "rotate": True})
    tally = IllegalMoves(exp.arms)
    tally.add(0, 0, 1000, {"random": int(MAX_ILLEGAL_SHARE * 1000)}, [])
    tally.check("r", final=True)  # at the share: kept, with the run's warning
    tally.add(0, 1000, 1001, {"random": 1}, ["game 1000: random in seat 1 made an illegal move"])
    with pytest.raises(Exception, match="strategy 'random' made an illegal move in 11 of"):
        tally.check("r", final=True)


# --- where user modules are found ----------------------------------------------------------------


def _docs_example() -> str:
    text = (ROOT / "docs" / "games" / "guardians" / "strategies.md").read_text()
    block = re.search(r"```python\n(# mybots\.py.*?)```", text, re.S)
    assert block, "docs/games/guardians/strategies.md lost its mybots.py example"
    return block.group(1)


@pytest.fixture
def docs_example(tmp_path, monkeypatch) -> list[str]:
    """docs/games/guardians/strategies.md's mybots.py in an empty current folder, without
    PYTHONPATH; the
    documented command's arguments."""
    example = _docs_example()
    (tmp_path / "mybots.py").write_text(example)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    yield re.search(r"run with: sim (tournament .*)", example).group(1).split()
    sys.modules.pop("mybots", None)


def test_the_docs_plugin_example_is_found_in_the_current_folder(docs_example):
    from sim.lab.tournament import tournament_experiment

    names = docs_example[docs_example.index("--strategies") + 1].split(",")
    exp = tournament_experiment(names, players=2, games=10)
    assert "mybots:Lowest" in {spec.name for spec in exp.arms[0].lineup}


@pytest.mark.slow  # compiles the game loop around the example's policy (about a minute)
def test_the_docs_plugin_example_command_runs(docs_example):
    result = invoke(*docs_example, "--games", "40", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert "mybots:Lowest" in result.output and "win share" in result.output


def test_user_modules_beside_the_experiment_file_are_found_by_workers(tmp_path):
    """Run from a folder that also holds a `sim/games/` folder (as a checkout's parent might):
    searching the current folder for user modules must not hide the lab's own package from
    the worker processes."""
    import subprocess

    folder = tmp_path / "study"
    folder.mkdir()
    (folder / "studybots.py").write_text(BOTS.replace("class Crash", "class Unused"))
    exp = experiment(folder, "'studybots:Sniper', greedy", games=120)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "sim" / "games").mkdir(parents=True)
    (elsewhere / "sim" / "games" / "engine.py").write_text("# not the lab's\n")
    sim = Path(sys.executable).with_name("sim")
    result = subprocess.run(
        [str(sim), "run", str(exp), "--jobs", "2", "--chunk-size", "30", "--out",
         str(tmp_path / "r"), "--no-report"],
        cwd=elsewhere, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "results:" in result.stdout and "120 games" in result.stdout
