"""`sim tune` on a planted objective whose truth is known exactly: the coin race
(examples/coin_race) with two players who always step. Each turn the mover advances one square
on heads, so the expected length of a race of L squares is computable (the chain of positions
below, solved by hand) and grows with L by about 3.7 turns a square: a target of 31 turns is
met best at L = 9 (30.76 turns; L = 8 gives 27.04, L = 10 34.50).

The tuner must find L = 9 (with TPE: fewer trials than candidates), the confirmation's
intervals must cover the exact expected lengths, and a tune stopped part-way and run again
must make the same study as one run straight through."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from optuna.trial import TrialState

from sim.errors import SimError
from sim.experiment import parse_experiment
from sim.runner import Interrupted
from sim.runner.options import RunOptions
from sim.tune.run import run_tune
from sim.tune.search import open_study, sampler_kind
from sim.tune.spec import parse_tune
from tests.answer_checks import numbers_without_interval
from tests.coin_race import registered
from tests.modules import loaded_after

pytestmark = pytest.mark.without_engines  # runs while the engines compile

ROOT = Path(__file__).resolve().parents[1]
TARGET = 31.0


def expected_turns(length: int) -> float:
    """Expected turns until a seat finishes when both always step: P(a, b) with seat 1 to
    move and a, b squares left to each, Q(a, b) with seat 2 to move:
    P = 1 + 1/2 P'(a-1, b) + 1/2 Q(a, b), Q = 1 + 1/2 Q'(a, b-1) + 1/2 P(a, b), where a
    primed term is 0 when that head finishes the race (a = 1, resp. b = 1) and Q(a-1, b),
    resp. P(a, b-1), otherwise; solved for P(a, b) from the smaller races."""
    p: dict[tuple[int, int], float] = {}
    q: dict[tuple[int, int], float] = {}
    for a in range(1, length + 1):
        for b in range(1, length + 1):
            ahead = 0.0 if a == 1 else q[(a - 1, b)]
            behind = 0.0 if b == 1 else p[(a, b - 1)]
            # P = 1 + ahead/2 + (1 + behind/2 + P/2)/2  ->  P (1 - 1/4) = 3/2 + ahead/2 + behind/4
            p[(a, b)] = (1.5 + ahead / 2 + behind / 4) / 0.75
            q[(a, b)] = 1 + behind / 2 + p[(a, b)] / 2
    return p[(length, length)]


def test_the_chain_by_hand():
    # L = 1: every turn's coin ends the race with chance 1/2: 2 turns on average
    assert expected_turns(1) == pytest.approx(2.0)
    lengths = [expected_turns(n) for n in range(1, 21)]
    assert lengths == sorted(lengths)
    best = min(range(1, 21), key=lambda n: abs(expected_turns(n) - TARGET))
    assert best == 9 and abs(expected_turns(9) - TARGET) < 0.3


@pytest.fixture(scope="module")
def coin_race():
    """The toy game registered in this process (the tests play it in-process)."""
    with registered() as game:
        yield game


def planted(**search) -> dict:
    return {
        "name": "planted", "game": "coin-race", "ruleset": "race", "players": 2,
        "seats": ["steady", "steady"], "games": 3000, "seed": 7,
        "tune": {"race.length": {"low": 1, "high": 20}},
        "targets": [{"measure": "mean_turns", "value": TARGET, "tolerance": 1}],
        "search": {"trials": 14, "games": [200, 800], "confirm": 3, **search},
    }  # fmt: skip


def test_the_planted_optimum_is_found_and_its_intervals_cover_the_truth(coin_race, tmp_path):
    tune = parse_tune(planted())
    assert sampler_kind(tune) == "tpe"  # 14 trials for 20 candidates
    summary = run_tune(tune, root=tmp_path, options=RunOptions(jobs=1), show=False)
    best = summary["confirmed"][0]
    assert best["values"] == {"race.length": 9}
    assert best["verdicts"] == ["met"]
    for candidate in summary["confirmed"]:
        (place,) = candidate["places"]
        truth = expected_turns(candidate["values"]["race.length"])
        assert place["low"] <= truth <= place["high"], (candidate["values"], place, truth)
        assert place["n"] == 3000
    rules = yaml.safe_load((tmp_path / "recommended.yaml").read_text())
    assert rules == {"race.length": 9}
    # the overlay is usable as an experiment's rules
    plain = {k: v for k, v in planted().items() if k not in ("tune", "targets", "search")}
    exp = parse_experiment({**plain, "rules": rules})
    assert exp.arms[0].ruleset.values["race.length"] == 9


def test_a_small_space_is_searched_as_a_grid(coin_race, tmp_path):
    tune = parse_tune(planted(trials=20))
    assert sampler_kind(tune) == "grid"
    summary = run_tune(tune, root=tmp_path, options=RunOptions(jobs=1), show=False)
    assert summary["confirmed"][0]["values"] == {"race.length": 9}
    assert summary["search"]["trials"] == 20  # every candidate once
    assert summary["search"]["ended"] == ""  # a grid never proposes a candidate twice
    assert summary["search"]["states"]["pruned"] > 10  # most stopped on the first rung


def _trials(root: Path, tune) -> list[tuple]:
    study = open_study(root, tune)
    return [(t.number, t.state, t.params, t.values, t.intermediate_values,
             json.dumps(t.user_attrs, sort_keys=True)) for t in study.trials]  # fmt: skip


def _chunks(root: Path) -> int:
    """Chunks stored in every candidate's folder."""
    from sim.storage import read_manifest

    return sum(len(read_manifest(f)["chunks"]) for f in (root / "trials").iterdir())


