"""Schemathesis over every operation of the app's OpenAPI schema, and tenant isolation over every id route.

Pass 1 (``test_every_operation_conforms_to_the_schema``): one resource of every kind is seeded
and a happy-path tour calls the state-changing routes with valid requests (``seed.py``); then,
for each operation, schema-valid and schema-invalid requests are generated and sent as tenant
*alpha*, half of them aimed at the real resources. Every response must be free of 5xx, have a
documented status, and a content type and body that match the schema — error bodies
included, which are problem+json.

Pass 2 (``test_another_tenants_ids_are_not_found``): every operation with an id in its path,
called by tenant *beta* with alpha's real ids, answers 404 problem+json; beta's lists are empty.

Both passes enumerate operations from the live schema, so new routes are covered without
editing this file (a new collection without a seed fails, naming it). Each runs on a fresh
database, once on SQLite and once on PostgreSQL (``FAIRACQ_TEST_DATABASE_URL``).
"""

from __future__ import annotations

import json
import os
import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import checks as core_checks
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi import checks as openapi_checks
from threadpoolctl import threadpool_limits

from tests.contract.seed import ADMIN_PREFIX, happy_path_tour, is_collection, seed_resources
from tests.factories import ApiClient, make_key

BASE_URL = "http://testserver"
# Cases per operation and generation mode: ~40 operations x 2 modes x 20 cases take 25-45 s
# per database (SQLite or PostgreSQL) on a shared 2-core machine. Set FAIRACQ_CONTRACT_EXAMPLES
# for a deeper run, which also draws new cases each time instead of the same ones.
DEEP = os.environ.get("FAIRACQ_CONTRACT_EXAMPLES")
MAX_EXAMPLES = int(DEEP or 20)
CHECKS = [
    core_checks.not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_headers_conformance,
    openapi_checks.response_schema_conformance,
]
PROBLEM = "application/problem+json"
GENERATION = settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    database=None,
    derandomize=not DEEP,  # the same cases on every run: a failure here is reproducible, not flaky
    phases=[Phase.explicit, Phase.generate],  # no shrinking: the failure report carries a curl line
    # These judge the generator (big bodies, slow cases), not the API under test.
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                           HealthCheck.large_base_example],
)


@pytest.fixture(autouse=True)
def _one_blas_thread():
    """Small matrices on a shared 2-core machine: BLAS threads would only contend."""
    with threadpool_limits(1):
        yield


@pytest.fixture
def world(app, sessions, settings) -> Iterator[dict[str, Any]]:
    """A running app with two tenants; alpha owns one resource of every kind."""
    alpha, beta = make_key(sessions, "alpha"), make_key(sessions, "beta")
    with TestClient(app, raise_server_exceptions=False) as raw:
        ids, responses = seed_resources(ApiClient(raw, alpha), sessions, settings)
        schema = schemathesis.openapi.from_dict(raw.get("/openapi.json").json())
        yield {"raw": raw, "alpha": alpha, "beta": beta, "ids": ids, "seed_responses": responses,
               "schema": schema, "operations": _operations(schema)}


def _operations(schema: Any) -> list[Any]:
    operations = []
    for result in schema.get_all_operations():
        operations.append(result.ok())  # an invalid operation raises here, naming itself
    assert operations, "the schema has no operations"
    return operations


def _collection(path: str, parameter: str) -> str:
    return path.split("{" + parameter + "}")[0].rstrip("/")


def _real_id(ids: dict[str, str], path: str, parameter: str) -> str:
    collection = _collection(path, parameter)
    assert collection in ids, f"no seeded resource for {collection} (path parameter {parameter}): add one to seed.py"
    return ids[collection]


def _is_uuid(value: Any) -> bool:
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True


def _aim(case: Any, ids: dict[str, str]) -> None:
    """Point a case's well-formed ids at real resources: path ids, and dataset ids in the body."""
    for name, value in (case.path_parameters or {}).items():
        if _is_uuid(value):
            case.path_parameters[name] = _real_id(ids, case.operation.path, name)
    if isinstance(case.body, dict):
        for name, value in case.body.items():
            if name.endswith("dataset_id") and _is_uuid(value):
                case.body[name] = ids["/v1/datasets"]


def _form_text(value: Any) -> str | bytes:
    """A generated form value as the text a client would send (a number or null as its JSON)."""
    return value if isinstance(value, str | bytes) else json.dumps(value)


def _form_parts(files: Any) -> list[tuple[str, Any]]:
    """Schemathesis's multipart parts with every non-file value as text (httpx cannot render others)."""
    parts = files.items() if isinstance(files, dict) else files or []
    return [(name, (None, _form_text(part[1])) if isinstance(part, tuple) and part[0] is None else part)
            for name, part in parts]


def _send(raw: TestClient, case: Any, key: str) -> httpx.Response:
    kwargs = dict(case.as_transport_kwargs(base_url=BASE_URL))
    assert not kwargs.pop("cookies", None), "the API documents no cookies"
    headers = {**kwargs.pop("headers", {}), "Authorization": f"Bearer {key}"}
    body = {}
    if "json" in kwargs:
        body["json"] = kwargs.pop("json")
    if "files" in kwargs:  # a multipart form (a CSV upload): its file parts, and its other fields as data
        body["files"] = _form_parts(kwargs.pop("files"))
        if isinstance(kwargs.get("data"), dict):
            body["data"] = {name: _form_text(value) for name, value in kwargs.pop("data").items()}
    if "data" in kwargs:
        body["content"] = kwargs.pop("data")
    method, url, params = kwargs.pop("method"), kwargs.pop("url"), kwargs.pop("params", None)
    assert not kwargs, f"unexpected transport arguments {sorted(kwargs)}"
    return raw.request(method, url, headers=headers, params=params, **body)


