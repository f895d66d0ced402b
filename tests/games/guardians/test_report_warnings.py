"""Warnings a designer must not miss: presets that played alike, and one warning per finding
however many skill levels give it."""

from sim.games.guardians.report.difficulty_answers import same_play_warning
from sim.report.levels import _level_warnings


def _row(preset: str, players: int, raid: float) -> dict:
    return {"preset": preset, "players": players, "skill": "club", "knob_values": (),
            "games": 500, "raid": raid, "length": 20.0, "score": 40.0}  # fmt: skip


def test_presets_that_played_alike_are_named():
    rows = [_row(p, n, 0.3 + n / 100) for p in ("guardians", "guardians-advanced") for n in (2, 3)]
    warning = same_play_warning(rows)
    assert warning is not None and warning.startswith("guardians-advanced as guardians")


def test_presets_that_played_apart_give_no_warning():
    rows = [_row("guardians", 2, 0.30), _row("guardians-advanced", 2, 0.31)]
    assert same_play_warning(rows) is None


def test_a_warning_is_given_once_with_the_levels_that_give_it():
    by_level = {"club": ("alike", "thin"), "strong": ("alike",), "master": ("alike",)}
    assert _level_warnings(by_level) == ("alike", "at club: thin")
    assert _level_warnings({"club": ("x",), "strong": ("x",), "master": ()}) == (
        "at club, strong: x",
    )


def test_a_swept_seat_with_parameters_is_named_like_a_strategy(tmp_path):
    from sim.experiment import load_experiment
    from sim.games.guardians.report.difficulty import short_skills

    path = tmp_path / "ladder.yaml"
    path.write_text(
        "name: ladder\nseats: casual\nplayers: 2\ngames: 10\n"
        "sweep:\n  seats.all: [{name: club, shop: 1}, strong]\n"
    )
    exp = load_experiment(path)
    assert [arm.name for arm in exp.arms] == ["seats.all=club(shop=1)", "seats.all=strong"]
    assert [arm.pool[0].params for arm in exp.arms] == [(("shop", 1),), ()]
    # the difficulty report names a level alone unless two tables share its name
    assert short_skills({"club(shop=1)", "strong"}) == {"club(shop=1)": "club", "strong": "strong"}
    both = {"club(shop=1)", "club"}
    assert short_skills(both) == {"club(shop=1)": "club(shop=1)", "club": "club"}
