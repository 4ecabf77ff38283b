"""Worker processes under supervision: started together, restarted when one dies, stopped together.

``serve`` (embedded mode) and ``worker --processes N`` both run their worker
loops as child processes of a :class:`Supervisor`. A child that dies without
being asked (SIGKILL, the OOM killer, a crash) is restarted with a log line,
after a delay that doubles while it keeps dying. Every child dies with its
parent (``PR_SET_PDEATHSIG`` on Linux, and a parent-pid check in the loop), so
no worker outlives the process that started it and keeps claiming jobs.

Each child writes the time of its last poll or heartbeat into a shared double;
:meth:`Supervisor.seconds_since_seen` lets ``/readyz`` say when no live worker
has polled recently.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.context import SpawnProcess
from typing import Any

from service.jobs.worker import Worker, die_with_parent
from service.settings import Settings

__all__ = ["Supervisor", "run_workers"]

log = logging.getLogger("service.supervisor")

# A slot whose child keeps dying waits this long before the next start, doubling up to the cap.
RESTART_DELAY_S = 1.0
RESTART_DELAY_MAX_S = 30.0
# A child that ran this long before dying is treated as healthy: its slot's delay resets.
HEALTHY_RUN_S = 60.0
WATCH_INTERVAL_S = 0.5


def _child_main(settings: Settings, alive: Any, parent_pid: int, log_level: int) -> None:
    from service import tracing
    from service.logs import configure_logging

    die_with_parent(parent_pid)
    configure_logging(settings.log_format, log_level)
    tracing.configure(settings.otel_exporter, "fairacq-worker")
    try:
        Worker(settings, alive=alive, parent_pid=parent_pid).run_forever()
    finally:
        tracing.shutdown()


@dataclass
class _Slot:
    alive: Any  # a shared double (multiprocessing.Value without a lock)
    process: SpawnProcess | None = None
    started: float = 0.0
    delay: float = RESTART_DELAY_S
    next_start: float = 0.0
    restarts: int = 0


@dataclass
class Supervisor:
    """``processes`` worker loops in child processes, kept running until :meth:`stop`."""

    settings: Settings
    processes: int
    stop_timeout: float = 15.0
    _slots: list[_Slot] = field(default_factory=list)
    _stopping: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _context: Any = field(default_factory=lambda: multiprocessing.get_context("spawn"))

    def start(self) -> None:
        now = time.time()
        self._slots = [_Slot(alive=self._context.Value("d", now, lock=False)) for _ in range(self.processes)]
        for index in range(self.processes):
            self._start(index)
        self._thread = threading.Thread(target=self._watch, name="worker-supervisor", daemon=True)
        self._thread.start()

    def _start(self, index: int) -> SpawnProcess:
        slot = self._slots[index]
        process = self._context.Process(
            target=_child_main, args=(self.settings, slot.alive, os.getpid(), logging.getLogger().level),
            name=f"fairacq-worker-{index}")
        process.start()
        slot.process, slot.started = process, time.monotonic()
        return process

    def _watch(self) -> None:
        while not self._stopping.wait(WATCH_INTERVAL_S):
            for index, slot in enumerate(self._slots):
                self._check(index, slot)

    def _check(self, index: int, slot: _Slot) -> None:
        process = slot.process
        if process is None or process.is_alive() or self._stopping.is_set():
            return
        now = time.monotonic()
        if slot.next_start == 0.0:  # just found dead: schedule the restart
            if now - slot.started >= HEALTHY_RUN_S:
                slot.delay = RESTART_DELAY_S
            slot.next_start = now + slot.delay
            log.error("worker process %s (pid %s) exited with code %s; restarting it in %.0f s",
                      process.name, process.pid, process.exitcode, slot.delay)
            return
        if now >= slot.next_start:
            process.join(0)
            slot.next_start, slot.restarts = 0.0, slot.restarts + 1
            slot.delay = min(slot.delay * 2, RESTART_DELAY_MAX_S)
            restarted = self._start(index)
            log.warning("worker process %s restarted (pid %s, restart %d)", process.name, restarted.pid, slot.restarts)

    def seconds_since_seen(self) -> float:
        """Seconds since any live worker last polled the queue or renewed a lease."""
        live = [slot.alive.value for slot in self._slots if slot.process is not None and slot.process.is_alive()]
        return time.time() - max(live) if live else float("inf")

    def pids(self) -> list[int]:
        return [slot.process.pid for slot in self._slots if slot.process is not None and slot.process.pid]

    def stop(self) -> None:
        """SIGTERM every child (each releases its job), wait ``stop_timeout``, then SIGKILL."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
        processes = [slot.process for slot in self._slots if slot.process is not None]
        for process in processes:
            if process.is_alive():
                process.terminate()
        deadline = time.monotonic() + self.stop_timeout
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                log.warning("worker process %s did not stop in %.0f s; killing it", process.name, self.stop_timeout)
                process.kill()
                process.join(5)


def run_workers(settings: Settings, processes: int) -> None:
    """Run ``processes`` worker loops: in this process when 1, else under a :class:`Supervisor`."""
    if processes <= 1:
        Worker(settings).run_forever()
        return
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    supervisor = Supervisor(settings, processes)
    supervisor.start()
    log.info("supervising %d worker processes", processes)
    try:
        while not stop.wait(1.0):
            pass
    finally:
        supervisor.stop()
