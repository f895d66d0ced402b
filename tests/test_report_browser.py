"""The report page in a real browser (headless Chromium): it renders, every image loads, the
table sorter works, every section renders, the Answers block has at most one answer per
question and every figure in it stands beside its interval, no error reaches the console, the
page passes axe-core's accessibility rules without a serious or critical violation, it fits a
phone-width window without sideways scrolling, and it prints (collapsed details open first).

A copy of index.html gets a small probe script as the first thing in <head> (and axe-core,
inline, when the test needs it): it records window errors, unhandled rejections and
console.error/warn calls, and once the page has loaded it checks the page and writes its verdict
as JSON into the DOM, where tests/browser.py reads it. What reached the page's console is
checked as well.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from sim.report import build_report
from sim.report.compare import build_comparison
from tests import quality_fixtures as Q
from tests import report_fixtures as F
from tests.browser import FLAGS, assert_clean, chromium, open_pages
from tests.conftest import ROOT, axe_core_path, require_axe_core

pytestmark = [pytest.mark.browser, pytest.mark.without_engines]

# the report page's checks, after the recorder of tests/browser.py
PROBE = """
  function images() {
    var imgs = all('img'), loaded = 0;
    imgs.forEach(function (img) {
      if (img.complete && img.naturalWidth > 0 && img.naturalHeight > 0) { loaded++; }
      else { problems.push('image not loaded: ' + img.alt); }
    });
    return [loaded, imgs.length];
  }
  function sorter() {
    var table = document.querySelector('table.sortable');
    if (!table || table.tBodies[0].rows.length < 2) { return 'no-table'; }
    var th = table.tHead.rows[0].cells, col = th.length - 1;
    th[col].click();
    var vals = all('tr', table.tBodies[0]).map(function (r) {
      var v = r.cells[col].getAttribute('data-sort');
      return v === null ? null : (isNaN(Number(v)) ? v : Number(v));
    }).filter(function (v) { return v !== null; });
    for (var i = 1; i < vals.length; i++) {
      if (typeof vals[i] === 'number' && vals[i] < vals[i - 1]) { return 'unsorted'; }
    }
    return 'sorted';
  }
  function sections() {
    var bad = [];
    all('nav a').forEach(function (a) {
      var id = a.getAttribute('href').slice(1);
      if (!document.getElementById(id)) { bad.push('nav target missing: ' + id); }
    });
    all('main > section').forEach(function (s) {
      var h2 = s.querySelector('h2');
      if (!h2 || !h2.textContent.trim()) { bad.push('section without heading: ' + s.id); }
      if (s.textContent.trim().length < 40) { bad.push('empty section: ' + s.id); }
      if (s.getBoundingClientRect().height < 20) { bad.push('section not shown: ' + s.id); }
    });
    return [all('main > section').length, bad];
  }
  function answers() {
    var bad = [], keys = {}, count = 0;
    all('#answers .qa').forEach(function (qa) {
      var key = qa.getAttribute('data-question');
      if (keys[key]) { bad.push('question twice: ' + key); }
      keys[key] = true;
      var found = all('.answer', qa);
      count += found.length;
      if (found.length > 1) { bad.push('more than one answer line: ' + key); }
      found.forEach(function (p) {
        all('.est', p).forEach(function (est) {
          if (!est.querySelector('.ci')) {
            bad.push('estimate without interval in ' + key + ': ' + est.textContent);
          }
        });
        var rest = p.cloneNode(true);
        all('.est, .lbl, .n', rest).forEach(function (el) { el.remove(); });
        var m = rest.textContent.match(/\\d[\\d,.]*/g);
        if (m) { bad.push('bare number in ' + key + ': ' + m.join(' ')); }
      });
    });
    return [Object.keys(keys).length, count, bad];
  }
  function layout() {
    // the first screen: the scorecard starts on it
    var card = document.getElementById('scorecard');
    var top = card ? card.getBoundingClientRect().top + window.scrollY : null;
    var rows = card ? all('tbody tr[data-question]', card).length : 0;
    // every table, folded ones too, fits its box: no sideways scrolling inside it
    var closed = all('details').filter(function (d) { return !d.open; });
    closed.forEach(function (d) { d.open = true; });
    var folded = all('.tablewrap.folded');
    folded.forEach(function (b) { b.classList.remove('folded'); });
    var wide = [];
    all('.tablewrap').forEach(function (box) {
      var table = box.querySelector('table');
      var over = table.getBoundingClientRect().width - box.clientWidth;
      if (box.clientWidth > 0 && over > 1) {
        wide.push((table.id || table.className) + ' by ' + Math.round(over) + 'px');
      }
    });
    closed.forEach(function (d) { d.open = false; });
    folded.forEach(function (b) { b.classList.add('folded'); });
    // a section shows a picture before its first table
    var plain = [];
    all('main > section').forEach(function (s) {
      if (['scorecard', 'answers', 'definitions', 'methods'].indexOf(s.id) >= 0) { return; }
      var table = s.querySelector('table'), img = s.querySelector('img');
      if (!table) { return; }
      if (!img || (table.compareDocumentPosition(img) & Node.DOCUMENT_POSITION_FOLLOWING)) {
        plain.push(s.id);
      }
    });
    return {scorecard_top: top, scorecard_rows: rows, wide: wide, table_first: plain,
            screen: window.innerHeight};
  }
  function printing() {
    window.dispatchEvent(new Event('beforeprint'));
    return all('details').filter(function (d) { return !d.open; }).length;
  }
  window.addEventListener('load', function () {
    setTimeout(function () {
      var img = images(), sec = sections(), ans = answers(), lay = layout();
      var v = {
        images: img[0], total: img[1], sort: sorter(),
        height: document.body.scrollHeight,
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        sections: sec[0], section_problems: sec[1],
        questions: ans[0], answer_lines: ans[1], answer_problems: ans[2],
        layout: lay,
        details: all('details').length, closed_after_print: printing(),
        problems: problems, axe: null
      };
      if (!window.axe) { report(v); return; }
      window.axe.run(document, {resultTypes: ['violations']}).then(function (r) {
        v.axe = r.violations.map(function (x) {
          return {id: x.id, impact: x.impact, nodes: x.nodes.length,
                  first: x.nodes.length ? x.nodes[0].html.slice(0, 160) : ''};
        });
        report(v);
      }, function (err) { v.axe = [{id: 'axe failed: ' + err, impact: 'critical'}]; report(v); });
    }, 300);
  });
