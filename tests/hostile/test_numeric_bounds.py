"""Numbers a store cannot hold are refused with 422 before anything is stored (issue 13, items 3 and 7).

Every integer of a request has bounds that fit its storage (int64 at most), every number is
finite, and paging cursors are bounded the same way. The schema-driven tests walk the app's
OpenAPI document and request models, so a field added later without bounds fails here.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest
from pydantic import BaseModel

from service.app import create_app
from service.datasets.schemas import DatasetCreate
from service.fields import _check_scalar
from tests.factories import run_queued_jobs

INT64_MIN, INT64_MAX, UINT64_MAX = -(2**63), 2**63 - 1, 2**64 - 1
BIG = 2**63  # one past int64
SCHEMA_MODULES = [f"service.{r}.schemas" for r in ("balanced_filters", "batch_schedulers", "datasets",
                  "fair_regressions", "fairness_metrics", "group_samplers", "labelstudio", "partition_bandits")]
PROBLEM = "application/problem+json"
COUNTS = [{"label": 0, "group": "m", "count": 30}, {"label": 1, "group": "m", "count": 20},
          {"label": 0, "group": "f", "count": 30}, {"label": 1, "group": "f", "count": 20}]
SCHEDULER = {"metric": "equal_opportunity", "labels": [0, 1], "groups": ["m", "f"], "batch_size": 10,
             "counts": COUNTS}
LOSSES = [{"label": y, "group": g, "loss": 0.3} for y in (0, 1) for g in ("m", "f")]
PARTITIONS = [{"id": "p1", "size": 500, "centroid": [0, 0], "base_rate_difference": 0.1},
              {"id": "p2", "size": 800, "centroid": [3, 1], "base_rate_difference": 0.4}]
BANDIT = {"partitions": PARTITIONS, "batch_size": 50, "budget": 400, "seed": 5}
AB_TREE = {"type": "ab_tree", "alpha": 0.2, "epsilon": 0.02}
TRAINING = {"features": [[0.0, 1.0], [1.0, 0.0], [0.5, 0.5], [0.2, 0.9]], "groups": ["a", "b", "a", "b"]}
FILTER = {"groups": ["a", "b"], "proxy": AB_TREE, "training": TRAINING, "seed": 1}
REGRESSION_DATA = {"features": [[0.1], [0.4], [0.6], [0.9]], "groups": ["a", "b", "a", "b"],
                   "labels": [0.0, 1.0, 0.0, 1.0]}
REGRESSION = {"data": REGRESSION_DATA, "constraint": {"type": "statistical_parity", "slack": 0.05}}


def _problem(response, status: int = 422) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    return response.json()


def _raw_post(client, url: str, text: str, headers: dict[str, str] | None = None):
    return client.post(url, content=text.encode(), headers={"content-type": "application/json", **(headers or {})})


def _count(client, url: str) -> int:
    return len(client.get(url).json()["items"])


# ----------------------------------------------------------------------------- the schema says so


def _integers(node: Any, schemas: dict[str, Any], path: str, seen: frozenset[str]) -> list[tuple[str, dict]]:
    """Every ``type: integer`` schema under ``node``, with where it is."""
    if isinstance(node, list):
        return [hit for i, item in enumerate(node) for hit in _integers(item, schemas, f"{path}[{i}]", seen)]
    if not isinstance(node, dict):
        return []
    ref = node.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        return [] if name in seen else _integers(schemas[name], schemas, name, seen | {name})
    hits = [(path, node)] if node.get("type") == "integer" else []
    for key, value in node.items():
        if key not in ("example", "examples", "default", "const", "enum"):
            hits += _integers(value, schemas, f"{path}.{key}", seen)
    return hits


def _within(value: float, low: int, high: int) -> bool:
    # FastAPI writes bounds as JSON floats: 2^63 - 1 becomes 2.0^63, as close as a float gets.
    if isinstance(value, float):
        low, high = float(low), float(high)  # type: ignore[assignment]
    return low <= value <= high


def test_every_integer_a_request_sends_has_int64_bounds(settings):
    document = create_app(settings).openapi()
    schemas = document["components"]["schemas"]
    unbounded = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            sources: list[tuple[str, Any]] = [
                (f"{method.upper()} {path} ?{p['name']}", p.get("schema", {})) for p in operation.get("parameters", [])
            ]
            for media, content in operation.get("requestBody", {}).get("content", {}).items():
                sources.append((f"{method.upper()} {path} body({media})", content.get("schema", {})))
            for where, schema in sources:
                for field, node in _integers(schema, schemas, where, frozenset()):
                    high = node.get("maximum", node.get("exclusiveMaximum", BIG + 1) - 1)
                    low = node.get("minimum", node.get("exclusiveMinimum", INT64_MIN - 2) + 1)
                    # Integer ids are kept as their text, so unsigned 64-bit ids (hashes) fit too.
                    top = UINT64_MAX if field.endswith("properties.id.anyOf[1]") else INT64_MAX
                    if not (_within(low, INT64_MIN, top) and _within(high, INT64_MIN, top)):
                        unbounded.append(f"{where}: {field} has [{low}, {high}]")
    assert unbounded == [], "\n".join(unbounded)


def _core_floats(schema: Any, path: str, out: list[str], seen: set[int]) -> None:
    """Every pydantic-core ``float`` schema that lets infinity or NaN through.

    A union of ``service.fields.Scalar`` lets every float through to its after-validator,
    which refuses non-finite ones (so that errors are located at the field, not a branch).
    """
    if isinstance(schema, dict):
        if id(schema) in seen:
            return
        seen.add(id(schema))
        if schema.get("type") == "function-after" and schema["function"]["function"] is _check_scalar:
            return
        if schema.get("type") == "float" and schema.get("allow_inf_nan", True):
            out.append(path)
        for key, value in schema.items():
            _core_floats(value, f"{path}.{key}", out, seen)
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            _core_floats(value, f"{path}[{i}]", out, seen)


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        found = {ref.rsplit("/", 1)[-1]} if isinstance(ref, str) else set()
        return found.union(*(_refs(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(v) for v in node))
    return set()


def _request_models(settings) -> list[type[BaseModel]]:
    """The pydantic models of every request body the OpenAPI document names (and the raw-read uploads)."""
    document = create_app(settings).openapi()
    names = _refs([op.get("requestBody") for ops in document["paths"].values() for op in ops.values()])
    classes = {}
    for module in SCHEMA_MODULES:
        for name, value in vars(importlib.import_module(module)).items():
            if isinstance(value, type) and issubclass(value, BaseModel):
                classes[name] = value
    missing = names - set(classes)
    assert not missing, f"request models not found in {SCHEMA_MODULES}: {missing}"
    return [DatasetCreate, *(classes[n] for n in sorted(names))]


def test_every_number_a_request_sends_must_be_finite(settings):
    models = _request_models(settings)
    assert len(models) > 10
    lax: list[str] = []
    for model in models:
        _core_floats(model.__pydantic_core_schema__, model.__name__, lax, set())
    assert lax == [], "\n".join(lax)


# ----------------------------------------------------------------------------- batch schedulers


def test_an_epoch_beyond_int64_is_422_and_the_scheduler_stays_readable(client):
    sid = client.post("/v1/batch-schedulers", json=SCHEDULER).json()["id"]
    body = _problem(client.post(f"/v1/batch-schedulers/{sid}/epochs", json={"epoch": BIG, "losses": LOSSES}))
    assert body["errors"][0]["loc"] == ["body", "epoch"]
    got = client.get(f"/v1/batch-schedulers/{sid}")
    assert got.status_code == 200 and got.json()["epoch"] == 0 and got.json()["version"] == 1
    assert client.get("/v1/batch-schedulers").status_code == 200
    # The largest epoch int64 holds is stored and read back exactly.
    assert client.post(f"/v1/batch-schedulers/{sid}/epochs",
                       json={"epoch": INT64_MAX, "losses": LOSSES}).status_code == 200
    got = client.get(f"/v1/batch-schedulers/{sid}")
    assert got.status_code == 200 and got.json()["history"][-1]["epoch"] == INT64_MAX
    assert client.get("/v1/batch-schedulers").status_code == 200


@pytest.mark.parametrize("change", [
    {"counts": [{**c, "count": BIG} for c in COUNTS]},
    {"labels": [0, BIG]},
    {"groups": ["m", BIG]},
    {"positive_label": BIG},
    {"batch_size": BIG},
], ids=["count", "label", "group", "positive_label", "batch_size"])
def test_scheduler_integers_beyond_int64_are_422(client, change):
    _problem(client.post("/v1/batch-schedulers", json={**SCHEDULER, **change}))
    assert _count(client, "/v1/batch-schedulers") == 0


def test_scheduler_labels_beyond_float_range_are_422(client):
    _problem(_raw_post(client, "/v1/batch-schedulers",
                       json.dumps({**SCHEDULER, "labels": [0, 1]}).replace('"labels": [0, 1]',
                                                                            '"labels": [0, 1e999]')))
    _problem(_raw_post(client, "/v1/batch-schedulers",
                       json.dumps(SCHEDULER).replace('"groups": ["m", "f"]', f'"groups": ["m", {10**400}]')))
    assert _count(client, "/v1/batch-schedulers") == 0


# ----------------------------------------------------------------------------- other resources


def test_partition_sizes_beyond_int64_are_422(client):
    body = {**BANDIT, "partitions": [{**PARTITIONS[0], "size": BIG}, PARTITIONS[1]]}
    _problem(client.post("/v1/partition-bandits", json=body))
    assert _count(client, "/v1/partition-bandits") == 0


def test_bandit_batch_size_beyond_int64_is_422(client):
    _problem(client.post("/v1/partition-bandits", json={**BANDIT, "batch_size": BIG}))


def test_observation_counts_beyond_int64_are_422(client):
    sid = client.post("/v1/group-samplers", json={"groups": ["a", "b"], "strategy": "aopt", "budget": 10}).json()["id"]
    body = {"observation_id": "o1", "group": "a", "n_acquired": BIG, "group_losses": {"a": 0.3}}
    _problem(client.post(f"/v1/group-samplers/{sid}/observations", json=body))
    got = client.get(f"/v1/group-samplers/{sid}").json()
    assert got["round"] == 0 and got["version"] == 1


def test_sampler_warmup_rounds_beyond_int64_are_422(client):
    body = {"groups": ["a", "b"], "strategy": "aopt", "budget": 10, "params": {"warmup_rounds": BIG}}
    _problem(client.post("/v1/group-samplers", json=body))


@pytest.mark.parametrize("groups", [[BIG, 1, BIG, 1], [10**400, 1, 10**400, 1]], ids=["2**63", "10**400"])
def test_dataset_groups_beyond_int64_are_422(client, groups):
    text = json.dumps({"features": [[0.0], [1.0], [2.0], [3.0]], "groups": groups})
    _problem(_raw_post(client, "/v1/datasets", text))
    assert _count(client, "/v1/datasets") == 0


def test_metric_groups_beyond_int64_are_422(client):
    body = {"predictions": [1, 0], "groups": [BIG, 1], "metrics": ["demographic_parity"]}
    _problem(client.post("/v1/fairness-metrics", json=body))


def test_filter_groups_beyond_int64_are_422(client):
    _problem(client.post("/v1/balanced-filters", json={**FILTER, "groups": ["a", BIG]}))
    assert _count(client, "/v1/balanced-filters") == 0


def test_integer_ids_beyond_64_bits_are_422(client):
    # Ids are kept as text: unsigned 64-bit ids fit (tests/api/test_balanced_filters.py sends one).
    body = {**BANDIT, "partitions": [{**PARTITIONS[0], "id": UINT64_MAX + 1}, PARTITIONS[1]]}
    problem = _problem(client.post("/v1/partition-bandits", json=body))
    assert problem["errors"][-1]["loc"][:4] == ["body", "partitions", 0, "id"]
    assert _count(client, "/v1/partition-bandits") == 0


@pytest.mark.parametrize("value", [BIG, 10**400], ids=["2**63", "10**400"])
def test_learner_params_beyond_int64_are_422(client, value):
    body = {**REGRESSION, "learner": {"type": "gradient_boosting", "params": {"n_estimators": 0}}}
    text = json.dumps(body).replace('"n_estimators": 0', f'"n_estimators": {value}')
    problem = _problem(_raw_post(client, "/v1/fair-regressions", text))
    assert "n_estimators" in json.dumps(problem["errors"])
    assert _count(client, "/v1/fair-regressions") == 0


@pytest.mark.parametrize("field", ["lambda_max", "stop_distance", "step_size", "min_leaf_weight", "margins"])
@pytest.mark.parametrize("literal", ["Infinity", "NaN", "1e400", "-Infinity"])
def test_non_finite_ab_tree_hyperparameters_are_422(client, field, literal):
    value = f"[{literal}]" if field == "margins" else literal
    text = json.dumps({**FILTER, "proxy": {**AB_TREE, field: 0}}).replace(f'"{field}": 0', f'"{field}": {value}')
    problem = _problem(_raw_post(client, "/v1/balanced-filters", text))
    assert field in json.dumps(problem["errors"]), problem
    assert _count(client, "/v1/balanced-filters") == 0


@pytest.mark.parametrize("value", [10**400, BIG])
def test_min_samples_leaf_is_bounded(client, value):
    text = json.dumps({**FILTER, "proxy": {"type": "qp_tree", "min_samples_leaf": 1}})
    text = text.replace('"min_samples_leaf": 1', f'"min_samples_leaf": {value}')
    problem = _problem(_raw_post(client, "/v1/balanced-filters", text))
    assert problem["errors"][0]["loc"] == ["body", "proxy", "min_samples_leaf"]
    assert _count(client, "/v1/balanced-filters") == 0 and _count(client, "/v1/jobs") == 0


def test_the_largest_min_samples_leaf_is_fitted(client, sessions, settings):
    # The bound is no more than a fit can take: 10^9 points per leaf is one leaf, not a failed job.
    created = client.post("/v1/balanced-filters", json={**FILTER, "proxy": {"type": "qp_tree",
                                                                           "min_samples_leaf": 10**9}})
    assert created.status_code == 202, created.text
    assert [job.status for job in run_queued_jobs(sessions, settings)] == ["succeeded"]
    assert client.get(f"/v1/balanced-filters/{created.json()['id']}").json()["status"] == "ready"


@pytest.mark.parametrize("field,value", [("step_size", "Infinity"), ("threshold", "NaN"), ("threshold", "1e400")])
def test_non_finite_scheduler_numbers_are_422(client, field, value):
    text = json.dumps({**SCHEDULER, field: 0.5}).replace(f'"{field}": 0.5', f'"{field}": {value}')
    _problem(_raw_post(client, "/v1/batch-schedulers", text))


@pytest.mark.parametrize("field,value", [("alpha", "Infinity"), ("fairness_threshold", "NaN")])
def test_non_finite_bandit_numbers_are_422(client, field, value):
    text = json.dumps({**BANDIT, field: 0.5}).replace(f'"{field}": 0.5', f'"{field}": {value}')
    _problem(_raw_post(client, "/v1/partition-bandits", text))


# ----------------------------------------------------------------------------- cursors


@pytest.mark.parametrize("cursor", [str(2**31), str(BIG), "9" * 40, "-1", "١", "1.5", " 1"])
def test_a_decision_cursor_beyond_its_column_or_not_a_number_is_422(client, cursor):
    sid = client.post("/v1/batch-schedulers", json=SCHEDULER).json()["id"]
    problem = _problem(client.get(f"/v1/batch-schedulers/{sid}/decisions", params={"cursor": cursor}))
    assert problem["errors"][0]["loc"] == ["query", "cursor"]


def test_the_largest_decision_cursor_is_an_empty_page(client):
    # decisions.sequence is an INTEGER column: 32 bits on PostgreSQL.
    sid = client.post("/v1/batch-schedulers", json=SCHEDULER).json()["id"]
    page = client.get(f"/v1/batch-schedulers/{sid}/decisions", params={"cursor": str(2**31 - 1)})
    assert page.status_code == 200 and page.json()["items"] == []


@pytest.mark.parametrize("url", ["/v1/batch-schedulers", "/v1/datasets", "/v1/group-samplers", "/v1/jobs",
                                 "/v1/partition-bandits", "/v1/balanced-filters", "/v1/fair-regressions"])
def test_a_list_cursor_beyond_int64_is_422(client, url):
    _problem(client.get(url, params={"cursor": str(BIG)}))
