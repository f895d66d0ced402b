"""The faults a long run meets (issue 42): a write refused by the operating system at every
write site in turn, each time one `error:` line naming what was being written, what is kept
and the fix, exit code 74, nothing stored lost or mixed, and the same command resuming to the
games (the report, the tune) an uninterrupted run gives.

WRITE_SITES is the table of every place the lab writes: what its fault says it was writing,
which files it writes (to tell its writes from the others), the scenario that meets it and
the exit code expected. Two checks keep it whole: every `writing(...)` / `write_atomic(...,
what=...)` in sim/ has its row (a new write site without one fails), and every write a
scenario makes belongs to a row (a write outside any site fails). The scenarios play the coin
race in this process, a few games each."""

from __future__ import annotations

import ast
import errno
import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from sim.faults import FAULT_EXIT, reason_of
from sim.storage import TABLES, complete_chunks
from tests.cli_checks import invoke
from tests.coin_race import TUNE, registered
from tests.fault_injection import Injector, files, injected, refused, uncovered_writes

pytestmark = pytest.mark.without_engines  # the coin race: no compiled engine

ROOT = Path(__file__).resolve().parents[1]
COIN = {"name": "coin", "game": "coin-race", "ruleset": "race", "players": 2,
        "seats": ["steady", "bold"], "rotate": True, "games": 40, "seed": 3,
        "sweep": {"race.length": [3, 5]}}  # fmt: skip
GAMES = 80  # 2 arms x 40
PART = re.compile(r"(^|/)(games|seats)/arm-\d+/\.?part-")


@dataclass(frozen=True)
class Site:
    what: str  # the fault's words: `cannot <verb> <what> (...)`
    writes: Callable[[str, str], bool]  # (operation, path below the scenario's folder)
    scenario: str | None  # where it is met (None: no cheap scenario, said why in `note`)
    also: tuple[str, ...] = ()  # other scenarios where its moments fail too
    verb: str = "write"
    says: str = ""  # what its line says (default: `cannot <verb> <what> (`)
    moments: tuple[int, ...] = (0,)  # which of its operations fail, one at a time (-1: last)
    exit: int = FAULT_EXIT  # 2: a check before any work; 0: a fault tolerated
    note: str = ""


def _named(*names: str) -> Callable[[str, str], bool]:
    return lambda op, path: any(re.search(rf"(^|/)\.?{re.escape(n)}(\.\d+\.tmp)?$", path)
                                for n in names)  # fmt: skip


def _folder(path: str) -> bool:
    """A folder a scenario's command names or a tune's candidate (t/trials/c-...)."""
    named = path in (".", "r", "t", "s", "rep")
    return named or re.fullmatch(r"t/trials(/c-\w+)?", path) is not None


CUT_PAGE = ".index.html.1.tmp"  # what a report stopped mid-write leaves


def _in_report(op: str, path: str) -> bool:
    return bool(re.match(r"(rep|t/report)(/|$)", path)) and not _earlier_report(op, path)


def _earlier_report(op: str, path: str) -> bool:
    return op == "unlink" and path.endswith("stale.csv")


