"""``service/algorithms`` is a pure library: it imports no web, database or service code."""

from __future__ import annotations

import ast
from pathlib import Path

ALGORITHMS = Path(__file__).resolve().parents[2] / "service" / "algorithms"
ALLOWED_SERVICE_PREFIX = "service.algorithms"
FORBIDDEN_ROOTS = {"fastapi", "starlette", "sqlalchemy", "alembic", "pydantic", "uvicorn", "httpx",
                   "pickle", "joblib", "requests"}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_algorithms_import_only_numeric_libraries():
    offenders = []
    for path in sorted(ALGORITHMS.rglob("*.py")):
        for name in _imports(path):
            root = name.split(".")[0]
            if root in FORBIDDEN_ROOTS or (root == "service" and not name.startswith(ALLOWED_SERVICE_PREFIX)):
                offenders.append(f"{path.relative_to(ALGORITHMS)} imports {name}")
    assert offenders == []


def test_the_checker_catches_a_forbidden_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from sqlalchemy import select\nimport service.db\n")
    assert _imports(bad) == ["sqlalchemy", "service.db"]


SERVICE = ALGORITHMS.parent
MODULE_LINES = 300  # every module of service/ stays under this (a newcomer reads one in a sitting)


def test_every_service_module_is_under_300_lines():
    long = {str(path.relative_to(SERVICE)): n for path in sorted(SERVICE.rglob("*.py"))
            if (n := len(path.read_text().splitlines())) >= MODULE_LINES}
    assert long == {}
