"""The example notebooks (examples/notebooks/) are stored without outputs and run from top to
bottom, on a kernel of this very Python (the project's venv), in a fresh folder."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import nbformat
import pytest
from ipykernel.kernelspec import install
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "examples" / "notebooks").glob("*.ipynb"))
KERNEL = "balance-lab-tests"


def execute(path: Path, folder: Path) -> nbformat.NotebookNode:
    """The notebook at `path`, run in `folder` on a kernel of sys.executable."""
    prefix = folder / ".kernel"
    install(kernel_name=KERNEL, prefix=str(prefix))  # a kernelspec whose argv is sys.executable
    specs = KernelSpecManager(kernel_dirs=[str(prefix / "share" / "jupyter" / "kernels")])
    assert specs.get_kernel_spec(KERNEL).argv[0] == sys.executable
    manager = KernelManager(kernel_name=KERNEL, kernel_spec_manager=specs, transport="ipc",
                            ip=str(folder / ".kernel" / "ipc"))  # fmt: skip
    notebook = nbformat.read(path, as_version=4)
    with _one_core():  # the kernel inherits it
        NotebookClient(notebook, km=manager, timeout=600,
                       resources={"metadata": {"path": str(folder)}}).execute()  # fmt: skip
    return notebook


@contextmanager
def _one_core() -> Iterator[None]:
    """This process (and the processes it starts meanwhile) on one of its cores: the kernel's
    runs then play in the kernel (one worker, the default on one core) instead of starting a
    pool of worker processes for each run, which cost more than the notebook's few thousand
    games (a run's results are the same for any number of workers: tests/test_runner.py)."""
    if not hasattr(os, "sched_setaffinity"):
        yield
        return
    cores = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cores)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, cores)


def test_there_is_a_walk_through():
    assert [p.name for p in NOTEBOOKS] == ["walkthrough.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_stored_without_outputs(path):
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source


def _shown(cell: nbformat.NotebookNode, kind: str) -> str:
    return "".join(o["data"][kind] for o in cell.outputs if kind in o.get("data", {}))


def test_the_walk_through_runs(tmp_path):
    """It runs without an error, and every table, number and figure it promises is shown."""
    path = next(p for p in NOTEBOOKS if p.stem == "walkthrough")
    shutil.copy(path, tmp_path / path.name)
    cells = [c for c in execute(tmp_path / path.name, tmp_path).cells if c.cell_type == "code"]

    def cell(start: str) -> nbformat.NotebookNode:
        (found,) = [c for c in cells if c.source.startswith(start)]
        return found

    for each in cells:
        assert not [o for o in each.outputs if o["output_type"] == "error"], each.source
        assert "NaN" not in _shown(each, "text/plain"), each.source  # every number is there
    folder = _shown(cell("results = lab.run("), "text/html")
    assert "Results walkthrough" in folder and "4,500 in 3 arm(s)" in folder
    assert '<td style="text-align:left">yes</td>' in folder  # complete
    by_polars = _shown(cell("games = results.games()"), "text/plain")
    assert "shape: (3, 5)" in by_polars and by_polars.count(" 1500 ") == 3, by_polars
    by_pandas = _shown(cell("seats = results.seats(pandas=True)"), "text/plain")
    for word in ("club(missile_at=16)", "cheap", "dear", "printed"):
        assert word in by_pandas, by_pandas
    measures = _shown(cell("results.measures("), "text/html")
    for name in ("uplift.club(missile_at=16)", "seat_advantage.0", "raid_rate"):
        assert measures.count(f"<td>&quot;{name}&quot;</td>") == 3, name  # one at each arm
    assert "shape: (9, 9)" in measures and "null" not in measures  # value, low, high, se, n
    compared = _shown(cell("results.compare("), "text/plain")
    for name in ("uplift.club(missile_at=16)", "raid_rate", "lead_changes"):
        assert name in compared, compared
    for figure in ("missile_pricing", "first_player_advantage"):
        assert _shown(cell(f'results.figure("{figure}")'), "image/png"), figure  # drawn inline
    assert (tmp_path / "results" / "walkthrough" / "report" / "index.html").is_file()
    fitted = _shown(cell("from pathlib import Path"), "text/html")  # the playtest fit
    assert "Playtest fit" in fitted and "newcomers (30 games)" in fitted, fitted
    facts = _shown(cell("fitted.facts()"), "text/html")
    assert "turns" in facts and "mean_turns" in facts, facts
    assert _shown(cell('fitted.figure("playtest_newcomers_likelihood")'), "image/png")
    levels = _shown(cell("levels = lab.experiment("), "text/html")
    assert "your group newcomers (fitted from 30 games)" in levels, levels
    assert levels.count("raid_rate") == 3, levels  # at novice, casual and the group's level
