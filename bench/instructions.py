"""Instructions per request of the load benchmark's hot calls, counted by callgrind.

Run from the project root (needs Debian's ``valgrind``)::

    .venv/bin/python -m bench.instructions                        # bare, next-group, decisions-batch, epochs
    .venv/bin/python -m bench.instructions --scenarios next-group --requests 100

Requests per second on a shared 2-core machine move by 10-20 % from one minute to the
next; a count of instructions does not. Each server (the service's ``serve`` with no job
worker, on a fresh SQLite file, and ``bench/bare_app.py``, started as the load benchmark
starts them) runs under ``valgrind --tool=callgrind`` with instrumentation off. The
scenario's own setup (:mod:`bench.load_scenarios`, one lane) creates its session, 30
requests warm the process up, then instrumentation is switched on and zeroed, the
requests are sent one after another on one keep-alive connection, and the counters are
dumped: the server's instructions over the requests, per request. The client does not
run under valgrind. "share of bare" is bare's count over the scenario's: what the load
benchmark's share of the bare endpoint would be if the server's CPU were all that
limits both (its closed-loop maximum is bound by the one API process's core).

This is a diagnostic, not a target: it writes ``bench/results/instructions/instructions.md``
and is not among ``python -m bench``'s scripts.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.load_client import HTTPConnection, Lane
from bench.load_scenarios import SCENARIOS
from bench.load_servers import Server, bare_server, service_server
from bench.report import markdown_table, redirect_quick, write_text

__all__ = ["count", "main"]

NAME = "instructions"
DEFAULT_SCENARIOS = ("bare", "next-group", "decisions-batch", "epochs")
WARMUP = 30
VALGRIND_STARTUP = 600.0  # s: imports run some 20-50x slower under valgrind


def _callgrind(server: Server, out: Path) -> Server:
    argv = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}", *server.argv]
    return Server(server.name, argv, server.env, server.log_path.parent, startup_timeout=VALGRIND_STARTUP)


def _control(pid: int, *flags: str) -> None:
    subprocess.run(["callgrind_control", *flags, str(pid)], check=True, capture_output=True)


def _total(out: Path) -> int:
    """The instruction total of the one dump callgrind wrote besides its final file."""
    dumps = sorted(p for p in out.parent.glob(out.name + ".*"))
    for line in dumps[0].read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise RuntimeError(f"no totals in {dumps[0]}")


async def _send(conn: HTTPConnection, lane: Lane) -> None:
    method, path, body = lane.request()
    response = await conn.request(method, path, body)
    if not 200 <= response.status < 300:
        raise RuntimeError(f"{method} {path} -> {response.status}: {response.text()[:300]}")
    lane.answered(response.status, response.body)


async def count(scenario: str, requests: int, folder: Path) -> float:
    """The server's instructions per ``scenario`` request (see the module docstring)."""
    plain = bare_server(folder) if SCENARIOS[scenario].target == "bare" else service_server(folder, workers=0)
    out = folder / f"{scenario}.callgrind"
    server = _callgrind(plain, out)
    await server.start()
    try:
        conn = await server.endpoint.connect()
        try:
            lane, = await SCENARIOS[scenario].setup(conn, 1, {})
            for _ in range(WARMUP):
                await _send(conn, lane)
            assert server.proc is not None
            _control(server.proc.pid, "-i", "on")
            _control(server.proc.pid, "-z")
            for _ in range(requests):
                await _send(conn, lane)
            _control(server.proc.pid, "-d")
        finally:
            await conn.close()
    finally:
        server.stop()
    return _total(out) / requests


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__.split("\n")[0])
    parser.add_argument("--scenarios", default=",".join(DEFAULT_SCENARIOS))
    parser.add_argument("--requests", type=int, default=200, help="counted requests per scenario")
    parser.add_argument("--quick", action="store_true", help="20 requests each, results to a temporary folder")
    args = parser.parse_args(argv)
    redirect_quick(args.quick)
    names = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    if not names or set(names) - set(SCENARIOS) or "bare" not in names:
        parser.error(f"--scenarios: names from {', '.join(SCENARIOS)}, bare among them")
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        parser.error("needs valgrind and callgrind_control (Debian package valgrind)")
    requests = 20 if args.quick else args.requests
    folder = Path(tempfile.mkdtemp(prefix="fairacq-instructions-"))
    try:
        counts = {name: asyncio.run(count(name, requests, folder)) for name in names}
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    rows = []
    for name in names:
        per_call = SCENARIOS[name].decisions_per_call
        rows.append((name, f"{counts[name] / 1e6:.2f}", f"{counts['bare'] / counts[name]:.0%}",
                     f"{counts[name] / per_call / 1e3:.0f}" if per_call > 1 else "-"))
    text = (f"## Instructions per request (callgrind, server only, {requests} sequential requests, "
            f"one lane, SQLite)\n\n" + markdown_table(
                ["scenario", "M instructions / request", "share of bare", "K instructions / decision"], rows))
    print(text)
    write_text(NAME, "instructions.md", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
