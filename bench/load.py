"""Load benchmark: latency percentiles and requests per second of the service's hot calls.

Run from the project root::

    .venv/bin/python -m bench.load                      # SQLite, one API process (~10 min)
    .venv/bin/python -m bench.load --databases sqlite,postgres --api-processes 1,2   # all four, one run
    .venv/bin/python -m bench.load --quick              # 2 s runs, for a smoke test
    .venv/bin/python -m bench.load --scenarios bare,metrics --rates 200,400
    .venv/bin/python -m bench.load --url http://127.0.0.1:8000 --api-key fa_...   # a running server
                                                        # (printed; files go to a temporary folder)
    .venv/bin/python -m bench.load --calibrate          # what the load client can generate here

Unless ``--url`` is given it measures each configuration (:class:`bench.load_servers.Deployment`)
of ``--databases`` (a fresh SQLite file; a throwaway PostgreSQL server from
``scripts/pg_tmp.sh``, migrated with ``python -m service migrate``) times
``--api-processes`` (1 or 2 ``python -m service serve`` processes on the same
database, on two ports, the first with the one job worker that fits balanced
filters; the CLI has no option for several API processes behind one port). Beside
it run as many ``bench/bare_app.py`` processes — a bare FastAPI endpoint doing one
INSERT into the same kind of database, served the same way — and the load
client's connections are spread evenly over the processes of each. Everything
is on 127.0.0.1 and is stopped before the next configuration starts.

For each scenario (:mod:`bench.load_scenarios`) after its setup and a warm-up:

* unloaded: sequential requests on one connection — a single client's p50/p99;
* maximum throughput: every connection sends back to back (closed loop), in
  ``--rounds`` pairs each right after the bare endpoint's maximum is measured the
  same way, so each ratio compares two numbers taken under the same background
  load; the share of bare is the median of the pairs' ratios;
* fixed rates: an open-loop generator (:mod:`bench.load_client`) with latency
  from each request's scheduled send time, so queueing is counted. Rates above
  ``OVERLOAD`` times the scenario's maximum are skipped (they only measure a queue).

Targets (issue 15, restated; they apply to SQLite with one API process): next-group
and epochs reach at least 85% of the bare endpoint's maximum throughput, have a p99
of at most 10 ms at 400 requests/s with no errors, and (kept from the first
statement) at most 5 ms unloaded; decisions-batch (100 decisions per call) delivers
at least 20,000 decisions/s at its maximum. The PostgreSQL and two-process
configurations are reported beside it, without targets. Tables are printed and
written to ``bench/results/load/``; the exit status is non-zero when a target is missed.

Protocol changes after the first results (2026-11-22): the targets above replaced
"65% of bare" and "p99 <= 20 ms at 800 requests/s" (the bare endpoint itself reached
about 810 requests/s on this machine); the decisions-batch and next-settle
scenarios and the PostgreSQL and two-process configurations were added. 2026-11-27: the
maximum throughput is measured in three alternating bare/service pairs and the share of bare is
the median of the pairs' ratios (it was one pair): the machine's speed moved 2.5x between runs and
within minutes, and one 10-second pair could not tell 77 % from 87 %. Issue 14's share targets
(within 5 % of the shares when it was filed) were added with it.
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
from bench.load_servers import HOST, Deployment, bare_server
from bench.report import Targets, markdown_table, redirect_quick, write_text

NAME = "load"
TARGETED = ("next-group", "epochs")  # the scenarios the issue sets latency and share targets for
TARGET_RATE = 400.0  # req/s at which the loaded p99 target applies
UNLOADED_P99_MS = 5.0
LOADED_P99_MS = 10.0
BARE_SHARE = 0.85
# Issue 14 (code shape): next-group and epochs keep their share of bare within 5% of the share
# measured when it was filed (bench/results/load at f27f810: 719 / 812 and 584 / 821 req/s).
FILED_SHARES = {"next-group": 719 / 812, "epochs": 584 / 821}
KEPT_SHARE = 0.95
BATCH_SCENARIO = "decisions-batch"
BATCH_DECISIONS_PER_S = 20_000.0
TARGET_CONFIGURATION = ("sqlite", 1)  # the targets apply to this one; the others are reported
DATABASES = ("sqlite", "postgres")
OVERLOAD = 2.0  # skip fixed rates above this multiple of the scenario's maximum throughput
PAUSE = 1.0  # s between runs, so one run's tail does not land in the next
FULL = {"duration": 10.0, "unloaded": 500, "warmup": 50, "rounds": 3}
QUICK = {"duration": 2.0, "unloaded": 100, "warmup": 20, "rounds": 1}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass
class Outcome:
    """Everything measured for one scenario; ``status`` is "ok" or why it stopped."""

    scenario: Scenario
    configuration: str = ""
    load_average: float = 0.0  # the machine's 1-minute load average when the configuration started
    status: str = "ok"
    detail: str = ""
    unloaded: RunResult | None = None
    maximum: RunResult | None = None
    bare_maxima: list[float] = field(default_factory=list)  # one a round
    ratios: list[float] = field(default_factory=list)  # the service's maximum over bare's, one a round
    maximum_errors: int = 0  # over every round
    median_round: int = 0  # the round whose ratio is the median (the lower middle of an even count)
    rates: dict[float, RunResult | None] = field(default_factory=dict)  # None: skipped (overload)

    @property
    def troubled(self) -> bool:
        """Worth keeping the server logs for: it failed, or some request did."""
        runs = [self.unloaded, *self.rates.values()]
        return (self.status not in ("ok", "not available") or self.maximum_errors > 0
                or any(r is not None and r.n_errors for r in runs))

    @property
    def bare_maximum(self) -> float | None:
        """Bare's maximum in the median round (the round ``maximum`` and ``ratio`` are from)."""
        return self.bare_maxima[self.median_round] if self.bare_maxima else None

    @property
    def ratio(self) -> float | None:
        """The median of the rounds' shares of bare."""
        return self.ratios[self.median_round] if self.ratios and self.bare_maximum else None

    def ratio_range(self) -> str:
        if self.ratio is None:
            return "-"
        spread = f" ({min(self.ratios):.0%}-{max(self.ratios):.0%})" if len(self.ratios) > 1 else ""
        return f"{self.ratio:.0%}{spread}"

    @property
    def decisions_per_s(self) -> float | None:
        if self.maximum is None or self.scenario.target == "bare":
            return None
        return self.maximum.throughput * self.scenario.decisions_per_call


