"""Take docs/screenshots/labelstudio-task-list.png: Label Studio's task list sorted by a sampler's priority.

Run in .venv-labelstudio (``make test-labelstudio`` builds it) with Debian's chromium
(``apt-get install -y chromium``):  ``.venv-labelstudio/bin/python scripts/labelstudio_screenshot.py``.
It starts Label Studio and fairacq in a temporary folder, sets up 60 Adult tasks as the test does,
labels 12 in priority order, pushes the priorities and photographs the "fairacq priority" tab.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from service.labelstudio.setup import refresh_priorities, setup_project  # noqa: E402
from service.migrations import upgrade  # noqa: E402
from tests.labelstudio.conftest import PASSWORD, USER, label_studio_command, running_label_studio  # noqa: E402
from tests.labelstudio.test_real_labelstudio import FAST_JOBS, GROUPS, MAPPING, Annotator, _pool, _project  # noqa: E402
from tests.live import serve  # noqa: E402

OUT = ROOT / "docs" / "screenshots" / "labelstudio-task-list.png"
N_TASKS, N_LABELS = 60, 12


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        database_url = f"sqlite:///{folder / 'fairacq.db'}"
        upgrade(database_url)
        pool = _pool()
        pool["tasks"] = pool["tasks"][:N_TASKS]
        with running_label_studio(label_studio_command(), folder) as ls, \
                serve(database_url, folder / "fairacq.log", workers=1, env=FAST_JOBS) as server:
            project = _project(ls, "Adult income (fairacq priority)", pool)
            setup = setup_project(ls_url=ls.url, ls_token=ls.token, project_id=project,
                                  fairacq_url=server.base_url, mapping=MAPPING,
                                  sampler={"groups": GROUPS, "strategy": "aopt", "budget": 1000, "seed": 0})
            annotator = Annotator(ls, project, pool, view=setup.view_id)
            for _ in range(N_LABELS):
                annotator.label_next()
                refresh_priorities(annotator.sdk, project, setup.backend_url, setup.token)
            annotator.close()
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                                     args=["--no-sandbox", "--disable-gpu"])
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.goto(f"{ls.url}/user/login")
                page.fill("input[name=email]", USER)
                page.fill("input[name=password]", PASSWORD)
                page.click("button[type=submit]")
                page.wait_for_load_state("networkidle")
                page.goto(f"{ls.url}/projects/{project}/data?tab={setup.view_id}")
                page.wait_for_selector("text=fairacq priority", timeout=60_000)
                page.wait_for_timeout(3000)
                OUT.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(OUT))
                browser.close()
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
