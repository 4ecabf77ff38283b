"""What a batch of decisions costs at the least: its rows and its JSON alone, in plain sqlite3.

Run from the project root::

    .venv/bin/python -m bench.decision_floor            # 200 calls of 100 decisions
    .venv/bin/python -m bench.decision_floor --calls 50

The service writes, per decision of ``POST /v1/group-samplers/{id}/decisions``, one
decision-log row (its response as JSON) and one reservation row, and answers with
every decision as JSON. This script does only that, with no framework, no ORM, no
validation and no algorithm (the group is a fixed rotation): ``BEGIN IMMEDIATE``,
one ``executemany`` per table, the session row's UPDATE, ``COMMIT``, and the JSON
of the answer, on a database migrated by ``python -m service migrate`` (the
service's own tables and indexes, WAL, ``synchronous=NORMAL``). Its decisions per
second of CPU bound what any implementation in CPython on this machine can reach
while it keeps a log row and a reservation per decision; the load benchmark's
decisions-batch target (20,000 decisions/s at 100 per call) is read against it.

A diagnostic, not a target: it prints one line and writes nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

__all__ = ["floor", "main"]

GROUPS = ("a", "b", "c", "d")
PER_CALL = 100


def _database(folder: Path) -> sqlite3.Connection:
    path = folder / "floor.db"
    env = {**os.environ, "FAIRACQ_DATABASE_URL": f"sqlite:///{path}"}
    subprocess.run([sys.executable, "-m", "service", "migrate"], env=env, check=True, capture_output=True)
    connection = sqlite3.connect(path, isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON"):
        connection.execute(f"PRAGMA {pragma}")
    return connection


def _session(connection: sqlite3.Connection) -> str:
    tenant, session = uuid.uuid4().hex, uuid.uuid4().hex
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    connection.execute("INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)", (tenant, "floor", now))
    connection.execute(
        "INSERT INTO sessions (id, tenant_id, kind, status, config, state, version, seed, sequence, created_at, "
        "updated_at) VALUES (?, ?, 'group_sampler', 'active', '{}', '{}', 1, 1, 0, ?, ?)", (session, tenant, now, now))
    return session


def _call(connection: sqlite3.Connection, session: str, first: int) -> bytes:
    """One call of PER_CALL decisions: their rows, the session's UPDATE and the answer's JSON."""
    now = datetime.now(UTC)
    stamp, expires = now.strftime("%Y-%m-%d %H:%M:%S.%f"), now + timedelta(hours=1)
    expires_at, expires_iso = expires.strftime("%Y-%m-%d %H:%M:%S.%f"), expires.isoformat().replace("+00:00", "Z")
    logs, reservations, answers = [], [], []
    for k in range(PER_CALL):
        sequence, arm, decision = first + k, k % len(GROUPS), uuid.uuid4()
        answer = {"decision_id": str(decision), "round": sequence, "group": GROUPS[arm], "batch_size": 1,
                  "reason": "uniform", "note": f"fewest samples ({sequence // len(GROUPS)})",
                  "scores": {g: {"loss": None, "bonus": 0.0, "trend": 0.0, "ucb": None} for g in GROUPS},
                  "budget_remaining": 10**9 - sequence, "expires_at": expires_iso, "model_version": None,
                  "fit_pending": None}
        answers.append(answer)
        logs.append((decision.hex, session, sequence, "next", None, "{}", json.dumps(answer), 2, None, stamp))
        reservations.append((decision.hex, session, arm, 1, sequence, expires_at, stamp))
    connection.execute("BEGIN IMMEDIATE")
    connection.executemany("INSERT INTO decisions (id, session_id, sequence, kind, client_ref, request, response, "
                           "state_version, key_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", logs)
    connection.executemany("INSERT INTO pending_decisions (decision_id, session_id, arm, size, sequence, expires_at, "
                           "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)", reservations)
    connection.execute("UPDATE sessions SET state = ?, version = version + 1, sequence = ?, updated_at = ? "
                       "WHERE id = ?", ('{"pending": [25, 25, 25, 25]}', first + PER_CALL - 1, stamp, session))
    connection.execute("COMMIT")
    return json.dumps({"decisions": answers}).encode()


def floor(calls: int) -> float:
    """Decisions per second of this process's CPU over ``calls`` calls (after 20 to warm up)."""
    with tempfile.TemporaryDirectory() as folder:
        connection = _database(Path(folder))
        session = _session(connection)
        sequence = 1
        for _ in range(20):
            _call(connection, session, sequence)
            sequence += PER_CALL
        start = time.process_time()
        for _ in range(calls):
            _call(connection, session, sequence)
            sequence += PER_CALL
        elapsed = time.process_time() - start
        connection.close()
    return calls * PER_CALL / elapsed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.decision_floor", description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args(argv)
    rate = floor(args.calls)
    print(f"decision floor: {rate:,.0f} decisions per CPU second ({1e6 / rate:.1f} µs a decision), "
          f"{PER_CALL} per call, plain sqlite3 + json, no framework, ORM, validation or algorithm")


if __name__ == "__main__":
    main()
