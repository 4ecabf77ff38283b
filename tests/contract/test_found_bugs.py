"""Inputs the schemathesis run found answered with 400 or 500, pinned as plain tests."""

from __future__ import annotations

import pytest

PROBLEM = "application/problem+json"


@pytest.mark.parametrize("body", [b'{"predictions": "\xff"}', b"\xc3\x28"], ids=["invalid-byte", "bad-sequence"])
def test_a_json_body_that_is_not_utf8_is_422_not_400(client, body):
    response = client.post("/v1/fairness-metrics", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.headers["content-type"] == PROBLEM
    assert response.json()["errors"] == [{"loc": ["body"], "msg": "not valid JSON: send UTF-8 encoded JSON"}]


@pytest.mark.parametrize("csv", [
    b"x,g\r1,a\r2,b\r",  # old Mac line ends: read as three records
    b"x,g\n1,a\n2,b\r",  # a stray carriage return at the end
])
def test_bare_carriage_returns_end_csv_records(client, csv):
    response = client.post("/v1/datasets?group_column=g", content=csv, headers={"content-type": "text/csv"})
    assert response.status_code == 201, response.text
    assert response.json()["n_rows"] == 2


def test_a_malformed_csv_is_422_not_500(client):
    huge = b"x,g\n" + b'"' + b"1" * 200_000 + b'",a\n'  # over the csv module's field size limit
    response = client.post("/v1/datasets?group_column=g", content=huge, headers={"content-type": "text/csv"})
    assert response.status_code == 422 and response.headers["content-type"] == PROBLEM
    assert "malformed at line" in response.json()["detail"]


def test_a_nul_character_in_a_stored_text_is_not_a_server_error(client):
    """PostgreSQL text cannot hold NUL: there the value is refused with 422; SQLite stores it."""
    sampler = client.post("/v1/group-samplers", json={"groups": ["a", "b"], "strategy": "uniform", "budget": 9})
    assert sampler.status_code == 201, sampler.text
    response = client.post(f"/v1/group-samplers/{sampler.json()['id']}/observations", json={
        "observation_id": "o\u0000", "group": "a", "n_acquired": 1, "group_losses": {"a": 0.5, "b": 0.5}})
    assert response.status_code in (200, 422), response.text
    if response.status_code == 422:
        assert response.headers["content-type"] == PROBLEM and "NUL" in response.json()["detail"]
