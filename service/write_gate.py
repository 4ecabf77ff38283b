"""SQLite's write gate: one writing transaction at a time in an API process, never blocking the event loop.

SQLite admits one writer. The API's writers queue on this process's
:class:`WriteGate` rather than in SQLite's busy handler, and a light endpoint
running on the event loop (service.routing) begins its transaction with
:func:`begin_on_loop`, which awaits the gate and another process's lock instead of
blocking on them.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from service.db import ON_LOOP, SQLITE_BUSY_TIMEOUT_MS

__all__ = ["GateBusy", "WriteGate", "begin_on_loop"]

_GATE_HELD = "fairacq.gate_held"  # connection-record info key
# A light endpoint on the event loop whose BEGIN finds SQLite locked by another process
# tries again after this long, doubling up to the cap: another process's write
# transaction (a job worker's claim or heartbeat) lasts about a millisecond.
BUSY_RETRY_FIRST_S = 0.0005
BUSY_RETRY_MAX_S = 0.008


class GateBusy(Exception):
    """The write gate is held and this transaction may not wait for it (it runs on the event loop)."""


class WriteGate:
    """One writing transaction at a time in this process (SQLite's API engine only).

    SQLite admits one writer. Without the gate, this process's writers would wait in
    SQLite's busy handler, which sleeps up to 100 ms a try; with it they queue on a lock
    and start the moment the previous writer commits. The gate is taken when a writing
    transaction begins (``BEGIN IMMEDIATE``) and given back when its connection returns
    to the pool, right after the commit or rollback: it spans the transaction, nothing
    before it. Work on the event loop never blocks on it (:class:`GateBusy`): it awaits
    :meth:`released` and tries again.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: list[asyncio.Future[None]] = []  # the event loop's, woken when the gate is given back
        self._waiters_lock = threading.Lock()

    def install(self, engine: Engine) -> None:
        event.listen(engine, "begin", self._take, insert=True)  # before the BEGIN is sent
        for name in ("checkin", "invalidate", "soft_invalidate", "detach", "close"):
            event.listen(engine.pool, name, self._give_back)

    def released(self) -> asyncio.Future[None]:
        """A future of the running loop, done once the gate is given back (or at once if it is free)."""
        future = asyncio.get_running_loop().create_future()
        with self._waiters_lock:
            if self._lock.locked():
                self._waiters.append(future)
                return future
        future.set_result(None)
        return future

    def _take(self, connection: Any) -> None:
        if connection.get_execution_options().get("sqlite_begin", "IMMEDIATE") != "IMMEDIATE":
            return
        info = connection.connection.info
        if info.get(_GATE_HELD):
            return
        if not self._lock.acquire(blocking=not ON_LOOP.get()):
            raise GateBusy("another transaction of this process is writing")
        info[_GATE_HELD] = True

    def _give_back(self, _dbapi_connection: Any, record: Any, *_: Any) -> None:
        if record is None or not record.info.pop(_GATE_HELD, False):
            return
        with self._waiters_lock:
            self._lock.release()
            waiters, self._waiters = self._waiters, []
        for future in waiters:  # from a thread or from the loop itself: either way through the loop
            with contextlib.suppress(RuntimeError):  # its loop has closed
                future.get_loop().call_soon_threadsafe(_wake, future)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


async def begin_on_loop(db: Session, gate: WriteGate) -> bool:
    """Begin ``db``'s writing transaction on the event loop, never blocking it.

    The gate held by another transaction of this process: await its release and try
    again. SQLite's lock held by another process (a job worker's claim, a second API
    process): try again after a short sleep, backing off, for as long as SQLite's own
    busy timeout would have waited. False when that runs out or BEGIN fails otherwise:
    the caller then runs the request on a thread, where the same error is raised.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SQLITE_BUSY_TIMEOUT_MS / 1000
    delay = BUSY_RETRY_FIRST_S
    while True:
        try:
            db.connection()
            return True
        except GateBusy:
            db.rollback()
            await gate.released()
        except OperationalError as exc:
            db.rollback()
            if getattr(exc.orig, "sqlite_errorcode", None) != sqlite3.SQLITE_BUSY or loop.time() + delay > deadline:
                return False
            await asyncio.sleep(delay)
            delay = min(2 * delay, BUSY_RETRY_MAX_S)
