"""The import graph of the lab (sim/ and strategies/), read from the source: every import,
at the top of a module, inside a function or for type checking only. It has no circle, and a
game's rules never import its players: no module of a game (sim/games/<game>/) imports
strategies/ but its plugin.py, the one place where the rules and the players meet."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules() -> dict[str, Path]:
    """Every module of sim/ and strategies/ by its dotted name."""
    found = {}
    for top in ("sim", "strategies"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of `known` that module `name` imports (a name imported from a package is
    the module of that name when there is one, else the package)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]  # fmt: skip
        else:
            continue
        out |= {target for target in targets if target in known and target != name}
    return out


@functools.cache
def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in edges:
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_has_no_circle():
    assert circles(graph()) == []


def test_a_games_rules_never_import_its_players():
    games = [p.name for p in (ROOT / "sim" / "games").iterdir() if (p / "plugin.py").is_file()]
    assert sorted(games) == ["alien_raid", "guardians", "space_invaders"]
    edges = graph()
    crossing = {
        name: sorted(w for w in targets if w.split(".")[0] == "strategies")
        for name, targets in edges.items()
        if name.startswith("sim.games.") and not name.endswith(".plugin")
    }
    assert {name: found for name, found in crossing.items() if found} == {}


def test_the_checks_see_what_they_look_for():
    """The graph holds the imports the tests above rely on: one inside a function, one for
    type checking only; and a circle is found when there is one."""
    edges = graph()
    assert "strategies.guardians.registry" in edges["sim.games.guardians.plugin"]  # in a method
    assert "sim.experiment.reading" in edges["sim.experiment.checks"]
    assert "sim.games.base" in edges["sim.experiment.reading"]  # under TYPE_CHECKING
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
