"""Running the command line in-process, and the one-error-line contract every refusal keeps:
exit code 2, one `error:` line, no traceback."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from sim.cli import app


def invoke(*args: str):
    return CliRunner().invoke(app, list(args))


def one_error_line(result) -> str:
    """The command failed with exit code 2 and one `error:` line, no traceback; that line."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.output
    return errors[0]


def run_experiment(folder: Path, text: str) -> Path:
    """`sim run` an experiment written from `text` into `folder` (results/ and report/ there,
    one worker); the folder."""
    path = folder / "experiment.yaml"
    path.write_text(text)
    result = invoke("run", str(path), "--out", str(folder / "results"), "-j", "1",
                    "--report-dir", str(folder / "report"))  # fmt: skip
    assert result.exit_code == 0, result.output
    return folder
