"""Load benchmark: latency percentiles and requests per second of the service's hot calls.

Run from the project root::

    .venv/bin/python -m bench.load                      # the issue's full settings (~10 min)
    .venv/bin/python -m bench.load --quick              # 2 s runs, for a smoke test
    .venv/bin/python -m bench.load --scenarios bare,metrics --rates 200,400
    .venv/bin/python -m bench.load --url http://127.0.0.1:8000 --api-key fa_...   # a running server
    .venv/bin/python -m bench.load --calibrate          # what the load client can generate here

Unless ``--url`` is given it starts ``python -m service serve --workers 1`` on a
fresh temporary SQLite file (one worker so that balanced filters get fitted), and
always ``bench/bare_app.py`` — a bare FastAPI endpoint doing one SQLite INSERT,
served the same way — both on 127.0.0.1 (:mod:`bench.load_servers`), and stops
them at the end.

For each scenario (:mod:`bench.load_scenarios`) after its setup and a warm-up:

* unloaded: sequential requests on one connection — a single client's p50/p99;
* maximum throughput: every connection sends back to back (closed loop), right
  after the bare endpoint's maximum is measured the same way, so the ratio
  compares two numbers taken under the same background load;
* fixed rates: an open-loop generator (:mod:`bench.load_client`) with latency
  from each request's scheduled send time, so queueing is counted. Rates above
  ``OVERLOAD`` times the scenario's maximum are skipped (they only measure a queue).

Targets (issue): next-group and epochs p99 <= 5 ms unloaded and <= 20 ms at
800 requests/s on one API process with SQLite, with no errors; maximum
throughput at least 65% of the bare endpoint's. Tables are printed and written
to ``bench/results/load/``; the exit status is non-zero when a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.load_client import (
    Endpoint,
    Lane,
    RequestFailed,
    RunResult,
    closed_loop,
    open_loop,
    run,
    unloaded,
    warm_up,
)
from bench.load_scenarios import SCENARIOS, NotAvailable, Scenario, SetupFailed, bare_lanes
from bench.load_servers import HOST, Server, bare_server, service_server
from bench.report import Targets, markdown_table, redirect_quick, write_text

NAME = "load"
TARGETED = ("next-group", "epochs")  # the scenarios the issue sets targets for
TARGET_RATE = 800.0  # req/s at which the loaded p99 target applies
UNLOADED_P99_MS = 5.0
LOADED_P99_MS = 20.0
BARE_SHARE = 0.65
OVERLOAD = 2.0  # skip fixed rates above this multiple of the scenario's maximum throughput
PAUSE = 1.0  # s between runs, so one run's tail does not land in the next
FULL = {"duration": 10.0, "unloaded": 500, "warmup": 50}
QUICK = {"duration": 2.0, "unloaded": 100, "warmup": 20}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass
class Outcome:
    """Everything measured for one scenario; ``status`` is "ok" or why it stopped."""

    scenario: Scenario
    status: str = "ok"
    detail: str = ""
    unloaded: RunResult | None = None
    maximum: RunResult | None = None
    bare_maximum: float | None = None
    rates: dict[float, RunResult | None] = field(default_factory=dict)  # None: skipped (overload)

    @property
    def troubled(self) -> bool:
        """Worth keeping the server logs for: it failed, or some request did."""
        runs = [self.unloaded, self.maximum, *self.rates.values()]
        return self.status not in ("ok", "not available") or any(r is not None and r.n_errors for r in runs)

    @property
    def ratio(self) -> float | None:
        if self.maximum is None or not self.bare_maximum:
            return None
        return self.maximum.throughput / self.bare_maximum


@dataclass
class Plan:
    scenarios: list[str]
    rates: list[float]
    duration: float
    connections: int
    unloaded: int
    warmup: int
    quick: bool


async def measure(scenario: Scenario, plan: Plan, endpoint: Endpoint, bare: Endpoint, bare_lanes: list[Lane],
                  shared: dict[str, Any]) -> Outcome:
    outcome = Outcome(scenario)
    name = scenario.name
    try:
        api = await endpoint.connect()
        try:
            lanes = await scenario.setup(api, plan.connections, shared)
        finally:
            await api.close()
        await warm_up(endpoint, lanes, 1)
        await warm_up(endpoint, lanes[:1], plan.warmup)
    except NotAvailable as exc:
        outcome.status, outcome.detail = "not available", str(exc)
    except (SetupFailed, OSError, ValueError) as exc:
        outcome.status, outcome.detail = "setup failed", f"{type(exc).__name__}: {exc}"
    except RequestFailed as exc:
        outcome.status, outcome.detail = "hot call failed", str(exc)
    if outcome.status != "ok":
        log(f"[{name}] {outcome.status}: {outcome.detail}")
        return outcome

    try:
        await _runs(outcome, plan, endpoint, lanes, bare, bare_lanes)
    except OSError as exc:  # the server went away: keep what was measured
        outcome.status, outcome.detail = "run failed", f"{type(exc).__name__}: {exc}"
        log(f"[{name}] {outcome.status}: {outcome.detail}")
    return outcome


async def _runs(outcome: Outcome, plan: Plan, endpoint: Endpoint, lanes: list[Lane], bare: Endpoint,
                bare_lanes: list[Lane]) -> None:
    name = outcome.scenario.name
    outcome.unloaded = u = await unloaded(endpoint, lanes[0], plan.unloaded)
    log(f"[{name}] unloaded: p50 {u.p50:.2f} ms, p99 {u.p99:.2f} ms, errors {u.n_errors}")
    await asyncio.sleep(PAUSE)
    if outcome.scenario.target != "bare":
        outcome.bare_maximum = (await closed_loop(bare, bare_lanes, plan.duration)).throughput
        await asyncio.sleep(PAUSE)
    outcome.maximum = m = await closed_loop(endpoint, lanes, plan.duration)
    if outcome.scenario.target == "bare":
        outcome.bare_maximum = m.throughput
    log(f"[{name}] max: {m.throughput:.0f} req/s (bare {outcome.bare_maximum or 0:.0f}), "
        f"p99 {m.p99:.2f} ms, errors {m.n_errors}")
    for rate in plan.rates:
        await asyncio.sleep(PAUSE)
        if m.throughput > 0 and rate > OVERLOAD * m.throughput:
            outcome.rates[rate] = None
            log(f"[{name}] {rate:.0f} req/s: skipped (over {OVERLOAD:g} x max)")
            continue
        outcome.rates[rate] = r = await open_loop(endpoint, lanes, rate, plan.duration)
        log(f"[{name}] {rate:.0f} req/s: achieved {r.throughput:.0f}, p50 {r.p50:.2f} ms, "
            f"p99 {r.p99:.2f} ms, errors {r.n_errors}")


def _ms(value: float) -> str:
    return "-" if value != value else f"{value:.2f}"  # NaN when nothing succeeded


def tables(outcomes: list[Outcome]) -> str:
    status = markdown_table(["scenario", "hot call", "status"], [
        (o.scenario.name, o.scenario.hot_call, o.status if o.status == "ok" else f"{o.status}: {o.detail}")
        for o in outcomes])
    ran = [o for o in outcomes if o.unloaded is not None]
    quiet = markdown_table(["scenario", "requests", "p50 ms", "p99 ms", "max ms", "errors"], [
        (o.scenario.name, o.unloaded.ok, _ms(o.unloaded.p50), _ms(o.unloaded.p99), _ms(o.unloaded.max),
         o.unloaded.error_summary()) for o in ran if o.unloaded])
    fixed = markdown_table(
        ["scenario", "rate req/s", "achieved req/s", "p50 ms", "p99 ms", "max ms", "errors",
         "client lag p99 ms"],
        [(o.scenario.name, f"{rate:.0f}", f"{r.throughput:.0f}", _ms(r.p50), _ms(r.p99), _ms(r.max),
          r.error_summary(), _ms(r.send_lag_p99_ms or 0.0)) if r is not None else
         (o.scenario.name, f"{rate:.0f}", "skipped: over " f"{OVERLOAD:g} x max", "-", "-", "-", "-", "-")
         for o in ran for rate, r in o.rates.items()])
    most = markdown_table(
        ["scenario", "max req/s", "p50 ms", "p99 ms", "errors", "bare req/s", "share of bare", "client CPU"],
        [(o.scenario.name, f"{o.maximum.throughput:.0f}", _ms(o.maximum.p50), _ms(o.maximum.p99),
          o.maximum.error_summary(), f"{o.bare_maximum or 0:.0f}",
          f"{o.ratio:.0%}" if o.ratio is not None else "-", f"{o.maximum.client_cpu:.0%}")
         for o in ran if o.maximum])
    if not ran:
        return f"### Scenarios\n\n{status}\n\nNo scenario ran."
    return (f"### Scenarios\n\n{status}\n\n### Unloaded (one client, sequential)\n\n{quiet}\n\n"
            f"### Fixed arrival rate (open loop; latency from the scheduled send time)\n\n{fixed}\n\n"
            f"### Maximum throughput (closed loop; bare measured just before each)\n\n{most}")


def check_targets(targets: Targets, outcomes: list[Outcome]) -> None:
    for o in outcomes:
        if o.scenario.name not in TARGETED:
            continue
        name = o.scenario.name
        labels = (f"{name}: p99 <= {UNLOADED_P99_MS:g} ms unloaded",
                  f"{name}: p99 <= {LOADED_P99_MS:g} ms at {TARGET_RATE:.0f} req/s, no errors",
                  f"{name}: max throughput >= {BARE_SHARE:.0%} of bare")
        if o.status != "ok":
            for label in labels:
                targets.check(label, False, f"{o.status}: {o.detail}"[:160])
            continue
        u = o.unloaded
        assert u is not None
        targets.check(labels[0], u.n_errors == 0 and u.p99 <= UNLOADED_P99_MS,
                      f"p99 {_ms(u.p99)} ms, errors {u.n_errors}")
        r = o.rates.get(TARGET_RATE)
        if r is None:
            why = "skipped (over max)" if TARGET_RATE in o.rates else "not measured (see --rates)"
            targets.check(labels[1], False, why)
        else:
            targets.check(labels[1], r.n_errors == 0 and r.p99 <= LOADED_P99_MS,
                          f"p99 {_ms(r.p99)} ms, achieved {r.throughput:.0f} req/s, errors {r.n_errors}")
        ratio = o.ratio
        targets.check(labels[2], ratio is not None and ratio >= BARE_SHARE,
                      f"{o.maximum.throughput if o.maximum else 0:.0f} / {o.bare_maximum or 0:.0f} req/s"
                      + (f" = {ratio:.0%}" if ratio is not None else ""))


def header(plan: Plan, url: str | None, load_before: tuple[float, ...]) -> str:
    server = (f"`{url}` (already running: check it is one API process on SQLite)" if url else
              "`python -m service serve --workers 1` on a fresh SQLite file, started by this script")
    load_after = os.getloadavg()
    return "\n".join([
        f"# Load benchmark{' (--quick)' if plan.quick else ''}", "",
        f"- run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; server: {server}; bare: `bench/bare_app.py`",
        f"- machine: {os.cpu_count()} cores, load average {load_before[0]:.1f} before and "
        f"{load_after[0]:.1f} after (client and servers share it with any other work)",
        f"- {plan.connections} connections; fixed rates {', '.join(f'{r:g}' for r in plan.rates)} req/s; "
        f"{plan.duration:g} s per loaded run; unloaded: {plan.unloaded} sequential requests after "
        f"{plan.warmup} warm-up; latencies of 2xx answers only",
    ])


async def benchmark(plan: Plan, url: str | None, api_key: str | None, folder: Path) -> list[Outcome]:
    servers: list[Server] = []
    try:
        bare = await bare_server(folder).start()
        servers.append(bare)
        if url:
            parts = urlsplit(url)
            headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
            service = Endpoint(parts.hostname or HOST, parts.port or 80, headers)
        elif any(SCENARIOS[s].target == "service" for s in plan.scenarios):
            log("starting the service (migrations, then workers)...")
            served = await service_server(folder).start()
            servers.append(served)
            service = served.endpoint
        else:
            service = bare.endpoint
        shared: dict[str, Any] = {}
        outcomes = []
        for name in plan.scenarios:
            scenario = SCENARIOS[name]
            endpoint = bare.endpoint if scenario.target == "bare" else service
            outcomes.append(await measure(scenario, plan, endpoint, bare.endpoint,
                                          bare_lanes(plan.connections), shared))
        for server in servers:
            if server.proc is not None and server.proc.poll() is not None:
                log(f"{server.name} died during the run:\n{server.log_tail()}")
        return outcomes
    finally:
        for server in reversed(servers):
            server.stop()


async def calibrate(plan: Plan, folder: Path) -> str:
    """The client's own limit: closed loop and fixed rates against a server that does no work."""
    raw = await bare_server(folder, raw=True).start()
    try:
        lanes = bare_lanes(plan.connections)
        most = await closed_loop(raw.endpoint, lanes, plan.duration)
        rows = [("closed loop", "-", f"{most.throughput:.0f}", _ms(most.p50), _ms(most.p99),
                 most.error_summary(), "-", f"{most.client_cpu:.0%}")]
        for rate in plan.rates:
            await asyncio.sleep(PAUSE)
            r = await open_loop(raw.endpoint, lanes, rate, plan.duration)
            rows.append(("open loop", f"{rate:.0f}", f"{r.throughput:.0f}", _ms(r.p50), _ms(r.p99),
                         r.error_summary(), _ms(r.send_lag_p99_ms or 0.0), f"{r.client_cpu:.0%}"))
    finally:
        raw.stop()
    return markdown_table(["mode", "rate req/s", "achieved req/s", "p50 ms", "p99 ms", "errors",
                           "client lag p99 ms", "client CPU"], rows)


