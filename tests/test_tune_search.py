"""The search's guard against a sampler that keeps proposing candidates it has tried (GP does
on a discrete grid): such a proposal is answered from the earlier trial without playing, and
REPEATS_TO_STOP of them in a row end the sampler's trials, saying why.

The sampler here is made to propose one candidate for ever (a random sampler seeded the same
for every trial), on the coin race of tests/test_tune.py."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import optuna
import pytest
from optuna.trial import TrialState
from rich.console import Console

import sim.tune.search as search_module
from sim.runner.options import RunOptions
from sim.tune.journal import POLISH, REPEAT
from sim.tune.run import run_tune
from sim.tune.search import REPEATS_TO_STOP, candidate_key, open_study
from sim.tune.spec import parse_tune
from tests.coin_race import registered
from tests.test_tune import planted

pytestmark = pytest.mark.without_engines


@pytest.fixture(scope="module")
def coin_race():
    with registered() as game:
        yield game


def test_a_sampler_that_repeats_itself_is_answered_unplayed_and_stopped(coin_race, tmp_path,
                                                                         monkeypatch):  # fmt: skip
    tune = parse_tune(planted(trials=14, sampler="tpe"))
    monkeypatch.setattr(search_module, "make_sampler",
                        lambda tune, number: optuna.samplers.RandomSampler(seed=0))  # fmt: skip
    played = Counter()
    real = search_module.run_candidate

    def counting(exp, values, games, **kw):
        played[candidate_key(values)] += 1
        return real(exp, values, games, **kw)

    monkeypatch.setattr(search_module, "run_candidate", counting)
    shown = io.StringIO()
    summary = run_tune(tune, root=tmp_path, options=RunOptions(jobs=1),
                       console=Console(file=shown, width=300))  # fmt: skip
    log = shown.getvalue()  # said when the sampler settles, before the polishing steps
    assert 0 <= log.index("search: the sampler proposed") < log.index("(polishing 1)")

    study = open_study(tmp_path, tune)
    sampled = [t for t in study.trials if POLISH not in t.user_attrs]
    first, *repeats = sampled
    assert len(repeats) == REPEATS_TO_STOP  # then the sampler is asked no more
    assert all(t.user_attrs[REPEAT] == first.number for t in repeats)
    assert all(t.params == first.params and t.state == first.state for t in repeats)
    if first.state == TrialState.COMPLETE:
        assert all(t.values == first.values for t in repeats)
    assert all(t.intermediate_values == first.intermediate_values for t in repeats)
    # the repeated candidate was played once: one run per rung it reached, none per repeat
    assert played[candidate_key(first.params)] == len(first.intermediate_values)
    ended = summary["search"]["ended"]
    assert f"{REPEATS_TO_STOP} candidates in a row" in ended and "1 distinct of 14" in ended
    # polishing still steps from the best candidate, and the confirmation runs
    assert any(POLISH in t.user_attrs for t in study.trials)
    assert summary["confirmed"]
    # run again (a resumed tune): the sampler, settled, is not asked again, and says so
    again = run_tune(tune, root=tmp_path, options=RunOptions(jobs=1), show=False)
    assert len(open_study(tmp_path, tune).trials) == len(study.trials)
    assert again["search"]["ended"] == ended
    from sim.tune.report import build_tune_report

    page = Path(build_tune_report(tmp_path, tmp_path / "report"))
    page = page if page.is_file() else page / "index.html"
    assert f"The search ended early: the sampler proposed {REPEATS_TO_STOP} candidates" in (
        page.read_text()
    )