WRITE_SITES: tuple[Site, ...] = (
    Site("the folder check", lambda op, p: op == "open" and (_folder(p)
         or os.path.basename(p).startswith("tmp")), "run", says="cannot write in", exit=2,
         note="sim.paths: each folder an option names is tried before any work (exit 2)"),
    Site("the results folder", lambda op, p: op == "mkdir" and p != "t" and _folder(p), "run",
         verb="create"),
    Site("the tune's folder", lambda op, p: op == "mkdir" and p == "t", "tune", verb="create"),
    Site("the folder's lock", lambda op, p: p.endswith(".lock") and op != "unlink", "run"),
    Site("the lock's release", lambda op, p: p.endswith(".lock") and op == "unlink", "run",
         exit=0, note="tolerated: the next run takes the lock file over"),
    Site("the manifest", _named("manifest.json"), "run", moments=(4, -1),
         note="at its last write the manifest cannot say why the run stopped: the lock does"),
    Site("the manifest's journal", lambda op, p: op != "unlink"
         and _named("manifest.journal")(op, p), "run", moments=(0, 9),
         note="one line a chunk; one the disk refuses is cut back to where the journal ended"),
    Site("the journal's removal", lambda op, p: op == "unlink"
         and _named("manifest.journal")(op, p), "run", moments=(-1,), exit=0,
         note="tolerated: a journal left is folded again, adding nothing the manifest lists"),
    Site("a results part", lambda op, p: op != "unlink" and (bool(PART.search(p))
         or op == "mkdir" and re.search(r"(games|seats)(/arm-\d+)?$", p) is not None), "run",
         moments=(12,)),
    Site("the temporary files and half-stored parts a stopped run left",
         lambda op, p: op == "unlink" and p in (f"r/{TEMPORARY}", f"r/{HALF}"), "resume",
         verb="delete"),
    Site("a damaged part", lambda op, p: op == "unlink" and "arm-001/part-0000000020-0000000030"
         in p, "resume", verb="delete"),
    Site("the temporary files a stopped write left",
         lambda op, p: op == "unlink" and p == f"rep/{CUT_PAGE}", "report", verb="delete"),
    Site("the report", _in_report, "report", moments=(3,), also=("new-report",)),
    Site("a file of the earlier report", _earlier_report, "report", verb="delete"),
    Site("the tune's journal", _named("study.journal"), "tune", moments=(5,)),
    Site("the tune's summary", _named("tune.json"), "tune", moments=(-1,)),
    Site("the recommended rules", _named("recommended.yaml"), "tune"),
    Site("the screen's summary", _named("screen.json"), "screen"),
    Site("the game's page", _named("game.html"), "page"),
    Site("the stored results (--fresh)", lambda op, p: op in ("unlink", "rmdir")
         and p.startswith("r/"), "fresh", verb="delete"),
    Site("the stored tune (--fresh)", lambda op, p: op in ("unlink", "rmdir")
         and p.startswith("t/"), "tune-fresh", verb="delete"),
    Site("the playtest fit's folder", lambda op, p: op == "mkdir" and p == "p", None,
         verb="create", note="sim.paths.make_folder, the results folder's code; a fit plays "
         "the lab's games first: test_a_playtest_fit_the_disk_refuses_its_answers"),
    Site("the playtest fit's answers", _named("fit.yaml", "fit.yaml.partial"), None,
         note="a fit plays the lab's games first: test_a_playtest_fit_the_disk_refuses_..."),
    Site("the playtest template", _named("template.csv"), None,
         note="one write: test_a_playtest_template_the_disk_refuses"),
    Site("the bench's figures", _named("results-coin-race.json"), None,
         note="the full `sim bench` takes minutes: test_the_bench_figures_a_full_disk_refuses"),
    Site("the sensitivity summary", lambda op, p: op != "unlink"
         and _named("sensitivity.json")(op, p), None,
         note="an analysis plays hundreds of points: test_the_sensitivity_summary_faults"),
    Site("the stored sensitivity analysis (--fresh)", lambda op, p: op == "unlink"
         and _named("sensitivity.json")(op, p), None, verb="delete",
         note="the same: test_the_sensitivity_summary_faults"),
)  # fmt: skip
ERRNOS = (errno.ENOSPC, errno.EROFS, errno.EACCES, errno.EIO, errno.ENOENT, errno.EDQUOT)
# the rows that are places in code (the others: the checks before any work, a tolerated fault)
CODE_SITES = {s.what for s in WRITE_SITES if s.exit == FAULT_EXIT}


@pytest.fixture(scope="module")
def coin_race():
    """The toy game registered in this process (the tests play it in-process)."""
    with registered() as game:
        yield game


# --- the scenarios: each plays its commands in a folder, from what `prepare` put there ------


def _inputs(base: Path) -> None:
    (base / "coin.yaml").write_text(yaml.safe_dump(COIN))
    (base / "tune.yaml").write_text(yaml.safe_dump(TUNE))


def _run_args(base: Path, *extra: str) -> list[str]:
    return ["run", str(base / "coin.yaml"), "--out", str(base / "r"), "-j", "1",
            "--chunk-size", "10", "--no-report", *extra]  # fmt: skip


def _tune_args(base: Path, *extra: str) -> list[str]:
    return ["tune", str(base / "tune.yaml"), "--out", str(base / "t"), "-j", "1", *extra]


@dataclass(frozen=True)
class Scenario:
    prepare: Callable[[Path, dict[str, Path]], None]  # (folder, reference folders)
    command: Callable[[Path], list[str]]


