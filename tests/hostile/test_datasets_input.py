"""Dataset uploads are refused before they cost memory, and CSV cells mean what they say
(issue 13, items 4 and 9).

* A CSV's one-hot width is counted before its matrix exists: 60,000 rows of three text
  columns of 1,000 values (0.9 MB) used to take 2-4.6 GB and 16 s before its 422.
* A table may hold no more values than a JSON body at ``FAIRACQ_MAX_BODY_BYTES`` could,
  however compact its CSV.
* A JSON body just under 64 MiB is counted before it is parsed: too many rows is a 422
  without building the request model (it took 13-37 s and 3.8 GB), and a body at the
  limit that is within the limits is read without a Python object per number.
* ``inf`` and ``nan`` in a numeric CSV column are a 422 naming the column and row.

Memory is measured with ``tracemalloc`` around the request (the app runs in this process),
so it counts what the request allocates, not the body the test built.
"""

from __future__ import annotations

import time
import tracemalloc
import uuid
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from sqlalchemy import select

from service import arrays
from service.datasets.models import Dataset

PROBLEM = "application/problem+json"
MIB = 1024 * 1024


def _problem(response, status: int = 422) -> dict[str, Any]:
    assert response.status_code == status, response.text[:500]
    assert response.headers["content-type"].startswith(PROBLEM)
    return response.json()


def _measured(what: str, call: Callable[[], Any]) -> tuple[Any, float, float]:
    """``call()``'s result, seconds (without tracing) and peak MB allocated (a second, traced run)."""
    started = time.perf_counter()
    result = call()
    elapsed = time.perf_counter() - started
    tracemalloc.start()
    try:
        call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    print(f"\n{what}: {result.status_code} in {elapsed:.2f} s, peak {peak / 1e6:.0f} MB traced")
    return result, elapsed, peak / 1e6


def _csv(client, text: str, query: str = ""):
    return client.post(f"/v1/datasets{query}", content=text.encode(), headers={"content-type": "text/csv"})


def _json(client, body: bytes):
    return client.post("/v1/datasets", content=body, headers={"content-type": "application/json"})


def _count(client) -> int:
    return len(client.get("/v1/datasets").json()["items"])


def _text_columns(rows: int, columns: int, values: int) -> str:
    lines = [",".join(f"c{j}" for j in range(columns))]
    lines += [",".join(f"v{(i + 7 * j) % values}" for j in range(columns)) for i in range(rows)]
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- CSV cost


def test_a_csv_wider_than_the_feature_limit_is_refused_before_it_is_encoded(client):
    text = _text_columns(60_000, 3, 1_000)
    response, elapsed, peak = _measured(f"CSV 60,000 x 3 text columns of 1,000 values ({len(text) / 1e6:.1f} MB)",
                                        lambda: _csv(client, text))
    problem = _problem(response)
    assert "more than 2000 features" in problem["detail"] and "FAIRACQ_MAX_FEATURES" in problem["detail"]
    assert elapsed < 3.0 and peak < 150
    assert _count(client) == 0


def test_a_csv_that_would_expand_past_the_value_limit_is_refused_before_it_is_encoded(client):
    text = _text_columns(60_000, 2, 1_000)  # 2,000 one-hot features: within the feature limit
    response, elapsed, peak = _measured(f"CSV 60,000 x 2 text columns of 1,000 values ({len(text) / 1e6:.1f} MB)",
                                        lambda: _csv(client, text))
    problem = _problem(response)
    assert "120000000 values" in problem["detail"] and "FAIRACQ_MAX_BODY_BYTES" in problem["detail"]
    assert elapsed < 3.0 and peak < 150
    assert _count(client) == 0


def test_a_csv_just_within_the_limits_is_encoded_once(client, sessions):
    text = _text_columns(15_000, 2, 1_000)  # 15,000 x 2,000 = 30 M values, under the 32 Mi limit
    response, elapsed, peak = _measured(f"CSV 15,000 x 2 text columns of 1,000 values ({len(text) / 1e6:.1f} MB)",
                                        lambda: _csv(client, text))
    assert response.status_code == 201, response.text[:300]
    assert response.json()["n_features"] == 2_000
    # The matrix is 240 MB of float64: built once (not once per block and again stacked).
    assert peak < 600
    with sessions() as db:
        blob = db.scalar(select(Dataset.arrays).where(Dataset.id == uuid.UUID(response.json()["id"])))
    stored = arrays.unpack(blob)["features"]
    assert stored.shape == (15_000, 2_000) and stored.sum() == 30_000


# ----------------------------------------------------------------------------- JSON cost


def test_a_json_body_at_the_byte_limit_with_too_many_rows_is_refused_before_parsing(client):
    rows = (64 * MIB - 64) // 4
    body = b'{"features": [' + b"[0]," * (rows - 1) + b"[0]]}"
    assert len(body) < 64 * MIB
    response, elapsed, peak = _measured(f"JSON {len(body) / MIB:.1f} MiB, {rows:,} rows", lambda: _json(client, body))
    problem = _problem(response)
    assert f"has {rows} rows" in problem["detail"] and "FAIRACQ_MAX_ROWS" in problem["detail"]
    assert problem["errors"][0]["loc"] == ["body", "features"]
    assert elapsed < 3.0 and peak < 400
    assert _count(client) == 0


