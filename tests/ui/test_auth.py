"""The dashboard's login, cookie and CSRF rules through the app (no browser; SQLite and PostgreSQL)."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import select, update

from service.db import transaction, utcnow
from service.ui.models import UiSession
from tests.factories import make_key

FORM_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def _login(raw: TestClient, key: str) -> str:
    """Log in through the form as a browser does; the session cookie's value."""
    form = raw.get("/ui/login")
    assert form.status_code == 200
    token = FORM_TOKEN.search(form.text)
    assert token is not None and raw.cookies.get("fairacq_ui_login") == token.group(1)
    answer = raw.post("/ui/login", data={"api_key": key, "csrf_token": token.group(1), "next": "/ui"},
                      follow_redirects=False)
    assert answer.status_code == 303, answer.text
    assert answer.headers["location"] == "/ui"
    return answer.cookies["fairacq_ui"]


def _csrf(raw: TestClient) -> str:
    page = raw.get("/ui")
    assert page.status_code == 200
    found = re.search(r'<meta name="csrf-token" content="([^"]+)">', page.text)
    assert found is not None
    return found.group(1)


def test_login_sets_a_strict_httponly_cookie_and_stores_only_its_digest(client, sessions) -> None:
    key = make_key(sessions, "acme")
    raw = client.raw
    token = _login(raw, key)
    assert raw.get("/ui").status_code == 200
    with sessions() as db:
        rows = db.scalars(select(UiSession)).all()
    assert [r.token_hash for r in rows] == [hashlib.sha256(token.encode()).hexdigest()]
    assert all(token not in (r.token_hash, str(r.id)) for r in rows)
    assert timedelta(hours=11) < rows[0].expires_at - rows[0].created_at <= timedelta(hours=12)


def test_the_session_cookie_has_every_attribute(client, sessions) -> None:
    key = make_key(sessions, "acme")
    raw = client.raw
    form = raw.get("/ui/login")
    token = FORM_TOKEN.search(form.text)
    assert token is not None
    login_cookie = form.headers["set-cookie"]
    assert "HttpOnly" in login_cookie and "SameSite=strict" in login_cookie and "Path=/ui" in login_cookie
    answer = raw.post("/ui/login", data={"api_key": key, "csrf_token": token.group(1)}, follow_redirects=False)
    cookies = answer.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("fairacq_ui="))
    assert {"HttpOnly", "SameSite=strict", "Path=/ui", "Max-Age=43200"} <= {p.strip() for p in session.split(";")}
    assert "Secure" not in session  # plain http here; https below
    assert any(c.startswith('fairacq_ui_login=""') for c in cookies)  # the form's token is spent


def test_over_https_the_cookie_is_secure(app, sessions) -> None:
    key = make_key(sessions, "acme")
    with TestClient(app, base_url="https://testserver") as raw:
        form = raw.get("/ui/login")
        token = FORM_TOKEN.search(form.text)
        assert token is not None
        answer = raw.post("/ui/login", data={"api_key": key, "csrf_token": token.group(1)}, follow_redirects=False)
    session = next(c for c in answer.headers.get_list("set-cookie") if c.startswith("fairacq_ui="))
    assert "Secure" in session


def test_a_wrong_key_is_refused_and_opens_nothing(client, sessions) -> None:
    make_key(sessions, "acme")
    raw = client.raw
    token = FORM_TOKEN.search(raw.get("/ui/login").text)
    assert token is not None
    answer = raw.post("/ui/login", data={"api_key": "fa_not-a-key", "csrf_token": token.group(1)})
    assert answer.status_code == 401
    assert "the API key is not valid" in answer.text
    assert "fairacq_ui" not in answer.cookies
    assert raw.get("/ui", follow_redirects=False).headers["location"] == "/ui/login?next=%2Fui"


def test_login_needs_the_forms_own_token(client, sessions) -> None:
    key = make_key(sessions, "acme")
    raw = client.raw
    # No form loaded: no login cookie, so no token can match (a cross-site form is in this position).
    answer = raw.post("/ui/login", data={"api_key": key, "csrf_token": "guess"}, follow_redirects=False)
    assert answer.status_code == 403 and "fairacq_ui" not in answer.cookies
    token = FORM_TOKEN.search(raw.get("/ui/login").text)
    assert token is not None
    foreign = raw.post("/ui/login", data={"api_key": key, "csrf_token": token.group(1)},
                       headers={"origin": "https://evil.example"}, follow_redirects=False)
    assert foreign.status_code == 403 and "fairacq_ui" not in foreign.cookies
    with sessions() as db:
        assert db.scalars(select(UiSession)).all() == []


def test_state_changing_requests_need_the_csrf_token(client, sessions) -> None:
    key = make_key(sessions, "acme")
    raw = client.raw
    _login(raw, key)
    csrf = _csrf(raw)
    assert raw.post("/ui/logout", data={"csrf_token": "wrong"}).status_code == 403
    assert raw.post("/ui/logout", data={"csrf_token": csrf}, headers={"origin": "https://evil.example"}
                    ).status_code == 403
    assert raw.get("/ui").status_code == 200  # still logged in
    job = "00000000-0000-0000-0000-000000000001"
    assert raw.post(f"/ui/api/jobs/{job}/cancel").status_code == 403
    assert raw.post(f"/ui/api/jobs/{job}/cancel", headers={"X-CSRF-Token": "wrong"}).status_code == 403
    assert raw.post(f"/ui/api/jobs/{job}/cancel", headers={"X-CSRF-Token": csrf}).status_code == 404
    out = raw.post("/ui/logout", data={"csrf_token": csrf}, follow_redirects=False)
    assert out.status_code == 303 and out.headers["location"] == "/ui/login"
    with sessions() as db:
        assert db.scalars(select(UiSession)).all() == []


def test_an_expired_session_is_refused(client, sessions) -> None:
    key = make_key(sessions, "acme")
    raw = client.raw
    _login(raw, key)
    assert raw.get("/ui/api/overview").status_code == 200
    with transaction(sessions) as db:
        db.execute(update(UiSession).values(expires_at=utcnow() - timedelta(seconds=1)))
    answer = raw.get("/ui/api/overview")
    assert answer.status_code == 401
    assert answer.headers["content-type"] == "application/problem+json"
    assert raw.get("/ui", follow_redirects=False).status_code == 303


def test_open_mode_opens_a_keyless_session_until_a_key_exists(client, sessions) -> None:
    raw = client.raw
    page = raw.get("/ui")
    assert page.status_code == 200
    assert 'id="tenant-name">default<' in page.text and "(open mode)" in page.text
    assert raw.get("/ui/api/overview").status_code == 200
    make_key(sessions, "acme")
    assert raw.get("/ui/api/overview").status_code == 401  # open mode ended, and the keyless session with it
    assert raw.get("/ui", follow_redirects=False).headers["location"].startswith("/ui/login")


def test_pages_carry_security_headers_and_are_not_in_the_api_document(client) -> None:
    page = client.raw.get("/ui")
    assert page.headers["content-security-policy"].startswith("default-src 'self'; script-src 'self';")
    assert page.headers["x-frame-options"] == "DENY" and page.headers["cache-control"] == "no-store"
    paths = client.raw.get("/openapi.json").json()["paths"]
    assert [p for p in paths if p.startswith("/ui")] == []
