"""Opening a page the lab wrote in headless Chromium: a copy of the page gets a probe script as
the first thing in <head>; the probe records window errors, unhandled rejections and
console.error/warn calls from the start, runs its checks once the page has loaded and writes
its verdict as JSON into the DOM, which `chromium --dump-dom` prints. Chromium's own console
log (--enable-logging=stderr) is returned beside it, for the errors the probe cannot see (a
script that does not even parse)."""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import chromium_path

FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--no-default-browser-check", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
)  # fmt: skip

# The start of every probe: `problems` collects what went wrong; `report(v)` writes the verdict.
RECORDER = """
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
  function all(sel, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(sel));
  }
  function report(extra) {
    var out = document.createElement('pre');
    out.id = 'probe-verdict';
    out.textContent = 'VERDICT ' + JSON.stringify(extra) + ' END';
    document.body.appendChild(out);
  }
"""


def chromium() -> str:
    found = chromium_path()
    if found is None:  # the conftest guard skips us locally; on CI this is a failure
        pytest.fail("chromium not found (apt-get install chromium)")
    return found


def open_page(page: Path, tmp: Path, probe: str, *, width: int = 1200,
              head: str = "") -> tuple[dict, list[str]]:  # fmt: skip
    """(the probe's verdict, Chromium's console lines) of `page` opened at `width` pixels;
    `probe` is the script body run after RECORDER, `head` more HTML put after it."""
    probe_page = page.with_name(f"probe-{width}-{page.name}")
    text = page.read_text(encoding="utf-8")
    script = "<script>\n(function () {" + RECORDER + probe + "\n})();\n</script>" + head
    probe_page.write_text(_after_head(text, script), encoding="utf-8")
    cmd = [
        chromium(), *FLAGS,
        f"--user-data-dir={tmp / f'profile-{width}'}", f"--window-size={width},900",
        "--enable-logging=stderr", "--v=0", "--virtual-time-budget=30000", "--dump-dom",
        probe_page.as_uri(),
    ]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    m = re.search(r'<pre id="probe-verdict">VERDICT (.*?) END</pre>', done.stdout, re.S)
    assert m, f"{page}: the probe did not report (page did not load?)\n{done.stdout[-500:]}"
    console = [line for line in done.stderr.splitlines()
               if "CONSOLE" in line or "Uncaught" in line]  # fmt: skip
    return json.loads(html.unescape(m[1])), console


def _after_head(text: str, script: str) -> str:
    """The page with `script` first in its <head> (any casing of the tag)."""
    m = re.search(r"<head[^>]*>", text, re.I)
    assert m, "the page has no <head>"
    return text[: m.end()] + script + text[m.end() :]


def assert_clean(name: str, verdict: dict, console: list[str]) -> None:
    """No error reached the page's console, by the probe's account or by Chromium's."""
    assert verdict["problems"] == [], f"{name}: {verdict['problems']}"
    assert not console, f"{name}: {console}"
