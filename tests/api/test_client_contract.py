"""The contract generated clients rely on (issue 15), checked from the app's own OpenAPI document.

* every request body refuses an unknown field with a 422 naming it (one request per operation);
* every JSON-only POST answers a non-JSON body with 415;
* cancelling a finished job is a 409 that gives the job's status;
* the document declares the bearer scheme, ``Idempotency-Key`` and the response headers.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from service.app import create_app
from service.settings import Settings
from tests.factories import run_queued_jobs

UNKNOWN = "zz_not_a_field"
PROBLEM = "application/problem+json"
FORM = "application/x-www-form-urlencoded"


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return create_app(Settings(database_url="sqlite://")).openapi()


def _operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, op) for path, ops in document["paths"].items() for method, op in ops.items()]


def _url(path: str) -> str:
    """The path with a random id in every parameter: a body is validated before any lookup."""
    while "{" in path:
        start, end = path.index("{"), path.index("}")
        path = path[:start] + str(uuid.uuid4()) + path[end + 1:]
    return path


def _body_operations(document: dict[str, Any], media: str) -> list[tuple[str, str]]:
    return [(path, method) for path, method, op in _operations(document)
            if media in op.get("requestBody", {}).get("content", {})]


def test_every_request_body_schema_forbids_unknown_fields(document):
    """Every object of every request body (not a map) says additionalProperties: false."""
    schemas = document["components"]["schemas"]
    seen: set[str] = set()
    loose = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item, where)
        elif isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                name = ref.rsplit("/", 1)[-1]
                if name not in seen:
                    seen.add(name)
                    walk(schemas[name], name)
            if "properties" in node and node.get("additionalProperties") is not False:
                loose.append(where)
            for value in node.values():
                walk(value, where)

    for path, method, op in _operations(document):
        walk(op.get("requestBody"), f"{method.upper()} {path}")
    assert len(seen) >= 30 and loose == []


def test_an_unknown_field_is_422_naming_it_on_every_operation(client, document):
    operations = _body_operations(document, "application/json")
    assert len(operations) >= 18  # every body but the multipart CSV form is JSON
    for path, method in operations:
        # A body that is one of several kinds (a tagged union) names its kind, else that is the error.
        body = {UNKNOWN: 1, **_a_kind(document, path, method)}
        response = client.request(method.upper(), _url(path), json=body)
        assert response.status_code == 422, (path, response.text)
        assert response.headers["content-type"] == PROBLEM
        errors = response.json()["errors"]
        assert {"loc": ["body", UNKNOWN], "msg": "Extra inputs are not permitted"} in errors, (path, errors)


def _a_kind(document: dict[str, Any], path: str, method: str) -> dict[str, str]:
    """``{discriminator: its first value}`` when the operation's JSON body is a tagged union, else ``{}``."""
    schema = document["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    if "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    tagged = schema.get("discriminator")
    return {} if tagged is None else {tagged["propertyName"]: next(iter(tagged["mapping"]))}


def test_a_tagged_body_names_its_kind_field_and_the_client_s_own_paths(client):
    response = client.post("/v1/simulations", json={UNKNOWN: 1})
    assert response.status_code == 422
    assert response.json()["errors"] == [{"loc": ["body", "decision_type"], "msg": "Field required"}]
    response = client.post("/v1/simulations", json={"decision_type": "crystal_ball"})
    assert response.json()["errors"][0]["loc"] == ["body", "decision_type"]
    assert "'group_sampler'" in response.json()["errors"][0]["msg"]
    body = {"decision_type": "partition_bandit", "policies": [{"policy": "random", "alph": 1}], UNKNOWN: 1}
    locs = [e["loc"] for e in client.post("/v1/simulations", json=body).json()["errors"]]
    # pydantic's paths hold the union tags (body.partition_bandit.policies.0.random.alph); the client's do not
    assert ["body", UNKNOWN] in locs and ["body", "policies", 0, "alph"] in locs, locs


def test_a_misspelt_seed_or_labels_is_refused_and_nothing_is_stored(client):
    sampler = {"groups": ["a", "b"], "strategy": "aopt", "budget": 10, "sead": 7}
    response = client.post("/v1/group-samplers", json=sampler)
    assert response.status_code == 422 and response.json()["errors"] == [
        {"loc": ["body", "sead"], "msg": "Extra inputs are not permitted"}]
    response = client.post("/v1/datasets", json={"features": [[1.0], [2.0]], "lables": [0, 1]})
    assert response.status_code == 422 and response.json()["errors"][0]["loc"] == ["body", "lables"]
    assert client.get("/v1/group-samplers").json()["items"] == []
    assert client.get("/v1/datasets").json()["items"] == []


def test_unknown_fields_inside_raw_bodies_are_refused(client):
    candidates = {"candidates": [{"id": "a", "features": [1.0]}, {"id": "b", "features": [2.0], "grup": "x"}]}
    response = client.post(f"/v1/balanced-filters/{uuid.uuid4()}/decisions", json=candidates)
    assert response.status_code == 422
    assert response.json()["errors"] == [{"loc": ["body", "candidates", 1, "grup"],
                                          "msg": "Extra inputs are not permitted"}]
    form = {"file": ("d.csv", b"x,g\n1,a\n2,b\n", "text/csv")}
    response = client.post("/v1/datasets", files=form, data={"group_colum": "g"})
    assert response.status_code == 422 and response.json()["errors"][0]["loc"] == ["body", "group_colum"]


def test_a_non_json_body_is_415_on_every_json_post(client, document):
    operations = [(p, m) for p, m in _body_operations(document, "application/json") if m == "post"]
    assert len(operations) >= 18  # every body but the multipart CSV form is JSON
    for path, method in operations:
        response = client.post(_url(path), content=b"a=1", headers={"content-type": FORM})
        if path == "/v1/datasets":  # JSON, a multipart form or CSV; a form is none of them
            assert response.status_code == 415, response.text
            continue
        assert response.status_code == 415, (path, response.text)
        body = response.json()
        assert response.headers["content-type"] == PROBLEM and FORM in body["detail"]
        assert "415" in document["paths"][path][method]["responses"]


def test_json_with_a_charset_or_a_json_suffix_is_json(client):
    for media in ("application/json; charset=utf-8", "application/vnd.fairacq+json"):
        response = client.post("/v1/group-samplers", content=b'{"groups": ["a", "b"], "strategy": "aopt", '
                               b'"budget": 10}', headers={"content-type": media})
        assert response.status_code == 201, response.text


def test_csv_as_a_multipart_form_and_as_a_raw_body_give_the_same_dataset(client):
    csv = b"x,y,g\n1.5,0,a\n2.5,1,b\n3.5,1,a\n"
    form = client.post("/v1/datasets", files={"file": ("d.csv", csv, "text/csv")},
                       data={"name": "form", "group_column": "g", "label_column": "y"})
    raw = client.post("/v1/datasets?name=raw&group_column=g&label_column=y", content=csv,
                      headers={"content-type": "text/csv"})
    assert form.status_code == raw.status_code == 201, (form.text, raw.text)
    a, b = form.json(), raw.json()
    assert (a["name"], b["name"]) == ("form", "raw")
    assert (a["n_rows"], a["feature_names"], a["group_values"], a["label_values"]) == (3, ["x"], ["a", "b"], [0, 1])
    assert {k: v for k, v in a.items() if k not in ("id", "name", "created_at")} == {
        k: v for k, v in b.items() if k not in ("id", "name", "created_at")}
    missing = client.post("/v1/datasets", files={"other": ("d.csv", csv, "text/csv")})
    assert missing.status_code == 422 and missing.json()["errors"][0]["loc"] == ["body", "other"]
    no_file = client.post("/v1/datasets", files={"name": (None, b"n")})
    assert no_file.status_code == 422 and no_file.json()["errors"][0]["loc"] == ["body", "file"]


def test_cancelling_a_finished_job_is_409_with_its_status(client, sessions, settings):
    created = client.post("/v1/fair-regressions", json={
        "data": {"features": [[0.1], [0.4], [0.6], [0.9]], "groups": ["a", "b", "a", "b"],
                 "labels": [0.0, 1.0, 0.0, 1.0]},
        "constraint": {"type": "statistical_parity", "slack": 0.05}})
    assert created.status_code == 202, created.text
    job_id = created.json()["job_id"]
    run_queued_jobs(sessions, settings)
    assert client.get(f"/v1/jobs/{job_id}").json()["status"] == "succeeded"
    response = client.post(f"/v1/jobs/{job_id}/cancel")
    assert response.status_code == 409 and response.headers["content-type"] == PROBLEM
    body = response.json()
    assert body["job_status"] == "succeeded" and "already succeeded" in body["detail"]
    assert client.get(f"/v1/jobs/{job_id}").json()["status"] == "succeeded"


def test_the_document_declares_auth_idempotency_and_headers(document):
    assert document["components"]["securitySchemes"] == {"bearer": {
        "type": "http", "scheme": "bearer", "description": document["components"]["securitySchemes"]["bearer"][
            "description"]}}
    for path, method, op in _operations(document):
        if not path.startswith("/v1/"):
            continue
        assert op["security"] == [{"bearer": []}], path
        keyed = [p for p in op.get("parameters", []) if p["name"] == "Idempotency-Key"]
        honoured = method == "post" and path not in ("/v1/fairness-metrics", "/v1/sampling-probabilities") and \
            not path.endswith("/predictions")
        assert len(keyed) == int(honoured), (method, path)
        for status, response in op["responses"].items():
            headers = response.get("headers", {})
            if status in ("201", "202"):
                assert "Location" in headers, (method, path, status)
            if honoured and status.startswith("2"):
                assert "Idempotent-Replayed" in headers, (method, path, status)
    sampler = document["paths"]["/v1/group-samplers/{sampler_id}"]["get"]["responses"]["200"]
    assert "ETag" in sampler["headers"]
    statuses = document["components"]["schemas"]
    assert statuses["SessionStatus"]["enum"] == ["queued", "running", "ready", "done", "failed", "cancelled"]
    assert statuses["JobStatus"]["enum"] == ["queued", "running", "succeeded", "failed", "cancelled"]
    assert statuses["GroupSamplerOut"]["properties"]["status"]["$ref"] == "#/components/schemas/SessionStatus"
    assert statuses["JobOut"]["properties"]["status"]["$ref"] == "#/components/schemas/JobStatus"
