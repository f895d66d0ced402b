"""The Python API (sim.lab): it plays the games `sim run` plays, its pandas and polars frames
agree, its measures are the numbers the report prints, its figures are the report's, and what
a notebook shows of its objects says what they are."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import pytest
import yaml
from polars.testing import assert_frame_equal

from sim import lab
from sim.errors import SimError
from sim.results import load
from sim.runner import Interrupted
from sim.runner import run as runner_run
from tests.cli_checks import invoke

WHAT_IF = """\
name: lab_what_if
description: Stealing the highest token against the printed rules.
ruleset: guardians
seats: club
games: 600
seed: 11
arms:
  - name: baseline
  - name: steal_highest
    rules: {shot.steal: highest}
baseline: baseline
report: [quality]
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The same experiment, with the same overrides, played by `sim run` (from the file,
    chunks of 150 games, with its report) and by the API (from the file's mapping, one chunk
    per arm)."""
    root = tmp_path_factory.mktemp("lab")
    file = root / "what_if.yaml"
    file.write_text(WHAT_IF)
    cli = invoke("run", str(file), "--out", str(root / "cli"), "--report-dir",
                 str(root / "report"), "--set", "mine.step=2", "--games", "400",
                 "--chunk-size", "150", "-j", "1")  # fmt: skip
    assert cli.exit_code == 0, cli.output
    exp = lab.experiment(yaml.safe_load(WHAT_IF)).set({"mine.step": 2}, games=400)
    api = lab.run(exp, out=root / "api", chunk_size=400, jobs=1)
    return {"cli": root / "cli", "api": api, "report": root / "report", "file": file}


def test_the_api_plays_the_games_sim_run_plays(runs):
    api = runs["api"]
    assert api.summary is not None and api.summary.games_played == 800
    assert api.manifest["fingerprint"] == lab.open_results(runs["cli"]).manifest["fingerprint"]
    for table, keys in (("games", ["arm", "game"]), ("seats", ["arm", "game", "seat"])):
        from_cli = load(runs["cli"], table).collect().sort(keys)
        from_api = api.games() if table == "games" else api.seats()
        assert from_cli.height == (800 if table == "games" else 3200)
        assert_frame_equal(from_api.collect().sort(keys), from_cli)


def test_the_pandas_and_polars_frames_agree(runs):
    results = runs["api"]
    for table in ("games", "seats"):
        lazy = results.games() if table == "games" else results.seats()
        frame = lazy.collect()
        pdf = results.games(pandas=True) if table == "games" else results.seats(pandas=True)
        assert list(pdf.columns) == frame.columns and len(pdf) == frame.height
        for name in frame.columns:
            column = frame.get_column(name)
            if column.dtype.is_numeric():
                assert pdf[name].dtype == column.to_numpy().dtype, name
                assert np.array_equal(pdf[name].to_numpy(), column.to_numpy()), name
            else:
                assert pdf[name].tolist() == column.to_list(), name
        assert_frame_equal(pl.from_pandas(pdf), frame)  # and back, types kept (seed: uint64)
    # the same question asked both ways: the raid rate of each arm
    games = results.games(pandas=True)
    by_pandas = (games["outcome"] == "raid").groupby(games["arm"]).mean().to_dict()
    by_polars = dict(
        results.games().group_by("arm").agg((pl.col("outcome") == "raid").mean()).collect().rows()
    )
    assert set(by_polars) == {"baseline", "steal_highest"}
    assert by_pandas == pytest.approx(by_polars)


def _csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def test_a_measure_from_the_api_is_the_number_the_report_prints(runs):
    """The quality section describes the baseline arm (the experiment names one): its table
    holds the measures unrounded and its answers print them."""
    results = lab.open_results(runs["cli"])
    names = ["lead_changes", "close_rate", "leader_wins.half"]
    table = results.measures(names, arms=["baseline"])
    assert table.get_column("measure").to_list() == names
    printed = {r["measure"]: r for r in _csv(runs["report"] / "tables" / "quality_measures.csv")}
    for row in table.iter_rows(named=True):
        line = printed[row["measure"]]
        for ours, theirs in (("value", "value"), ("low", "value_low"), ("high", "value_high")):
            assert row[ours] == pytest.approx(float(line[theirs]), rel=1e-12), row["measure"]
        assert row["n"] == int(line["games"])
    lead, half = table.row(0, named=True), table.row(2, named=True)
    lines = (runs["report"] / "report.md").read_text().splitlines()
    # the answer (its terms' footnote marks aside) prints the lead changes per game
    answer = next(re.sub(r"\[\^\d+\]", "", line) for line in lines
                  if line.startswith("- **Does the lead change?**"))  # fmt: skip
    said = f"{lead['value']:.2f} ({lead['low']:.2f} to {lead['high']:.2f}) lead changes per game"
    assert said in answer, answer
    # the scorecard's row prints the answer's key figure: the leader at half time's wins
    row = next(line for line in lines if line.startswith("| Does the lead change? |"))
    key = f"{100 * half['value']:.1f}% ({100 * half['low']:.1f} to {100 * half['high']:.1f})"
    assert f"the leader at half time wins {key}" in row, row


def test_an_arm_in_memory_is_what_the_measures_read(runs):
    """One view of an arm (sim.results.StoredArm) for the API, the reports and the stops."""
    from sim.measures import registry_for

    results = runs["api"]
    arm = results.arm("baseline")
    assert arm.settings.name == "baseline" and arm.games.height == 400
    assert set(arm.seats.get_column("game").unique()) <= set(arm.games.get_column("game"))
    raid = registry_for(results.game).get("raid_rate")
    table = results.measures(["raid_rate"], arms=["baseline"])
    assert raid.estimate(arm).value == pytest.approx(table.get_column("value")[0])
    first = arm.first(100)
    assert first.games.get_column("game").max() == 99 and raid.estimate(first).n == 100


def test_compare_is_the_paired_difference_of_two_arms(runs):
    results = runs["api"]
    diff = results.compare("baseline", "steal_highest", ["win_share.seat.0", "raid_rate"])
    assert diff.get_column("arm").to_list() == ["steal_highest"] * 2
    assert diff.get_column("baseline").to_list() == ["baseline"] * 2
    each = results.measures(["raid_rate"]).select("arm", "value").rows()
    raid = dict(each)
    row = diff.filter(pl.col("measure") == "raid_rate").row(0, named=True)
    assert row["value"] == pytest.approx(raid["steal_highest"] - raid["baseline"])
    assert row["low"] < row["value"] < row["high"] and row["n"] == 400
    assert_frame_equal(
        pl.from_pandas(results.compare("baseline", "steal_highest", ["raid_rate"], pandas=True)),
        diff.filter(pl.col("measure") == "raid_rate"),
    )
    with pytest.raises(SimError, match="no arm named 'cheap'"):
        results.compare("baseline", "cheap", ["raid_rate"])
    with pytest.raises(SimError, match="two different arms"):
        results.compare("baseline", "baseline", ["raid_rate"])


def test_the_figures_are_the_report_s_as_matplotlib_figures(runs):
    results = lab.open_results(runs["cli"])
    drawn = results.figures()
    stored = sorted(p.stem for p in (runs["report"] / "figures").glob("*.png"))
    assert sorted(drawn) == stored and "quality_lead" in drawn
    figure = results.figure("quality_lead")
    assert figure.axes and figure.axes[0].lines  # drawn, with its data
    assert plt.get_fignums() == []  # pyplot keeps none of them: a notebook shows them once
    with pytest.raises(SimError, match="no figure 'nope'") as err:
        results.figure("nope")
    assert "quality_lead" in str(err.value)
    with pytest.raises(SimError, match="no report section 'nope'"):
        results.figures(sections=["nope"])


def test_overrides_make_a_new_experiment_and_bad_ones_say_which_key(runs):
    exp = lab.experiment(runs["file"])
    cheaper = exp.set({"missile.cost": 6}, games=50)
    assert (exp.games, cheaper.games) == (600, 50)
    assert cheaper.set(seed=3).parsed.seed == 3 and cheaper.set(seed=3).games == 50
    assert dict(cheaper.parsed.arms[0].overrides)["missile.cost"] == 6
    assert "missile.cost" not in dict(exp.parsed.arms[0].overrides)
    with pytest.raises(SimError, match="players"):
        exp.set({"players": 9})
    with pytest.raises(SimError, match=r"mine\.stepp"):
        lab.experiment(yaml.safe_load(WHAT_IF), ["mine.stepp=2"])
    with pytest.raises(SimError, match="file not found"):
        lab.experiment(runs["file"].with_name("missing.yaml"))


def test_a_mapping_is_kept_as_the_experiment_s_text(runs):
    manifest = runs["api"].manifest
    assert manifest["experiment_file"] is None
    assert yaml.safe_load(manifest["experiment_text"]) == yaml.safe_load(WHAT_IF)


def test_what_a_notebook_shows(runs, tmp_path):
    assert repr(lab.experiment(runs["file"], games=200)) == (
        "Experiment('lab_what_if', game='guardians', arms=['baseline', 'steal_highest'], games=200)"
    )
    shown = lab.experiment(runs["file"], games=200)._repr_html_()
    for text in ("Experiment lab_what_if", "steal_highest", "games=200", "shot.steal"):
        assert text in shown, text
    folder = runs["api"]._repr_html_()
    for text in ("Results lab_what_if", "built in Python", "800 in 2 arm(s)",
                 "<td style=\"text-align:left\">yes</td>", "steal_highest"):  # fmt: skip
        assert text in folder, text
    exp = lab.experiment(yaml.safe_load(WHAT_IF), games=300)
    with pytest.raises(Interrupted):
        runner_run(exp.parsed, out=tmp_path / "cut", chunk_size=100, jobs=1, progress=False,
                   stop_after=1)  # fmt: skip
    cut = lab.open_results(tmp_path / "cut")
    assert not cut.complete and "interrupted" in str(cut.incomplete)
    assert re.search(r"no: the run was interrupted: 100 of 600 games", cut._repr_html_())
    with pytest.raises(SimError, match="results folder not found"):
        lab.open_results(tmp_path / "none")
