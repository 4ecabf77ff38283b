"""Every page in Chromium: it loads with no console error and no request to another host, each chart
draws the series its seeded session must have, and first paint stays under a second with 10,000 decisions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import (
    BIG_EPOCHS,
    LAPTOP,
    PHONE,
    Browser,
    Site,
    log_in,
    record,
    screenshot_dir,
    wait_for_charts,
)

FIRST_PAINT_BUDGET_MS = 1000.0
PHONE_SHOT_HEIGHT = 2400  # px: a phone screenshot shows the facts and the charts, not the whole log
# What each chart must draw: Plotly's own count of the series it rendered, and the series' groups in the SVG.
SERIES_JS = """() => Array.from(document.querySelectorAll('.plot[data-slot]')).map(p => ({
    slot: p.dataset.slot,
    data: p.data ? p.data.length : -1,
    drawn: p.querySelectorAll('.scatterlayer .trace, .barlayer .trace, .heatmaplayer .hm').length,
}))"""
PAINT_JS = "() => Object.fromEntries(performance.getEntriesByType('paint').map(e => [e.name, e.startTime]))"


def _shoot(page: Any, path: Path, viewport: dict[str, int]) -> None:
    """The laptop's screen as it is; on a phone, the page's first few screens (facts and charts)."""
    if viewport == PHONE:
        height = min(PHONE_SHOT_HEIGHT, page.evaluate("() => document.documentElement.scrollHeight"))
        page.screenshot(path=str(path), full_page=True, clip={"x": 0, "y": 0, "width": PHONE["width"],
                                                               "height": height})
    else:
        page.screenshot(path=str(path))


def _clean(browser: Browser, site: Site, what: str) -> None:
    assert browser.seen.errors == [], f"{what}: console errors {browser.seen.errors}"
    foreign = browser.seen.foreign(site.server.port)
    assert foreign == [], f"{what}: requests to other hosts {foreign}"


def _paint(browser: Browser) -> dict[str, float]:
    # Paint entries are timed from the navigation's start, so waiting for them changes nothing they say.
    browser.page.wait_for_function("() => performance.getEntriesByType('paint').length >= 2", timeout=10_000)
    paints = browser.page.evaluate(PAINT_JS)
    assert "first-paint" in paints and "first-contentful-paint" in paints, paints
    return paints


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_every_page_loads_clean_and_draws_its_series(site: Site, open_browser, viewport, tmp_path: Path) -> None:
    browser = open_browser(viewport)
    width = "laptop" if viewport == LAPTOP else "phone"
    shots = screenshot_dir(tmp_path)
    page = browser.page
    page.goto(site.url("/ui"))
    assert page.url.startswith(site.url("/ui/login")), "a browser without a session is sent to the login form"
    page.screenshot(path=str(shots / f"login-{width}.png"))
    log_in(browser, site)
    listed = {row.get_attribute("data-id") for row in page.locator("#sessions tbody tr[data-id]").all()}
    assert site.other is not None
    assert {s.id for s in [*site.sessions.values(), *site.bigs]} <= listed  # (other tests may add more)
    assert site.other.id not in listed
    _shoot(page, shots / f"home-{width}.png", viewport)
    requests = 0
    for segment, seeded in site.sessions.items():
        page.goto(site.url(seeded.page))
        wait_for_charts(browser)
        drawn = {c["slot"]: c for c in page.evaluate(SERIES_JS)}
        assert {slot: c["data"] for slot, c in drawn.items()} == seeded.series, segment
        assert {slot: c["drawn"] for slot, c in drawn.items()} == seeded.series, segment
        _shoot(page, shots / f"{segment}-{width}.png", viewport)
    _clean(browser, site, width)
    requests = len(browser.seen.requests)
    hosts = {r.split("/")[2] for r in browser.seen.requests if not r.startswith("data:")}
    record(f"requests on {width} pages", f"{requests}, all to {sorted(hosts)}; console errors: "
           f"{len(browser.seen.errors)}")


def test_first_paint_under_a_second_with_ten_thousand_decisions(site: Site, open_browser) -> None:
    """Every page, for sessions of 10,001 log entries: first paint (and first contentful paint) under 1 s."""
    browser = open_browser(LAPTOP)
    log_in(browser, site)
    page = browser.page
    pages = [("home", "/ui", None), ("login", "/ui/login", None)]
    for big in site.bigs:
        pages += [(f"{big.segment} with 10,001 entries", big.page, big),
                  (f"{big.segment}, last log page", f"{big.page}?page=201", None)]
    pages += [(f"{s.segment} (seeded)", s.page, None) for s in site.sessions.values()]
    for name, path, big in pages:
        page.goto(site.url(path))
        paints = _paint(browser)
        record(f"first paint, {name}", f"{paints['first-paint']:.0f} ms "
               f"(first contentful paint {paints['first-contentful-paint']:.0f} ms)")
        assert paints["first-paint"] < FIRST_PAINT_BUDGET_MS, (name, paints)
        assert paints["first-contentful-paint"] < FIRST_PAINT_BUDGET_MS, (name, paints)
        if big is not None:
            start = page.evaluate("() => performance.now()")
            wait_for_charts(browser)
            record(f"charts drawn, {name}", f"{page.evaluate('() => performance.now()') - start:.0f} ms after "
                   "first paint")
            assert page.locator("#log-total").inner_text() == f"{BIG_EPOCHS + 1:,}"
            assert {c["slot"]: c["data"] for c in page.evaluate(SERIES_JS)} == big.series
    _clean(browser, site, "pages of 10,000-decision sessions")
