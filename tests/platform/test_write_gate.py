"""A light request on the event loop waits for SQLite's writer without blocking the loop or leaving it."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

import pytest
from sqlalchemy import text

from service import write_gate
from service.db import ON_LOOP, make_engine, make_sessionmaker, sqlite_file
from service.write_gate import WriteGate, begin_on_loop
from tests.conftest import on_postgres

pytestmark = pytest.mark.skipif(on_postgres(), reason="SQLite's write gate and lock")


@pytest.fixture
def gated(database_url):
    engine = make_engine(database_url)
    gate = WriteGate()
    gate.install(engine)
    yield make_sessionmaker(engine), gate
    engine.dispose()


async def _ticks_while(task: asyncio.Task[bool], seconds: float) -> int:
    """How many 5 ms ticks the loop ran in ``seconds`` while ``task`` waited (it must not block the loop)."""
    ticks = 0
    deadline = asyncio.get_running_loop().time() + seconds
    while asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.005)
        ticks += 1
    assert not task.done()
    return ticks


def test_a_gate_held_by_a_thread_is_awaited_on_the_loop(gated) -> None:
    sessions, gate = gated
    held, release = threading.Event(), threading.Event()

    def writer() -> None:
        with sessions.begin() as db:  # takes the gate (BEGIN IMMEDIATE) on this thread
            db.execute(text("SELECT 1"))
            held.set()
            release.wait(5)

    thread = threading.Thread(target=writer)
    thread.start()
    assert held.wait(5)

    async def scenario() -> tuple[int, bool, float]:
        ON_LOOP.set(True)
        db = sessions()
        task = asyncio.create_task(begin_on_loop(db, gate))
        ticks = await _ticks_while(task, 0.2)
        released_at = asyncio.get_running_loop().time()
        release.set()
        begun = await asyncio.wait_for(task, 5)
        waited = asyncio.get_running_loop().time() - released_at
        db.rollback()
        db.close()
        return ticks, begun, waited

    ticks, begun, waited = asyncio.run(scenario())
    thread.join(5)
    assert ticks >= 20  # the loop ran on (40 ticks of 5 ms at best) while the request waited
    assert begun is True
    assert waited < 1.0  # woken by the gate's release, not by a timeout


def test_another_processs_lock_is_retried_until_it_is_let_go(gated, database_url) -> None:
    sessions, gate = gated
    other = sqlite3.connect(sqlite_file(database_url), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # as a job worker's claim would, from a connection without the gate

    async def scenario() -> tuple[int, bool]:
        ON_LOOP.set(True)
        db = sessions()
        task = asyncio.create_task(begin_on_loop(db, gate))
        ticks = await _ticks_while(task, 0.2)
        other.execute("COMMIT")
        begun = await asyncio.wait_for(task, 5)
        db.rollback()
        db.close()
        return ticks, begun

    try:
        ticks, begun = asyncio.run(scenario())
    finally:
        other.close()
    assert ticks >= 20
    assert begun is True


def test_a_lock_held_past_the_busy_timeout_sends_the_request_to_a_thread(gated, database_url, monkeypatch) -> None:
    sessions, gate = gated
    monkeypatch.setattr(write_gate, "SQLITE_BUSY_TIMEOUT_MS", 100)
    other = sqlite3.connect(sqlite_file(database_url), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")

    async def scenario() -> bool:
        ON_LOOP.set(True)
        db = sessions()
        try:
            return await asyncio.wait_for(begin_on_loop(db, gate), 5)
        finally:
            db.close()

    try:
        assert asyncio.run(scenario()) is False
    finally:
        other.close()
    with sessions.begin() as db:  # the gate was given back on the way out
        db.execute(text("SELECT 1"))
