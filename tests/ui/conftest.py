"""The dashboard in a real browser: Debian's chromium driven by Playwright, against a live server.

Browser tests skip, saying why, when ``/usr/bin/chromium`` (``apt-get install chromium``) or
the ``playwright`` package is missing; with ``FAIRACQ_REQUIRE_BROWSER=1`` (CI's ``make test-ui``)
they fail instead; ``FAIRACQ_SKIP_BROWSER=1`` skips them (CI's ``make test``: they have a stage
of their own). They run once, on SQLite: the dashboard reads through the same repositories on
both databases, and ``test_auth.py`` and ``test_export.py`` cover its own SQL on PostgreSQL too.

One server (``python -m service serve`` with a worker) is seeded for the whole run: two tenants
with a key each, a session of every type through the API, and a batch scheduler with 10,000
epochs written by its resource's service in-process (the code under ``POST .../epochs``, three
to four times faster than through HTTP on a busy two-core machine). Every page a test opens records its
console messages and every request it makes. Measurements are printed at the end of the run
("dashboard: measurements").
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from service.auth import create_api_key
from service.db import make_engine, make_sessionmaker, transaction
from tests.conftest import on_postgres
from tests.live import Client, Server, serve
from tests.ui import seed

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
BIG_EPOCHS = 10_000
CHART_TIMEOUT_MS = 30_000
SERVER_ENV = {"FAIRACQ_OPEN_MODE": "false", "FAIRACQ_RATE_LIMIT_PER_SECOND": "0",
              "FAIRACQ_JOB_POLL_SECONDS": "0.05", "FAIRACQ_JOB_HEARTBEAT_SECONDS": "0.5",
              "FAIRACQ_JOB_LEASE_SECONDS": "10", "OMP_NUM_THREADS": "1"}
ROOT = Path(__file__).resolve().parents[2]
REPORT: list[tuple[str, str]] = []


def record(step: str, value: str) -> None:
    REPORT.append((step, value))
    print(f"dashboard: {step}: {value}", flush=True)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not REPORT:
        return
    terminalreporter.section("dashboard: measurements")
    width = max(len(step) for step, _ in REPORT)
    for step, value in REPORT:
        terminalreporter.write_line(f"{step:<{width}}  {value}")


def _missing() -> str | None:
    if on_postgres():
        return None  # not missing: skipped below for another reason
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing: `apt-get install -y chromium` (Debian) to run the dashboard's browser tests"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing: `pip install -e '.[dev]'`"
    return None


@pytest.fixture(scope="session")
def browser_ready() -> None:
    """Skip (or with FAIRACQ_REQUIRE_BROWSER=1, fail) when the browser cannot run here."""
    required = os.environ.get("FAIRACQ_REQUIRE_BROWSER") == "1"
    if on_postgres():
        pytest.skip("the browser tests run once, on SQLite (the UI's SQL is covered on PostgreSQL by test_auth.py)")
    if os.environ.get("FAIRACQ_SKIP_BROWSER") == "1" and not required:
        pytest.skip("FAIRACQ_SKIP_BROWSER=1: the browser tests run in a stage of their own (make test-ui)")
    missing = _missing()
    if missing is None:
        return
    if required:
        pytest.fail(f"FAIRACQ_REQUIRE_BROWSER=1 but {missing}", pytrace=False)
    pytest.skip(missing)


@dataclass
class Site:
    """The live server, the two tenants' keys and what was seeded for tenant A."""

    server: Server
    keys: dict[str, str]
    sessions: dict[str, seed.Seeded] = field(default_factory=dict)
    bigs: list[seed.Seeded] = field(default_factory=list)  # 10,000 decisions or more each
    other: seed.Seeded | None = None  # tenant B's

    def url(self, path: str) -> str:
        return self.server.base_url + path

    def client(self, tenant: str = "acme") -> Client:
        return Client(self.server.port, self.keys[tenant])


