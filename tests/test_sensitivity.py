"""`sim sensitivity` on a planted model whose indices are known, then end to end on the coin race.

The planted model: four keys x1..x4, each uniform on [0, 1], and the luck of the seed,
    y = x1 + 2 x2 + 6 (x1 - 1/2)(x3 - 1/2) + e(seed),  e ~ N(0, 1/12),
so that Var(x1) = 1/12, Var(2 x2) = 4/12, the interaction's variance is 36/144 = 3/12 and the
luck's 1/12: of the total 9/12, x1 alone explains 1/9, x2 4/9, x3 nothing alone but 3/9 with
x1 (S2), x4 nothing at all, and luck 1/9. Morris must screen x4 out; Sobol must find the rest.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

from sim.sensitivity.analysis import SEED, Design, kept, morris, shares, sobol
from sim.tune.knobs import parse_knob
from tests.answer_checks import numbers_without_interval
from tests.coin_race import registered

pytestmark = pytest.mark.without_engines

ROOT = Path(__file__).resolve().parents[1]
KEYS = tuple(parse_knob(f"x{i}", {"low": 0.0, "high": 1.0}, 0.5) for i in range(1, 5))


def planted(points: list[dict]) -> np.ndarray:
    out = []
    for p in points:
        luck = np.random.default_rng(p[SEED]).normal(0.0, np.sqrt(1 / 12))
        out.append(p["x1"] + 2 * p["x2"] + 6 * (p["x1"] - 0.5) * (p["x3"] - 0.5) + luck)
    return np.array(out)[:, None]


def test_morris_screens_out_the_key_that_does_nothing():
    design = Design(KEYS, {})
    _, _, screened = morris(design, planted, trajectories=20, seed=3)
    mu = dict(zip(design.names, screened[0]["mu_star"], strict=True))
    assert mu["x4"] == 0.0 and mu["x2"] == pytest.approx(2.0) and mu["x1"] > 0 and mu["x3"] > 0
    assert kept(design, screened, most=6) == ["x1", "x2", "x3"]
    assert kept(design, screened, most=1)[0] in ("x1", "x2")  # tied: mu* 2 each


def test_sobol_finds_the_planted_indices_with_intervals():
    design = Design(KEYS[:3], {"x4": 0.5})
    _, y, indices = sobol(design, planted, base=2048, seed=5)
    assert y.shape == (2048 * 10, 1)
    found = shares(indices[0], design.names)
    truth_s1 = {"x1": 1 / 9, "x2": 4 / 9, "x3": 0.0}
    truth_st = {"x1": 4 / 9, "x2": 4 / 9, "x3": 3 / 9}
    for key in truth_s1:
        assert found["keys"][key]["S1"][0] == pytest.approx(truth_s1[key], abs=0.05)
        assert found["keys"][key]["ST"][0] == pytest.approx(truth_st[key], abs=0.05)
    luck = found["luck"]
    assert luck[1] <= 1 / 9 + 0.03 and luck[2] >= 1 / 9 - 0.03 and luck[1] < luck[0] < luck[2]
    assert found["rules"][0] == pytest.approx(8 / 9, abs=0.05)
    pair = next(p for p in found["pairs"] if {p["a"], p["b"]} == {"x1", "x3"})
    assert pair["S2"][0] == pytest.approx(3 / 9, abs=0.07)
    others = [p for p in found["pairs"] if {p["a"], p["b"]} != {"x1", "x3"}]
    assert all(abs(p["S2"][0]) < 0.07 for p in others)


def test_an_index_past_its_range_is_shown_inside_it():
    # a small base lets Jansen's estimators stray past [0, 1]: 116% beside an interval of 80
    # to 100 would contradict itself, so the estimate is clipped as its interval is
    nan = np.nan
    found = shares({"S1": np.array([1.16, 0.0]), "S1_conf": np.array([0.36, nan]),
                    "ST": np.array([0.97, -0.02]), "ST_conf": np.array([0.37, 0.05]),
                    "S2": np.array([[nan, -0.03], [nan, nan]]),
                    "S2_conf": np.array([[nan, 0.1], [nan, nan]])}, ["x1", SEED])  # fmt: skip
    assert found["keys"]["x1"]["S1"] == pytest.approx([1.0, 0.8, 1.0])
    assert found["keys"]["x1"]["ST"] == pytest.approx([0.97, 0.6, 1.0])
    assert found["luck"] == pytest.approx([0.0, 0.0, 0.03])
    assert found["pairs"][0]["S2"] == pytest.approx([0.0, 0.0, 0.07])


@pytest.fixture(scope="module")
def coin_race():
    """The toy game registered in this process (the tests play it in-process)."""
    with registered() as game:
        yield game


def test_sim_sensitivity_plays_analyses_and_reports(coin_race, tmp_path):
    """Two bold players (who dash when behind): the race's length moves its turns, the dash's
    gain moves them less; the cap never comes into play."""
    from typer.testing import CliRunner

    from sim.cli import app

    spec = {"name": "race", "game": "coin-race", "ruleset": "race", "players": 2,
            "seats": ["bold", "bold"], "games": 100, "seed": 3,
            "targets": [{"measure": "mean_turns", "value": 20, "tolerance": 1}],
            "sensitivity": {"keys": ["race.length", "race.dash_gain", "race.turn_cap"],
                            "range": 0.5, "games": 60, "trajectories": 4, "base": 8}}  # fmt: skip
    path = tmp_path / "race.yaml"
    path.write_text(yaml.safe_dump(spec))
    out = tmp_path / "out"
    done = CliRunner().invoke(app, ["sensitivity", str(path), "--out", str(out), "-j", "1"])
    assert done.exit_code == 0, done.output
    found = json.loads((out / "sensitivity.json").read_text())
    assert "race.length" in found["kept"] and "race.turn_cap" not in found["kept"]
    (place,) = found["outputs"]
    assert place["shares"]["keys"]["race.length"]["ST"][0] > 0.3
    assert "rules explain" in done.output
    assert "Morris: 20 points played" in done.output  # 4 paths of 3 keys and the seed + 1
    assert "Sobol: " in done.output
    page = (out / "report" / "index.html").read_text()
    assert "How much of mean_turns" in page
    screen = page.split('id="sensitivity_screen"', 1)[1]
    assert screen.index("<img") < screen.index("<table")  # the screening's picture first
    block = page.split('<section id="answers">', 1)[1].split("</section>", 1)[0]
    for answer in block.split('<p class="answer ')[1:]:  # every figure an estimate or a count
        assert numbers_without_interval(answer.split("</p>", 1)[0]) == []
    assert (out / "report" / "figures" / "sensitivity_0.png").is_file()


def test_a_missing_salib_is_one_line_and_its_fix(coin_race, tmp_path, monkeypatch):
    """An environment without SALib (a venv older than the lab's dependencies): `sim
    sensitivity` says so in one line with the fix and exits as for a mistake in the input,
    before anything is played or written; not SALib's import traceback after the setup."""
    from typer.testing import CliRunner

    from sim.cli import app

    monkeypatch.setitem(sys.modules, "SALib", None)  # `import SALib` raises ImportError
    spec = {"name": "race", "game": "coin-race", "ruleset": "race", "players": 2,
            "seats": ["bold", "bold"], "games": 20, "seed": 3,
            "targets": [{"measure": "mean_turns", "value": 20, "tolerance": 1}],
            "sensitivity": {"keys": ["race.length"], "games": 10, "trajectories": 2,
                            "base": 4}}  # fmt: skip
    path = tmp_path / "race.yaml"
    path.write_text(yaml.safe_dump(spec))
    out = tmp_path / "out"
    done = CliRunner().invoke(app, ["sensitivity", str(path), "--out", str(out), "-j", "1"])
    assert done.exit_code == 2, (done.exit_code, done.output, done.exception)
    lines = done.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.output
    assert "SALib" in lines[0] and "pip install SALib" in lines[0]
    assert "Traceback" not in done.output and not out.exists()