@pytest.mark.parametrize("phase", ["search", "polishing"])
def test_a_stopped_tune_resumes_into_the_same_study(coin_race, tmp_path, phase):
    tune = parse_tune(planted(trials=6, confirm=2, sampler="tpe"))
    straight, stopped = tmp_path / "straight", tmp_path / "stopped"
    options = RunOptions(jobs=1, chunk_size=100)  # 100-game chunks, one arm: countable cuts
    expected = run_tune(tune, root=straight, options=options, show=False)
    polished = [t for t in open_study(straight, tune).trials if "polish" in t.user_attrs]
    assert polished  # TPE's six trials, then steps around the best
    # the confirmation replays 2 candidates from 800 to 3,000 games: 2 x 22 chunks at most
    cut = 14 if phase == "search" else _chunks(straight) - 2 * 22 - 3
    with pytest.raises(Interrupted):
        run_tune(tune, root=stopped, options=options, show=False, stop_after_chunks=cut)
    held = open_study(stopped, tune).trials
    assert held[-1].state == TrialState.RUNNING
    assert (len(held) < 6) if phase == "search" else ("polish" in held[-1].user_attrs)
    resumed = run_tune(tune, root=stopped, options=options, show=False)
    assert _trials(stopped, tune) == _trials(straight, tune)
    assert resumed["confirmed"] == expected["confirmed"]
    assert [s["finished"] for s in resumed["sessions"]] == [False, True]


def test_another_tune_in_the_folder_is_refused(coin_race, tmp_path):
    run_tune(parse_tune(planted(trials=2, confirm=1)), root=tmp_path, options=RunOptions(jobs=1),
             show=False)  # fmt: skip
    wanted = {"measure": "mean_turns", "value": 20, "tolerance": 1}
    other = parse_tune({**planted(trials=2, confirm=1), "targets": [wanted]})
    with pytest.raises(SimError, match="holds another tune"):
        run_tune(other, root=tmp_path, options=RunOptions(jobs=1), show=False)
    again = run_tune(other, root=tmp_path, options=RunOptions(jobs=1, fresh=True), show=False)
    assert again["confirmed"]


def test_sim_tune_and_sim_screen_print_write_and_report(coin_race, tmp_path):
    from typer.testing import CliRunner

    from sim.cli import app

    path = tmp_path / "planted.yaml"
    path.write_text(yaml.safe_dump(planted(trials=4, confirm=2)))
    out = tmp_path / "tune"
    done = CliRunner().invoke(app, ["tune", str(path), "--out", str(out), "-j", "1"])
    assert done.exit_code == 0, done.output
    assert "recommended: race.length=" in done.output and "within 1:" in done.output
    page = (out / "report" / "index.html").read_text()
    assert "Does the recommendation meet mean turns?" in page  # the measure's label
    block = page.split('<section id="answers">', 1)[1].split("</section>", 1)[0]
    for answer in block.split('<p class="answer ')[1:]:  # every figure an estimate, a count
        assert numbers_without_interval(answer.split("</p>", 1)[0]) == []  # or a setting
    for name in ("tune_target_0", "tune_moves"):
        assert (out / "report" / "figures" / f"{name}.png").is_file()
    # the report reads the folder alone: not the runner, the engine, the strategies or numba
    again_dir = str(tmp_path / "again")
    loaded = loaded_after(f"from sim.tune.report import build_tune_report\n"
                          f"build_tune_report({str(out)!r}, {again_dir!r})")  # fmt: skip
    assert not [m for m in loaded if m.startswith(("numba", "strategies", "sim.runner"))]
    again = CliRunner().invoke(app, ["tune", str(path), "--out", str(out), "-j", "1"])
    assert again.exit_code == 0 and "trial" not in again.output  # nothing left to search

    screened = tmp_path / "screen"
    keys = "screen.keys=[race.length, race.dash_gain]"
    done = CliRunner().invoke(app, ["screen", str(path), "--out", str(screened), "-j", "1",
                                    "--set", keys])  # fmt: skip
    assert done.exit_code == 0, done.output
    rows = json.loads((screened / "screen.json").read_text())["rows"]
    by_key = {r["key"]: r for r in rows}
    # the race preset's 6 squares moved to 7: the expected length grows by 3.68 turns
    assert by_key["race.length"]["up_to"] == 7
    assert by_key["race.length"]["up"] == pytest.approx(expected_turns(7) - expected_turns(6),
                                                        abs=0.6)  # fmt: skip
    assert by_key["race.length"]["up_verdict"] == "beyond tolerance"  # of 1 turn
    # players who only step never dash: the dash's gain changes nothing, game for game
    dash = by_key["race.dash_gain"]
    assert dash["up"] == 0.0 and dash["up_verdict"] == "within tolerance"
    assert (screened / "report" / "figures" / "screen_tornado_0.png").is_file()
