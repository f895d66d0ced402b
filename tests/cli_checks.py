"""Running the command line in-process, and the one-error-line contract every refusal keeps:
exit code 2, one `error:` line, no traceback."""

from __future__ import annotations

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
