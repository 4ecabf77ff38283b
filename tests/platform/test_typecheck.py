"""``service/algorithms`` passes ``mypy --strict`` (configured in pyproject.toml's ``[tool.mypy]``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_algorithm_library_type_checks_strictly(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "mypy"), "service/algorithms"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
