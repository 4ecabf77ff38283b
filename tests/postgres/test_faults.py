"""PostgreSQL stopped for a few seconds under load, then started again.

An API process (``serve --workers 0``) takes steady load from client threads — batch-scheduler
epochs and dataset uploads — while the test stops PostgreSQL (``pg_ctl stop -m fast``) and
starts it again. During the outage every request answers 503 problem+json quickly (never a
500, never a hang); within 10 s of the database's return requests succeed again; and nothing
is half-written: every acknowledged epoch is in its scheduler's history exactly once, the
versions and the decision log agree, and every acknowledged upload is there, whole.

Runs only when ``FAIRACQ_TEST_PG_DIR`` names the throwaway server of ``scripts/pg_tmp.sh``
that ``FAIRACQ_TEST_DATABASE_URL`` points at (``scripts/test.sh`` sets both). The server is
started again whatever happens, since the rest of the suite needs it.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from sqlalchemy.engine import make_url

from tests.conftest import POSTGRES_URL, on_postgres
from tests.factories import dataset_payload
from tests.live import serve

PG_DIR = os.environ.get("FAIRACQ_TEST_PG_DIR")
PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))

pytestmark = pytest.mark.skipif(not (on_postgres() and PG_DIR),
                                reason="needs the throwaway PostgreSQL of scripts/pg_tmp.sh (FAIRACQ_TEST_PG_DIR)")

OUTAGE_S = 3.0
HANG_S = 5.0  # the slowest acceptable answer, outage or not
RECOVERY_S = 10.0  # after the database accepts connections again
BASELINE_S = 1.5
PAUSE_S = 0.02  # between one thread's requests: steady load, not a flood, on a 2-core machine
UPLOAD_ROWS = 30


class Postgres:
    """Stop and start the throwaway server with the options it was started with."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.port = int((folder / "port").read_text())
        # postmaster.opts holds the server's command line: reuse it, minus the binary and -D.
        argv = shlex.split((self.data / "postmaster.opts").read_text())[1:]
        at = argv.index("-D")
        self.options = shlex.join(argv[:at] + argv[at + 2:])

    def _pg_ctl(self, *args: str) -> subprocess.CompletedProcess:
        command = shlex.join([str(PG_BIN / "pg_ctl"), "-D", str(self.data), *args])
        argv = ["su", "postgres", "-s", "/bin/sh", "-c", command] if os.geteuid() == 0 else ["sh", "-c", command]
        return subprocess.run(argv, capture_output=True, text=True, timeout=120)

    def running(self) -> bool:
        return self._pg_ctl("status").returncode == 0

    def stop(self) -> None:
        done = self._pg_ctl("stop", "-m", "fast", "-w")
        assert done.returncode == 0, done.stderr

    def start(self) -> None:
        done = self._pg_ctl("start", "-w", "-l", str(self.folder / "server.log"), "-o", self.options)
        assert done.returncode == 0, done.stderr


@pytest.fixture
def postgres() -> Iterator[Postgres]:
    server = Postgres(Path(PG_DIR or ""))
    url_port = make_url(POSTGRES_URL or "").port
    assert url_port == server.port, (
        f"FAIRACQ_TEST_PG_DIR's server listens on {server.port} but the test database is on {url_port}: "
        "refusing to restart a server the tests do not own")
    assert server.running()
    try:
        yield server
    finally:
        if not server.running():
            server.start()


@pytest.fixture
def api(database_url, tmp_path) -> Iterator[str]:
    log = tmp_path / "api.log"
    try:
        with serve(database_url, log) as server:
            yield server.base_url
    finally:
        print(log.read_text()[-3000:])


@dataclass
class Call:
    thread: str
    started: float
    took: float
    status: int | None  # None: no answer (a timeout or a dropped connection)
    body: str
    content_type: str | None