"""


def _run_page(page: Path, *, width: int = 1200, axe: Path | None = None) -> tuple[dict, list[str]]:
    return _run_pages([page], width=width, axe=axe)[0]


def _run_pages(pages: list[Path], *, width: int = 1200,
               axe: Path | None = None) -> list[tuple[dict, list[str]]]:  # fmt: skip
    """The report probe's verdict and the console lines of each page, opened at `width`
    (with axe-core's checks when `axe` is given)."""
    head = "" if axe is None else "<script>" + axe.read_text(encoding="utf-8") + "</script>"
    return open_pages(pages, PROBE, width=width, head=head)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("browser")
    out = {}
    for name, make in (
        ("pricing", lambda r: F.pricing(r, "missile", games=600)),
        ("first_player", lambda r: F.first_player(r, games=600)),
        ("difficulty", lambda r: F.difficulty(r, games=200)),
        ("what_if", lambda r: F.what_if(r, games=600)),
        ("mine_value", lambda r: F.mine_value(r, games=600)),
        ("skills", lambda r: F.pricing_by_skill(r, {"casual": 6, "club": 10}, games=600)),
        ("quality", lambda r: Q.pure_luck(r, games=400)),
    ):
        root = make(base / name)
        out[name] = build_report(results_dir=root, report_dir=base / f"{name}_report", n_boot=100)
    a, b = F.what_if(base / "cmp_a", games=600), F.what_if(base / "cmp_b", games=700)
    out["compare"] = build_comparison(dir_a=a, dir_b=b, report_dir=base / "cmp", n_boot=100)
    out.update(_tune_pages(base))
    return out


TUNE_PAGES = ("tune", "screen")  # the pages of `sim tune` and `sim screen`: the console only


def _tune_pages(base: Path) -> dict[str, Path]:
    """`sim tune`'s and `sim screen`'s reports of a small tune of the coin race (a plain
    Python game: no engine to compile)."""
    import sys

    import yaml
    from typer.testing import CliRunner

    import sim.plugins as plugins
    from sim.cli import app

    sys.path.insert(0, str(ROOT / "examples" / "coin_race"))
    from coin_race.plugin import GAME

    plugins.register(GAME)
    try:
        tune = base / "tune.yaml"
        tune.write_text(yaml.safe_dump({
            "name": "planted", "game": "coin-race", "ruleset": "race", "players": 2,
            "seats": ["steady", "steady"], "games": 400, "seed": 7,
            "tune": {"race.length": {"low": 1, "high": 20}},
            "targets": [{"measure": "mean_turns", "value": 12, "tolerance": 1}],
            "search": {"trials": 4, "games": [100, 400], "confirm": 2},
        }))  # fmt: skip
        out = {}
        for command in TUNE_PAGES:
            done = CliRunner().invoke(app, [command, str(tune), "--out", str(base / command),
                                            "-j", "1"])  # fmt: skip
            assert done.exit_code == 0, done.output
            out[command] = base / command / "report" / "index.html"
        return out
    finally:
        plugins._GAMES.pop(GAME.name, None)
        sys.path.remove(str(ROOT / "examples" / "coin_race"))


@pytest.fixture(scope="module")
def verdicts(pages) -> dict[str, tuple[dict, str]]:
    """Every page opened once at desktop width (with axe-core when it is installed)."""
    return dict(zip(pages, _run_pages(list(pages.values()), axe=axe_core_path()), strict=True))


def test_report_renders_with_all_images_and_no_console_error(verdicts):
    for name, (v, log) in verdicts.items():
        assert_clean(name, v, log)
        assert v["images"] == v["total"], f"{name}: {v['images']}/{v['total']} images"
        if name in TUNE_PAGES:  # their own pages: clean and drawn, checked above
            continue
        if name != "compare":
            assert v["total"] >= 2, name
            assert v["sort"] == "sorted", name
            assert v["height"] > 1500, "the page should have real content"


def test_every_section_renders_and_answers_are_one_line_with_intervals(verdicts):
    for name, (v, _) in verdicts.items():
        assert v["section_problems"] == [], f"{name}: {v['section_problems']}"
        assert v["sections"] >= 2, name
        # the experiment's questions and the overview's (a tune's or a screen's: its own)
        assert v["questions"] >= (1 if name in TUNE_PAGES else 2), name
        assert v["answer_lines"] == v["questions"], name  # exactly one line per question
        assert v["answer_problems"] == [], f"{name}: {v['answer_problems']}"


def test_no_serious_accessibility_violation(pages, verdicts):
    axe = require_axe_core()
    for name, (v, _) in verdicts.items():
        assert v["axe"] is not None, f"{name}: axe-core did not run"
        serious = [x for x in v["axe"] if x["impact"] in ("serious", "critical")]
        assert not serious, f"{name}: {serious}"
    # the check sees a violation when there is one: grey text on white
    page = pages["pricing"]
    bad = page.with_name("low-contrast.html")
    bad.write_text(
        page.read_text().replace("<h1>", '<p style="color:#ddd">faint</p><h1>', 1),
        encoding="utf-8",
    )
    v, _ = _run_page(bad, axe=axe)
    assert any(x["id"] == "color-contrast" and x["impact"] == "serious" for x in v["axe"])


def test_phone_width_and_print(pages, tmp_path):
    narrow = ("mine_value", "pricing", "compare")
    for name, (v, _) in zip(narrow, _run_pages([pages[n] for n in narrow], width=390), strict=True):
        assert v["overflow"] <= 1, f"{name}: {v['overflow']}px of sideways scrolling at 390px"
        if v["details"]:
            assert v["closed_after_print"] == 0, f"{name}: details stay closed in print"
    page = pages["mine_value"]
    pdf = tmp_path / "page.pdf"
    cmd = [chromium(), *FLAGS, f"--user-data-dir={tmp_path / 'profile-pdf'}",
           "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri()]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0 and pdf.is_file(), done.stderr[-2000:]
    assert len(re.findall(rb"/Type\s*/Page\b", pdf.read_bytes())) >= 2
    assert "@media print" in page.read_text()


def test_first_screen_scorecard_tables_fit_pictures_first(pages, verdicts):
    """At desktop width (1200px, narrower than a 1280px window): the scorecard starts on the
    first screen with a row per question, no table is wider than its box (folded and collapsed
    ones opened), and every section shows a picture before its first table."""
    for name, (v, _) in verdicts.items():
        if name == "compare":
            continue
        lay = v["layout"]
        # a row per question (a question asked at several levels may take more); an
        # experiment's page asks two or more, a screen of one knob on one target one
        asked = 1 if name in TUNE_PAGES else 2
        assert lay["scorecard_rows"] >= v["questions"] >= asked, (name, v["questions"], lay)
        assert lay["scorecard_top"] < lay["screen"], (name, lay)
        assert lay["wide"] == [], f"{name}: tables cut at the right edge: {lay['wide']}"
        assert lay["table_first"] == [], f"{name}: a table before any picture: {lay}"
    # the check sees a table wider than its box
    page = pages["pricing"]
    bad = page.with_name("wide-table.html")
    cells = "".join(f"<td>{'x' * 40}</td>" for _ in range(12))
    bad.write_text(page.read_text().replace(
        '<section id="answers">',
        f'<section id="answers"><div class="tablewrap"><table id="planted"><tr>{cells}</tr>'
        "</table></div>", 1), encoding="utf-8")  # fmt: skip
    v, _ = _run_page(bad)
    assert any(w.startswith("planted by ") for w in v["layout"]["wide"]), v["layout"]
