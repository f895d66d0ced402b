"""The README's layout table matches the tree: every path it names exists, for every game
where it says <game>, and every file it names inside a folder is there. Every game has the
same layout (its pages, tests, scenarios and goldens in the same places)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("guardians", "space_invaders", "alien_raid")


def layout_rows() -> list[tuple[list[str], list[str]]]:
    """(the paths of the first column, the file names of the second) of each row."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in table.splitlines():
        cells = line.split(" | ")
        if not line.startswith("| `") or len(cells) < 2:
            continue
        paths = re.findall(r"`([^`]+)`", cells[0])
        names = [n for n in re.findall(r"`([^`]+)`", cells[1]) if re.fullmatch(r"[\w./<>-]+", n)
                 and (n.endswith((".py", "/", ".md")))]  # fmt: skip
        rows.append((paths, names))
    return rows


def expand(path: str) -> list[Path]:
    return (
        [ROOT / path.replace("<game>", game) for game in GAMES]
        if "<game>" in path
        else [ROOT / path]
    )


def test_every_path_of_the_layout_table_exists():
    rows = layout_rows()
    assert len(rows) > 10
    missing = []
    for paths, names in rows:
        folders = [p for path in paths for p in expand(path)]
        missing += [str(p) for p in folders if not p.exists() and "results" not in str(p)]
        for name in names:
            for folder in folders:
                # a name inside the row's folder, or a path from the repository's root
                candidates = [folder / name] if folder.is_dir() else []
                candidates += expand(name)
                if not any(c.exists() for c in candidates):
                    missing.append(f"{name} (row {folder.relative_to(ROOT)})")
    assert missing == []


PLACES = (
    "docs/games/{game}/rules.md", "docs/games/{game}/strategies.md",
    "docs/games/{game}/scenarios.md", "tests/games/{game}", "tests/scenarios/{game}",
    "tests/golden/{game}/traces.json", "sim/games/{game}/plugin.py",
    "sim/games/{game}/chunks.py", "strategies/{game}/registry.py", "strategies/{game}/ladder.py",
)  # fmt: skip


def test_every_game_has_the_same_layout():
    for game in GAMES:
        for place in PLACES:
            assert (ROOT / place.format(game=game)).exists(), place.format(game=game)


def relative_links(page: Path) -> list[str]:
    """The targets of a Markdown page's links that point into the repository."""
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8"))
    return [t for t in targets if not t.startswith(("http://", "https://", "mailto:"))]


def test_every_relative_link_of_the_docs_leads_to_a_file():
    pages = [*ROOT.glob("*.md"), *ROOT.glob("docs/**/*.md"), *ROOT.glob("examples/**/*.md")]
    assert len(pages) > 10
    broken = [
        f"{page.relative_to(ROOT)} -> {target}"
        for page in pages
        for target in relative_links(page)
        if not (page.parent / target).exists()
    ]
    assert broken == []
