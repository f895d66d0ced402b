"""The import graph of the lab (sim/ and strategies/), read from the source: every import, at
the top of a module, inside a function or for type checking only, and every module named by
a string that the lab imports by name (`import_module("...")`, a plug-in's "module:function"
parts, the modules a plug-in's `package` and `strategies` name by the usual layout). It has
no circle; it runs one way, down the floors written below; typer is the commands' alone; and
a game's own modules reach neither its plug-in object nor its players: plugin.py is the one
place where the lab, the rules and the players meet."""

from __future__ import annotations

import ast
import fnmatch
import functools
import re
from pathlib import Path

from sim.plugins.base import PACKAGE_MODULES, STRATEGY_MODULES

ROOT = Path(__file__).resolve().parents[1]

# The floors, top first: a module imports modules of its own floor or of floors below it.
FLOORS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("commands", "The `sim` command line: options parsed, the lab called, its outcome printed; "
     "the only code that imports typer.", ("sim.__main__", "sim.cli", "sim.commands*")),
    ("lab", "The lab from Python: experiments run (with the stop rule the runner is handed), "
     "results folders read, reports built, tunes, screens, tournaments, calibrations, benches "
     "and watched games.",
     ("sim.lab*", "sim.tune*", "sim.bench", "sim.watch")),
    ("runner", "An experiment's games played in chunks and stored, with their manifest; it "
     "builds no report and reads no measure.", ("sim.runner*",)),
    ("experiment", "The experiment file language: a file read, checked and made into arms; it "
     "plays nothing.", ("sim.experiment*",)),
    ("games", "The games: each one's rules, compiled loop, report sections and measures "
     "(sim/games/<game>/), and its players (strategies/).",
     ("sim.games.*.*", "sim.games.*", "strategies*")),
    ("reports", "The report framework: sections, tables, figures and verdicts from stored "
     "results only.", ("sim.report*",)),
    ("measures", "Every number the lab reports, one registry per game, computed from stored "
     "results.", ("sim.measures*",)),
    ("results", "A results folder: its parts written and read back, its manifest.",
     ("sim.results", "sim.storage*")),
    ("plug-in interface", "What every game offers the lab (sim.plugins.base), the registry that "
     "finds the games, and what every game's loop and scenario format share.",
     ("sim.plugins", "sim.plugins.base", "sim.plugins.policy_table", "sim.plugins.seating",
      "sim.plugins.trajectory", "sim.plugins.trajectory_kernel", "sim.scenarios")),
    ("foundations", "What everything stands on: errors, rule values and rulesets, seeds and "
     "random streams, compiling, paths, statistics.", ("sim", "sim.*")),
)  # fmt: skip


