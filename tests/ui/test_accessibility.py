"""Accessible by keyboard and screen reader, in colours every common colour vision tells apart, and
readable at a phone's width; filters and exports as a person uses them."""

from __future__ import annotations

import csv
import io
import json

from service.ui.charts import OKABE_ITO
from tests.ui.conftest import LAPTOP, PHONE, Browser, Site, log_in, wait_for_charts

MAX_TABS = 60
UNLABELLED_JS = """() => Array.from(document.querySelectorAll(
    'input:not([type=hidden]), select, textarea, button, progress, a[href]')).filter(e => {
        const name = (e.labels && e.labels.length ? e.labels[0].textContent : '') + (e.getAttribute('aria-label') || '')
                     + (e.tagName === 'BUTTON' || e.tagName === 'A' ? e.textContent : '');
        return name.trim() === '';
    }).map(e => e.outerHTML.slice(0, 120))"""
PLOT_NAMES_JS = """() => Array.from(document.querySelectorAll('.plot')).map(p => ({
    role: p.getAttribute('role'),
    name: document.getElementById(p.getAttribute('aria-labelledby'))?.textContent.trim() || '',
    description: document.getElementById(p.getAttribute('aria-describedby'))?.textContent.trim() || ''}))"""
COLOURS_JS = """() => Array.from(document.querySelectorAll('.plot')).flatMap(p => (p._fullData || []).map(t => ({
    type: t.type, line: t.line ? t.line.color : null, marker: t.marker ? t.marker.color : null,
    scale: t.colorscale ? t.colorscale.map(s => s[1]) : null})))"""


def _tab_to(browser: Browser, matches: str) -> str:
    """Press Tab until the focused element satisfies the JS predicate ``matches`` (given ``e``); its text."""
    page = browser.page
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => {{ const e = document.activeElement; return !!({matches}); }}"):
            return page.evaluate("() => document.activeElement.textContent.trim()")
    raise AssertionError(f"{MAX_TABS} tabs did not reach {matches}")


def test_the_keyboard_reaches_filters_sessions_exports_and_pages(site: Site, open_browser) -> None:
    browser = open_browser(LAPTOP)
    page = browser.page
    log_in(browser, site)
    page.goto(site.url("/ui"))
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Enter")
    _tab_to(browser, "e.id === 'filter-type'")
    page.keyboard.type("group")  # a closed select picks the option its typed letters start
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "Filter"
    page.keyboard.press("Enter")
    page.wait_for_url(site.url("/ui?type=group-samplers&status="))
    assert page.locator("#sessions tbody tr[data-id] td[data-label=Type]").all_inner_texts() == ["group sampler"]
    assert _tab_to(browser, "e.closest && e.closest('#sessions tbody')") == "sampler-demo"
    page.keyboard.press("Enter")
    page.wait_for_url(site.url(site.sessions["group-samplers"].page))
    assert _tab_to(browser, "e.textContent === 'Export CSV'") == "Export CSV"

    big = site.bigs[0]
    page.goto(site.url(big.page))
    assert _tab_to(browser, "e.rel === 'next'") == "Next"
    page.keyboard.press("Enter")
    page.wait_for_url(site.url(f"{big.page}?page=2"))
    assert page.locator("#decisions tbody th").first.inner_text() == "51"


def test_every_control_and_chart_is_named_and_colours_are_okabe_ito(site: Site, open_browser) -> None:
    browser = open_browser(LAPTOP)
    page = browser.page
    page.goto(site.url("/ui/login"))
    assert page.evaluate(UNLABELLED_JS) == []
    log_in(browser, site)
    assert page.evaluate("() => document.documentElement.lang") == "en"
    assert page.evaluate(UNLABELLED_JS) == []
    palette = {c.lower() for c in OKABE_ITO}
    for seeded in site.sessions.values():
        page.goto(site.url(seeded.page))
        wait_for_charts(browser)
        assert page.evaluate(UNLABELLED_JS) == [], seeded.segment
        plots = page.evaluate(PLOT_NAMES_JS)
        assert len(plots) == len(seeded.series)
        assert all(p["role"] == "img" and p["name"] and p["description"] for p in plots), plots
        for trace in page.evaluate(COLOURS_JS):
            if trace["type"] == "heatmap":
                assert trace["scale"][0].lower() in ("#440154", "rgb(68,1,84)"), trace  # Viridis starts dark purple
                continue
            used = {c.lower() for c in (trace["line"], trace["marker"]) if isinstance(c, str)}
            assert used and used <= palette, (seeded.segment, trace)


def test_a_phone_width_needs_no_sideways_scrolling(site: Site, open_browser) -> None:
    browser = open_browser(PHONE)
    page = browser.page
    log_in(browser, site)
    for path in ["/ui", *(s.page for s in site.sessions.values())]:
        page.goto(site.url(path))
        if path != "/ui":
            wait_for_charts(browser)
        width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], (path, width)


def test_filters_and_export_buttons(site: Site, open_browser, tmp_path) -> None:
    browser = open_browser(LAPTOP)
    page = browser.page
    log_in(browser, site)
    page.goto(site.url("/ui"))
    page.get_by_label("Status").select_option("done")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url(site.url("/ui?type=&status=done"))
    assert page.locator("#sessions tbody tr[data-id] th").all_inner_texts() == ["bandit-demo"]
    assert page.locator("#jobs tbody tr[data-id]").count() == 0  # no job is "done" (jobs say succeeded)

    seeded = site.sessions["group-samplers"]
    page.goto(site.url(seeded.page))
    total = int(page.locator("#log-total").inner_text().replace(",", ""))
    with page.expect_download() as csv_download:
        page.get_by_role("link", name="Export CSV").click()
    rows = list(csv.reader(io.StringIO(csv_download.value.path().read_text())))
    assert csv_download.value.suggested_filename == f"group_sampler-{seeded.id}-decisions.csv"
    assert rows[0][:3] == ["sequence", "id", "kind"] and [int(r[0]) for r in rows[1:]] == list(range(1, total + 1))
    with page.expect_download() as jsonl_download:
        page.get_by_role("link", name="Export JSON Lines").click()
    lines = [json.loads(line) for line in jsonl_download.value.path().read_text().splitlines()]
    assert [item["sequence"] for item in lines] == list(range(1, total + 1))
    assert [item["kind"] for item in lines[:3]] == ["create", "next", "observation"]
    assert browser.seen.errors == []