def _conforms(schema: Any, response: httpx.Response) -> str:
    """Validate a response to a hand-made request as the generated ones are; return its operation."""
    request = response.request
    operation = schema.find_operation_by_path(request.method, request.url.path)
    assert operation is not None, f"{request.method} {request.url.path} is not in the schema"
    path_parameters = {
        template[1:-1]: actual
        for template, actual in zip(operation.path.split("/"), request.url.path.split("/"), strict=True)
        if template.startswith("{")
    }
    operation.Case(path_parameters=path_parameters).validate_response(response, checks=CHECKS)
    return operation.label


def _takes_input(operation: Any) -> bool:
    raw = operation.definition.raw
    return bool(raw.get("parameters")) or "requestBody" in raw


def _fuzz(operation: Any, world: dict[str, Any], statuses: Counter) -> None:
    modes = [GenerationMode.POSITIVE] + ([GenerationMode.NEGATIVE] if _takes_input(operation) else [])
    for mode in modes:

        @GENERATION
        @given(case=operation.as_strategy(generation_mode=mode), aim=st.booleans())
        def check(case: Any, aim: bool) -> None:
            if aim:
                _aim(case, world["ids"])
            response = _send(world["raw"], case, world["alpha"])
            statuses[response.status_code] += 1
            case.validate_response(response, checks=CHECKS)

        check()


def test_every_operation_conforms_to_the_schema(world, subtests):
    seen: dict[str, Counter] = {}
    tour = happy_path_tour(ApiClient(world["raw"], world["alpha"]), world["ids"])
    for response in world["seed_responses"] + tour:
        label = _conforms(world["schema"], response)
        seen.setdefault(label, Counter())[response.status_code] += 1
    for operation in world["operations"]:
        statuses = seen.setdefault(operation.label, Counter())
        with subtests.test(msg=operation.label):
            _fuzz(operation, world, statuses)
    print(f"\n{len(seen)} operations, {sum(sum(c.values()) for c in seen.values())} requests")
    for label, statuses in seen.items():
        print(f"  {label}: {dict(sorted(statuses.items()))}")
    server_errors = {label: c for label, c in seen.items() if any(s >= 500 for s in c)}
    assert not server_errors


def _isolation_probe(operation: Any, world: dict[str, Any]) -> Counter:
    """Schema-valid requests by beta aimed at alpha's ids: each must be 404 (or 422 for a body the
    models refuse before the id is looked up); at least one must pass validation and be 404."""
    statuses: Counter = Counter()

    @GENERATION
    @given(case=operation.as_strategy(generation_mode=GenerationMode.POSITIVE))
    def probe(case: Any) -> None:
        for name in case.path_parameters:
            case.path_parameters[name] = _real_id(world["ids"], operation.path, name)
        response = _send(world["raw"], case, world["beta"])
        statuses[response.status_code] += 1
        assert response.status_code in (404, 422), f"{operation.label} as beta: {response.status_code} {response.text}"
        assert response.headers["content-type"] == PROBLEM

    probe()
    return statuses


def test_another_tenants_ids_are_not_found(world, subtests):
    raw, ids = world["raw"], world["ids"]
    owner = {"Authorization": f"Bearer {world['alpha']}"}

    def owners_view() -> dict[str, Any]:
        views = {c: raw.get(f"{c}/{i}", headers=owner) for c, i in ids.items()
                 if is_collection(c) and not c.startswith(ADMIN_PREFIX)}
        assert all(r.status_code == 200 for r in views.values()), views  # the ids are real: their owner reads them
        return {c: r.json() for c, r in views.items()}

    before = owners_view()
    # Admin routes answer plain keys 403 whatever the id; tests/api/test_api_keys.py keeps them within the tenant.
    operations = [op for op in world["operations"] if not op.path.startswith(ADMIN_PREFIX)]
    with_ids = [op for op in operations if "{" in op.path]
    lists = [op for op in operations
             if op.method.upper() == "GET" and op.path.startswith("/v1/") and "{" not in op.path]
    assert with_ids and lists
    checked: dict[str, Counter] = {}
    for operation in with_ids:
        with subtests.test(msg=operation.label):
            checked[operation.label] = statuses = _isolation_probe(operation, world)
            assert statuses[404] > 0, f"{operation.label}: no generated request passed validation: {statuses}"
    for operation in lists:
        with subtests.test(msg=operation.label):
            response = raw.get(operation.path, headers={"Authorization": f"Bearer {world['beta']}"})
            assert response.status_code == 200 and response.json()["items"] == [], response.text
            checked[operation.label] = Counter({200: 1})
    assert owners_view() == before, "beta's calls changed alpha's resources"
    print(f"\ntenant isolation: {len(with_ids)} id routes answer 404, {len(lists)} lists are empty")
    for label, statuses in checked.items():
        print(f"  {label}: {dict(sorted(statuses.items()))}")
    assert len(checked) == len(with_ids) + len(lists)
