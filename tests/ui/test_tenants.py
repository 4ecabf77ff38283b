"""Tenants in the browser: a key of another tenant sees none of acme's sessions, jobs, charts or exports,
and acme's login cookie opens nothing of globex's (nor anything of /v1)."""

from __future__ import annotations

from tests.live import Client
from tests.ui.conftest import LAPTOP, Site, log_in

ACME_NAMES = ("sampler-demo", "bandit-demo", "filter-demo", "scheduler-demo", "regression-demo", "ten-thousand-epochs")


def _acme_paths(site: Site) -> list[str]:
    paths = []
    for seeded in site.sessions.values():
        paths += [seeded.page, f"/ui/api/sessions/{seeded.segment}/{seeded.id}",
                  f"{seeded.page}/decisions.csv", f"{seeded.page}/decisions.jsonl"]
    return paths


def test_another_tenant_sees_nothing(site: Site, open_browser) -> None:
    assert site.other is not None
    browser = open_browser(LAPTOP)
    page = browser.page
    log_in(browser, site, "globex")
    assert page.locator("#tenant-name").inner_text() == "globex"
    rows = page.locator("#sessions tbody tr[data-id]")
    assert rows.count() == 1
    assert rows.first.get_attribute("data-id") == site.other.id
    assert page.locator("#jobs tbody tr[data-id]").count() == 0  # acme's fit jobs are not listed
    text = page.locator("main").inner_text()
    assert [name for name in ACME_NAMES if name in text] == []
    listed = page.request.get(site.url("/ui/api/overview")).json()
    assert [s["id"] for s in listed["sessions"]] == [site.other.id] and listed["jobs"] == []

    for path in _acme_paths(site):
        answer = page.request.get(site.url(path))
        assert answer.status == 404, (path, answer.status)
        assert not any(name in answer.text() for name in ACME_NAMES), path
    page.goto(site.url(site.sessions["group-samplers"].page))
    assert page.locator("#error-title").inner_text() == "404 · Not found"


def test_the_login_cookie_is_refused_across_tenants(site: Site, open_browser) -> None:
    assert site.other is not None
    browser = open_browser(LAPTOP)
    page = browser.page
    log_in(browser, site, "acme")
    cookie = next(c for c in browser.cookies() if c["name"] == "fairacq_ui")
    assert (cookie["httpOnly"], cookie["sameSite"], cookie["path"], cookie["secure"]) == (True, "Strict", "/ui", False)
    assert "fairacq_ui" not in page.evaluate("() => document.cookie")  # scripts cannot read it

    globex = site.other
    for path in (globex.page, f"/ui/api/sessions/{globex.segment}/{globex.id}", f"{globex.page}/decisions.csv"):
        assert page.request.get(site.url(path)).status == 404, path
    # The cookie is no API key, and /v1 reads no cookie.
    with Client(site.server.port, cookie["value"]) as as_key:
        assert as_key.get(f"/v1/group-samplers/{globex.id}").status == 401
        assert as_key.get("/v1/group-samplers").status == 401
    with Client(site.server.port) as with_cookie:
        reply = with_cookie.request("GET", "/v1/group-samplers", headers={"cookie": f"fairacq_ui={cookie['value']}"})
        assert reply.status == 401
    # The same cookie in globex's browser still shows acme's data only, and a forged one nothing.
    other = open_browser(LAPTOP)
    other.context.add_cookies([{**cookie}])
    other.page.goto(site.url("/ui"))
    assert other.page.locator("#tenant-name").inner_text() == "acme"
    assert other.page.request.get(site.url(globex.page)).status == 404
    other.context.clear_cookies()
    other.context.add_cookies([{**cookie, "value": cookie["value"][:-2] + "xx"}])
    other.page.goto(site.url("/ui"))
    assert other.page.url.startswith(site.url("/ui/login"))


def test_a_cookie_ends_with_its_logout(site: Site, open_browser) -> None:
    browser = open_browser(LAPTOP)
    page = browser.page
    log_in(browser, site, "acme")
    cookie = next(c for c in browser.cookies() if c["name"] == "fairacq_ui")
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(site.url("/ui/login"))
    assert [c for c in browser.cookies() if c["name"] == "fairacq_ui"] == []
    browser.context.add_cookies([cookie])  # a copy kept from before the logout
    page.goto(site.url("/ui"))
    assert page.url.startswith(site.url("/ui/login"))
    assert page.request.get(site.url("/ui/api/overview")).status == 401