def _stored(base: Path, refs: dict[str, Path]) -> None:
    shutil.copytree(refs["run"] / "r", base / "r")


TEMPORARY = "games/arm-001/.part-0000000000-0000000010.parquet.1.tmp"
HALF = "seats/arm-001/part-0000000030-0000000040.parquet"  # its games part is missing
DAMAGED = "games/arm-001/part-0000000020-0000000030.parquet"


def _stopped(base: Path, refs: dict[str, Path]) -> None:
    """A stored run as a stop leaves it: a temporary file, a half-stored chunk and a damaged
    part (cut short, as by a full disk)."""
    _stored(base, refs)
    (base / "r" / TEMPORARY).write_bytes(b"cut")
    (base / "r" / HALF.replace("seats", "games")).unlink()
    damaged = base / "r" / DAMAGED
    damaged.write_bytes(damaged.read_bytes()[:-40])


def _reported(base: Path, refs: dict[str, Path]) -> None:
    _stored(base, refs)
    shutil.copytree(refs["report"] / "rep", base / "rep")
    (base / "rep" / "tables" / "stale.csv").write_text("from an earlier build")
    (base / "rep" / CUT_PAGE).write_text("<html><body>cut")
    with open(base / "rep" / ".report-files", "a") as f:
        f.write("tables/stale.csv\n")


SCENARIOS: dict[str, Scenario] = {
    "run": Scenario(lambda base, refs: None, _run_args),
    "resume": Scenario(_stopped, _run_args),
    "fresh": Scenario(_stored, lambda base: _run_args(base, "--fresh")),
    "report": Scenario(_reported, lambda base: ["report", str(base / "r"), "--out",
                                                str(base / "rep")]),  # fmt: skip
    "new-report": Scenario(_stored, lambda base: ["report", str(base / "r"), "--out",
                                                  str(base / "rep")]),  # fmt: skip
    "tune": Scenario(lambda base, refs: None, lambda base: _tune_args(base, "--no-report")),
    "tune-fresh": Scenario(lambda base, refs: shutil.copytree(refs["tune"] / "t", base / "t"),
                           lambda base: _tune_args(base, "--no-report", "--fresh")),
    "screen": Scenario(lambda base, refs: None,
                       lambda base: ["screen", str(base / "tune.yaml"), "--out",
                                     str(base / "s"), "-j", "1", "--no-report"]),
    "page": Scenario(lambda base, refs: None,
                     lambda base: ["play", "--game", "coin-race", "--seed", "3", "--html",
                                   str(base / "game.html")]),
}  # fmt: skip


def site_of(op: str, path: str) -> Site | None:
    """The row a write belongs to: the first whose files it is."""
    return next((site for site in WRITE_SITES if site.writes(op, path)), None)


# --- the references: every scenario's command, uninterrupted ---------------------------------


@pytest.fixture(scope="module")
def refs(coin_race, tmp_path_factory) -> dict[str, Path]:
    """The run, its report, the tune, the screen and the page, each played straight through
    (scenario -> its folder)."""
    base = tmp_path_factory.mktemp("reference")
    _inputs(base)
    for args in (
        _run_args(base),
        ["report", str(base / "r"), "--out", str(base / "rep")],
        *(SCENARIOS[name].command(base) for name in ("tune", "screen", "page")),
    ):
        done = invoke(*args)
        assert done.exit_code == 0, done.output
    return {name: base for name in (*SCENARIOS, "report")}


@pytest.fixture(scope="module")
def recorded(refs, tmp_path_factory) -> dict[str, list[tuple[str, str]]]:
    """Every scenario's writes, in order: (operation, path below its folder)."""
    out = {}
    for name, scenario in SCENARIOS.items():
        base = _prepared(tmp_path_factory.mktemp(name), name, refs)
        injector = Injector(str(base))
        with injected(injector):
            done = invoke(*scenario.command(base))
        assert done.exit_code == 0, done.output
        out[name] = [(op.kind, os.path.relpath(op.path, base)) for op in injector.ops]
    return out


def _prepared(base: Path, name: str, refs: dict[str, Path]) -> Path:
    _inputs(base)
    SCENARIOS[name].prepare(base, refs)
    return base


