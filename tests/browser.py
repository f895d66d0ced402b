"""Opening a page the lab wrote in headless Chromium: a copy of the page gets a probe script as
the first thing in <head>; the probe records window errors, unhandled rejections and
console.error/warn calls from the start, runs its checks once the page has loaded and writes
its verdict as JSON into the DOM, which is read once the page's virtual time is spent. What
reached the page's console (and the errors it did not catch) is returned beside it, for the
errors the probe cannot see (a script that does not even parse). The pages open as tabs of one
browser per test process (tests/devtools.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests import devtools
from tests.conftest import chromium_path

FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--no-default-browser-check", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
)  # fmt: skip

TABS = 8  # pages open at once in the browser (each its own renderer process)
# what a page says once its virtual time is spent: the verdict its probe wrote, or null
VERDICT = "(document.getElementById('probe-verdict') || {}).textContent || null"

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


def open_page(page: Path, probe: str, *, width: int = 1200,
              head: str = "") -> tuple[dict, list[str]]:  # fmt: skip
    """(the probe's verdict, Chromium's console lines) of `page` opened at `width` pixels;
    `probe` is the script body run after RECORDER, `head` more HTML put after it."""
    return open_pages([page], probe, width=width, head=head)[0]


def open_pages(pages: list[Path], probe: str, *, width: int = 1200,
               head: str = "") -> list[tuple[dict, list[str]]]:  # fmt: skip
    """`open_page` of each page, in tabs of one browser, TABS at a time."""
    script = "<script>\n(function () {" + RECORDER + probe + "\n})();\n</script>" + head
    urls = []
    for page in pages:
        probe_page = page.with_name(f"probe-{width}-{page.name}")
        probe_page.write_text(_after_head(page.read_text(encoding="utf-8"), script),
                              encoding="utf-8")  # fmt: skip
        urls.append(probe_page.as_uri())
    out = []
    for at in range(0, len(urls), TABS):
        out += _opened(pages[at : at + TABS], urls[at : at + TABS], width)
    return out


def _opened(pages: list[Path], urls: list[str], width: int) -> list[tuple[dict, list[str]]]:
    browser = devtools.shared(chromium(), FLAGS)
    try:
        read = browser.open(urls, width=width, read=VERDICT)
    except devtools.BrowserError as e:
        browser.close()  # the next page starts a browser of its own
        pytest.fail(f"{pages[0].parent}: {e}", pytrace=False)
    out = []
    for page, (text, console) in zip(pages, read, strict=True):
        m = re.fullmatch(r"VERDICT (.*) END", text or "", re.S)
        assert m, f"{page}: the probe did not report (page did not load?)"
        out.append((json.loads(m[1]), console))
    return out


def _after_head(text: str, script: str) -> str:
    """The page with `script` first in its <head> (any casing of the tag)."""
    m = re.search(r"<head[^>]*>", text, re.I)
    assert m, "the page has no <head>"
    return text[: m.end()] + script + text[m.end() :]


def assert_clean(name: str, verdict: dict, console: list[str]) -> None:
    """No error reached the page's console, by the probe's account or by Chromium's."""
    assert verdict["problems"] == [], f"{name}: {verdict['problems']}"
    assert not console, f"{name}: {console}"
