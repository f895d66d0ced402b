"""`sim play --html` of every installed game (the examples too, installed as pip would) in a
real browser (headless Chromium): the page draws its first frame, steps to the next and to the
end, and no error reaches the console. A page's script runs in a scope of its own
(sim/watch_page.py), so a game's names cannot clash with the browser's globals."""

from __future__ import annotations

from contextlib import ExitStack

import pytest

from sim.plugins import get_game
from sim.watch import watch_game, write_page
from sim.watch_page import step_page
from tests.browser import assert_clean, open_page
from tests.examples.installing import PACKAGES, installed_here
from tests.test_games import GAMES

pytestmark = pytest.mark.browser  # plays each game: waits for the compiled engines

# `where` is written last by a page's show(): a frame drawn to its end
# after load: what stands on the page, then after `next` and `end` (the stepping's buttons)
PROBE = """
  function seen() {
    var where = document.getElementById('where');
    return {where: where ? where.textContent : null, text: document.body.innerText.length,
            shapes: all('svg *').length};
  }
  window.addEventListener('load', function () {
    setTimeout(function () {
      var first = seen();
      var next = document.getElementById('next');
      if (next) { next.click(); }
      var second = seen();
      var last = document.getElementById('last');
      if (last) { last.click(); }
      report({first: first, second: second, end: seen(), problems: problems});
    }, 200);
  });
"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Each game's page of its demo table (seed 1), written as `sim play --html` writes it."""
    site, out = tmp_path_factory.mktemp("site"), tmp_path_factory.mktemp("pages")
    written = {}
    with ExitStack() as stack:
        for package in PACKAGES.values():
            stack.enter_context(installed_here(site, package))
        for name in GAMES:
            watched = watch_game(game=name, strategies=None, ruleset=None, overrides=[], seed=1)
            written[name] = write_page(watched, str(out / f"{name}.html"))
            assert get_game(name).title  # the game's plug-in is what played it
    return written


@pytest.mark.parametrize("name", GAMES)
def test_every_games_page_draws_and_steps_without_an_error(pages, name):
    verdict, console = open_page(pages[name], PROBE)
    assert_clean(name, verdict, console)
    first, second, end = verdict["first"], verdict["second"], verdict["end"]
    assert first["where"], f"{name}: the first frame was not drawn"
    assert first["text"] > 100, f"{name}: {first}"  # the frame's text, not the buttons alone
    if name == "space-invaders":  # the board, drawn to scale
        assert first["shapes"] > 20, first
    assert second["where"] != first["where"], f"{name}: `next` did not step"
    assert end["where"] not in (first["where"], None), f"{name}: `end` did not step"


def test_a_page_clashing_with_a_browser_global_is_caught(tmp_path):
    # the check sees a page that stops on an error: a game's script that redeclares a global
    # of the page's own scope
    page = tmp_path / "broken.html"
    page.write_text(step_page(title="broken", style="", summary="", first="start", body="",
                              draw="const frames = 1;\nfunction show() {}\n", frames=[{}],
                              names=[]), encoding="utf-8")  # fmt: skip
    verdict, console = open_page(page, PROBE)
    assert verdict["problems"] or console


def test_a_games_constant_cannot_shadow_the_pages_own_names():
    with pytest.raises(ValueError, match="frames"):
        step_page(title="t", style="", summary="", first="start", body="", draw="",
                  frames=[], names=[], constants={"frames": 1})  # fmt: skip