# --- the table is whole ----------------------------------------------------------------------


def _named_in_code() -> set[str]:
    """What every `writing(...)`, `write_atomic(..., what=...)` and `make_folder(...,
    what=...)` in sim/ says it writes (a module's string constant is read through)."""
    found = set()
    for path in sorted((ROOT / "sim").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign)
                     for t in n.targets if isinstance(t, ast.Name)
                     and isinstance(n.value, ast.Constant)}  # fmt: skip
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            if node.func.id == "writing" and node.args:
                found.add(_text(node.args[0], constants, path))
            elif node.func.id in ("write_atomic", "make_folder"):
                what = [k.value for k in node.keywords if k.arg == "what"]
                if what:
                    found.add(_text(what[0], constants, path))
    return found - {None}


def _text(node: ast.AST, constants: dict[str, object], path: Path) -> str | None:
    """The words of a site; None for a name handed through (write_atomic's own `what`, given
    by its callers, which are sites themselves)."""
    if isinstance(node, ast.Name) and node.id not in constants:
        return None
    value = node.value if isinstance(node, ast.Constant) else constants.get(getattr(node, "id", ""))
    assert isinstance(value, str), f"{path}: say what is written as a string ({ast.dump(node)})"
    return value


def test_every_write_site_in_the_code_has_its_row_and_every_row_its_site():
    in_code = _named_in_code()
    assert in_code - CODE_SITES == set(), "write sites without a row in WRITE_SITES"
    assert CODE_SITES - in_code == set(), "rows of WRITE_SITES no code writes"


# Writes no `writing(...)` covers, each with why it needs none: (file, function, call) -> why.
NOT_SITES = {
    ("sim/storage/lock.py", "_write", "os.pwrite"): "acquire calls it inside its writing()",
    ("sim/storage/lock.py", "record_stop", "os.pwrite"): "the last word: it says if it failed",
    ("sim/storage/lock.py", "release", ".unlink"): "a lock file left is taken over next time",
    ("sim/storage/journal.py", "remove", ".unlink"): "a journal left adds nothing when folded",
    ("sim/storage/lock.py", "holder", "os.open"): "opens to lock, writes nothing",
    ("sim/storage/remove.py", "_remove_if_empty", ".rmdir"): "inside remove_results' writing()",
    ("sim/storage/parts.py", "encode", "pq.write_table"): "into memory",
    ("sim/report/plots.py", "finish", ".savefig"): "into memory",
    ("sim/paths.py", "_probe", "tempfile.TemporaryFile"): "the check before any work (exit 2)",
    ("sim/compile_cache.py", "problem", ".mkdir"): "finds whether the cache can be written",
    ("sim/compile_cache.py", "problem", "tempfile.TemporaryFile"): "the same",
    ("sim/compile_cache.py", "_save_parsed_index", ".mkdir"): "a cache: parsed again if refused",
    ("sim/compile_cache.py", "_save_parsed_index", ".write_text"): "the same",
    ("sim/compile_cache.py", "_save_parsed_index", "os.replace"): "the same",
    ("sim/compile_cache.py", "_index_lock", "open"): "a lock beside a cache index, opened to "
    "lock (flock), never written; a refused open is a refused save: a warning, compiled in memory",
    ("sim/measures/core.py", "pooled", ".rename"): "a polars frame's columns, not a file",
    ("sim/report/data.py", "all_games", ".rename"): "the same",
    ("sim/tune/report_model.py", "_checks_table", ".rename"): "the same",
    ("sim/bench.py", "compile_times", "tempfile.TemporaryDirectory"): "the bench's scratch "
    "folders in the system's temporary folder, deleted after each measurement",
    ("sim/bench.py", "end_to_end", "tempfile.TemporaryDirectory"): "the same",
    ("sim/bench.py", "end_to_end", ".write_text"): "the same",
}  # fmt: skip


def test_every_write_in_the_code_is_a_write_site_or_says_why_not():
    """A write added without `writing(...)` (and a row above) fails here."""
    found = uncovered_writes(ROOT / "sim")
    assert found - NOT_SITES.keys() == set(), "writes outside writing(): wrap them, or say why"
    assert NOT_SITES.keys() - found == set(), "NOT_SITES rows the code no longer has"


