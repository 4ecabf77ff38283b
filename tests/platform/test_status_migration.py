"""Rows stored with the old status words read back in the one vocabulary after ``migrate``."""

from __future__ import annotations

import uuid

from sqlalchemy import text

from service.db import make_engine
from service.migrations import upgrade

OLD_TO_NEW = {
    ("group_sampler", "active"): "ready", ("group_sampler", "exhausted"): "done",
    ("batch_scheduler", "active"): "ready", ("balanced_filter", "fitting"): "pending",
    ("balanced_filter", "ready"): "ready", ("partition_bandit", "partitioning"): "pending",
    ("partition_bandit", "done"): "done", ("fair_regression", "fitting"): "pending",
    ("fair_regression", "succeeded"): "ready",
}


def test_old_status_words_are_rewritten_and_back(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0003_job_context")
    engine = make_engine(url)
    tenant = uuid.uuid4().hex
    ids = {}
    with engine.begin() as db:
        db.execute(text("INSERT INTO tenants (id, name, created_at) VALUES (:id, 't', CURRENT_TIMESTAMP)"),
                   {"id": tenant})
        for (kind, old) in OLD_TO_NEW:
            ids[(kind, old)] = uuid.uuid4().hex
            db.execute(text("INSERT INTO sessions (id, tenant_id, kind, status, config, state, version, seed, "
                            "sequence, created_at, updated_at) VALUES (:id, :tenant, :kind, :status, '{}', '{}', "
                            "1, 1, 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"),
                       {"id": ids[(kind, old)], "tenant": tenant, "kind": kind, "status": old})
    upgrade(url, "head")
    with engine.connect() as db:
        now = {row.id: row.status for row in db.execute(text("SELECT id, status FROM sessions"))}
    assert {key: now[ids[key]] for key in OLD_TO_NEW} == OLD_TO_NEW
    engine.dispose()
