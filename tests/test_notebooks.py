"""The example notebooks (examples/notebooks/) are stored without outputs and run from top to
bottom, on a kernel of this very Python (the project's venv), in a fresh folder."""

from __future__ import annotations

import shutil
import sys
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
    NotebookClient(notebook, km=manager, timeout=600,
                   resources={"metadata": {"path": str(folder)}}).execute()  # fmt: skip
    return notebook


def test_there_is_a_walk_through():
    assert [p.name for p in NOTEBOOKS] == ["walkthrough.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_stored_without_outputs(path):
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source


def _shown(cell: nbformat.NotebookNode, kind: str) -> list[str]:
    return [o["data"][kind] for o in cell.outputs if kind in o.get("data", {})]


def test_the_walk_through_runs(tmp_path):
    path = next(p for p in NOTEBOOKS if p.stem == "walkthrough")
    shutil.copy(path, tmp_path / path.name)
    cells = [c for c in execute(tmp_path / path.name, tmp_path).cells if c.cell_type == "code"]
    by_source = {c.source.splitlines()[-1]: c for c in cells}
    folder = "".join(_shown(by_source["results"], "text/html"))
    assert "Results walkthrough" in folder and "4,500 in 3 arm(s)" in folder
    assert '<td style="text-align:left">yes</td>' in folder  # complete
    for figure in ('results.figure("missile_pricing")',
                   'results.figure("first_player_advantage")'):  # fmt: skip
        assert _shown(by_source[figure], "image/png"), figure  # drawn into the cell
    for cell in cells:
        assert not [o for o in cell.outputs if o["output_type"] == "error"], cell.source
    assert (tmp_path / "results" / "walkthrough" / "report" / "index.html").is_file()