def test_every_write_of_every_scenario_belongs_to_a_row(recorded):
    for name, ops in recorded.items():
        strays = [op for op in ops if site_of(*op) is None]
        assert strays == [], f"{name}: writes no row of WRITE_SITES names: {strays}"
    met = {site_of(*op).what for ops in recorded.values() for op in ops}
    for site in WRITE_SITES:
        if site.scenario is not None:
            assert site.what in met, f"no scenario writes through '{site.what}'"


# --- a fault at every site in turn --------------------------------------------------------------


FAULTS = [(site, scenario, moment) for site in WRITE_SITES if site.scenario
          for scenario in (site.scenario, *site.also) for moment in site.moments]  # fmt: skip


@pytest.mark.parametrize(("site", "scenario", "moment"), FAULTS,
                         ids=[f"{s.what} {n} {m}" for s, n, m in FAULTS])  # fmt: skip
def test_a_fault_at_each_write_site(site, scenario, moment, refs, recorded, tmp_path):
    ops = recorded[scenario]
    mine = [i for i, op in enumerate(ops) if site_of(*op) is site]
    at = mine[min(moment, len(mine) - 1)]
    code = _errno(FAULTS.index((site, scenario, moment)), ops[at][0])
    base = _prepared(tmp_path, scenario, refs)
    before = _intact_parts(base, refs)
    command = SCENARIOS[scenario].command(base)
    with injected(Injector(str(base), fail_at=at, code=code)) as injector:
        done = invoke(*command)
    assert (
        injector.failed is not None
        and site_of(injector.failed.kind, os.path.relpath(injector.failed.path, base)) is site
    )
    assert done.exit_code == site.exit, done.output
    assert "Traceback" not in done.output
    if site.exit:
        _says(site, scenario, code, done.output, base)
    _nothing_lost_or_mixed(base, refs, before, scenario, code)
    said = _recorded_stop(base / "r")
    again = invoke(*command)  # the fault mended: the same command
    assert again.exit_code == 0, again.output
    if said:  # the next run says why the last one stopped, not "killed"
        assert f"stopped: {said}" in again.output and "killed" not in again.output
    _as_uninterrupted(scenario, base, refs)
    assert list(base.rglob("*.tmp")) == []  # what the stopped writes left, cleaned up


def _recorded_stop(root: Path) -> str | None:
    """Why the run stopped, as its manifest or (when that could not be written) its lock file
    records it; None when no run had begun writing."""
    for name, read in (("manifest.json", lambda d: d["runs"][-1]),
                       (".lock", lambda d: d.get("stopped") or {})):  # fmt: skip
        path = root / name
        if path.is_file():
            entry = read(json.loads(path.read_text()))
            if entry.get("error"):
                assert entry["error"].startswith("cannot "), entry
                return entry["error"]
    return None


def _errno(row: int, kind: str) -> int:
    """The row's error, in turn through ERRNOS: the next one that can refuse `kind` (a full
    disk refuses no deletion)."""
    turn = ERRNOS[row % len(ERRNOS) :] + ERRNOS[: row % len(ERRNOS)]
    return next(code for code in turn if kind in refused(code))


def _says(site: Site, scenario: str, code: int, output: str, base: Path) -> None:
    """One `error:` line: what was written, why in words, what is kept, the fix."""
    (line,) = [x for x in output.splitlines() if x.startswith("error:")]
    assert (site.says or f"cannot {site.verb} {site.what} (") in line, line
    reason, remedy = reason_of(OSError(code, os.strerror(code)))
    if site.exit != FAULT_EXIT:  # a check before any work: the same words, nothing kept
        assert f": {reason}." in line, line
        return
    assert f": {reason}; kept: " in line and f"{remedy}, then run the same command" in line
    if scenario in ("run", "resume", "fresh"):
        stored = sum(b - a for chunks in complete_chunks(base / "r").values() for a, b in chunks)
        assert f"kept: {stored:,} of {GAMES:,} games stored" in line, line


def _intact_parts(base: Path, refs: dict[str, Path]) -> dict[str, bytes]:
    """The stored chunks' parts that are the reference's, byte for byte."""
    ref, out = files(refs["run"] / "r"), {}
    for arm, chunks in complete_chunks(base / "r").items() if (base / "r").is_dir() else ():
        for start, stop in chunks:
            rels = [f"{t}/arm-{arm:03d}/part-{start:010d}-{stop:010d}.parquet" for t in TABLES]
            if all((base / "r" / rel).read_bytes() == ref[rel] for rel in rels):
                out.update({rel: ref[rel] for rel in rels})
    return out