@dataclass
class Plan:
    scenarios: list[str]
    rates: list[float]
    duration: float
    connections: int
    unloaded: int
    warmup: int
    quick: bool
    rounds: int = 1  # alternating bare/service pairs for the maximum throughput
    databases: list[str] = field(default_factory=lambda: ["sqlite"])
    processes: list[int] = field(default_factory=lambda: [1])

    @property
    def configurations(self) -> list[tuple[str, int]]:
        return [(db, n) for db in self.databases for n in self.processes]


async def measure(scenario: Scenario, plan: Plan, endpoint: Endpoint, bare: Endpoint, bare_lanes: list[Lane],
                  shared: dict[str, Any], configuration: str = "") -> Outcome:
    outcome = Outcome(scenario, configuration)
    name = f"{configuration}: {scenario.name}" if configuration else scenario.name
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
    name = f"{outcome.configuration}: {outcome.scenario.name}" if outcome.configuration else outcome.scenario.name
    outcome.unloaded = u = await unloaded(endpoint, lanes[0], plan.unloaded)
    log(f"[{name}] unloaded: p50 {u.p50:.2f} ms, p99 {u.p99:.2f} ms, errors {u.n_errors}")
    await _maximum(outcome, plan, endpoint, lanes, bare, bare_lanes, name)
    m = outcome.maximum
    assert m is not None
    for rate in plan.rates:
        await asyncio.sleep(PAUSE)
        if m.throughput > 0 and rate > OVERLOAD * m.throughput:
            outcome.rates[rate] = None
            log(f"[{name}] {rate:.0f} req/s: skipped (over {OVERLOAD:g} x max)")
            continue
        outcome.rates[rate] = r = await open_loop(endpoint, lanes, rate, plan.duration)
        log(f"[{name}] {rate:.0f} req/s: achieved {r.throughput:.0f}, p50 {r.p50:.2f} ms, "
            f"p99 {r.p99:.2f} ms, errors {r.n_errors}")


