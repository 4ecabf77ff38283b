"""Concurrency against a real server process (``python -m service serve``), on SQLite and PostgreSQL.

* Sixteen clients send 10,000 reported observations, each twice and at the same
  moment from two different clients, to group samplers: every counter must come
  out exact (SPEC §3: a retried report counts once; concurrent changes to one
  session are serialised, none lost).
* SQLite only: eight writers of mixed requests for a minute must never see
  "database is locked" or a 5xx (SPEC §6: WAL, busy timeout, ``BEGIN IMMEDIATE``).

Both print what they measured (run with ``-s`` to see it).
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sqlalchemy import func, select

from service.idempotency import IdempotencyRecord
from service.jobs.models import Job
from service.sessions.models import Decision
from tests.conftest import on_postgres
from tests.factories import make_key
from tests.live import Client, Reply, serve, wait_for

pytestmark = pytest.mark.slow

SAMPLERS = "/v1/group-samplers"
GROUPS = ("a", "b", "c")
BIG_BUDGET = 10**12

N_OBSERVATIONS = 10_000
N_CLIENTS = 16
N_SAMPLERS = 8  # spreads the row locks on PostgreSQL; SQLite has one writer whatever the spread
KEYED_EVERY = 5  # one observation in five also carries an Idempotency-Key (the same on both copies)
SYNC_EVERY = 25  # clients meet at a barrier this often, so the two copies of a report stay in step
IN_FLIGHT_RETRY = 0.02  # s between retries of a 409 "still in progress" (the first copy holds the key)
IN_FLIGHT_TRIES = 1_000

WRITERS = 8
WRITE_SECONDS = 60.0
LATENCY_LIMIT = 5.0  # s: SQLite's busy timeout; a request this slow was one step from "database is locked"


def _problems_in(log: Path) -> list[str]:
    text = log.read_text(errors="replace")
    return [line for line in text.splitlines() if "database is locked" in line or "Traceback" in line]


# ================================================================================ exact counters


@dataclass(frozen=True)
class Observation:
    index: int
    sampler: int
    body: dict
    key: str | None


@dataclass
class Sent:
    """One copy of one observation as a client saw it."""

    observation: int
    reply: Reply | None = None
    error: str | None = None
    in_flight: int = 0  # 409 answers while the other copy held the Idempotency-Key
    start: float = 0.0
    end: float = 0.0


def _observations(rng: random.Random) -> list[Observation]:
    out = []
    for k in range(N_OBSERVATIONS):
        group = rng.choice(GROUPS)
        body = {"observation_id": f"obs-{k}", "group": group, "n_acquired": rng.randint(1, 9),
                "group_losses": {group: round(rng.random(), 6)}}
        out.append(Observation(k, k % N_SAMPLERS, body, f"key-{k}" if k % KEYED_EVERY == 0 else None))
    return out


def _send(client: Client, sampler_ids: list[str], observation: Observation, sent: Sent) -> None:
    path = f"{SAMPLERS}/{sampler_ids[observation.sampler]}/observations"
    headers = {"Idempotency-Key": observation.key} if observation.key else None
    sent.start = time.perf_counter()
    try:
        for _ in range(IN_FLIGHT_TRIES):
            reply = client.post(path, observation.body, headers)
            if reply.status == 409 and observation.key and "in progress" in reply.body.decode():
                sent.in_flight += 1
                time.sleep(IN_FLIGHT_RETRY)
                continue
            sent.reply = reply
            break
        else:
            sent.error = "still in flight after every retry"
    except Exception as exc:  # noqa: BLE001 - every failure is reported by the test
        sent.error = f"{type(exc).__name__}: {exc}"
    sent.end = time.perf_counter()


def test_duplicated_concurrent_reports_leave_exact_counters(database_url, sessions, tmp_path):
    key = make_key(sessions, "load")
    observations = _observations(random.Random(20261122))
    # The two copies of each report sit next to each other in the send order, so they go to
    # two different clients at the same position of their queues: they race.
    order = list(range(N_OBSERVATIONS))
    random.Random(7).shuffle(order)
    sends = [Sent(k) for k in order for _copy in range(2)]
    queues = [sends[c::N_CLIENTS] for c in range(N_CLIENTS)]
    assert len({len(q) for q in queues}) == 1  # the barrier needs equal queues
    log = tmp_path / "server.log"
    with serve(database_url, log) as server:
        port = server.port
        with Client(port, key) as setup:
            sampler_ids = []
            for i in range(N_SAMPLERS):
                reply = setup.post(SAMPLERS, {"groups": list(GROUPS), "strategy": "aopt", "budget": BIG_BUDGET,
                                              "seed": i})
                assert reply.status == 201, reply.body
                sampler_ids.append(reply.json()["id"])
        barrier = threading.Barrier(N_CLIENTS)

        def run(queue: list[Sent]) -> None:
            with Client(port, key) as client:
                for i, sent in enumerate(queue):
                    if i % SYNC_EVERY == 0:
                        barrier.wait(timeout=120)
                    _send(client, sampler_ids, observations[sent.observation], sent)

        threads = [threading.Thread(target=run, args=(q,)) for q in queues]
        started, server_cpu, client_cpu = time.perf_counter(), server.cpu_seconds(), time.process_time()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        server_cpu, client_cpu = server.cpu_seconds() - server_cpu, time.process_time() - client_cpu
        with Client(port, key) as reader:
            finals = [reader.get(f"{SAMPLERS}/{sid}").json() for sid in sampler_ids]
    problems = _problems_in(log)

    errors = [(s.observation, s.error) for s in sends if s.error]
    assert errors == [], errors[:5]
    bad = [(s.observation, s.reply.status, s.reply.body[:200]) for s in sends if s.reply.status != 200]
    assert bad == [], bad[:5]
    assert problems == [], problems[:5]

    copies: dict[int, list[Sent]] = defaultdict(list)
    for sent in sends:
        copies[sent.observation].append(sent)
    raced = 0
    applied: dict[int, list[tuple[int, Observation, dict]]] = defaultdict(list)
    for k, (first, second) in copies.items():
        # Both copies get the same answer, and exactly one of them is the original.
        assert first.reply.json() == second.reply.json(), k
        replayed = [s.reply.headers.get("idempotent-replayed") == "true" for s in (first, second)]
        assert sorted(replayed) == [False, True], (k, replayed)
        raced += first.start < second.end and second.start < first.end
        answer = first.reply.json()
        applied[observations[k].sampler].append((answer["round"], observations[k], answer))

    for s, sid in enumerate(sampler_ids):
        # Serialised and none lost: the rounds the answers report are exactly 1..n, and the
        # counts in each answer are the sums of the observations applied before it.
        mine = sorted(applied[s], key=lambda item: item[0])
        assert [r for r, _, _ in mine] == list(range(1, len(mine) + 1))
        counts = dict.fromkeys(GROUPS, 0)
        for _, observation, answer in mine:
            counts[observation.body["group"]] += observation.body["n_acquired"]
            assert answer["counts"] == counts, (sid, answer["round"])
        final = finals[s]
        assert final["counts"] == counts and final["round"] == len(mine)
        assert final["budget_remaining"] == BIG_BUDGET - sum(counts.values())
        assert final["version"] == 1 + len(mine)

    with sessions() as db:
        logged = dict(db.execute(
            select(Decision.session_id, func.count()).where(Decision.kind == "observation")
            .group_by(Decision.session_id)).all())
        distinct = db.scalar(select(func.count(func.distinct(Decision.client_ref))).where(
            Decision.kind == "observation"))
        records = Counter(db.scalars(select(IdempotencyRecord.status)))
    assert {str(k): v for k, v in logged.items()} == {sid: len(applied[s]) for s, sid in enumerate(sampler_ids)}
    assert distinct == N_OBSERVATIONS
    assert records == {"completed": N_OBSERVATIONS // KEYED_EVERY}

    in_flight = sum(s.in_flight for s in sends)
    print(f"\n[{'postgresql' if on_postgres() else 'sqlite'}] {len(sends)} reports ({N_OBSERVATIONS} observations "
          f"x 2) from {N_CLIENTS} clients to {N_SAMPLERS} samplers in {elapsed:.1f} s = "
          f"{len(sends) / elapsed:.0f} requests/s; API process CPU {server_cpu:.1f} s "
          f"({server_cpu / len(sends) * 1e3:.2f} ms per report), clients' CPU {client_cpu:.1f} s; load average "
          f"{os.getloadavg()[0]:.1f}; {raced} of {N_OBSERVATIONS} pairs overlapped in time; "
          f"{in_flight} answers 409 in flight (retried)")


# ================================================================================ SQLite writers


@dataclass
class Tally:
    ok: Counter = field(default_factory=Counter)
    failures: list[tuple[str, int, bytes]] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    observed: Counter = field(default_factory=Counter)  # (sampler index, group) -> samples counted
    epochs: int = 0


def _dataset(rng: random.Random, rows: int = 200, features: int = 4) -> dict:
    return {"name": "load", "features": [[round(rng.gauss(0, 1), 5) for _ in range(features)] for _ in range(rows)],
            "groups": [rng.choice(GROUPS) for _ in range(rows)], "labels": [rng.randint(0, 1) for _ in range(rows)]}


def _managed_observation(rng: random.Random, index: int) -> dict:
    def samples(n: int) -> dict:
        return {"features": [[round(rng.gauss(0, 1), 5), round(rng.gauss(0, 1), 5)] for _ in range(n)],
                "labels": [i % 2 for i in range(n)]}

    return {"observation_id": f"managed-{index}", "group": rng.choice(GROUPS), "train": samples(20),
            "validation": samples(10)}


@pytest.mark.skipif(on_postgres(), reason="SQLite's single writer is what this test loads")
def test_sqlite_writers_for_a_minute_see_no_lock_errors(database_url, sessions, tmp_path):
    """Eight writers and a job worker: observations, decisions, epochs, uploads and managed fits."""
    key = make_key(sessions, "writers")
    log = tmp_path / "server.log"
    # A worker process polls (a write transaction: BEGIN IMMEDIATE) five times a second and
    # renews its lease every second, so the API's writers share the file with another process.
    env = {"FAIRACQ_JOB_POLL_SECONDS": "0.2", "FAIRACQ_JOB_HEARTBEAT_SECONDS": "1",
           "FAIRACQ_JOB_LEASE_SECONDS": "10"}
    with serve(database_url, log, workers=1, env=env) as server:
        port = server.port
        with Client(port, key) as setup:
            samplers = [setup.post(SAMPLERS, {"groups": list(GROUPS), "strategy": "aopt", "budget": BIG_BUDGET,
                                              "seed": i}).json()["id"] for i in range(2)]
            managed = setup.post(SAMPLERS, {"groups": list(GROUPS), "strategy": "aopt", "budget": BIG_BUDGET,
                                            "mode": "managed", "seed": 9}).json()["id"]
            schedulers = []
            for _ in range(WRITERS):
                reply = setup.post("/v1/batch-schedulers", {
                    "metric": "equal_opportunity", "labels": [0, 1], "groups": list(GROUPS), "batch_size": 32,
                    "counts": [{"label": y, "group": z, "count": 10 + 5 * y} for y in (0, 1) for z in GROUPS]})
                assert reply.status == 201, reply.body
                schedulers.append(reply.json()["id"])
        tallies = [Tally() for _ in range(WRITERS)]
        deadline = time.monotonic() + WRITE_SECONDS

        def write(w: int) -> None:
            rng, tally = random.Random(w), tallies[w]
            last_managed = 0.0
            with Client(port, key) as client:
                i = 0
                while time.monotonic() < deadline:
                    i += 1
                    kind, path, body, headers, expect = _next_write(w, i, rng, samplers, schedulers[w], tally)
                    if w == 0 and time.monotonic() - last_managed > 3.0:  # a refit every ~3 s
                        kind, path, body, headers, expect = ("managed", f"{SAMPLERS}/{managed}/observations",
                                                             _managed_observation(rng, i), None, 202)
                        last_managed = time.monotonic()
                    start = time.perf_counter()
                    try:
                        reply = client.post(path, body, headers)
                    except Exception as exc:  # noqa: BLE001 - reported below
                        tally.failures.append((kind, 0, repr(exc).encode()))
                        return
                    tally.latencies.append(time.perf_counter() - start)
                    if reply.status != expect:
                        tally.failures.append((kind, reply.status, reply.body[:300]))
                        continue
                    tally.ok[kind] += 1
                    if kind == "observation":
                        tally.observed[(samplers.index(path.split("/")[3]), body["group"])] += body["n_acquired"]
                    elif kind == "epoch":
                        tally.epochs += 1

        threads = [threading.Thread(target=write, args=(w,)) for w in range(WRITERS)]
        started, server_cpu = time.perf_counter(), server.cpu_seconds()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed, server_cpu = time.perf_counter() - started, server.cpu_seconds() - server_cpu
        with Client(port, key) as reader:
            finals = [reader.get(f"{SAMPLERS}/{sid}").json() for sid in samplers]
            epochs = [reader.get(f"/v1/batch-schedulers/{sid}").json()["epoch"] for sid in schedulers]
            fits = _wait_for_fits(reader, managed)
    problems = _problems_in(log)

    failures = [f for t in tallies for f in t.failures]
    assert failures == [], failures[:5]
    assert problems == [], problems[:5]
    observed = sum((t.observed for t in tallies), Counter())
    for s, final in enumerate(finals):
        assert final["counts"] == {g: observed[(s, g)] for g in GROUPS}
    assert epochs == [t.epochs for t in tallies]
    assert fits["failed"] == 0, fits

    ok = sum((t.ok for t in tallies), Counter())
    latencies = sorted(x for t in tallies for x in t.latencies)
    p50, p99 = latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.99)]
    assert latencies[-1] < LATENCY_LIMIT
    with sessions() as db:
        jobs = Counter(db.scalars(select(Job.status)))
    total = sum(ok.values())
    print(f"\n[sqlite] {WRITERS} writers + 1 job worker for {elapsed:.1f} s: {total} writes = {total / elapsed:.0f}/s "
          f"({', '.join(f'{k} {v}' for k, v in sorted(ok.items()))}); latency p50 {p50 * 1e3:.1f} ms, "
          f"p99 {p99 * 1e3:.1f} ms, max {latencies[-1] * 1e3:.0f} ms; API process CPU {server_cpu:.1f} s; "
          f"load average {os.getloadavg()[0]:.1f}; fit jobs {dict(jobs)}; 0 errors")


def _next_write(w: int, i: int, rng: random.Random, samplers: list[str], scheduler: str,
                tally: Tally) -> tuple[str, str, dict | None, dict | None, int]:
    """The i-th write of writer w: mostly observations and decisions, some epochs and uploads."""
    slot = i % 10
    if slot in (0, 1, 2, 3, 9):
        group = rng.choice(GROUPS)
        body = {"observation_id": f"w{w}-{i}", "group": group, "n_acquired": rng.randint(1, 9),
                "group_losses": {group: round(rng.random(), 6)}}
        headers = {"Idempotency-Key": f"w{w}-{i}"} if slot == 9 else None
        return "observation", f"{SAMPLERS}/{rng.choice(samplers)}/observations", body, headers, 200
    if slot == 4:
        return "next", f"{SAMPLERS}/{rng.choice(samplers)}/next", None, None, 200
    if slot in (5, 6, 7):
        losses = [{"label": y, "group": z, "loss": round(rng.random(), 4)} for y in (0, 1) for z in GROUPS]
        return "epoch", f"/v1/batch-schedulers/{scheduler}/epochs", {"epoch": tally.epochs + 1, "losses": losses}, \
            None, 200
    return "dataset", "/v1/datasets", _dataset(rng), None, 201


def _wait_for_fits(client: Client, sampler_id: str, timeout: float = 60.0) -> dict[str, int]:
    """Wait until the managed sampler's fits have caught up; count its jobs by status."""

    def caught_up() -> dict[str, int] | None:
        state = client.get(f"{SAMPLERS}/{sampler_id}").json()
        jobs = client.get("/v1/jobs?limit=500").json()["items"]
        mine = Counter(j["status"] for j in jobs if j["resource"]["id"] == sampler_id)
        if mine["queued"] or mine["running"]:
            return None
        return {"failed": mine["failed"], "succeeded": mine["succeeded"], "model_version": state["model_version"]}

    return wait_for(caught_up, timeout, "the sampler's fit jobs to finish", every=0.5)


