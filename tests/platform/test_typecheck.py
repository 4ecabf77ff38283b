"""``service/`` type-checks: the algorithms under ``mypy --strict``, the rest as pyproject.toml's ``[tool.mypy]`` says.

The configured run checks all of ``service/`` (typed definitions, bodies checked, unused
``type: ignore`` comments and redundant casts refused, the pydantic plugin), strict on
``service.algorithms`` by a per-module override; the ``--strict`` run holds the library to
every strict flag, including those (such as implicit re-exports) that only apply globally.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _mypy(tmp_path: Path, *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy"), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_the_algorithm_library_type_checks_strictly(tmp_path):
    _mypy(tmp_path, "--strict", "service/algorithms")


@pytest.mark.slow
def test_the_service_type_checks(tmp_path):
    _mypy(tmp_path)