def test_a_json_body_at_the_byte_limit_within_the_limits_is_read_without_an_object_per_number(client, sessions):
    rows, width = 200_000, 160
    features = b",".join(b"[" + b",".join(b"1" if j == i % width else b"0" for j in range(width)) + b"]"
                         for i in range(rows))
    body = (b'{"name": "big", "features": [' + features + b'], "labels": [' + b",".join([b"0", b"1"] * (rows // 2))
            + b'], "groups": [' + b",".join([b'"a"', b'"b"'] * (rows // 2)) + b"]}")
    assert 60 * MIB < len(body) < 64 * MIB
    response, elapsed, peak = _measured(f"JSON {len(body) / MIB:.1f} MiB, {rows:,} rows x {width} features",
                                        lambda: _json(client, body))
    assert response.status_code == 201, response.text[:300]
    assert peak < 1000
    created = response.json()
    assert (created["n_rows"], created["n_features"], created["group_values"]) == (rows, width, ["a", "b"])
    with sessions() as db:
        blob = db.scalar(select(Dataset.arrays).where(Dataset.id == uuid.UUID(created["id"])))
    stored = arrays.unpack(blob)
    assert stored["features"].shape == (rows, width) and stored["features"].sum() == rows
    assert stored["features"][12, 12] == 1.0 and stored["features"][12, 13] == 0.0
    assert stored["labels"].sum() == rows // 2


def test_a_json_list_longer_than_the_row_limit_is_refused_before_it_is_decoded(client):
    body = b'{"features": [[0]], "groups": [' + b",".join([b'"a"'] * 10_000_000) + b"]}"
    response, elapsed, peak = _measured(f"JSON {len(body) / MIB:.1f} MiB, 1 row and 10,000,000 groups",
                                        lambda: _json(client, body))
    problem = _problem(response)
    assert "has more than 200000 values" in problem["detail"] and problem["errors"][0]["loc"] == ["body", "groups"]
    assert elapsed < 3.0 and peak < 200


def test_a_large_json_upload_is_stored_exactly_as_a_small_one(client, sessions):
    rng = np.random.default_rng(3)
    features = rng.normal(size=(20_000, 8)) * 10.0 ** rng.integers(-300, 300, size=(20_000, 8))
    features[0, 0], features[1, 1] = -0.0, 1e-320  # a negative zero and a subnormal
    labels = rng.integers(0, 2, 20_000).astype(float)
    body = {"features": features.tolist(), "labels": labels.tolist(), "ids": [f"r{i}" for i in range(20_000)],
            "groups": [int(g) for g in rng.integers(0, 5, 20_000)], "name": "wide range"}
    response = client.post("/v1/datasets", json=body)
    assert response.status_code == 201, response.text[:300]
    with sessions() as db:
        blob = db.scalar(select(Dataset.arrays).where(Dataset.id == uuid.UUID(response.json()["id"])))
    stored = arrays.unpack(blob)
    np.testing.assert_array_equal(stored["features"], features)
    np.testing.assert_array_equal(stored["labels"], labels)
    assert stored["ids"].tolist() == body["ids"]
    assert response.json()["group_values"] == [0, 1, 2, 3, 4] and response.json()["name"] == "wide range"


@pytest.mark.parametrize("change,detail", [
    (b'"groups": ["a"', "groups: has 3 values; expected 2"),
    (b'"labels": [0, 1, 1]', "labels: has 3 values; expected 2"),
    (b'"features": [[1, 2], [3]]', "features.1: has 1 values but row 0 has 2"),
    (b'"features": [[1, 2], [3, 1e999]]', "features.1.1: must be a finite number"),
], ids=["groups", "labels", "ragged", "infinite"])
def test_large_json_uploads_get_the_same_answers(client, change, detail):
    padding = b'"comment": "' + b"x" * MIB + b'"'  # over FULL_PARSE_BYTES: read by the scanner alone
    fields = {b"features": b'"features": [[1, 2], [3, 4]]', b"groups": b'"groups": ["a", "b"]',
              b"labels": b'"labels": [0, 1]'}
    fields[change.split(b'"')[1]] = change + (b', "b", "c"]' if change.startswith(b'"groups"') else b"")
    body = b"{" + b", ".join([*fields.values(), padding]) + b"}"
    assert len(body) > 1 * MIB
    problem = _problem(_json(client, body))
    assert detail in problem["detail"], problem["detail"]
    assert _count(client) == 0


# ----------------------------------------------------------------------------- CSV meaning


@pytest.mark.parametrize("cell", ["inf", "-inf", "nan", "NaN", "Infinity", "1e999"])
def test_a_non_finite_number_in_a_numeric_csv_column_is_422(client, cell):
    text = f"x,y\n1,2\n{cell},3\n4,5\n"
    problem = _problem(_csv(client, text))
    assert "'x'" in problem["detail"] and "data row 2" in problem["detail"], problem
    assert problem["errors"][0]["loc"] == ["body", "x", 1]
    assert _count(client) == 0


def test_nan_among_text_is_a_category(client):
    body = _csv(client, "x,job\n1,nan\n2,chef\n").json()
    assert body["feature_names"] == ["x", "job=chef", "job=nan"]


def test_a_non_finite_csv_label_is_422(client):
    problem = _problem(_csv(client, "x,y\n1,0\n2,inf\n", "?label_column=y"))
    assert "not finite" in problem["detail"] and problem["errors"][0]["loc"] == ["body", "y", 1]


def test_digits_of_other_scripts_are_text_in_csv_features(client):
    body = _csv(client, "x,z\n1,١\n2,1\n").json()
    assert body["feature_names"] == ["x", "z=1", "z=١"]
