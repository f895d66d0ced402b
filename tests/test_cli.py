"""The command line as a newcomer meets it: `sim --help` lists the commands by what one does
first, each on one line; a switch shows no type and refuses a value with the fix; a `--set`
written with spaces is refused with the fix; `sim --version`; errors call a command-line
option an option and a file's key a key; a YAML mistake is said in the lab's words with the
line and a fix."""

from __future__ import annotations

import re
from itertools import groupby

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.commands.style import reflowed, slip
from tests.cli_checks import invoke, one_error_line

pytestmark = pytest.mark.without_engines  # nothing here plays a game


def _help(*args: str) -> str:
    done = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": "120"})
    assert done.exit_code == 0, done.output
    return done.output


def test_the_commands_are_listed_by_what_a_newcomer_does_first():
    text = _help()
    panels = re.findall(r"╭─ ([^─]+?) ─", text)
    assert panels == ["Options", "Look at a game", "Run experiments", "Search rule values",
                      "Measure speed"]  # fmt: skip
    listed = re.findall(r"│ (\w+) {2,}", text.split("Look at a game", 1)[1])
    # typer lists a panel's commands before its groups (rules, scenario)
    assert listed[:5] == ["games", "play", "check", "rules", "scenario"]
    assert (
        listed.index("run") < listed.index("report") < listed.index("tune") < listed.index("bench")
    )


@pytest.mark.parametrize("command", ["run", "report", "tune", "screen", "play", "bench",
                                     "tournament", "calibrate", "games"])  # fmt: skip
def test_every_command_reads_in_whole_lines_and_shows_no_type_on_a_switch(command):
    text = _help(command)
    assert "<bool>" not in text  # a switch takes no value: it shows none
    intro = text.split("╭─", 1)[0].split("Usage:", 1)[1].split("\n", 1)[1]
    stripped = [line.strip() for line in intro.splitlines()]
    paragraphs = [list(group) for filled, group in groupby(stripped, key=bool) if filled]
    assert len(paragraphs) >= 1
    # the docstring's own line breaks are gone: every line but a paragraph's last is full
    for lines in paragraphs:
        for line in lines[:-1]:
            assert len(line) > 80, (command, line)


def test_reflowed_keeps_paragraphs_and_joins_their_lines():
    assert reflowed("One line\n    and more.\n\n    Second\n    paragraph.") == (
        "One line and more.\n\nSecond paragraph."
    )


def test_version():
    done = CliRunner().invoke(app, ["--version"])
    assert done.exit_code == 0
    assert re.match(r"board-game-balance-lab \S+\ngames \(behaviour versions\): ", done.output)
    assert "guardians 1" in done.output or "guardians " in done.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["run", "x.yaml", "--fresh", "true"], "--fresh is a switch and takes no value"),
        (["bench", "--quick", "false"], "leave it out to keep it off"),
        (["rules", "show", "guardians", "--set", "missile.cost", "=", "8"],
         "write --set missile.cost=8"),
        (["rules", "show", "guardians", "--set", "missile.cost", "=8"],
         "write --set missile.cost=8"),
        (["rules", "show", "guardians", "--set", "missile.cost=", "8"],
         "write --set missile.cost=8"),
    ],
)  # fmt: skip
def test_the_slips_the_parser_cannot_explain_are_refused_with_the_fix(args, words):
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 2
    assert words in " ".join(done.output.replace("│", " ").split())
    assert "unexpected extra argument" not in done.output


def test_what_is_not_a_slip_passes():
    assert slip(["--set", "missile.cost=8", "--fresh"], ["--fresh"]) is None
    assert slip(["--set", 'screen.keys=["*"]', "x.yaml"], []) is None
    assert slip(["--fresh", "x.yaml"], ["--fresh"]) is None


def test_a_command_line_option_is_an_option_and_a_files_key_a_key(tmp_path):
    exp = tmp_path / "e.yaml"
    exp.write_text("name: e\nseats: greedy\ngames: 10\n")
    assert "option '--games'" in one_error_line(invoke("run", str(exp), "--games", "0"))
    exp.write_text("name: e\nseats: greedy\ngames: 0\n")
    assert "key 'games'" in one_error_line(invoke("run", str(exp)))


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("name: x\nrules:\n\tmissile.cost: 8\n", 3, "a tab character"),
        ("name: x\ntitle: a: b\n", 2, "quote a text that holds ': '"),
        ("name: x\nseats: [greedy]\n  games: 10\n", 3, "indented differently"),
        ("name: x\nseats: [greedy, random\ngames: 10\n", 3, "not closed"),
    ],
)  # fmt: skip
def test_a_yaml_mistake_is_said_with_its_line_and_a_fix(tmp_path, text, line, words):
    exp = tmp_path / "e.yaml"
    exp.write_text(text)
    message = one_error_line(invoke("run", str(exp)))
    assert f"e.yaml:{line}: invalid YAML at column" in message
    assert words in message and f"Line {line} reads:" in message


def test_the_report_folder_option_has_one_name_and_the_older_one_still_works(tmp_path):
    assert "--report-dir" in _help("report")
    assert "--out" not in _help("report")  # the older name, kept but not shown
    message = one_error_line(invoke("report", str(tmp_path), "--out", "a", "--report-dir", "b"))
    assert "option '--report-dir'" in message and "older name" in message


def test_a_file_given_as_the_tune_folder_is_blamed_on_out(tmp_path):
    file = tmp_path / "taken.txt"
    file.write_text("")
    message = one_error_line(invoke("tune", "experiments/tune_missile.yaml", "--out", str(file)))
    assert "option '--out'" in message and "--report-dir" not in message


def test_a_screen_plays_no_search_so_its_rungs_do_not_bound_games():
    from sim.tune.spec import load_tune

    screen = load_tune("experiments/tune_missile.yaml", games=100, needs_knobs=False)
    assert screen.games == 100
    with pytest.raises(Exception, match=r"--set 'search\.games=\[100\]'"):  # a fix that fits
        load_tune("experiments/tune_missile.yaml", games=100)
