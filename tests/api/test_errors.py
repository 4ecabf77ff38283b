"""Every failure is problem+json: routing, method, size, validation."""

from __future__ import annotations


def _is_problem(response, status):
    assert response.status_code == status
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert {"type", "title", "status", "detail"} <= body.keys()
    assert body["status"] == status
    return body


def test_unknown_route_is_404_problem(client):
    body = _is_problem(client.get("/v1/nothing-here"), 404)
    assert "/v1/nothing-here" in body["detail"]


def test_unknown_id_is_404_problem(client):
    body = _is_problem(client.get("/v1/datasets/00000000-0000-0000-0000-000000000000"), 404)
    assert "no dataset" in body["detail"]


def test_malformed_id_is_422(client):
    _is_problem(client.get("/v1/datasets/not-a-uuid"), 422)


def test_wrong_method_is_405_problem(client):
    body = _is_problem(client.request("PUT", "/v1/datasets"), 405)
    assert "PUT" in body["detail"]


def test_body_limit_middleware_rejects_large_bodies(database_url):
    from fastapi.testclient import TestClient

    from service.app import create_app
    from tests.conftest import fast_settings

    small = create_app(fast_settings(database_url, max_body_bytes=1000))
    with TestClient(small) as raw:
        big = b'{"features": [[' + b"1.0," * 400 + b"1.0]]}"
        body = _is_problem(raw.post("/v1/datasets", content=big,
                                    headers={"content-type": "application/json"}), 413)
        assert "1000 bytes" in body["detail"]
        chunks = (b"x" * 600 for _ in range(3))  # no Content-Length: counted while streaming
        _is_problem(raw.post("/v1/datasets", content=chunks, headers={"content-type": "text/csv"}), 413)


def test_invalid_json_is_422(client):
    _is_problem(client.post("/v1/datasets", content=b"{not json", headers={"content-type": "application/json"}),
                422)


def test_no_free_database_connection_is_503_problem(app, client, monkeypatch):
    """An exhausted pool is an overload the client should retry, not an internal error."""
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    def exhausted():
        raise PoolTimeout("QueuePool limit of size 10 overflow 10 reached, connection timed out, timeout 30.00")

    assert client.get("/v1/datasets").status_code == 200
    monkeypatch.setattr(app.state.engine.pool, "connect", exhausted)
    app.state.tenant_cache.clear()
    response = client.get("/v1/datasets")
    body = _is_problem(response, 503)
    assert "no connection came free" in body["detail"]
    assert response.headers["retry-after"] == "1"
