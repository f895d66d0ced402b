"""What a fresh interpreter imports to do something: for the tests that keep the plug-in
objects and the reports light (no numba, no engine, no strategies)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def loaded_after(code: str, env: dict[str, str] | None = None) -> list[str]:
    """Every module loaded once `code` has run in a new interpreter (from the repository, in
    the environment `env`)."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, env=env)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])