def parse_args(argv: list[str] | None) -> tuple[argparse.Namespace, Plan]:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="2 s runs and 100 unloaded requests")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help="comma-separated, from: "
                        + ", ".join(SCENARIOS))
    parser.add_argument("--rates", help="fixed arrival rates in req/s (default 200,400,800; "
                        "--calibrate: 1000,2000,4000)")
    parser.add_argument("--duration", type=float, help="seconds per loaded run (default 10, --quick 2)")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--unloaded", type=int, help="sequential requests (default 500, --quick 100)")
    parser.add_argument("--url", help="benchmark this running server instead of starting one")
    parser.add_argument("--api-key", default=os.environ.get("FAIRACQ_API_KEY"),
                        help="sent as Bearer token with --url (default: $FAIRACQ_API_KEY)")
    parser.add_argument("--calibrate", action="store_true", help="measure the load client against a "
                        "server that does no work, and exit")
    args = parser.parse_args(argv)
    redirect_quick(args.quick)
    names = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    unknown = sorted(set(names) - set(SCENARIOS))
    if unknown or not names:
        parser.error(f"unknown scenarios {unknown}; choose from {', '.join(SCENARIOS)}")
    default_rates = "1000,2000,4000" if args.calibrate else "200,400,800"
    try:
        rates = [float(r) for r in (args.rates or default_rates).split(",") if r.strip()]
    except ValueError:
        parser.error("--rates takes numbers separated by commas, e.g. 200,400,800")
    if not rates or min(rates) <= 0:
        parser.error("--rates must be positive")
    if args.url and urlsplit(args.url).scheme != "http":
        parser.error("--url must be http://host:port (the load client speaks plain HTTP/1.1)")
    if args.connections < 1:
        parser.error("--connections must be at least 1")
    mode = QUICK if args.quick else FULL
    plan = Plan(names, rates, args.duration or mode["duration"], args.connections,
                args.unloaded or int(mode["unloaded"]), int(mode["warmup"]), args.quick)
    return args, plan


