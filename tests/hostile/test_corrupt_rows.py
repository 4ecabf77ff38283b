"""One stored row that cannot be rendered never takes a page down with it (issue 13, item 3).

``epoch = 2**63`` used to be stored, wrapped to a negative int64 in the λ history, and from
then on the scheduler's GET and the tenant's whole list were 500s. The schemas now refuse
such values (tests/hostile/test_numeric_bounds.py); this file damages rows directly in the
database, as a bug or a hand edit might, and checks that

* a list answers 200 with every readable item and names each unreadable one, with the
  reason, under ``skipped`` (its cursor still moves past it);
* a GET of the damaged row is a problem+json of type ``corrupt-state`` naming the row,
  and its decision log stays readable;
* every other row reads as before.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from sqlalchemy import update

from service.datasets.models import Dataset
from service.db import transaction
from service.sessions.models import SessionRecord

PROBLEM = "application/problem+json"
INT64_MIN = -(2**63)
COUNTS = [{"label": 0, "group": "m", "count": 30}, {"label": 1, "group": "m", "count": 20},
          {"label": 0, "group": "f", "count": 30}, {"label": 1, "group": "f", "count": 20}]
SCHEDULER = {"metric": "equal_opportunity", "labels": [0, 1], "groups": ["m", "f"], "batch_size": 10,
             "counts": COUNTS}
PARTITIONS = [{"id": "p1", "size": 500, "centroid": [0, 0], "base_rate_difference": 0.1},
              {"id": "p2", "size": 800, "centroid": [3, 1], "base_rate_difference": 0.4}]
TRAINING = {"features": [[0.0, 1.0], [1.0, 0.0], [0.5, 0.5], [0.2, 0.9]], "groups": ["a", "b", "a", "b"]}
REGRESSION_DATA = {"features": [[0.1], [0.4], [0.6], [0.9]], "groups": ["a", "b", "a", "b"],
                   "labels": [0.0, 1.0, 0.0, 1.0]}
CREATE = {
    "/v1/batch-schedulers": SCHEDULER,
    "/v1/group-samplers": {"groups": ["a", "b"], "strategy": "aopt", "budget": 10},
    "/v1/partition-bandits": {"partitions": PARTITIONS, "batch_size": 50, "budget": 400},
    "/v1/balanced-filters": {"groups": ["a", "b"], "proxy": {"type": "qp_tree", "max_depth": 2}, "training": TRAINING},
    "/v1/fair-regressions": {"data": REGRESSION_DATA, "constraint": {"type": "statistical_parity", "slack": 0.05}},
}


def _damage(sessions, session_id: str, **values: Any) -> None:
    with transaction(sessions) as db:
        db.execute(update(SessionRecord).where(SessionRecord.id == uuid.UUID(session_id)).values(**values))


def _three(client, url: str) -> list[str]:
    """Three new rows' ids in list order (creation time, then id)."""
    for _ in range(3):
        response = client.post(url, json=CREATE[url])
        assert response.status_code in (201, 202), response.text
    ids = [item["id"] for item in client.get(url).json()["items"]]
    assert len(ids) == 3
    return ids


def _check_survives(client, url: str, ids: list[str], bad: str) -> None:
    page = client.get(url)
    assert page.status_code == 200, page.text
    body = page.json()
    assert [item["id"] for item in body["items"]] == [i for i in ids if i != bad]
    assert [entry["id"] for entry in body["skipped"]] == [bad]
    assert body["skipped"][0]["error"], body["skipped"]
    # Paging moves past the damaged row: two pages of one hold the first two rows, one skipped.
    first = client.get(url, params={"limit": 1}).json()
    second = client.get(url, params={"limit": 1, "cursor": first["next_cursor"]}).json()
    seen = [row["id"] for page in (first, second) for row in page["items"] + page["skipped"]]
    assert seen == ids[:2]
    broken = client.get(f"{url}/{bad}")
    assert broken.status_code == 500 and broken.headers["content-type"].startswith(PROBLEM)
    problem = broken.json()
    assert problem["type"].endswith("/corrupt-state") and bad in problem["detail"], problem
    assert client.get(f"{url}/{bad}/decisions").status_code == 200
    for good in (i for i in ids if i != bad):
        assert client.get(f"{url}/{good}").status_code == 200