@dataclass
class Load:
    base: str
    stop: threading.Event = field(default_factory=threading.Event)
    calls: list[Call] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    deadline: float = 0.0  # once stopped, an epoch thread retries its unacknowledged epoch until then

    def send(self, http: httpx.Client, thread: str, method: str, url: str, **kwargs) -> httpx.Response | None:
        started = time.monotonic()
        try:
            response: httpx.Response | None = http.request(method, url, **kwargs)
        except httpx.HTTPError as exc:
            response, status, body, kind = None, None, repr(exc), None
        else:
            status, body, kind = response.status_code, response.text, response.headers.get("content-type")
        with self.lock:
            self.calls.append(Call(thread, started, time.monotonic() - started, status, body, kind))
        return response

    def epochs(self, name: str, scheduler: str, acked: list[int]) -> None:
        """Report epochs 1, 2, …; an unanswered epoch is sent again (a repeat counts once)."""
        with httpx.Client(base_url=self.base, timeout=2 * HANG_S) as http:
            epoch = 1
            while True:
                response = self.send(http, name, "POST", f"/v1/batch-schedulers/{scheduler}/epochs",
                                     json={"epoch": epoch, "losses": _losses(epoch)})
                if response is not None and response.status_code == 200:
                    acked.append(epoch)
                    epoch += 1
                    if self.stop.is_set():  # stop only between epochs: the last one is acknowledged
                        return
                elif self.stop.is_set() and time.monotonic() > self.deadline:
                    return
                time.sleep(PAUSE_S)

    def uploads(self, name: str, acked: dict[str, str]) -> None:
        """Upload datasets; one that is not acknowledged is not retried (no Idempotency-Key)."""
        with httpx.Client(base_url=self.base, timeout=2 * HANG_S) as http:
            i = 0
            while not self.stop.is_set():
                label = f"{name}-{i}"
                response = self.send(http, name, "POST", "/v1/datasets",
                                     json={**dataset_payload(n=UPLOAD_ROWS, seed=i), "name": label})
                if response is not None and response.status_code == 201:
                    acked[response.json()["id"]] = label
                i += 1
                time.sleep(PAUSE_S)


def _losses(epoch: int) -> list[dict]:
    return [{"label": y, "group": g, "loss": 0.2 + 0.1 * y + (0.05 if g == "b" else 0.0) / epoch}
            for y in (0, 1) for g in ("a", "b")]


def _scheduler(base: str) -> str:
    response = httpx.post(f"{base}/v1/batch-schedulers", timeout=10, json={
        "metric": "equal_opportunity", "labels": [0, 1], "groups": ["a", "b"], "batch_size": 20, "seed": 1,
        "counts": [{"label": y, "group": g, "count": 25} for y in (0, 1) for g in ("a", "b")]})
    assert response.status_code == 201, response.text
    assert response.headers["etag"] == '"1"'
    return response.json()["id"]


def _all_pages(base: str, url: str) -> list[dict]:
    items, cursor = [], None
    while True:
        params = {"limit": 500, **({"cursor": cursor} if cursor else {})}
        page = httpx.get(f"{base}{url}", params=params, timeout=10).json()
        items += page["items"]
        cursor = page["next_cursor"]
        if cursor is None:
            return items


def _first_success_after(calls: list[Call], thread: str, moment: float) -> float | None:
    times = [c.started + c.took for c in calls if c.thread == thread and c.started >= moment
             and c.status is not None and c.status < 300]
    return min(times) - moment if times else None


def _poll(base: str, until: Callable[[], bool], readyz: list[tuple[float, int | None, float]]) -> None:
    while not until():
        started = time.monotonic()
        try:
            status: int | None = httpx.get(f"{base}/readyz", timeout=2 * HANG_S).status_code
        except httpx.HTTPError:
            status = None
        readyz.append((started, status, time.monotonic() - started))
        time.sleep(0.1)


