"""The browser the page checks open their pages in (tests/devtools.py): each page's own value
and console in its own tab, several at once; what a page's console says reaches the checks
(a console call, an error no script caught, a file that does not load); a page that never
gives its value gives None; a browser that stopped, or was closed, is started again."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import devtools
from tests.browser import FLAGS, chromium

pytestmark = [pytest.mark.browser, pytest.mark.without_engines]

READ = "window.done || null"


def _page(folder: Path, name: str, body: str) -> str:
    path = folder / f"{name}.html"
    path.write_text(f"<!doctype html><html><head><title>{name}</title></head><body>{body}"
                    "</body></html>", encoding="utf-8")  # fmt: skip
    return path.as_uri()


def test_each_tab_gives_its_own_value_and_its_own_console(tmp_path):
    browser = devtools.Browser(chromium(), FLAGS)
    try:
        urls = [_page(tmp_path, f"p{i}", f"<script>setTimeout(() => {{ window.done = "
                                         f"'page {i} ' + innerWidth; }}, 100)</script>")
                for i in range(3)]  # fmt: skip
        noisy = _page(tmp_path, "noisy", "<script>console.log('said'); window.done = 'noisy';"
                      "</script><script>this is not javascript</script>"
                      "<img src='missing.png' alt='gone'>")  # fmt: skip
        opened = browser.open([*urls, noisy], width=640, read=READ)
        assert [value for value, _ in opened] == [*(f"page {i} 640" for i in range(3)), "noisy"]
        assert [console for _, console in opened[:3]] == [[], [], []]
        said = opened[3][1]
        assert any(line.startswith("CONSOLE log: said") for line in said), said
        assert any(line.startswith("Uncaught SyntaxError") for line in said), said
        assert any("missing.png" in line for line in said), said
    finally:
        browser.close()


def test_a_page_that_never_gives_its_value_gives_none(tmp_path):
    browser = devtools.Browser(chromium(), FLAGS)
    try:
        [(value, console)] = browser.open([_page(tmp_path, "mute", "quiet")], width=800,
                                          read=READ, wait=0.5)  # fmt: skip
        assert value is None and console == []
    finally:
        browser.close()


def test_the_shared_browser_starts_again_after_it_stopped_or_was_closed(tmp_path):
    first = devtools.shared(chromium(), FLAGS)
    first.process.kill()
    first.process.wait()
    again = devtools.shared(chromium(), FLAGS)
    assert again is not first and again.alive
    url = _page(tmp_path, "after", "<script>window.done = 'up';</script>")
    assert again.open([url], width=800, read=READ) == [("up", [])]
    devtools.close_shared()  # as the suite does after each module
    assert not again.alive and devtools.shared(chromium(), FLAGS).alive
