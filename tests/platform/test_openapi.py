"""The committed ``openapi/openapi.json`` is current; operation ids and tags are readable."""

from __future__ import annotations

import json
import re
from pathlib import Path

from service.openapi import openapi_document

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def test_committed_spec_is_current():
    current = openapi_document()
    committed = json.loads(SPEC_PATH.read_text())
    assert committed == json.loads(json.dumps(current)), (
        "openapi/openapi.json is stale: run `python -m service export-openapi` and commit it"
    )


def test_every_operation_has_a_snake_case_id_and_one_tag():
    seen = set()
    for path, methods in openapi_document()["paths"].items():
        for method, operation in methods.items():
            op_id = operation["operationId"]
            assert re.fullmatch(r"[a-z][a-z0-9_]*", op_id), (path, method, op_id)
            assert op_id not in seen, f"duplicate operationId {op_id}"
            seen.add(op_id)
            assert len(operation.get("tags", [])) == 1, (path, method)


def test_all_v1_paths_are_under_v1():
    for path in openapi_document()["paths"]:
        assert path.startswith("/v1/") or path in ("/healthz", "/readyz", "/metrics"), path