@pytest.fixture(scope="session")
def site(browser_ready: None, _migrated_template: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("ui")
    shutil.copy(_migrated_template, folder / "ui.db")
    url = f"sqlite:///{folder / 'ui.db'}"
    engine = make_engine(url)
    with transaction(make_sessionmaker(engine)) as db:
        keys = {name: create_api_key(db, name) for name in ("acme", "globex")}
    start = time.perf_counter()
    bigs = [seed.big_batch_scheduler(make_sessionmaker(engine), "acme", BIG_EPOCHS)]
    record(f"seeding {BIG_EPOCHS:,} epochs (the resource's service, in-process)",
           f"{time.perf_counter() - start:.1f} s")
    engine.dispose()
    with serve(url, folder / "server.log", workers=1, env=SERVER_ENV) as server:
        found = Site(server, keys, bigs=bigs)
        start = time.perf_counter()
        with found.client("acme") as client:
            data = seed.dataset(client, 240, seed=1)
            found.sessions = {s.segment: s for s in (
                seed.seed_group_sampler(client), seed.seed_partition_bandit(client),
                seed.seed_balanced_filter(client, data), seed.seed_batch_scheduler(client, 30),
                seed.seed_fair_regression(client, data))}
        with found.client("globex") as client:
            found.other = seed.seed_group_sampler(client, rounds=3, name="globex-only")
        record("seeding a session of every type through the API", f"{time.perf_counter() - start:.1f} s")
        yield found
    print((folder / "server.log").read_text()[-3000:])


@dataclass
class Recorder:
    """What a page did: console messages, uncaught errors, and every request's URL."""

    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def foreign(self, port: int) -> list[str]:
        """Requests to anything but the service (a data: URL goes nowhere and is fine)."""
        return [u for u in self.requests if not u.startswith("data:") and urlsplit(u).netloc != f"127.0.0.1:{port}"]


@dataclass
class Browser:
    page: Any  # playwright.sync_api.Page
    context: Any  # playwright.sync_api.BrowserContext
    seen: Recorder

    def cookies(self) -> list[dict[str, Any]]:
        return list(self.context.cookies())


@pytest.fixture(scope="session")
def playwright_driver(browser_ready: None) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture
def open_browser(playwright_driver: Any) -> Iterator[Callable[..., Browser]]:
    """Start Chromium with a fresh profile (a new user-data dir) per call; all are closed at the end."""
    opened: list[Any] = []
    folders: list[str] = []

    def start(viewport: dict[str, int] | None = None) -> Browser:
        folder = tempfile.mkdtemp(prefix="fairacq-chromium-")
        folders.append(folder)
        context = playwright_driver.chromium.launch_persistent_context(
            folder, executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
            viewport=viewport or LAPTOP, accept_downloads=True)
        opened.append(context)
        page = context.pages[0] if context.pages else context.new_page()
        seen = Recorder()
        page.on("console", lambda m: seen.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: seen.errors.append(f"uncaught: {e}"))
        context.on("request", lambda r: seen.requests.append(r.url))
        return Browser(page, context, seen)

    yield start
    for context in opened:
        context.close()
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


def log_in(browser: Browser, site: Site, tenant: str = "acme") -> None:
    page = browser.page
    page.goto(site.url("/ui/login"))
    page.get_by_label("API key").fill(site.keys[tenant])
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(site.url("/ui"))


def wait_for_charts(browser: Browser) -> None:
    """Until every chart of the page has been drawn (ui.js marks each as it hands it to Plotly)."""
    browser.page.wait_for_function(
        "() => { const p = document.querySelectorAll('.plot[data-slot]');"
        " return p.length > 0 && Array.from(p).every(e => e.dataset.rendered === 'true'); }",
        timeout=CHART_TIMEOUT_MS)


def screenshot_dir(tmp_path: Path) -> Path:
    """docs/screenshots/ under FAIRACQ_SCREENSHOTS=1 (``make test-ui``), else the test's own folder."""
    if os.environ.get("FAIRACQ_SCREENSHOTS") == "1":
        folder = ROOT / "docs" / "screenshots"
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    return tmp_path