def _nothing_lost_or_mixed(base: Path, refs: dict[str, Path], before: dict[str, bytes],
                           scenario: str, code: int) -> None:  # fmt: skip
    """No temporary file left by a write that failed; every stored part of `r/` is the
    reference's (no game mixed in); every part intact before the fault is still there (but
    with --fresh, which deletes them)."""
    if "unlink" not in refused(code):  # the write that failed deleted its temporary file
        assert list(base.rglob(f"*.{os.getpid()}.tmp")) == []
    if (base / "r").is_dir():
        ref = files(refs["run"] / "r")
        for arm, chunks in complete_chunks(base / "r").items():
            for start, stop in chunks:
                for table in ("games", "seats"):
                    rel = f"{table}/arm-{arm:03d}/part-{start:010d}-{stop:010d}.parquet"
                    if rel != DAMAGED:  # found and played again on resume
                        assert (base / "r" / rel).read_bytes() == ref[rel], rel
    if not scenario.endswith("fresh"):
        after = files(base / "r")
        assert [rel for rel, data in before.items() if after.get(rel) != data] == []


def _as_uninterrupted(scenario: str, base: Path, refs: dict[str, Path]) -> None:
    """What the command leaves once resumed is what an uninterrupted one leaves."""
    ref = refs[scenario]
    if scenario in ("run", "resume", "fresh"):
        assert _parts(base / "r") == _parts(ref / "r")
    elif scenario.endswith("report"):
        assert _report(base / "rep", base, ref) == _report(ref / "rep", ref)
    elif scenario in ("tune", "tune-fresh"):
        assert _tuned(base / "t") == _tuned(ref / "t")
    elif scenario == "screen":
        assert _screened(base / "s") == _screened(ref / "s")
    else:
        assert (base / "game.html").read_bytes() == (ref / "game.html").read_bytes()


def _parts(root: Path) -> dict[str, bytes]:
    return {rel: data for rel, data in files(root).items() if PART.search(rel)}


BUILT = re.compile(rb"Built \d{4}-\d\d-\d\d \d\d:\d\d UTC")


def _report(folder: Path, *bases: Path) -> dict[str, bytes]:
    """The report's files, the folders it was built from written as BASE and the minute it
    was built as WHEN (a loaded machine rebuilds it minutes after the reference)."""
    out = {}
    for rel in (folder / ".report-files").read_text().split():
        data = (folder / rel).read_bytes()
        for base in bases:
            data = data.replace(str(base).encode(), b"BASE")
        out[rel] = BUILT.sub(b"Built WHEN", data)
    return out


def _tuned(folder: Path) -> tuple:
    summary = json.loads((folder / "tune.json").read_text())
    return (
        summary["recommended"],
        summary["confirmed"],
        yaml.safe_load((folder / "recommended.yaml").read_text()),
        _parts(folder / "trials"),
    )


def _screened(folder: Path) -> tuple:
    summary = json.loads((folder / "screen.json").read_text())
    return summary["rows"], _parts(folder)


def test_a_results_folder_removed_under_the_run_is_not_made_again(coin_race, refs, tmp_path):
    """The folder deleted while the run plays: the run stops at its next chunk, saying the
    folder is gone (it would otherwise make it again, holding only the chunks that follow),
    and the same run starts over to the same games."""
    from sim.experiment import parse_experiment
    from sim.faults import WriteFault
    from sim.runner import run

    out, stored = tmp_path / "r", []

    def remove(result) -> None:  # noqa: ANN001
        stored.append(result)
        if len(stored) == 3:
            shutil.rmtree(out)

    with pytest.raises(WriteFault, match="the folder is gone") as caught:
        run(parse_experiment(COIN), out=out, jobs=1, chunk_size=10, progress=False,
            on_chunk=remove)  # fmt: skip
    assert f"kept: 0 of {GAMES} games stored" in str(caught.value) and not out.exists()
    run(parse_experiment(COIN), out=out, jobs=1, chunk_size=10, progress=False)
    assert _parts(out) == _parts(refs["run"] / "r")