def main(argv: list[str] | None = None) -> int:
    args, plan = parse_args(argv)
    # A plain `kill` of this script must still stop the servers it started (the finally blocks).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    folder = Path(tempfile.mkdtemp(prefix="fairacq-load-"))
    keep = False
    try:
        if args.calibrate:
            table = run(calibrate(plan, folder))
            text = (f"## Load client calibration\n\nThe load client against `bench.bare_app --raw` (no work): "
                    f"{plan.connections} connections, {plan.duration:g} s per run, {os.cpu_count()} cores, "
                    f"load average {os.getloadavg()[0]:.1f}.\n\n{table}")
            print(text)
            write_text(NAME, "calibration.md", text)
            return 0
        load_before = os.getloadavg()
        try:
            outcomes = run(benchmark(plan, args.url, args.api_key, folder))
        except (RuntimeError, OSError) as exc:  # a server would not start, or --url is not listening
            keep = True
            log(f"load benchmark could not run: {type(exc).__name__}: {exc}")
            return 2
        keep = any(o.troubled for o in outcomes)
        text = header(plan, args.url, load_before) + "\n\n" + tables(outcomes)
        print(text)
        write_text(NAME, "load.md", text)
        targets = Targets(NAME)
        check_targets(targets, outcomes)
        return targets.finish()
    finally:
        if keep:
            log(f"server logs kept in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