CROWD = 48  # clients at once: three times the connections the PostgreSQL pool may open
CROWD_ROUNDS = 15
CROWD_LIMIT = 15.0  # s for a request: half the pool's 30 s checkout timeout, which a stall would reach


def test_a_crowd_of_readers_and_writers_never_stalls_the_server(database_url, sessions, tmp_path):
    """More requests at once than the database pool has connections: every one answers promptly.

    Regression: a reader took its connection on the event loop, so with the pool spent
    the loop waited for a connection that only the loop could give back (30 s stall).
    """
    key = make_key(sessions, "crowd")
    with serve(database_url, tmp_path / "server.log") as server, Client(server.port, key) as setup:
        sampler = setup.post(SAMPLERS, {"groups": list(GROUPS), "strategy": "aopt", "budget": BIG_BUDGET}).json()["id"]
        metrics = {"predictions": [0, 1, 1, 0], "labels": [0, 1, 0, 1], "groups": ["a", "a", "b", "b"],
                   "metrics": ["demographic_parity"]}
        calls = [("GET", f"{SAMPLERS}/{sampler}", None), ("POST", "/v1/fairness-metrics", metrics),
                 ("POST", f"{SAMPLERS}/{sampler}/next", {}), ("GET", f"{SAMPLERS}/{sampler}/decisions", None)]
        slowest, statuses, lock = [0.0], Counter(), threading.Lock()
        start = threading.Barrier(CROWD)

        def crowd(c: int) -> None:
            with Client(server.port, key) as client:
                start.wait()
                for r in range(CROWD_ROUNDS):
                    method, path, body = calls[(c + r) % len(calls)]
                    began = time.monotonic()
                    reply = client.request(method, path, body)
                    with lock:
                        slowest[0] = max(slowest[0], time.monotonic() - began)
                        statuses[reply.status] += 1

        threads = [threading.Thread(target=crowd, args=(c,)) for c in range(CROWD)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(f"\n{CROWD} clients x {CROWD_ROUNDS}: statuses {dict(statuses)}, slowest {slowest[0]:.2f} s")
        assert statuses == Counter({200: CROWD * CROWD_ROUNDS})
        assert slowest[0] < CROWD_LIMIT
        decisions = setup.get(f"{SAMPLERS}/{sampler}/decisions?limit=500").json()["items"]
        nexts = sum(1 for c in range(CROWD) for r in range(CROWD_ROUNDS) if (c + r) % len(calls) == 2)
        assert sum(d["kind"] == "next" for d in decisions) == nexts
