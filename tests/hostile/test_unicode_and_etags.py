"""Text that cannot be stored, groups that read alike, and weak ETags (issue 13, items 7 and 9).

* A NUL character or a lone surrogate in any string a request stores (group names, ids,
  names, CSV cells) is a 422 that names the field; nothing is stored.
* A group is known by its text: one request (or dataset) naming both ``1`` and ``"1"`` is a
  422 everywhere (datasets as JSON, fairness metrics, batch schedulers, balanced filters, fair
  regressions), never two groups in one place and one in another.
* ``If-Match`` compares strongly (RFC 9110 §13.1.1): a weak ETag never matches, so ``W/"1"``
  is a 412 even when the session's version is 1.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.factories import run_queued_jobs

PROBLEM = "application/problem+json"
SURROGATE = '"\\ud800"'  # a lone surrogate, as JSON writes it: valid JSON, but no Unicode text
COUNTS = [{"label": 0, "group": "m", "count": 30}, {"label": 1, "group": "m", "count": 20},
          {"label": 0, "group": "f", "count": 30}, {"label": 1, "group": "f", "count": 20}]
SCHEDULER = {"metric": "equal_opportunity", "labels": [0, 1], "groups": ["m", "f"], "batch_size": 10,
             "counts": COUNTS}
LOSSES = [{"label": y, "group": g, "loss": 0.3} for y in (0, 1) for g in ("m", "f")]
TRAINING = {"features": [[0.0, 1.0], [1.0, 0.0], [0.5, 0.5], [0.2, 0.9]], "groups": ["a", "b", "a", "b"]}
FILTER = {"groups": ["a", "b"], "proxy": {"type": "qp_tree", "max_depth": 2}, "training": TRAINING, "seed": 1}
SAMPLER = {"groups": ["a", "b"], "strategy": "aopt", "budget": 10}


def _problem(response, status: int = 422) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    return response.json()


def _raw_post(client, url: str, text: str, **kwargs: Any):
    headers = {"content-type": "application/json", **kwargs.pop("headers", {})}
    return client.post(url, content=text.encode(), headers=headers, **kwargs)


def _csv(client, text: str, query: str = ""):
    return client.post(f"/v1/datasets{query}", content=text.encode(), headers={"content-type": "text/csv"})


def _count(client, url: str) -> int:
    return len(client.get(url).json()["items"])


# ----------------------------------------------------------------------------- lone surrogates


@pytest.mark.parametrize("url,body,loc", [
    ("/v1/fairness-metrics", '{"predictions": [1, 0], "groups": [@, "a"], "metrics": ["demographic_parity"]}',
     ["body", "groups", 0]),
    ("/v1/group-samplers", '{"groups": [@, "men"], "strategy": "aopt", "budget": 10}', ["body", "groups", 0]),
    ("/v1/batch-schedulers", json.dumps({**SCHEDULER, "groups": ["m", "@"]}).replace('"@"', "@"),
     ["body", "groups", 1]),
    ("/v1/balanced-filters", json.dumps({**FILTER, "name": "@"}).replace('"@"', "@"), ["body", "name"]),
    ("/v1/datasets", '{"features": [[1.0], [0.0]], "groups": [@, "a"]}', ["body"]),
], ids=["fairness-metrics", "group-samplers", "batch-schedulers", "balanced-filters", "datasets"])
def test_a_lone_surrogate_is_422_naming_the_field(client, url, body, loc):
    problem = _problem(_raw_post(client, url, body.replace("@", SURROGATE)))
    assert problem["errors"][0]["loc"][:len(loc)] == loc, problem
    if url != "/v1/fairness-metrics":
        assert _count(client, url) == 0


def test_a_lone_surrogate_in_an_observation_changes_nothing(client):
    sid = client.post("/v1/group-samplers", json=SAMPLER).json()["id"]
    text = '{"observation_id": @, "group": "a", "n_acquired": 1, "group_losses": {"a": 0.3}}'
    _problem(_raw_post(client, f"/v1/group-samplers/{sid}/observations", text.replace("@", SURROGATE)))
    assert client.get(f"/v1/group-samplers/{sid}").json()["version"] == 1


# ----------------------------------------------------------------------------- NUL characters


@pytest.mark.parametrize("body,loc", [
    ({"features": [[1.0], [0.0]], "groups": ["a\x00", "b"]}, ["body", "groups", 0]),
    ({"features": [[1.0], [0.0]], "ids": ["r1", "r\x002"]}, ["body", "ids", 1]),
    ({"features": [[1.0], [0.0]], "name": "to\x00y"}, ["body", "name"]),
], ids=["group", "id", "name"])
def test_nul_in_a_json_dataset_is_422(client, body, loc):
    problem = _problem(client.post("/v1/datasets", json=body))
    assert problem["errors"][0]["loc"] == loc and "NUL" in problem["detail"], problem
    assert _count(client, "/v1/datasets") == 0


@pytest.mark.parametrize("text,query", [
    ("a,g\n1,x\x00y\n2,z\n", "?group_column=g"),
    ("a,b\n1,x\n2,y\x00\n", ""),
    ("a,i\n1,r\x001\n2,r2\n", "?id_column=i"),
    ("a\x00,b\n1,x\n", ""),
    ("a,b\n1,x\n2,y\n", "?name=to%00y"),
], ids=["group cell", "feature cell", "id cell", "header", "name"])
def test_nul_in_a_csv_upload_is_422(client, text, query):
    problem = _problem(_csv(client, text, query))
    assert "NUL" in problem["detail"], problem
    assert _count(client, "/v1/datasets") == 0


@pytest.mark.parametrize("url,body", [
    ("/v1/group-samplers", {**SAMPLER, "groups": ["a\x00", "b"]}),
    ("/v1/group-samplers", {**SAMPLER, "name": "\x00"}),
    ("/v1/batch-schedulers", {**SCHEDULER, "groups": ["m\x00", "f"]}),
    ("/v1/batch-schedulers", {**SCHEDULER, "labels": ["\x00", "1"]}),
    ("/v1/balanced-filters", {**FILTER, "groups": ["a", "b\x00"]}),
    ("/v1/balanced-filters", {**FILTER, "target": {"a\x00": 0.5, "b": 0.5}}),
    ("/v1/partition-bandits", {"partitions": [
        {"id": "p\x001", "size": 5, "centroid": [0.0], "base_rate_difference": 0.1},
        {"id": "p2", "size": 5, "centroid": [1.0], "base_rate_difference": 0.2}], "batch_size": 1, "budget": 2}),
], ids=["sampler group", "sampler name", "scheduler group", "scheduler label", "filter group", "filter target",
        "partition id"])
def test_nul_in_a_session_is_422(client, url, body):
    problem = _problem(client.post(url, json=body))
    assert "NUL" in problem["detail"], problem
    assert _count(client, url) == 0


def test_nul_in_a_candidate_id_is_422(client, sessions, settings):
    fid = client.post("/v1/balanced-filters", json=FILTER).json()["id"]
    run_queued_jobs(sessions, settings)
    assert client.get(f"/v1/balanced-filters/{fid}").json()["status"] == "ready"
    body = {"candidates": [{"id": "c\x001", "features": [0.0, 1.0]}]}
    problem = _problem(client.post(f"/v1/balanced-filters/{fid}/decisions", json=body))
    assert problem["errors"][0]["loc"][:4] == ["body", "candidates", 0, "id"], problem


# ----------------------------------------------------------------------------- 1 and "1"


@pytest.mark.parametrize("url,body", [
    ("/v1/datasets", {"features": [[1.0], [2.0], [3.0]], "groups": [1, "1", 1]}),
    ("/v1/fairness-metrics", {"predictions": [1, 0, 1], "groups": [1, "1", 1], "metrics": ["demographic_parity"]}),
    ("/v1/batch-schedulers", {**SCHEDULER, "groups": [1, "1"],
                              "counts": [{"label": y, "group": g, "count": 5} for y in (0, 1) for g in (1, "1")]}),
    ("/v1/balanced-filters", {**FILTER, "groups": [1, "1"], "training": {**TRAINING, "groups": [1, "1", 1, "1"]}}),
    ("/v1/fair-regressions", {"data": {"features": [[0.1], [0.4], [0.6], [0.9]], "groups": [1, "1", 1, "1"],
                                       "labels": [0.0, 1.0, 0.0, 1.0]},
                              "constraint": {"type": "statistical_parity", "slack": 0.05}}),
], ids=["datasets", "fairness-metrics", "batch-schedulers", "balanced-filters", "fair-regressions"])
def test_one_request_may_not_name_a_group_both_as_number_and_text(client, url, body):
    problem = _problem(client.post(url, json=body))
    assert '1 and "1"' in problem["detail"], problem
    if url != "/v1/fairness-metrics":
        assert _count(client, url) == 0


def test_batch_scheduler_labels_that_read_alike_are_422(client):
    body = {**SCHEDULER, "labels": [0, "0"], "positive_label": 0,
            "counts": [{"label": y, "group": g, "count": 5} for y in (0, "0") for g in ("m", "f")]}
    problem = _problem(client.post("/v1/batch-schedulers", json=body))
    assert "labels" in problem["detail"], problem


def test_csv_groups_stay_as_written_unless_canonical_integers(client):
    # "1" is the integer 1 (as before); "01", "001", "+1", " 1" and the Arabic-Indic "١" stay text,
    # so no two spellings merge into one group.
    text = "x,g\n" + "".join(f"{i},{g}\n" for i, g in enumerate(["1", "01", "001", "١", "+1", "-1", "0", "a"]))
    body = client.post("/v1/datasets?group_column=g", content=text.encode(),
                       headers={"content-type": "text/csv"}).json()
    assert body["group_values"] == [-1, 0, 1, "+1", "001", "01", "a", "١"], body


def test_csv_group_codes_beyond_int64_stay_text(client):
    text = f"x,g\n1,{2**63}\n2,{-(2**63)}\n3,5\n"
    body = client.post("/v1/datasets?group_column=g", content=text.encode(),
                       headers={"content-type": "text/csv"}).json()
    assert body["group_values"] == [-(2**63), 5, str(2**63)], body


# ----------------------------------------------------------------------------- If-Match


def test_a_weak_etag_never_matches_if_match(client):
    sid = client.post("/v1/batch-schedulers", json=SCHEDULER).json()["id"]
    url = f"/v1/batch-schedulers/{sid}/epochs"
    for weak in ('W/"1"', "W/1", ' W/"1" '):
        problem = _problem(client.post(url, json={"epoch": 1, "losses": LOSSES}, headers={"If-Match": weak}), 412)
        assert "weak" in problem["detail"], problem
    assert client.get(f"/v1/batch-schedulers/{sid}").json()["version"] == 1
    assert client.post(url, json={"epoch": 1, "losses": LOSSES}, headers={"If-Match": '"1"'}).status_code == 200


def test_if_match_takes_a_list_of_strong_etags(client):
    sid = client.post("/v1/batch-schedulers", json=SCHEDULER).json()["id"]
    url = f"/v1/batch-schedulers/{sid}/epochs"
    assert client.post(url, json={"epoch": 1, "losses": LOSSES},
                       headers={"If-Match": 'W/"1", "7"'}).status_code == 412
    assert client.post(url, json={"epoch": 1, "losses": LOSSES},
                       headers={"If-Match": '"7", "1"'}).status_code == 200
