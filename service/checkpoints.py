"""SQLite's WAL checkpoints on a thread of their own, so that no request pays for one.

By default SQLite checkpoints inside the commit that takes the write-ahead log past
1,000 pages: that commit copies the log into the database file and syncs both, tens
of milliseconds on a slow disk, while every other writer waits for the lock (the
load benchmark saw a batch of 100 decisions commit in 1.6 ms at the median and 24 ms
at the 90th percentile). The API process turns that off on its own connections
(``PRAGMA wal_autocheckpoint=0``, :func:`service.db.make_engine`'s
``background_checkpoints``) and runs a :class:`Checkpointer`: every
``CHECKPOINT_INTERVAL_S`` it checkpoints what the log holds, PASSIVE, so it never
waits for a reader or a writer. Job workers in other processes and the command-line
tools keep SQLite's automatic checkpoints. Durability is unchanged: a commit is in
the log (``synchronous=NORMAL``) whether or not it has been checkpointed.
"""

from __future__ import annotations

import logging
import sqlite3
import threading

from service.db import SQLITE_BUSY_TIMEOUT_MS

__all__ = ["CHECKPOINT_INTERVAL_S", "Checkpointer"]

log = logging.getLogger(__name__)

CHECKPOINT_INTERVAL_S = 0.5


class Checkpointer:
    """A daemon thread checkpointing one SQLite database file until :meth:`stop`."""

    def __init__(self, path: str, interval: float = CHECKPOINT_INTERVAL_S) -> None:
        self.path, self.interval = path, interval
        self.checkpoints = 0  # PASSIVE checkpoints that copied at least one page
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="fairacq-checkpoint", daemon=True)

    def start(self) -> Checkpointer:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the thread after one last checkpoint."""
        self._stopped.set()
        self._thread.join(timeout=30)

    def _run(self) -> None:
        connection = sqlite3.connect(self.path, timeout=SQLITE_BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
        try:
            connection.execute("PRAGMA synchronous=NORMAL")
            while True:
                stopping = self._stopped.wait(self.interval)
                self.checkpoint(connection)
                if stopping:
                    return
        finally:
            connection.close()

    def checkpoint(self, connection: sqlite3.Connection) -> None:
        """One PASSIVE checkpoint; an error is logged and the next interval tries again."""
        try:
            _busy, _frames, copied = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error:
            log.exception("WAL checkpoint of %s failed; retrying in %.1f s", self.path, self.interval)
            return
        if copied > 0:
            self.checkpoints += 1
