"""Pages follow what runs: a job's progress bar moves while a worker fits, a session page redraws as
decisions arrive, and the home page's Cancel button (a fetch POST with the CSRF token) stops a job."""

from __future__ import annotations

from typing import Any

from tests.ui import seed
from tests.ui.conftest import LAPTOP, Site, log_in, record

MOVE_TIMEOUT_MS = 90_000
# A sweep over six slacks with a gradient-boosting oracle: about a minute on a two-core machine,
# its progress written every second or two; the test cancels it once it has seen it move.
SLOW_FIT = {"name": "slow-fit", "seed": 3, "max_iterations": 200, "tolerance": 1e-9,
            "learner": {"type": "gradient_boosting"},
            "constraint": {"type": "statistical_parity", "slack": [0.01, 0.02, 0.03, 0.04, 0.05, 0.06],
                           "grid_size": 200}}
PROGRESS_OF = "(selector) => { const p = document.querySelector(selector); return p ? p.value : null; }"


def _moves(page: Any, selector: str) -> tuple[float, float]:
    """Wait for the bar to show a running value, then for a larger one; both values."""
    page.wait_for_function(f"() => {{ const p = document.querySelector({selector!r}); "
                           "return p !== null && p.value > 0 && p.value < 100; }", timeout=MOVE_TIMEOUT_MS)
    first = page.evaluate(PROGRESS_OF, selector)
    page.wait_for_function(f"(v) => {{ const p = document.querySelector({selector!r}); "
                           "return p === null || p.value > v; }", arg=first, timeout=MOVE_TIMEOUT_MS)
    later = page.evaluate(PROGRESS_OF, selector)
    return first, 100.0 if later is None else later


def test_progress_moves_while_a_job_runs_and_cancel_stops_it(site: Site, open_browser) -> None:
    browser = open_browser(LAPTOP)
    page = browser.page
    log_in(browser, site)
    with site.client() as client:
        data = seed.dataset(client, 2000, seed=5, name="slow")
        created = seed.ok(client.post("/v1/fair-regressions", {**SLOW_FIT, "dataset_id": data}), 202)
    job_id = created["job_id"]
    page.goto(site.url("/ui"))
    bar = f'#jobs tr[data-id="{job_id}"] progress'
    first, later = _moves(page, bar)
    record("job progress seen on the home page", f"{first:.0f}% then {later:.0f}%")
    assert 0 < first < later

    page.goto(site.url(f"/ui/sessions/fair-regressions/{created['id']}"))
    first, later = _moves(page, "#session-progress")
    record("job progress seen on its session page", f"{first:.0f}% then {later:.0f}%")
    assert 0 < first < later
    assert page.locator("#session-status").inner_text() == "running"

    page.goto(site.url("/ui"))
    row = page.locator(f'#jobs tr[data-id="{job_id}"]')
    row.get_by_role("button", name="Cancel").click()
    page.wait_for_function(f"() => document.querySelector('#jobs tr[data-id=\"{job_id}\"] .status')"
                           ".textContent === 'cancelled'", timeout=MOVE_TIMEOUT_MS)
    with site.client() as client:
        assert seed.ok(client.get(f"/v1/jobs/{job_id}"))["status"] == "cancelled"
    assert browser.seen.errors == []
    assert browser.seen.foreign(site.server.port) == []


def test_a_session_page_redraws_as_decisions_arrive(site: Site, open_browser) -> None:
    browser = open_browser(LAPTOP)
    page = browser.page
    log_in(browser, site)
    with site.client() as client:
        scheduler = seed.seed_batch_scheduler(client, 3, name="growing")
        page.goto(site.url(scheduler.page))
        page.wait_for_function("() => document.querySelector('#chart-lambdas')?.dataset.rendered === 'true'")
        points = "() => document.querySelector('#chart-lambdas').data[0].x.length"
        assert page.evaluate(points) == 3
        for epoch in range(4, 9):
            seed.ok(client.post(f"/v1/batch-schedulers/{scheduler.id}/epochs",
                                {"epoch": epoch, "losses": seed.epoch_losses(epoch)}))
    page.wait_for_function(f"() => ({points})() === 8", timeout=15_000)
    assert page.locator("#log-total").inner_text() == "9"  # creation and eight epochs
    facts = page.locator("#facts").inner_text()
    assert "Epochs reported\n8" in facts
    assert browser.seen.errors == []
