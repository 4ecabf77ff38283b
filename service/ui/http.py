"""What every dashboard route shares: its route class (security headers), templates, the user and reads."""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.routing import APIRoute
from fastapi.templating import Jinja2Templates
from sqlalchemy.orm import Session, sessionmaker

from service.errors import ServiceError
from service.ui.auth import COOKIE, SESSION_MAX_AGE, LoginRequired, UiUser, current_user, open_mode_user, set_cookie

__all__ = ["HERE", "UiRoute", "error_page", "login_redirect", "reader", "remember", "render", "templates",
           "user_for_page", "user_or_401"]

HERE = Path(__file__).resolve().parent
templates = Jinja2Templates(directory=HERE / "templates")

# Scripts only from the service; Plotly sets styles inline, so styles may be inline. Nothing may frame a page.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
SECURITY_HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
                    "X-Frame-Options": "DENY", "Referrer-Policy": "same-origin"}


class UiRoute(APIRoute):
    """A dashboard route: its responses carry the security headers, and pages and data are never cached."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            response = await handler(request)
            for name, value in SECURITY_HEADERS.items():
                response.headers.setdefault(name, value)
            response.headers.setdefault("Cache-Control", "no-store")
            return response

        return route


@contextmanager
def reader(request: Request) -> Iterator[Session]:
    """A read-only session for one page or one poll (SQLite ``BEGIN DEFERRED``)."""
    factory: sessionmaker[Session] = request.app.state.readers
    with factory() as db:
        yield db


def render(request: Request, template: str, context: dict[str, Any], status_code: int = 200) -> HTMLResponse:
    return templates.TemplateResponse(request, template, context, status_code=status_code)


def error_page(request: Request, user: UiUser | None, exc: ServiceError) -> HTMLResponse:
    return render(request, "error.html", {"user": user, "status": exc.status, "title": exc.title,
                                          "detail": exc.detail}, status_code=exc.status)


def login_redirect(request: Request) -> RedirectResponse:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/ui/login?next={quote(target, safe='')}", status_code=303)


def user_for_page(request: Request) -> tuple[UiUser | None, str | None]:
    """The page's user and, when open mode opened a session just now, the token its response must set."""
    user = current_user(request)
    if user is not None:
        return user, None
    opened = open_mode_user(request)
    return (None, None) if opened is None else opened


def remember(request: Request, response: Response, token: str | None) -> Response:
    """Set the session cookie of a session opened by this request (open mode)."""
    if token is not None:
        set_cookie(request, response, COOKIE, token, SESSION_MAX_AGE)
    return response


def user_or_401(request: Request) -> UiUser:
    """The data endpoints' user: the session cookie's, or 401 (the page that polls them has set it)."""
    user = current_user(request)
    if user is None:
        raise LoginRequired("log in at /ui/login: the dashboard session has ended")
    return user