def test_a_wrapped_epoch_in_one_scheduler_leaves_the_others_readable(client, sessions):
    url = "/v1/batch-schedulers"
    ids = _three(client, url)
    state = client.get(f"{url}/{ids[1]}").json()
    assert state["epoch"] == 0
    # What epoch = 2**63 left behind: the epoch and the history's last row wrapped to -2**63.
    damaged = {"metric": "equal_opportunity", "labels": [0, 1], "groups": ["m", "f"], "positive_label": 1,
               "counts": [[30, 30], [20, 20]], "step_size": 0.005, "batch_size": 10, "threshold": 0.0,
               "epoch": INT64_MIN, "probabilities": [[0.3, 0.3], [0.2, 0.2]],
               "history": {"epoch": [INT64_MIN], "disparity": [0.0], "max_pair_disparity": [0.0],
                           "lambdas": [[0.2]], "moved": [-1]}}
    _damage(sessions, ids[1], state=damaged)
    _check_survives(client, url, ids, ids[1])
    assert "history epochs must count up from 1" in client.get(f"{url}/{ids[1]}").json()["detail"]
    losses = [{"label": y, "group": g, "loss": 0.3} for y in (0, 1) for g in ("m", "f")]
    refused = client.post(f"{url}/{ids[1]}/epochs", json={"epoch": 1, "losses": losses})
    assert refused.status_code == 500 and refused.json()["type"].endswith("/corrupt-state")
    assert client.post(f"{url}/{ids[0]}/epochs", json={"epoch": 1, "losses": losses}).status_code == 200


DAMAGES = [
    ("/v1/batch-schedulers", {"state": {"damaged": True}}),
    ("/v1/group-samplers", {"state": {"damaged": True}}),
    ("/v1/group-samplers", {"config": {"groups": 7}}),
    ("/v1/partition-bandits", {"state": {"damaged": True}}),
    ("/v1/partition-bandits", {"config": {"groups": 7}}),
    ("/v1/balanced-filters", {"config": {"groups": 7}}),
    ("/v1/balanced-filters", {"status": "ready", "state": {"damaged": True}}),  # ready, but no fitted proxy
    ("/v1/fair-regressions", {"state": {"damaged": True}}),
    ("/v1/fair-regressions", {"config": {"groups": 7}}),
]


@pytest.mark.parametrize("position", [0, 2], ids=["first", "last"])
@pytest.mark.parametrize("url,damage", DAMAGES, ids=[f"{u.rsplit('/', 1)[1]}:{','.join(d)}" for u, d in DAMAGES])
def test_a_session_whose_stored_row_cannot_be_rendered_is_skipped_not_fatal(client, sessions, url, damage, position):
    ids = _three(client, url)
    _damage(sessions, ids[position], **damage)
    _check_survives(client, url, ids, ids[position])


def test_a_damaged_dataset_row_is_skipped_not_fatal(client, sessions):
    for i in range(3):
        assert client.post("/v1/datasets", json={"features": [[float(i)], [1.0]]}).status_code == 201
    ids = [d["id"] for d in client.get("/v1/datasets").json()["items"]]
    with transaction(sessions) as db:
        db.execute(update(Dataset).where(Dataset.id == uuid.UUID(ids[1])).values(feature_names={"not": "a list"}))
    page = client.get("/v1/datasets").json()
    assert [d["id"] for d in page["items"]] == [ids[0], ids[2]]
    assert [s["id"] for s in page["skipped"]] == [ids[1]]
    broken = client.get(f"/v1/datasets/{ids[1]}")
    assert broken.status_code == 500 and broken.json()["type"].endswith("/corrupt-state")
