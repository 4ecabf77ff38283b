"""``/ui``: the dashboard's pages, login and logout (the data they poll: api.py; files: static.py).

Pages are rendered on the server (Jinja2) and readable without scripts; ``ui.js`` then
draws the charts and keeps the page current while anything on it can still change.
No route is in the OpenAPI document: ``/v1`` is the API, this is one of its clients.
"""

from __future__ import annotations

import math
import uuid
from typing import Annotated

from fastapi import APIRouter, Form, Query, Request, Response
from fastapi.responses import RedirectResponse

from service.errors import NotFound, ServiceError, Unauthorized
from service.sessions.lifecycle import shown_status
from service.sessions.repository import SessionRepository
from service.ui import api, auth, static
from service.ui.http import UiRoute, error_page, login_redirect, reader, remember, render, user_for_page
from service.ui.overview import FINISHED, STATUSES, Filters, overview
from service.ui.views import VIEWS, by_segment

__all__ = ["router"]

router = APIRouter(prefix="/ui", include_in_schema=False, route_class=UiRoute)
LOG_PAGE = 50  # decision-log rows per page of the table
CELL_CHARS = 160  # a request or response cell shows this much of its JSON


def _next_target(value: str | None) -> str:
    """Where to go after login: a dashboard path only (never another site)."""
    if value and value.startswith("/ui") and not value.startswith("//") and "\\" not in value:
        return value
    return "/ui"


@router.get("")
def home(request: Request, type: str | None = None, status: str | None = None) -> Response:
    user, token = user_for_page(request)
    if user is None:
        return login_redirect(request)
    filters = Filters.of(type, status)
    with reader(request) as db:
        rows = overview(db, user.tenant.id, filters)
    response = render(request, "home.html", {
        "user": user, "overview": rows, "filters": filters, "views": list(VIEWS.values()), "statuses": STATUSES})
    return remember(request, response, token)


@router.get("/sessions/{segment}/{session_id}")
def session_page(request: Request, segment: str, session_id: uuid.UUID,
                 page: Annotated[int, Query(ge=1, le=10**8)] = 1) -> Response:
    user, token = user_for_page(request)
    if user is None:
        return login_redirect(request)
    view = by_segment(segment)
    try:
        if view is None:
            raise NotFound(f"no decision type {segment!r}")
        with reader(request) as db:
            repo = SessionRepository(db, user.tenant.id, view.kind)
            record = repo.get(session_id)
            shown = shown_status(db, user.tenant.id, record, view.work)
            facts = view.facts(db, user.tenant.id, record)
            rows = repo.decisions(record, LOG_PAGE, (page - 1) * LOG_PAGE)
    except ServiceError as exc:
        return remember(request, error_page(request, user, exc), token)
    pages = max(1, math.ceil(record.sequence / LOG_PAGE))
    base = f"/ui/sessions/{view.segment}/{record.id}"
    response = render(request, "session.html", {
        "user": user, "view": view, "record": record, "shown": shown, "facts": facts, "rows": rows, "page": page,
        "pages": pages, "base": base, "finished": shown.status in FINISHED, "cell_chars": CELL_CHARS,
        "api_url": f"/ui/api/sessions/{view.segment}/{record.id}", "plotly_url": static.PLOTLY_URL})
    return remember(request, response, token)


@router.get("/login")
def login_form(request: Request, next: str | None = None) -> Response:
    user, token = user_for_page(request)
    if user is not None:
        return remember(request, RedirectResponse(_next_target(next), status_code=303), token)
    return _login_page(request, next, None, 200)


def _login_page(request: Request, next: str | None, error: str | None, status_code: int) -> Response:
    form_token = auth.new_login_token()
    response = render(request, "login.html", {"user": None, "form_token": form_token, "error": error,
                                              "next": _next_target(next)}, status_code=status_code)
    auth.set_cookie(request, response, auth.LOGIN_COOKIE, form_token, auth.LOGIN_FORM_SECONDS)
    return response


@router.post("/login")
def login(request: Request, api_key: Annotated[str, Form(max_length=512)] = "",
          csrf_token: Annotated[str, Form(max_length=256)] = "", next: Annotated[str, Form(max_length=2000)] = "",
          ) -> Response:
    try:
        auth.check_login_token(request, csrf_token)
    except auth.Forbidden as exc:
        return _login_page(request, next, exc.detail, exc.status)
    try:
        _, token = auth.login(request, api_key)
    except Unauthorized as exc:
        return _login_page(request, next, exc.detail, 401)
    response = RedirectResponse(_next_target(next), status_code=303)
    auth.set_cookie(request, response, auth.COOKIE, token, auth.SESSION_MAX_AGE)
    auth.clear_cookie(request, response, auth.LOGIN_COOKIE)
    return response


@router.post("/logout")
def logout(request: Request, csrf_token: Annotated[str, Form(max_length=256)] = "") -> Response:
    user = auth.current_user(request)
    if user is None:
        return RedirectResponse("/ui/login", status_code=303)
    try:
        auth.check_csrf(request, user, csrf_token)
    except auth.Forbidden as exc:
        return error_page(request, user, exc)
    auth.end_session(request, user)
    response = RedirectResponse("/ui/login", status_code=303)
    auth.clear_cookie(request, response, auth.COOKIE)
    return response


router.include_router(api.router)
router.include_router(static.router)
