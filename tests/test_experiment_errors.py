"""Bad experiment files and options: `sim run` exits with code 2 and one line naming the file
(or --set), the line, the key and a fix, before any game is played; never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import app

GOOD_SEATS = "seats: [greedy, random, random, random]\n"

# name: (file text, expected pieces of the message: location, key, problem, suggestion)
CASES: dict[str, tuple[str, list[str]]] = {
    "unknown top-level key": (
        GOOD_SEATS + "games: 10\nsede: 3\n",
        [":3:", "key 'sede'", "unknown key", "Did you mean 'seed'?"],
    ),
    "games of the wrong type": (
        GOOD_SEATS + "games: lots\n",
        [":2:", "key 'games'", "expected a whole number, got 'lots'"],
    ),
    "negative games": (
        GOOD_SEATS + "games: -5\n",
        [":2:", "key 'games'", "out of range", "-5"],
    ),
    "players out of range": (
        "players: 5\nseats: greedy\n",
        [":1:", "key 'players'", "one of 2, 3, 4; got 5"],
    ),
    "unknown strategy": (
        "seats: [greedy, randon, random, random]\n",
        [":1:", "key 'seats[1]'", "unknown strategy 'randon'", "Did you mean 'random'?"],
    ),
    "unknown strategy parameter": (
        "seats:\n  - {name: economist, missle_at: 5}\n  - greedy\n  - greedy\n  - greedy\n",
        [":2:", "key 'seats[0].missle_at'", "unknown parameter", "Did you mean 'missile_at'?"],
    ),
    "bad strategy parameter value": (
        "seats: [{name: economist, missile_at: high}, greedy, greedy, greedy]\n",
        ["key 'seats[0].missile_at'", "expected a number, got 'high'"],
    ),
    "unknown rule key in rules": (
        "seats: greedy\nrules:\n  missile.cots: 8\n",
        [":3:", "key 'rules.missile.cots'", "unknown key", "Did you mean 'missile.cost'?"],
    ),
    "unknown rule key in a sweep": (
        "seats: greedy\nsweep:\n  missile:\n    cots: [5, 8]\n",
        [":4:", "key 'sweep.missile.cots'", "Did you mean 'missile.cost'?"],
    ),
    "unknown rule key in an arm": (
        "seats: greedy\narms:\n  - name: a\n  - name: b\n    rules: {shot.stel: highest}\n",
        [":5:", "key 'arms[1].rules.shot.stel'", "Did you mean 'shot.steal'?"],
    ),
    "bad rule value": (
        "seats: greedy\nrules: {shot.steal: most}\n",
        ["key 'rules.shot.steal'", "expected one of lowest, highest, got 'most'"],
    ),
    "bad rule value in a sweep": (
        "seats: greedy\nsweep: {missile.cost: [5, -1]}\n",
        ["key 'sweep.missile.cost'", "out of range", "got -1"],
    ),
    "rules that contradict each other": (
        "seats: greedy\nrules: {board.start_rows: 9}\n",
        ["key 'rules.board.start_rows'", "at most board.rows - 2"],
    ),
    "both sweep and arms": (
        "seats: greedy\nsweep: {missile.cost: [5]}\narms: [{name: a}]\n",
        [":3:", "key 'arms'", "either a sweep or a list of arms"],
    ),
    "duplicate arm names": (
        "seats: greedy\narms:\n  - name: a\n  - name: a\n",
        [":4:", "key 'arms[1].name'", "duplicate arm name 'a'"],
    ),
    "unknown arm key": (
        "seats: greedy\narms: [{name: a, rulez: {}}]\n",
        ["key 'arms[0].rulez'", "Did you mean 'rules'?"],
    ),
    "baseline names a missing arm": (
        "seats: greedy\narms: [{name: base}, {name: x}]\nbaseline: bsae\n",
        [":3:", "key 'baseline'", "not one of the arms", "Did you mean 'base'?"],
    ),
    "seats do not match players": (
        "players: 3\nseats: [greedy, random, random, random]\n",
        [":2:", "key 'seats'", "4 seats for 3 players"],
    ),
    "seats do not match swept players": (
        GOOD_SEATS + "sweep: {players: [2, 4]}\n",
        ["key 'sweep.players'", "4 seats for 2 players"],
    ),
    "unknown report section": (
        "seats: greedy\nreport: [missile_price]\n",
        [
            ":2:",
            "key 'report[0]'",
            "unknown report section",
            "Did you mean 'guardians_missile_pricing'?",
        ],
    ),
    "YAML syntax error": (
        "seats: [greedy, random\ngames: 10\n",
        [":2:", "invalid YAML"],
    ),
    "unknown ruleset preset": (
        "seats: greedy\nruleset: guardain\n",
        [":2:", "key 'ruleset'", "unknown preset 'guardain'", "Did you mean 'guardians'?"],
    ),
    "sweep value not a list": (
        "seats: greedy\nsweep: {missile.cost: 5}\n",
        ["key 'sweep.missile.cost'", "expected a list of values"],
    ),
    "unknown precision metric": (
        "seats: greedy\nprecision: {metric: raid_rat, width: 0.01}\n",
        ["key 'precision.metric'", "unknown metric 'raid_rat'"],
    ),
    "precision rate of an unknown outcome": (
        "seats: greedy\nprecision: {metric: raids_rate, width: 0.01}\n",
        ["key 'precision.metric'", "Did you mean 'raid_rate'?"],
    ),
    "precision settle with a metric": (
        "seats: greedy\nprecision: {settle: true, metric: raid_rate, width: 0.01}\n",
        ["key 'precision.metric'", "give either settle or metric and width"],
    ),
    "unknown tolerance": (
        "seats: greedy\ntolerances:\n  prise: 2\n",
        [":3:", "key 'tolerances.prise'", "unknown key", "Did you mean 'price'?"],
    ),
    "tolerance not a number": (
        "seats: greedy\ntolerances: {price: cheap}\n",
        [
            ":2:",
            "key 'tolerances.price'",
            "expected a positive number, got 'cheap'",
            "The default is 1 (\u00b11 point)",
        ],
    ),  # fmt: skip
    "share tolerance in percent": (
        "seats: greedy\ntolerances: {seat_advantage: 2}\n",
        [
            "key 'tolerances.seat_advantage'",
            "expected a share as a fraction (0.01 is 1 percentage point), got 2",
        ],
    ),  # fmt: skip
    "tolerances not a mapping": (
        "seats: greedy\ntolerances: 2\n",
        [":2:", "key 'tolerances'", "expected a mapping", "tolerances: {price: 2"],
    ),
    "no strategies": (
        "games: 10\n",
        ["key 'seats'", "no strategies given"],
    ),
    "pool smaller than the table": (
        "players: 4\npool: [greedy, random]\n",
        ["key 'pool'", "cannot fill 4 seats"],
    ),
    "bad rotation": (
        "seats: greedy\nrotate: sometimes\n",
        ["key 'rotate'", "expected true, false, cyclic or permutations"],
    ),
    "unknown game": (
        "game: guardian\nseats: greedy\n",
        [":1:", "key 'game'", "Did you mean 'guardians'?"],
    ),
    "bad seat parameter in a sweep": (
        GOOD_SEATS + "sweep: {seats.0.missile_at: [1, 2]}\n",
        ["key 'sweep.seats.0.missile_at'", "unknown parameter 'missile_at'"],
    ),
    "top level is not a mapping": (
        "- a\n- b\n",
        [":1:", "expected a mapping"],
    ),
}


def invoke(args: list[str]):
    result = CliRunner().invoke(app, args)
    assert not (result.exception and not isinstance(result.exception, SystemExit)), repr(
        result.exception
    )
    return result


@pytest.mark.parametrize("case", list(CASES))
def test_bad_experiment_file(case: str, tmp_path: Path) -> None:
    text, pieces = CASES[case]
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    out = tmp_path / "out"
    result = invoke(["run", str(path), "--out", str(out), "--no-report"])
    assert result.exit_code == 2, result.output
    message = result.output.strip()
    assert message.startswith(f"error: {path}"), message
    assert message.count("\n") == 0 and "Traceback" not in message
    for piece in pieces:
        assert piece in message, f"{piece!r} not in {message!r}"
    assert not out.exists(), "nothing may run before the file is valid"


OPTION_CASES = {
    "missing file": (["run", "{dir}/missing.yaml"], ["missing.yaml", "file not found"]),
    "unknown rule key in --set": (
        ["run", "{good}", "--set", "missile.cots=3"],
        ["error: --set: key 'missile.cots'", "Did you mean 'missile.cost'?"],
    ),
    "unknown strategy in --set": (
        ["run", "{good}", "--set", "seats.1=gredy"],
        ["error: --set: key 'seats[1]'", "Did you mean 'greedy'?"],
    ),
    "--set without a value": (["run", "{good}", "--set", "nonsense"], ["expected key=value"]),
    "unknown tolerance in --set": (
        ["run", "{good}", "--set", "tolerances.prise=2"],
        ["error: --set: key 'tolerances.prise'", "Did you mean 'price'?"],
    ),
    "--games 0": (["run", "{good}", "--games", "0"], ["key '--games'", "positive"]),
    "--chunk-size 0": (["run", "{good}", "--chunk-size", "0"], ["key '--chunk-size'"]),
    "unknown backend": (["run", "{good}", "--backend", "spark"], ["unknown backend 'spark'"]),
    "--address without dask": (
        ["run", "{good}", "--address", "tcp://x:1"],
        ["--address needs --backend dask"],
    ),
    "unreachable scheduler": (
        ["run", "{good}", "--backend", "dask", "--address", "tcp://127.0.0.1:9"],
        ["cannot reach the Dask scheduler"],
    ),
}


@pytest.mark.parametrize("case", list(OPTION_CASES))
def test_bad_options(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sim.runner.backends.DASK_CONNECT_TIMEOUT", "1s")
    good = tmp_path / "good.yaml"
    good.write_text(GOOD_SEATS + "games: 10\n")
    args, pieces = OPTION_CASES[case]
    args = [a.format(dir=tmp_path, good=good) for a in args]
    result = invoke([*args, "--out", str(tmp_path / "out"), "--no-report"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    for piece in pieces:
        assert piece in result.output, f"{piece!r} not in {result.output!r}"