def modules() -> dict[str, Path]:
    """Every module of sim/ and strategies/ by its dotted name."""
    found = {}
    for top in ("sim", "strategies"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def floor_of(name: str) -> int:
    """The floor of module `name` (0 is the top): an exact name first, then a pattern."""
    for exact in (True, False):
        for i, (_, _, patterns) in enumerate(FLOORS):
            if any(("*" not in p) == exact and fnmatch.fnmatchcase(name, p) for p in patterns):
                return i
    raise AssertionError(f"{name} stands on no floor")


_MODULE = re.compile(r"^([A-Za-z_][\w.]*)(?::[A-Za-z_]\w*)?$")


class _Strings:
    """The strings a module spells out, its constants joined: `"a" + B` and f"{B}.c" where B
    is a module-level string."""

    def __init__(self, tree: ast.Module) -> None:
        self.names: dict[str, str] = {}
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                value = self.value(node.value)
                if isinstance(target, ast.Name) and value is not None:
                    self.names[target.id] = value

    def value(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return self.names.get(node.id)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.value(node.left), self.value(node.right)
            return None if left is None or right is None else left + right
        if isinstance(node, ast.JoinedStr):
            parts = [self.value(v.value if isinstance(v, ast.FormattedValue) else v)
                     for v in node.values]  # fmt: skip
            return None if None in parts else "".join(parts)  # type: ignore[arg-type]
        return None


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes (a docstring names modules without importing them)."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            found.add(id(body[0].value))
    return found


LOADERS = ("import_module", "lazy", "Unit")  # calls whose first argument is a module's name


def named(tree: ast.Module, known: dict[str, Path]) -> set[str]:
    """The modules of `known` that a module names to have them imported: a "module:function"
    string (a plug-in's report sections, bench lineups and engines), the first argument of a
    call that imports by name (LOADERS), and, for a plug-in object (a class with `package`
    and `strategies`), the modules of its package and its players that
    sim.plugins.base.PackageParts imports by the usual layout."""
    strings = _Strings(tree)
    skip = _docstrings(tree)
    out = set()

    def add(text: str | None, *, bare: bool) -> None:
        match = _MODULE.match(text or "")
        if match and (bare or ":" in (text or "")) and match.group(1) in known:
            out.add(match.group(1))

    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and id(node) not in skip:
            add(strings.value(node), bare=False)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in LOADERS:
                add(strings.value(node.args[0]), bare=True)
        elif isinstance(node, ast.ClassDef):
            attrs = {t.id: strings.value(s.value) for s in node.body if isinstance(s, ast.Assign)
                     for t in s.targets if isinstance(t, ast.Name)}  # fmt: skip
            for attr, parts in (("package", PACKAGE_MODULES), ("strategies", STRATEGY_MODULES)):
                if attrs.get(attr):
                    out |= {f"{attrs[attr]}.{part}" for part in parts} & set(known)
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of `known` that module `name` imports (a name imported from a package is
    the module of that name when there is one, else the package), or names by a string."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = named(tree, known)
    for node in ast.walk(tree):
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
        out |= {target for target in targets if target in known}
    return out - {name}


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


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Every import from a lower floor to a higher one, as 'a (floor) -> b (floor)'."""
    names = [floor for floor, _, _ in FLOORS]
    return sorted(f"{a} ({names[floor_of(a)]}) -> {b} ({names[floor_of(b)]})"
                  for a, targets in edges.items() for b in targets
                  if floor_of(b) < floor_of(a))  # fmt: skip


def games() -> list[str]:
    return sorted(p.name for p in (ROOT / "sim" / "games").iterdir() if (p / "plugin.py").is_file())


def test_the_import_graph_has_no_circle():
    assert circles(graph()) == []


def test_every_module_stands_on_a_floor_and_imports_only_downstairs():
    assert upward(graph()) == []


def test_only_the_commands_import_typer():
    commands = FLOORS[0][2]
    found = []
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                used = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                used = [node.module or ""]
            else:
                continue
            if any(u.split(".")[0] == "typer" for u in used):
                found.append(name)
    assert found and all(any(fnmatch.fnmatchcase(n, p) for p in commands) for n in found)


def test_the_runner_builds_no_report_and_reads_no_measure():
    """The runner is told when to stop (sim.runner.stopping); it never reads the reports, the
    measures or the lab."""
    edges = graph()
    reached = {name: sorted(w for w in targets
                            if w.startswith(("sim.report", "sim.measures", "sim.lab")))
               for name, targets in edges.items() if name.startswith("sim.runner")}  # fmt: skip
    assert {name: found for name, found in reached.items() if found} == {}


def test_a_games_rules_never_import_its_players_nor_its_plug_in():
    """No module of a game (sim/games/<game>/) but its plugin.py imports strategies/ or the
    plug-in object: the lab hands the game's loop ready players."""
    assert games() == ["alien_raid", "guardians", "space_invaders"]
    edges = graph()
    crossing = {
        name: sorted(w for w in targets
                     if w.split(".")[0] == "strategies" or w.endswith(".plugin"))
        for name, targets in edges.items()
        if name.startswith("sim.games.") and not name.endswith(".plugin")
    }  # fmt: skip
    assert {name: found for name, found in crossing.items() if found} == {}


def test_the_checks_see_what_they_look_for():
    """The graph holds the imports the tests above rely on: one inside a function, one for
    type checking only, one by a "module:function" string, the players a plug-in names by
    the layout; a circle and an upward import are found when there is one."""
    edges = graph()
    assert "sim.experiment.reading" in edges["sim.experiment.checks"]
    assert "sim.plugins.base" in edges["sim.experiment.reading"]  # under TYPE_CHECKING
    assert (
        "sim.games.guardians.report.first_player" in edges["sim.games.guardians.plugin"]
    )  # a "module:function" string
    assert "strategies.guardians.ladder" in edges["sim.games.guardians.plugin"]  # the layout
    assert "sim.games.space_invaders.chunks" in edges["sim.games.space_invaders.plugin"]
    assert "sim.games.guardians.measures" in edges["sim.games.guardians.plugin"]  # lazy(...)
    assert "sim.runner.preload" not in edges["sim.runner.pool"]  # run as `-m`, not imported
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert upward({"sim.results": {"sim.runner.execute"}, "sim.cli": {"sim.lab"}}) == [
        "sim.results (results) -> sim.runner.execute (runner)"
    ]
    assert [
        floor_of(n)
        for n in (
            "sim.cli",
            "sim.plugins.base",
            "sim.games.guardians.engine",
            "strategies.guardians.greedy",
            "sim.errors",
        )
    ] == [0, 8, 4, 4, 9]
