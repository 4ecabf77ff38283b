"""Bodies FastAPI parses into objects are capped lower than uploads that parse themselves.

A 64 MiB body of small numbers becomes over a gigabyte of Python objects; the routes
that take it (metrics, inline data, samples, predictions) stop at
FAIRACQ_MAX_JSON_BODY_BYTES before parsing, while dataset uploads and candidate
batches, which read their bytes compactly, take up to FAIRACQ_MAX_BODY_BYTES.
"""

from __future__ import annotations

import time
import tracemalloc

import numpy as np
import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from tests.conftest import fast_settings
from tests.factories import ApiClient

MIB = 1024 * 1024


@pytest.fixture
def small_json_client(database_url):
    settings = fast_settings(database_url, max_json_body_bytes=1 * MIB, max_body_bytes=8 * MIB)
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield ApiClient(test_client)


def test_a_parsed_json_body_over_its_cap_is_refused_before_parsing(small_json_client):
    n = 400_000  # about 2.4 MiB of predictions, labels and groups
    body = ('{"predictions": [' + ",".join(["1"] * n) + '], "labels": [' + ",".join(["0"] * n) +
            '], "groups": [' + ",".join(['"a"'] * n) + '], "metrics": ["demographic_parity"]}').encode()
    tracemalloc.start()
    started = time.monotonic()
    response = small_json_client.post("/v1/fairness-metrics", content=body,
                                      headers={"content-type": "application/json"})
    elapsed = time.monotonic() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert response.status_code == 413, response.text
    assert "FAIRACQ_MAX_JSON_BODY_BYTES" in response.json()["detail"]
    assert "/v1/datasets" in response.json()["detail"]
    assert elapsed < 2.0 and peak < 40 * MIB, (elapsed, peak)  # the body itself, never its objects


def test_an_upload_that_parses_itself_takes_the_larger_limit(small_json_client):
    rng = np.random.default_rng(0)
    features = rng.normal(size=(40_000, 4)).round(6).tolist()
    payload = {"features": features, "groups": ["a", "b"] * 20_000}
    response = small_json_client.post("/v1/datasets", json=payload)
    assert response.status_code == 201, response.text[:300]
    assert response.json()["n_rows"] == 40_000
