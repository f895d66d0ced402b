"""What every report's Answers block must hold, read from its page: each answer, and every
figure in an answer an estimate with its interval, a setting's name or a count."""

from __future__ import annotations

import html
import re
from pathlib import Path


def answer_htmls(report: Path) -> list[tuple[str, str]]:
    page = (report / "index.html").read_text()
    block = page.split('<section id="answers">', 1)[1].split("</section>", 1)[0]
    return re.findall(
        r'<div class="qa" data-question="([^"]+)">.*?<p class="answer \w+">(.*?)</p>', block
    )


def numbers_without_interval(answer_html: str) -> list[str]:
    """Figures in an answer that are neither an estimate with its interval, a setting's name
    nor a count."""
    problems = []
    for est in re.findall(r'<span class="est"[^>]*>(.*?</span>|[^<]*)</span>', answer_html):
        if '<span class="ci">' not in est:
            problems.append(f"estimate without interval: {est}")
    est = r'<span class="est"[^>]*>(?:[^<]|<span class="ci">[^<]*</span>)*</span>'
    rest = re.sub(est, "", answer_html)
    rest = re.sub(r'<span class="(lbl|n)">.*?</span>', "", rest)
    rest = html.unescape(re.sub(r"<[^>]+>", "", rest))
    problems += [f"bare number {m!r}" for m in re.findall(r"\d[\d,.]*", rest)]
    return problems


# where a scorecard figure holds must be plain words: no rule key at a value as stored
# ("seats.all=naive"), no stored arm name ("baseline@club"), no lineup as stored (seats joined
# by bare commas, "tactical,tactical"), no placeholder ("the first of 6"), no "at at"; where
# the experiment names its arms, no strategy label with its parameters ("naive(bonus_shot=0)")
# either: the arm's name says it (an unnamed sweep's "every seat novice(shop=1)" has no other)
_STORED = (
    re.compile(r"\b[a-z_]+(\.[a-z0-9_]+)+="),
    re.compile(r"@"),
    re.compile(r"[A-Za-z)],[A-Za-z]"),
    re.compile(r"first of"),
    re.compile(r"^at "),
)
_PARAMETERS = re.compile(r"\(\w+=")


def scorecard_places(page_html: str) -> list[str]:
    """The scorecard's "at" cells of a page, as the page shows them."""
    card = page_html.split('id="scorecard"', 1)[-1].split("</section>", 1)[0]
    return [html.unescape(c) for c in re.findall(r'<td class="at">([^<]*)</td>', card)]


def places_not_plain(page_html: str, *, named_arms: bool = True) -> list[str]:
    """The scorecard's "at" cells that say a place as it is stored, not in plain words
    (`named_arms`: the experiment names its arms)."""
    checks = (*_STORED, _PARAMETERS) if named_arms else _STORED
    return [c for c in scorecard_places(page_html) if any(p.search(c) for p in checks)]
