"""Datasets: JSON and CSV upload, one-hot encoding, validation messages, listing, deletion."""

from __future__ import annotations

import uuid

import numpy as np
import pytest
from sqlalchemy import select

from service import arrays
from service.datasets.models import Dataset
from tests.factories import dataset_payload, default_tenant, upload_dataset


def test_json_upload_reports_shape_groups_and_labels(client):
    response = client.post("/v1/datasets", json=dataset_payload(n=10, d=4))
    assert response.status_code == 201
    body = response.json()
    assert response.headers["location"] == f"/v1/datasets/{body['id']}"
    assert (body["n_rows"], body["n_features"]) == (10, 4)
    assert body["group_values"] == ["a", "b"]
    assert body["label_values"] == [0, 1]
    assert client.get(f"/v1/datasets/{body['id']}").json() == body


def test_arrays_are_stored_compressed_not_as_json(client, sessions):
    payload = dataset_payload(n=50, d=3, seed=4)
    created = upload_dataset(client, n=50, d=3, seed=4)
    with sessions() as db:
        blob = db.scalar(select(Dataset.arrays).where(Dataset.id == uuid.UUID(created["id"])))
    stored = arrays.unpack(blob)
    np.testing.assert_allclose(stored["features"], payload["features"])
    assert stored["group_codes"].tolist() == [0, 1] * 25


def test_integer_groups_are_kept_as_integers(client):
    body = client.post("/v1/datasets", json={"features": [[1.0], [2.0], [3.0]], "groups": [2, 1, 2]}).json()
    assert body["group_values"] == [1, 2]


def test_csv_upload_one_hot_encodes_categorical_columns(client):
    csv = "age,job,sex,income,id\n30,clerk,F,1,r1\n40,chef,M,0,r2\n50,clerk,M,1,r3\n"
    response = client.post(
        "/v1/datasets?group_column=sex&label_column=income&id_column=id&name=people",
        content=csv.encode(), headers={"content-type": "text/csv"},
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["feature_names"] == ["age", "job=chef", "job=clerk"]
    assert body["group_values"] == ["F", "M"]
    assert body["encoding"]["columns"][1] == {"name": "job", "type": "categorical",
                                              "categories": ["chef", "clerk"]}
    assert body["has_ids"] is True and body["name"] == "people"


def test_csv_feature_columns_select_and_order(client):
    csv = "a,b,c\n1,2,3\n4,5,6\n"
    body = client.post("/v1/datasets?feature_columns=c,a", content=csv.encode(),
                       headers={"content-type": "text/csv"}).json()
    assert body["feature_names"] == ["c", "a"]


@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        ({"features": [[1, 2], [3]]}, "row 0 has 2"),
        ({"features": []}, "at least 1"),
        ({"features": [[]]}, "at least one feature"),
        ({"features": [[1.0], [2.0]], "groups": ["a"]}, "expected 2"),
        ({"features": [[1.0], [2.0]], "labels": [1, 2, 3]}, "expected 2"),
        ({"features": [[1.0], [2.0]], "ids": ["x", "x"]}, "unique"),
        ({"features": [["x"]]}, "number"),
    ],
)
def test_bad_json_gets_422_saying_what_is_wrong(client, payload, fragment):
    response = client.post("/v1/datasets", json=payload)
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert fragment in problem["detail"] + str(problem.get("errors"))
    assert problem["errors"][0]["loc"]


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_numbers_are_refused(client, token):
    response = client.post("/v1/datasets", content=f'{{"features": [[1.0, {token}]]}}'.encode(),
                           headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert "finite" in response.json()["detail"]


@pytest.mark.parametrize(
    ("csv", "query", "fragment"),
    [
        ("", "", "empty"),
        ("a,b\n", "", "no data rows"),
        ("a,b\n1,2\n3\n", "", "line 3 has 1 fields"),
        ("a,b\n1,\n", "", "is empty on data row 1"),
        ("a,b\n1,2\n", "?group_column=g", "'g' is not in the CSV header"),
        ("a,y\n1,yes\n", "?label_column=y", "is not a number"),
        ("a,a\n1,2\n", "", "repeats a column"),
    ],
)
def test_bad_csv_gets_422(client, csv, query, fragment):
    response = client.post(f"/v1/datasets{query}", content=csv.encode(), headers={"content-type": "text/csv"})
    assert response.status_code == 422, response.text
    assert fragment in response.json()["detail"]


def test_limits_apply(client, app):
    app.state.settings.max_rows = 5
    response = client.post("/v1/datasets", json={"features": [[1.0]] * 6})
    assert response.status_code == 422
    assert "limit is 5" in response.json()["detail"]


def test_unsupported_media_type(client):
    response = client.post("/v1/datasets", content=b"x", headers={"content-type": "application/xml"})
    assert response.status_code == 415


def test_list_is_paginated(client):
    ids = [upload_dataset(client, n=4, seed=i)["id"] for i in range(5)]
    first = client.get("/v1/datasets?limit=2").json()
    second = client.get(f"/v1/datasets?limit=2&cursor={first['next_cursor']}").json()
    third = client.get(f"/v1/datasets?limit=2&cursor={second['next_cursor']}").json()
    seen = [d["id"] for page in (first, second, third) for d in page["items"]]
    assert seen == ids
    assert third["next_cursor"] is None
    assert client.get("/v1/datasets?cursor=nope").status_code == 422


def test_delete_then_404(client):
    created = upload_dataset(client)
    assert client.delete(f"/v1/datasets/{created['id']}").status_code == 204
    assert client.get(f"/v1/datasets/{created['id']}").status_code == 404
    assert client.delete(f"/v1/datasets/{created['id']}").status_code == 404


def test_delete_refused_while_a_session_uses_it(client, sessions):
    from service.db import transaction
    from service.sessions.repository import SessionRepository

    created = upload_dataset(client)
    with transaction(sessions) as db:
        tenant = default_tenant(db)
        SessionRepository(db, tenant.id, "group_sampler").create(
            config={}, state={}, seed=1, status="active", datasets={"training": uuid.UUID(created["id"])}
        )
    response = client.delete(f"/v1/datasets/{created['id']}")
    assert response.status_code == 409
    assert client.get(f"/v1/datasets/{created['id']}").status_code == 200