def test_postgres_restart_under_load(api, postgres):
    schedulers = {f"epochs-{i}": _scheduler(api) for i in range(2)}
    epochs_acked: dict[str, list[int]] = {name: [] for name in schedulers}
    uploads_acked: dict[str, dict[str, str]] = {f"uploads-{i}": {} for i in range(2)}
    load = Load(api)
    threads = [threading.Thread(target=load.epochs, args=(name, sid, epochs_acked[name]))
               for name, sid in schedulers.items()]
    threads += [threading.Thread(target=load.uploads, args=(name, acked)) for name, acked in uploads_acked.items()]
    names = [*schedulers, *uploads_acked]
    readyz: list[tuple[float, int | None, float]] = []
    for thread in threads:
        thread.start()
    try:
        time.sleep(BASELINE_S)
        went_down = time.monotonic()
        postgres.stop()
        down_until = time.monotonic() + OUTAGE_S
        _poll(api, lambda: time.monotonic() > down_until, readyz)
        postgres.start()
        back = time.monotonic()
        # Run on until every thread has succeeded again, or the recovery budget is spent.
        _poll(api, lambda: time.monotonic() > back + RECOVERY_S + 2 or all(
            _first_success_after(list(load.calls), n, back) is not None for n in names), readyz)
    finally:
        load.deadline = time.monotonic() + 30
        load.stop.set()
        for thread in threads:
            thread.join(60)
    assert not any(thread.is_alive() for thread in threads)

    calls = load.calls
    statuses = sorted({(c.status, sum(d.status == c.status for d in calls)) for c in calls}, key=str)
    print(f"\n{len(calls)} requests; outage {back - went_down:.1f} s; statuses {statuses}; "
          f"slowest {max(c.took for c in calls):.2f} s")
    # Before the outage the load went through.
    assert all(any(c.thread == n and c.started < went_down and c.status in (200, 201) for c in calls) for n in names)
    # Every request was answered, quickly, with success or a clean 503 problem.
    unanswered = [c for c in calls if c.status is None]
    assert not unanswered, unanswered[:3]
    slow = [c for c in calls if c.took > HANG_S]
    assert not slow, slow[:3]
    assert {c.status for c in calls} <= {200, 201, 503}, [c for c in calls if c.status not in (200, 201, 503)][:3]
    outage = [c for c in calls if c.status == 503]
    assert {c.thread for c in outage} == set(names), "every thread saw the outage"
    assert all(c.content_type == "application/problem+json" and '"status":503' in c.body for c in outage)
    assert any(status == 503 for _, status, _ in readyz) and all(took < HANG_S for _, _, took in readyz)
    # Recovery within RECOVERY_S of the database's return.
    recovered = {n: _first_success_after(calls, n, back) for n in names}
    print(f"recovered after {recovered}")
    assert all(t is not None and t <= RECOVERY_S for t in recovered.values()), recovered
    assert any(s == 200 and t >= back for t, s, _ in readyz)

    # No partial writes: acknowledged epochs once each, versions and decision log in step.
    for name, sid in schedulers.items():
        acked = epochs_acked[name]
        assert acked == list(range(1, len(acked) + 1)) and len(acked) > 1
        state = httpx.get(f"{api}/v1/batch-schedulers/{sid}", timeout=10)
        body = state.json()
        assert [h["epoch"] for h in body["history"]] == acked
        assert body["epoch"] == acked[-1] and body["version"] == 1 + len(acked)
        assert state.headers["etag"] == f'"{body["version"]}"'
        log = _all_pages(api, f"/v1/batch-schedulers/{sid}/decisions")
        assert [d["sequence"] for d in log] == list(range(1, len(acked) + 2))
        assert [d["state_version"] for d in log] == list(range(1, len(acked) + 2))
    # Acknowledged uploads are all there and whole; any other is whole too.
    acked_uploads = {i: label for acked in uploads_acked.values() for i, label in acked.items()}
    stored = {d["id"]: d for d in _all_pages(api, "/v1/datasets")}
    assert set(acked_uploads) <= set(stored)
    assert all(stored[i]["name"] == label for i, label in acked_uploads.items())
    assert all(d["n_rows"] == UPLOAD_ROWS and d["n_features"] == 3 for d in stored.values())
