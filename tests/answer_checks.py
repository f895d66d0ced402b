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
