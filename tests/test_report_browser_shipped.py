"""Every shipped experiment's page in a real browser (headless Chromium): experiments/*.yaml
with the tunes and the screen, and the example plug-ins' experiments, each played small once
(tests/shipped.py, the same build as `make screenshots`). At desktop width each page has its
scorecard on the first screen, saying where each figure holds in plain words; no table is
wider than its box; every section shows a picture before its first table; no error reaches
the page. Not marked `without_engines`: it plays every game. The planted pages' checks:
tests/test_report_browser.py."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.answer_checks import places_not_plain
from tests.test_report_browser import _run_pages

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory, shipped_pages) -> dict[str, Path]:
    """Every shipped experiment played small (tests/shipped.py), one folder each; those the
    README walk played the same way in this process (tests/conftest.py) are its pages."""
    from tests.shipped import build

    return build(tmp_path_factory.mktemp("shipped"), played=shipped_pages)


def test_every_shipped_experiments_page_has_a_scorecard_tables_that_fit_pictures_first(shipped):
    """Each shipped experiment's page (experiments/*.yaml with the tunes and the screen, and
    the example plug-ins'): at desktop width the scorecard starts on the first screen with a
    row and says where each figure holds in plain words, no table is wider than its box, and
    every section shows a picture before its first table."""
    from tests.shipped import experiments

    found = experiments()
    assert set(shipped) == set(found) and len(shipped) >= 30
    assert {"tune_missile", "plain_pig_screen", "pig_quality", "coin_race_quality"} <= set(shipped)
    problems, verdicts = {}, _run_pages(list(shipped.values()))
    for (name, page), (v, _) in zip(shipped.items(), verdicts, strict=True):
        lay, bad = v["layout"], []
        if not lay["scorecard_rows"] or lay["scorecard_top"] is None:
            bad.append("no scorecard")
        elif lay["scorecard_top"] >= lay["screen"]:
            bad.append(f"scorecard below the first screen ({lay['scorecard_top']}px)")
        if lay["wide"]:
            bad.append(f"tables cut at the right edge: {lay['wide']}")
        if lay["table_first"]:
            bad.append(f"a table before any picture: {lay['table_first']}")
        if v["problems"]:
            bad.append(f"page errors: {v['problems']}")
        # where each figure holds, in plain words (tests/answer_checks.py: no rule key, stored
        # arm name or lineup as stored, no placeholder)
        raw = places_not_plain(page.read_text(), named_arms=_named_arms(found[name]))
        if raw:
            bad.append(f"scorecard places not in plain words: {raw}")
        if bad:
            problems[name] = bad
    assert not problems, problems


def _named_arms(path: Path) -> bool:
    """The experiment names its arms (its `arms:`, no sweep), as the report reads it."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return bool(data.get("arms")) and not data.get("sweep")
