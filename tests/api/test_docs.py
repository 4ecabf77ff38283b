"""``/docs`` and ``/redoc`` work offline: every asset they load is served by the service itself."""

from __future__ import annotations

import re

import pytest


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_pages_load_only_local_assets(client, page):
    response = client.get(page)
    assert response.status_code == 200 and "text/html" in response.headers["content-type"]
    html = response.text
    assert "cdn.jsdelivr" not in html and "fonts.googleapis" not in html
    assets = re.findall(r'(?:src|href)=["\']([^"\']+)["\']', html) + re.findall(r"url: ['\"]([^'\"]+)['\"]", html)
    assert assets, html
    for asset in assets:
        assert asset.startswith("/"), f"{page} loads {asset} from another host"
        assert client.get(asset).status_code == 200, asset
    scripts = [a for a in assets if a.endswith(".js")]
    assert scripts and all(len(client.get(a).content) > 100_000 for a in scripts)
