"""The report page in a real browser (headless Chromium): it renders, every image loads, the
table sorter works, and no error reaches the console.

A copy of index.html gets a small probe script as the first thing in <head>: it records
window errors, unhandled rejections and console.error/warn calls, and once the page has
loaded it checks every <img> (complete, naturalWidth > 0), clicks a table header, and writes
its verdict into the DOM, which `chromium --dump-dom` prints. Chromium's own console log
(--enable-logging=stderr) is checked as well.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from sim.report import build_report
from tests import report_fixtures as F
from tests.conftest import chromium_path

pytestmark = pytest.mark.browser

PROBE = """<script>
(function () {
  var problems = [];
  window.__problems = problems;
  window.addEventListener('error', function (e) {
    var t = e.target;
    if (t && t.tagName === 'IMG') { problems.push('image failed: ' + (t.alt || '?')); }
    else { problems.push('error: ' + (e.message || e)); }
  }, true);
  window.addEventListener('unhandledrejection', function (e) {
    problems.push('rejection: ' + e.reason);
  });
  ['error', 'warn'].forEach(function (level) {
    var orig = console[level];
    console[level] = function () {
      problems.push('console.' + level + ': ' + Array.prototype.join.call(arguments, ' '));
      return orig.apply(console, arguments);
    };
  });
  window.addEventListener('load', function () {
    setTimeout(function () {
      var imgs = document.querySelectorAll('img');
      var loaded = 0;
      Array.prototype.forEach.call(imgs, function (img) {
        if (img.complete && img.naturalWidth > 0 && img.naturalHeight > 0) { loaded++; }
        else { problems.push('image not loaded: ' + img.alt); }
      });
      var sorted = 'no-table';
      var table = document.querySelector('table.sortable');
      if (table && table.tBodies[0].rows.length > 1) {
        var th = table.tHead.rows[0].cells;
        var col = th.length - 1;
        th[col].click();
        var vals = Array.prototype.map.call(table.tBodies[0].rows, function (r) {
          var v = r.cells[col].getAttribute('data-sort');
          return v === null ? null : (isNaN(Number(v)) ? v : Number(v));
        }).filter(function (v) { return v !== null; });
        var ok = true;
        for (var i = 1; i < vals.length; i++) {
          if (typeof vals[i] === 'number' && vals[i] < vals[i - 1]) { ok = false; }
        }
        sorted = ok ? 'sorted' : 'unsorted';
      }
      var h = document.body.scrollHeight;
      var out = document.createElement('pre');
      out.id = 'probe-verdict';
      out.textContent = 'VERDICT images=' + loaded + '/' + imgs.length + ' sort=' + sorted +
        ' height=' + h + ' problems=' + JSON.stringify(problems) + ' END';
      document.body.appendChild(out);
    }, 300);
  });
})();
</script>"""


def _chromium() -> str:
    found = chromium_path()
    if found is None:  # the conftest guard skips us locally; on CI this is a failure
        pytest.fail("chromium not found (apt-get install chromium)")
    return found


def _run_page(page: Path, tmp: Path) -> tuple[str, str]:
    probe_page = page.with_name("probe.html")
    text = page.read_text(encoding="utf-8")
    probe_page.write_text(text.replace("<head>", "<head>" + PROBE, 1), encoding="utf-8")
    cmd = [
        _chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--no-default-browser-check",
        f"--user-data-dir={tmp / 'profile'}",
        "--enable-logging=stderr",
        "--v=0",
        "--virtual-time-budget=10000",
        "--dump-dom",
        probe_page.as_uri(),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, done.stderr


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    base = tmp_path_factory.mktemp("browser")
    out = []
    for name, make in (
        ("pricing", lambda r: F.pricing(r, "missile", games=600)),
        ("first_player", lambda r: F.first_player(r, games=600)),
        ("difficulty", lambda r: F.difficulty(r, games=200)),
        ("what_if", lambda r: F.what_if(r, games=600)),
    ):
        root = make(base / name)
        out.append(build_report(results_dir=root, report_dir=base / f"{name}_report", n_boot=100))
    return out


def test_report_renders_with_all_images_and_no_console_error(pages, tmp_path):
    for page in pages:
        dom, log = _run_page(page, tmp_path)
        m = re.search(r"VERDICT images=(\d+)/(\d+) sort=(\S+) height=(\d+) problems=(.*?) END", dom)
        assert m, f"{page}: the probe did not report (page did not load?)\n{dom[-500:]}"
        loaded, total, sort, height, problems = m.groups()
        assert int(total) >= 2 and loaded == total, f"{page}: {loaded}/{total} images"
        assert problems == "[]", f"{page}: {problems}"
        assert sort == "sorted", page
        assert int(height) > 1500, "the page should have real content"
        console = [line for line in log.splitlines() if "CONSOLE" in line or "Uncaught" in line]
        assert not console, f"{page}: {console}"
