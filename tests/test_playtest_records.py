"""Playtest records in (issue 38): the lab's CSV, a BG Stats export and BoardGameGeek's plays
read into the same tables; every bad record refused on one line naming the file, the row (or
play), the column and a fix; the template reads back. No game is played here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.errors import SimError
from sim.playtest.lab_csv import template
from sim.playtest.read import read_records
from sim.playtest.synthetic import as_bgg, as_bgstats
from sim.plugins import get_game
from tests.cli_checks import invoke

pytestmark = pytest.mark.without_engines

GOOD = """game,seat,player,score,won,turns,outcome
g1,1,Anna,42,1,88,victory
g1,2,Ben,35,0,88,victory
g1,3,Cleo,20,0,88,victory
g1,4,Dan,12,0,88,victory
g2,1,Ben,30,0,90,raid
g2,2,Anna,31,0,90,raid
g2,3,Cleo,22,0,90,raid
g2,4,Dan,25,0,90,raid
"""


def _write(tmp_path: Path, text: str, name: str = "records.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_lab_csv_reads_into_the_lab_tables(tmp_path):
    records = read_records(_write(tmp_path, GOOD), "guardians")
    seats = records.seats
    assert seats.height == 8 and records.games.height == 2
    assert seats.get_column("seat").to_list() == [0, 1, 2, 3] * 2  # 1 = the start player
    assert seats.get_column("won").to_list()[:2] == [True, False]
    assert records.games.get_column("ruleset").unique().to_list() == ["guardians"]  # default
    assert records.groups == ["all"] and records.extra == ("turns", "outcome")
    assert records.named and seats.get_column("line").to_list()[0] == 2


@pytest.mark.parametrize(
    ("change", "line", "column", "words"),
    [
        # rows disagreeing on the player count
        ("g1,2,Ben,35,0,88,victory", 3, "players", "disagree on players"),
        # two winners where one (different scores)
        ("g1,2,Ben,35,1,88,victory", 3, "won", "2 winners with different scores"),
        ("g1,5,Ben,35,0,88,victory", 3, "seat", "seat 5 is out of range"),
        ("g1,2,Ben,lots,0,88,victory", 3, "score", "'lots' is not a number"),
        ("g1,2,Ben,35,maybe,88,victory", 3, "won", "not 1 or 0"),
        ("g1,1,Ben,35,0,88,victory", 3, "seat", "two rows for seat 1"),
        ("g1,two,Ben,35,0,88,victory", 3, "seat", "not a whole number"),
    ],
)
def test_a_bad_row_is_one_line_naming_the_file_the_line_the_column_and_a_fix(
    tmp_path, change, line, column, words
):
    text = GOOD.replace("g1,2,Ben,35,0,88,victory", change)
    if column == "players":  # a `players` column that disagrees within the game
        text = text.replace("turns,outcome\n", "turns,outcome,players\n")
        rows = [r + ("" if r.startswith("game") else ",4") for r in text.splitlines()]
        text = "\n".join(rows).replace(change + ",4", change + ",3") + "\n"
    path = _write(tmp_path, text)
    with pytest.raises(SimError) as caught:
        read_records(path, "guardians")
    message = f"error: {caught.value}"
    assert "\n" not in message
    assert f"records.csv:{line}:" in message and f"key '{column}'" in message, message
    assert words in message and caught.value.hint, message


def test_an_unknown_ruleset_an_empty_file_and_bytes_that_are_not_text(tmp_path):
    unknown = _write(tmp_path, "game,seat,score,won,ruleset\ng1,1,3,1,guardianz\ng1,2,2,0,"
                     "guardianz\n")  # fmt: skip
    cases = {
        unknown: ("records.csv:2: key 'ruleset'", "Did you mean 'guardians'?"),
        _write(tmp_path, "", "empty.csv"): ("empty.csv", "the file is empty"),
        _write(tmp_path, "game,seat,score,won\n", "header.csv"): ("header.csv", "no games"),
    }
    (tmp_path / "bytes.csv").write_bytes(b"\xff\xfe\x00\x81garbage")
    cases[tmp_path / "bytes.csv"] = ("bytes.csv", "not a UTF-8 text file")
    for path, (where, words) in cases.items():
        with pytest.raises(SimError) as caught:
            read_records(path, "guardians")
        assert where in str(caught.value) and words in str(caught.value), str(caught.value)


def test_a_missing_column_and_a_cooperative_table_that_won_and_lost(tmp_path):
    with pytest.raises(SimError, match="no column won"):
        read_records(_write(tmp_path, "game,seat,score\ng1,1,3\n"), "guardians")
    split = "game,seat,score,won\ng1,1,300,1\ng1,2,300,0\n"
    with pytest.raises(SimError, match="the table wins or loses together"):
        read_records(_write(tmp_path, split), "space-invaders")


def test_a_shared_win_is_a_tie_at_the_top_and_a_missing_seat_row_is_allowed(tmp_path):
    tie = GOOD.replace("g1,2,Ben,35,0", "g1,2,Ben,42,1")
    assert read_records(_write(tmp_path, tie), "guardians").seats.get_column("won").sum() == 2
    short = "game,seat,score,won,players\ng1,1,30,1,4\ng1,2,20,0,4\ng1,4,10,0,4\n"
    records = read_records(_write(tmp_path, short, "short.csv"), "guardians")
    assert records.games.get_column("players").to_list() == [4]
    assert records.games.get_column("rows").to_list() == [3]


def test_the_template_of_every_game_reads_back(tmp_path):
    for name in ("guardians", "space-invaders", "alien-raid"):
        game = get_game(name)
        records = read_records(_write(tmp_path, template(game), f"{name}.csv"), game)
        assert records.games.height == 2 and records.groups == ["tuesday"]


def test_sim_playtest_template_writes_a_new_file_only(tmp_path):
    target = tmp_path / "mine.csv"
    result = invoke("playtest", "template", "--game", "guardians", "--out", str(target))
    assert result.exit_code == 0 and target.read_text().startswith("game,seat,player,score,won")
    again = invoke("playtest", "template", "--game", "guardians", "--out", str(target))
    assert again.exit_code == 2 and "never overwrites" in again.output


def test_bg_stats_and_boardgamegeek_give_the_csv_tables(tmp_path):
    csv_records = read_records(_write(tmp_path, GOOD), "guardians")
    title = "Guardians of Space"
    for name, text in (("plays.json", as_bgstats(GOOD, title)),
                       ("plays.xml", as_bgg(GOOD, title))):  # fmt: skip
        records = read_records(_write(tmp_path, text, name), "guardians")
        keep = ["seat", "player", "score", "won"]
        assert records.seats.select(keep).equals(csv_records.seats.select(keep)), name


def test_bg_stats_seats_turn_at_the_start_player_and_the_game_is_chosen_by_name(tmp_path):
    data = json.loads(as_bgstats(GOOD, "Guardians of Space"))
    data["games"].append({"id": 2, "name": "Another Game"})
    data["plays"][0]["playerScores"][2]["startPlayer"] = True  # Cleo started game 1
    for entry in data["plays"][0]["playerScores"]:
        entry["startPlayer"] = entry["playerRefId"] == 3
    data["plays"].append({"gameRefId": 2, "playerScores": [{"playerRefId": 1, "score": "x"}]})
    path = _write(tmp_path, json.dumps(data), "plays.json")
    seats = read_records(path, "guardians").seats.filter(pl_game(0))
    assert seats.get_column("player").to_list() == ["Anna", "Ben", "Cleo", "Dan"]
    assert seats.get_column("seat").to_list() == [2, 3, 0, 1]  # Cleo first, then Dan, Anna
    with pytest.raises(SimError, match="no plays of 'Guardian' in the file") as caught:
        read_records(path, "guardians", name="Guardian")
    assert "Did you mean 'Guardians of Space'?" in str(caught.value)
    with pytest.raises(SimError, match="play 3: the score 'x' is not a number"):
        read_records(path, "guardians", name="Another Game")


def pl_game(index: int):
    import polars as pl

    return pl.col("game") == index


def test_boardgamegeek_incomplete_plays_are_left_out_and_entities_refused(tmp_path):
    text = as_bgg(GOOD, "Guardians of Space").replace('incomplete="0"', 'incomplete="1"', 1)
    records = read_records(_write(tmp_path, text, "plays.xml"), "guardians")
    assert records.games.height == 1 and "incomplete" in records.notes[0]
    bomb = '<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY a "a">]><plays/>'
    with pytest.raises(SimError, match="DOCTYPE"):
        read_records(_write(tmp_path, bomb, "bomb.xml"), "guardians")
