"""The self-contained page `sim play --html` writes: a game's frames stepped with buttons or
the arrow keys. The stepping is written here once; a game gives its own style, what stands
under the buttons, and the script that draws frame `i` (a function `show()`).

The page's script runs in a scope of its own (a function called once): its names (`frames`,
`names`, `i`, `show`, a game's constants) cannot clash with the browser's globals, such as
`window.top` or `window.name`, nor leak into them."""

from __future__ import annotations

import html
import json
import re
import textwrap
from collections.abc import Mapping
from typing import Any

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def step_page(*, title: str, style: str, summary: str, first: str, body: str, draw: str,
              frames: list[Any], names: list[str],
              constants: Mapping[str, Any] | None = None) -> str:  # fmt: skip
    """The page: `summary` is HTML beside the names, `first` the first frame's button label,
    `body` the HTML the frames are drawn into, `draw` the game's script; `frames` and `names`
    reach it as the JSON constants `frames` and `names`, and each of `constants` (name ->
    JSON-able value) as a constant of that name."""
    extra = "".join(f"const {_checked(name)} = {_json(value)};\n"
                    for name, value in (constants or {}).items())  # fmt: skip
    return (
        _PAGE.replace("__STYLE__", style)
        .replace("__BODY__", body)
        .replace("__DRAW__", draw)
        .replace("__FIRST__", first)
        .replace("__SUMMARY__", summary)
        .replace("__TITLE__", html.escape(title))
        .replace("__CONSTANTS__", extra)
        .replace("__NAMES__", _json(names))
        .replace("__DATA__", _json(frames))
    )


def turns_page(title: str, names: list[str], frames: list[dict], end: str) -> str:
    """A page of turns told in lines: each frame a `title`, its `lines` (shown as text, never
    as markup) and the seats' `scores`; `end` says how the game ended."""
    return step_page(
        title=title,
        style="ol { font-family: monospace; }\n",
        summary=html.escape(end),
        first="first turn",
        body='<h2 id="title"></h2><ol id="lines"></ol><p id="scores"></p>',
        draw=_TURNS_DRAW,
        frames=frames,
        names=names,
    )


_TURNS_DRAW = """function show() {
  const f = frames[i];
  document.getElementById("where").textContent = `turn ${i + 1} of ${frames.length}`;
  document.getElementById("title").textContent = f.title;
  const lines = document.getElementById("lines");
  lines.replaceChildren(...f.lines.map(l => {
    const li = document.createElement("li"); li.textContent = l; return li;
  }));
  document.getElementById("scores").textContent =
    names.map((n, k) => `${n}: ${f.scores[k]}`).join(", ");
}
"""


def wrapped(text: str, width: int = 92) -> list[str]:
    """A transcript's long line (a legend) as lines of at most `width`, the later indented."""
    return textwrap.wrap(text, width=width, subsequent_indent="  ", break_on_hyphens=False)


def _checked(name: str) -> str:
    if not _NAME.fullmatch(name) or name in ("frames", "names", "i", "show", "go"):
        raise ValueError(f"not a name a page's constant can take: {name!r}")
    return name


def _json(value: Any) -> str:
    """JSON that stays data inside a <script> element (no `</script>` can end it early)."""
    return json.dumps(value).replace("<", "\\u003c")


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
__STYLE__button { font-size: 1em; margin-right: .5em; }
</style></head><body>
<h1>__TITLE__</h1>
<p id="names"></p><p>__SUMMARY__</p>
<p><button id="first">&laquo; __FIRST__</button><button id="prev">&#x25C0; previous</button>
<button id="next">next &#x25B6;</button><button id="last">end &raquo;</button>
<span id="where"></span> <small>(arrow keys step)</small></p>
__BODY__
<script>
(function () {
"use strict";
const frames = __DATA__;
const names = __NAMES__;
__CONSTANTS__let i = 0;
__DRAW__function go(k) { i = Math.max(0, Math.min(frames.length - 1, k)); show(); }
document.getElementById("first").onclick = () => go(0);
document.getElementById("prev").onclick = () => go(i - 1);
document.getElementById("next").onclick = () => go(i + 1);
document.getElementById("last").onclick = () => go(frames.length - 1);
document.addEventListener("keydown", e => {
  if (e.key === "ArrowRight") go(i + 1);
  if (e.key === "ArrowLeft") go(i - 1);
});
show();
})();
</script></body></html>
"""
