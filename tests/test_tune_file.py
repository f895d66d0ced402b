"""A tune file: the experiment's keys read by the experiment parser, and the tune's own keys
(tune, targets, search, screen) checked before any game, every error naming the file, the
line, the key and a fix; the verdicts and the knobs' values by hand."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from sim.errors import ConfigError
from sim.measures import Value
from sim.tune.knobs import parse_knob, rule_values, space_size
from sim.tune.spec import load_tune
from sim.tune.targets import Target
from sim.tune.verdict import MET, MISSED, UNSETTLED, judge

ROOT = Path(__file__).resolve().parents[1]
GOOD = """\
name: t
game: guardians
ruleset: guardians
players: 4
seats: [{name: skill, missile_at: 16}, skill, skill, skill]
skills: [club, strong]
games: 2000
seed: 1
tune:
  missile.cost: {low: 6, high: 20}
targets:
  - measure: uplift.skill(missile_at=16)
    value: 0
"""


def _load(tmp_path: Path, text: str, **kw):
    path = tmp_path / "t.yaml"
    path.write_text(text)
    return load_tune(path, **kw)


def _error(tmp_path: Path, text: str, **kw) -> str:
    with pytest.raises(ConfigError) as err:
        _load(tmp_path, text, **kw)
    return str(err.value)


def test_a_good_file_reads_with_its_defaults(tmp_path):
    tune = _load(tmp_path, GOOD)
    (knob,) = tune.knobs
    assert (knob.kind, knob.low, knob.high, knob.step) == ("int", 6, 20, 1)
    (target,) = tune.targets
    assert target.unit == "share" and target.tolerance == 0.01 and target.combine == "worst"
    assert target.measure_at("strong") == "uplift.strong(missile_at=16)"
    assert [p.arm for p in tune.places] == ["default@club", "default@strong"]
    assert tune.search.rungs == (125, 500) and tune.search.confirm == 3
    assert tune.candidate({"missile.cost": 13}).arms[0].ruleset.values["missile.cost"] == 13


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        ({"tune": {"missile.price": {"low": 6, "high": 20}}}, "key 'tune.missile.price'",
         "not a rule key"),
        ({"tune": {"missile.cost": {"low": 6, "high": 9999}}}, "key 'tune.missile.cost'",
         "not a value the rules accept"),
        ({"tune": {"missile.cost": {"low": 6, "high": 20, "step": 4}}}, "tune.missile.cost",
         "not a multiple of step"),
        ({"tune": {"missile.cost": 7}}, "tune.missile.cost", "a range {low, high, step}"),
        ({"tune": {"tokens.monsters": {"low": 1, "high": 3}}}, "tune.tokens.monsters",
         "a list key"),
        ({"targets": [{"measure": "uplift.skill(missile_at=16)"}]}, "targets[0].value",
         "a target value or a band"),
        ({"targets": [{"measure": "rade_rate", "value": 0.2}]}, "targets[0].measure",
         "unknown measure 'rade_rate'"),
        ({"targets": [{"measure": "mean_turns", "value": 30}]}, "targets[0].tolerance",
         "give its tolerance"),
        ({"targets": [{"measure": "raid_rate", "value": 0.2, "skills": ["master"]}]},
         "targets[0].skills", "unknown skill level 'master'"),
        ({"targets": [{"measure": "raid_rate", "band": [0.3, 0.2]}]}, "targets[0].band",
         "above its high"),
        ({"search": {"games": [500, 100]}}, "search.games", "must rise"),
        ({"search": {"sampler": "cmaes"}}, "search.sampler", "One of auto, grid, tpe, nsga2"),
        ({"precision": {"metric": "raid_rate", "width": 0.01}}, "key 'precision'",
         "not a key of a tune"),
    ],
)  # fmt: skip
def test_mistakes_name_the_file_the_key_and_a_fix(tmp_path, change, where, words):
    data = {**yaml.safe_load(GOOD), **change}
    written = yaml.safe_dump(data, sort_keys=False)
    text = _error(tmp_path, written)
    assert where in text and words in text, text
    line = int(text.split("t.yaml:", 1)[1].split(":", 1)[0])
    written_there = written.splitlines()[line - 1]
    key = where.removeprefix("key '").rstrip("'")
    last = key.removeprefix("tune.") if key.startswith("tune.") else key.split(".")[-1]
    # the line of the key itself, or of the target it is missing from
    assert last in written_there or written_there.startswith("- "), (written_there, key)


def test_a_knob_set_elsewhere_is_refused(tmp_path):
    text = _error(tmp_path, GOOD, overrides=["missile.cost=8"])
    assert "missile.cost is a knob, but --set sets it too" in text
    arm = GOOD + "arms:\n  - name: a\n    rules: {missile.cost: 9}\n"
    assert "arms[0].rules sets it too" in _error(tmp_path, arm)


def test_the_command_line_sets_the_search(tmp_path):
    tune = _load(tmp_path, GOOD, overrides=["search.trials=5", "search.games=[100, 400]"])
    assert tune.search.trials == 5 and tune.search.rungs == (100, 400)
    assert tune.experiment.games == 2000  # an experiment key is the experiment's
    text = _error(tmp_path, GOOD, overrides=["search.keep=2"])
    assert text.startswith("--set: key 'search.keep'")


def test_list_elements_are_knobs():
    knob = parse_knob("chart.planet_health[2]", {"low": 4, "high": 20}, [20, 20, 15, 10])
    assert (knob.key, knob.index, knob.kind) == ("chart.planet_health", 2, "int")
    other = parse_knob("chart.planet_health[0]", {"low": 4, "high": 20}, [20, 20, 15, 10])
    rules = rule_values([knob, other], {knob.name: 9, other.name: 14},
                        {"chart.planet_health": (20, 20, 15, 10)})  # fmt: skip
    assert rules == {"chart.planet_health": [14, 20, 9, 10]}
    assert space_size([knob, other]) == 17 * 17


def test_choices_and_continuous_floats():
    knob = parse_knob("mine.step", [1, 2, 3], 1)
    assert knob.grid() == [1, 2, 3] and knob.kind == "choice"
    free = parse_knob("dexterity.spread_mm", {"low": 20, "high": 60}, 35.0)
    assert free.grid() is None and space_size([free]) == math.inf
    stepped = parse_knob("dexterity.spread_mm", {"low": 20, "high": 60, "step": 10}, 35.0)
    assert stepped.grid() == [20.0, 30.0, 40.0, 50.0, 60.0]


def _value(v: float, half: float, n: int = 1000) -> Value:
    return Value(v, v - half, v + half, half / 1.959964, n)


def test_the_three_verdicts_by_hand():
    # band [0.20, 0.30] widened by the tolerance 0.01: [0.19, 0.31]
    assert judge(_value(0.25, 0.05), 0.20, 0.30, 0.01).kind == MET  # 0.20..0.30 inside
    assert judge(_value(0.35, 0.02), 0.20, 0.30, 0.01).kind == MISSED  # 0.33..0.37 outside
    unsettled = judge(_value(0.30, 0.02), 0.20, 0.30, 0.01)  # 0.28..0.32 crosses 0.31
    assert unsettled.kind == UNSETTLED
    # centred on the band's edge, 0.01 inside the widened band's: met four times in five once
    # (1.96 + 0.84) se <= 0.01, the standard error from 0.0102 to 0.00357: 8.17 times the
    # games, 8,170, rounded up to two significant figures (sim/stats/verdict.py)
    assert unsettled.games_to_settle == 8200
    assert judge(Value.missing(0), 0.2, 0.3, 0.01).kind == UNSETTLED


def test_a_miss_is_counted_in_tolerances():
    t = Target("raid_rate", 0.20, 0.30, 0.01, "share", "raid rate")
    assert t.miss(0.25) == 0.0 and t.miss(0.33) == pytest.approx(3.0)
    assert t.miss(0.17) == pytest.approx(3.0) and t.miss(math.nan) > 1e5
    assert t.wanted == "20% to 30%" and t.within == "1 pp"
    uplift = Target("uplift.club", 0.0, 0.0, 0.01, "share", "uplift")
    assert uplift.signed and uplift.wanted == "0 pp" and uplift.show(0.005) == "+0.5 pp"


def test_the_shipped_tunes_read(tmp_path):
    for name in ("tune_missile", "tune_prices", "tune_invaders_chart", "tune_alien_raid_prices"):
        tune = load_tune(ROOT / "experiments" / f"{name}.yaml")
        assert tune.knobs and tune.targets, name


def test_a_safe_target_misses_by_its_intervals_worse_end(tmp_path):
    tune = _load(tmp_path, GOOD.replace("    value: 0\n", "    value: 0\n    safe: true\n"))
    (safe,) = tune.targets
    plain = Target("m", 0.0, 0.0, 0.01, "share", "m")
    assert safe.safe and not plain.safe
    # +0.2 pp (-0.5 to +1.2 pp): met on average, not at the interval's upper end
    value = Value(0.002, -0.005, 0.012, 0.004, 1000)
    assert plain.miss_of(value) == pytest.approx(0.2)
    assert safe.miss_of(value) == pytest.approx(1.2)
    assert safe.miss_of(Value.missing()) > 1e5
    assert "expected true or false" in _error(tmp_path, GOOD + "    safe: 1\n")


def test_the_gp_sampler_needs_torch(tmp_path):
    text = GOOD + "search: {sampler: gp}\n"
    try:
        import torch  # noqa: F401
    except ImportError:
        assert "the gp sampler needs torch" in _error(tmp_path, text)
        assert "[gp]" in _error(tmp_path, text)
    else:
        from sim.tune.search import make_sampler

        tune = _load(tmp_path, text)
        assert type(make_sampler(tune, 0)).__name__ == "GPSampler"


def test_alternatives_are_a_whole_number(tmp_path):
    assert _load(tmp_path, GOOD).search.alternatives == 2
    assert _load(tmp_path, GOOD + "search: {alternatives: 0}\n").search.alternatives == 0
    assert "expected a whole number >= 0" in _error(tmp_path, GOOD + "search: {alternatives: -1}\n")