async def _maximum(outcome: Outcome, plan: Plan, endpoint: Endpoint, lanes: list[Lane], bare: Endpoint,
                   bare_lanes: list[Lane], name: str) -> None:
    """Closed-loop maxima in ``plan.rounds`` alternating pairs, bare first: the share is the median of
    the rounds' ratios, so a drift in the machine's speed lands on both sides of each ratio."""
    services: list[RunResult] = []
    for _ in range(plan.rounds):
        if outcome.scenario.target != "bare":
            await asyncio.sleep(PAUSE)
            outcome.bare_maxima.append((await closed_loop(bare, bare_lanes, plan.duration)).throughput)
        await asyncio.sleep(PAUSE)
        services.append(m := await closed_loop(endpoint, lanes, plan.duration))
        if outcome.scenario.target == "bare":
            outcome.bare_maxima.append(m.throughput)
        log(f"[{name}] max: {m.throughput:.0f} req/s (bare {outcome.bare_maxima[-1]:.0f}), "
            f"p99 {m.p99:.2f} ms, errors {m.n_errors}")
    outcome.maximum_errors = sum(r.n_errors for r in services)
    outcome.ratios = [r.throughput / b if b else 0.0 for r, b in zip(services, outcome.bare_maxima, strict=True)]
    outcome.median_round = sorted(range(len(services)), key=outcome.ratios.__getitem__)[(len(services) - 1) // 2]
    outcome.maximum = services[outcome.median_round]


def _ms(value: float) -> str:
    return "-" if value != value else f"{value:.2f}"  # NaN when nothing succeeded


def _decisions(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def tables(outcomes: list[Outcome], level: str = "###") -> str:
    """The four tables of one configuration's outcomes."""
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
        ["scenario", "max req/s", "decisions/s", "p50 ms", "p99 ms", "errors", "bare req/s", "share of bare",
         "client CPU"],
        [(o.scenario.name, f"{o.maximum.throughput:.0f}", _decisions(o.decisions_per_s), _ms(o.maximum.p50),
          _ms(o.maximum.p99), o.maximum.error_summary(), f"{o.bare_maximum or 0:.0f}",
          o.ratio_range(), f"{o.maximum.client_cpu:.0%}")
         for o in ran if o.maximum])
    if not ran:
        return f"{level} Scenarios\n\n{status}\n\nNo scenario ran."
    return (f"{level} Scenarios\n\n{status}\n\n{level} Unloaded (one client, sequential)\n\n{quiet}\n\n"
            f"{level} Fixed arrival rate (open loop; latency from the scheduled send time)\n\n{fixed}\n\n"
            f"{level} Maximum throughput (closed loop, in alternating rounds, bare first in each; max req/s is the "
            f"round with the median share of bare, the rounds' range of shares in brackets)\n\n{most}")


def side_by_side(outcomes: list[Outcome]) -> str:
    """Every configuration's maximum and p99 at the target rate, one row per configuration and scenario."""
    rows = []
    for o in outcomes:
        at_rate = o.rates.get(TARGET_RATE)
        rows.append((o.configuration, o.scenario.name,
                     f"{o.maximum.throughput:.0f}" if o.maximum else o.status,
                     _decisions(o.decisions_per_s), f"{o.bare_maximum:.0f}" if o.bare_maximum else "-",
                     o.ratio_range(),
                     _ms(at_rate.p99) if at_rate is not None else "-",
                     at_rate.error_summary() if at_rate is not None else "-"))
    return markdown_table(["configuration", "scenario", "max req/s", "decisions/s", "bare req/s", "share of bare",
                           f"p99 ms at {TARGET_RATE:.0f} req/s", f"errors at {TARGET_RATE:.0f} req/s"], rows)


def report(outcomes: list[Outcome], configurations: list[str]) -> str:
    if len(configurations) == 1:
        return tables(outcomes)
    parts = ["## Side by side (each scenario's bare figure measured just before it, in its configuration)",
             side_by_side(outcomes)]
    for label in configurations:
        mine = [o for o in outcomes if o.configuration == label]
        load = f" (load average {mine[0].load_average:.1f} when it started)" if mine else ""
        parts += [f"## {label}{load}", tables(mine)]
    return "\n\n".join(parts)


def check_targets(targets: Targets, outcomes: list[Outcome], configuration: str | None) -> None:
    """The issue's targets, on the outcomes of ``configuration`` (None: it was not in this run)."""
    where = f" ({configuration})" if configuration else ""
    for name in (*TARGETED, BATCH_SCENARIO):
        o = next((o for o in outcomes if o.scenario.name == name and o.configuration == (configuration or "")),
                 None) if configuration is not None else None
        if name == BATCH_SCENARIO:
            labels: tuple[str, ...] = (f"{name}{where}: >= {BATCH_DECISIONS_PER_S:,.0f} decisions/s at "
                                       f"{SCENARIOS[name].decisions_per_call:.0f} per call",)
        else:
            labels = (f"{name}{where}: p99 <= {UNLOADED_P99_MS:g} ms unloaded",
                      f"{name}{where}: p99 <= {LOADED_P99_MS:g} ms at {TARGET_RATE:.0f} req/s, no errors",
                      f"{name}{where}: max throughput >= {BARE_SHARE:.0%} of bare",
                      f"{name}{where}: share of bare >= {KEPT_SHARE:.0%} of issue 14's filing "
                      f"({FILED_SHARES[name]:.1%}), i.e. {KEPT_SHARE * FILED_SHARES[name]:.1%}")
        if o is None or o.status != "ok":
            why = "not measured in this run" if o is None else f"{o.status}: {o.detail}"[:160]
            for label in labels:
                targets.check(label, False, why)
            continue
        if name == BATCH_SCENARIO:
            m, rate = o.maximum, o.decisions_per_s
            assert m is not None and rate is not None
            targets.check(labels[0], o.maximum_errors == 0 and rate >= BATCH_DECISIONS_PER_S,
                          f"{rate:,.0f} decisions/s ({m.throughput:.0f} calls/s), errors {o.maximum_errors}")
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
        measured = ("rounds " + ", ".join(f"{r:.0%}" for r in o.ratios)
                    + f"; median {o.maximum.throughput if o.maximum else 0:.0f} / {o.bare_maximum or 0:.0f} req/s"
                    + (f" = {ratio:.0%}" if ratio is not None else ""))
        targets.check(labels[2], ratio is not None and ratio >= BARE_SHARE, measured)
        targets.check(labels[3], ratio is not None and ratio >= KEPT_SHARE * FILED_SHARES[name], measured)


def header(plan: Plan, url: str | None, load_before: tuple[float, ...]) -> str:
    if url:
        server = f"`{url}` (already running: check it is one API process on SQLite)"
    else:
        server = ("`python -m service serve` (the first process with `--workers 1`, any second `--workers 0`), "
                  "started by this script in each configuration: "
                  + "; ".join(Deployment(db, n, Path()).label for db, n in plan.configurations))
    load_after = os.getloadavg()
    return "\n".join([
        f"# Load benchmark{' (--quick)' if plan.quick else ''}", "",
        f"- run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; server: {server}; bare: `bench/bare_app.py`, "
        "as many processes on the same kind of database",
        f"- machine: {os.cpu_count()} cores, load average {load_before[0]:.1f} before and "
        f"{load_after[0]:.1f} after (client and servers share it with any other work)",
        f"- {plan.connections} connections (spread evenly over the API processes); fixed rates "
        f"{', '.join(f'{r:g}' for r in plan.rates)} req/s; {plan.duration:g} s per loaded run; unloaded: "
        f"{plan.unloaded} sequential requests after {plan.warmup} warm-up; latencies of 2xx answers only",
    ])


async def _scenarios(plan: Plan, service: Endpoint, bare: Endpoint, label: str) -> list[Outcome]:
    shared: dict[str, Any] = {}
    outcomes = []
    for name in plan.scenarios:
        scenario = SCENARIOS[name]
        endpoint = bare if scenario.target == "bare" else service
        outcomes.append(await measure(scenario, plan, endpoint, bare, bare_lanes(plan.connections), shared, label))
    return outcomes


async def benchmark(plan: Plan, url: str | None, api_key: str | None, folder: Path) -> list[Outcome]:
    with_service = any(SCENARIOS[s].target == "service" for s in plan.scenarios)
    if url:
        bare_process = await bare_server(folder).start()
        try:
            parts = urlsplit(url)
            headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
            given = Endpoint(parts.hostname or HOST, parts.port or 80, headers)
            bare_endpoint = bare_process.endpoint
            return await _scenarios(plan, given if with_service else bare_endpoint, bare_endpoint, "")
        finally:
            bare_process.stop()
    outcomes: list[Outcome] = []
    many = len(plan.configurations) > 1
    for db, processes in plan.configurations:
        deployment = Deployment(db, processes, folder / f"{db}-{processes}")
        try:
            log(f"starting {deployment.label} (database, migrations, servers)...")
            load = os.getloadavg()[0]
            service, bare = await deployment.start(with_service)
            measured = await _scenarios(plan, service, bare, deployment.label if many else "")
            for outcome in measured:
                outcome.load_average = load
            outcomes += measured
            for server in deployment.died():
                log(f"{server.name} died during the run:\n{server.log_tail()}")
        finally:
            deployment.stop()
    return outcomes


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
    parser.add_argument("--rounds", type=int, help="alternating bare/service pairs of maximum-throughput runs; "
                        "the share of bare is the median of their ratios (default 3, --quick 1)")
    parser.add_argument("--unloaded", type=int, help="sequential requests (default 500, --quick 100)")
    parser.add_argument("--databases", default="sqlite", help="comma-separated, of: sqlite, postgres "
                        "(postgres: a throwaway server from scripts/pg_tmp.sh)")
    parser.add_argument("--api-processes", default="1", help="comma-separated API process counts, e.g. 1,2")
    parser.add_argument("--url", help="benchmark this running server instead of starting one")
    parser.add_argument("--api-key", default=os.environ.get("FAIRACQ_API_KEY"),
                        help="sent as Bearer token with --url (default: $FAIRACQ_API_KEY)")
    parser.add_argument("--calibrate", action="store_true", help="measure the load client against a "
                        "server that does no work, and exit")
    args = parser.parse_args(argv)
    # A server already running is not the committed protocol's: its figures never replace bench/results/load.
    redirect_quick(args.quick or args.url is not None, "--quick" if args.quick else "--url")
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
    databases = [d.strip() for d in args.databases.split(",") if d.strip()]
    if not databases or set(databases) - set(DATABASES) or len(set(databases)) != len(databases):
        parser.error(f"--databases takes distinct names from {', '.join(DATABASES)}")
    try:
        processes = [int(n) for n in args.api_processes.split(",") if n.strip()]
    except ValueError:
        parser.error("--api-processes takes whole numbers separated by commas, e.g. 1,2")
    if (not processes or min(processes) < 1 or max(processes) > args.connections
            or len(set(processes)) != len(processes)):
        parser.error("--api-processes must be distinct, at least 1 and at most --connections")
    if args.url and (databases != ["sqlite"] or processes != [1]):
        parser.error("--url measures the server given: --databases and --api-processes do not apply")
    mode = QUICK if args.quick else FULL
    if args.rounds is not None and args.rounds < 1:
        parser.error("--rounds must be at least 1")
    plan = Plan(names, rates, args.duration or mode["duration"], args.connections,
                args.unloaded or int(mode["unloaded"]), int(mode["warmup"]), args.quick,
                args.rounds or int(mode["rounds"]), databases, processes)
    return args, plan


def target_configuration(plan: Plan, url: str | None) -> str | None:
    """The configuration label the targets are checked on; None when it is not in this run."""
    if url:
        return ""
    if TARGET_CONFIGURATION not in plan.configurations:
        return None
    return Deployment(*TARGET_CONFIGURATION, Path()).label if len(plan.configurations) > 1 else ""


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
        labels = [""] if args.url or len(plan.configurations) == 1 else [
            Deployment(db, n, Path()).label for db, n in plan.configurations]
        text = header(plan, args.url, load_before) + "\n\n" + report(outcomes, labels)
        print(text)
        write_text(NAME, "load.md", text)
        targets = Targets(NAME)
        check_targets(targets, outcomes, target_configuration(plan, args.url))
        return targets.finish()
    finally:
        if keep:
            log(f"server logs kept in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
