"""The routes every session resource shares: read one, list, its decision log, delete.

A resource describes itself once (:class:`SessionRoutes`) and calls
:func:`add_session_routes`; its own router adds only what is particular to it
(create, and its decisions and reports, which take ``If-Match`` as :data:`IfMatch`).
Operation ids follow the kind: ``get_<kind>``, ``list_<kind>s``, ``list_<kind>_decisions``,
``delete_<kind>``.
"""

from __future__ import annotations

import inspect
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import APIRouter, Header, Response, status
from pydantic import BaseModel
from sqlalchemy.orm import Session

from service.api import LimitQuery, parse_cursor
from service.auth import CurrentTenant, TenantDep
from service.db import SessionDep
from service.pages import page, readable
from service.sessions.models import SessionRecord
from service.sessions.repository import SessionRepository
from service.sessions.schemas import DecisionList
from service.sessions.service import decision_page, delete_session, set_etag

__all__ = ["IfMatch", "Render", "SessionRoutes", "add_session_routes"]

Render = Callable[[Session, uuid.UUID, SessionRecord], BaseModel]
IfMatch = Annotated[str | None, Header(description="the session's ETag; 412 when it has changed")]


@dataclass(frozen=True)
class SessionRoutes:
    """What the shared routes need to know about a session resource."""

    kind: str  # the stored kind, and the stem of operation ids: "group_sampler"
    noun: str  # for messages: "group sampler"
    id_param: str  # the path parameter: "sampler_id"
    out: type[BaseModel]  # the session as the API shows it
    page: type[BaseModel]  # a list page: items, next_cursor, skipped
    render: Render  # a stored session as ``out``
    docs: dict[str, str] = field(default_factory=dict)  # "get", "list", "log" descriptions
    render_item: Render | None = None  # how lists show one (default: ``render``)
    on_delete: Callable[[Session, SessionRecord], None] | None = None  # rows of its own to delete first

    def repository(self, db: Session, tenant_id: uuid.UUID) -> SessionRepository:
        return SessionRepository(db, tenant_id, self.kind)


def _endpoint(fn: Callable[..., Any], parameters: list[inspect.Parameter], returns: Any,
              doc: str) -> Callable[..., Any]:
    """``fn`` with the signature FastAPI should read (the path parameter is named per resource)."""
    fn.__dict__["__signature__"] = inspect.Signature(parameters, return_annotation=returns)
    fn.__doc__ = doc
    return fn


def _param(name: str, annotation: Any, default: Any = inspect.Parameter.empty) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)


def add_session_routes(router: APIRouter, spec: SessionRoutes, *, skip: tuple[str, ...] = ()) -> None:
    """Add the shared routes of ``spec`` to ``router`` (those named in ``skip`` are the resource's own)."""
    key = spec.id_param
    common = [_param("db", SessionDep), _param("tenant", TenantDep)]
    path = f"/{{{key}}}"
    item = spec.render_item or spec.render

    def get_one(db: Session, tenant: CurrentTenant, response: Response, **ids: uuid.UUID) -> BaseModel:
        record = spec.repository(db, tenant.id).get(ids[key])
        set_etag(response, record)
        return readable(record, spec.noun, lambda: spec.render(db, tenant.id, record))

    def list_all(db: Session, tenant: CurrentTenant, limit: int = 50, cursor: str | None = None) -> BaseModel:
        rows = spec.repository(db, tenant.id).list(limit, parse_cursor(cursor))
        return spec.page(**page(rows, limit, spec.noun, lambda r: item(db, tenant.id, r)))

    def log(db: Session, tenant: CurrentTenant, limit: int = 100, cursor: str | None = None,
            **ids: uuid.UUID) -> DecisionList:
        repo = spec.repository(db, tenant.id)
        return decision_page(repo, repo.get(ids[key]), limit, cursor)

    def delete(db: Session, tenant: CurrentTenant, **ids: uuid.UUID) -> Response:
        delete_session(spec.repository(db, tenant.id), ids[key], spec.on_delete)
        return Response(status_code=status.HTTP_204_NO_CONTENT)

    name, noun = spec.kind, spec.noun
    if "get" not in skip:
        router.add_api_route(path, _endpoint(get_one, [_param(key, uuid.UUID), *common, _param("response", Response)],
                                             spec.out, spec.docs.get("get", f"Read a {noun}.")),
                             methods=["GET"], operation_id=f"get_{name}", name=f"get_{name}", response_model=spec.out)
    if "list" not in skip:
        router.add_api_route("", _endpoint(list_all, [*common, _param("limit", LimitQuery, 50),
                                                       _param("cursor", str | None, None)],
                                           spec.page, spec.docs.get("list", f"List {noun}s, oldest first.")),
                             methods=["GET"], operation_id=f"list_{name}s", name=f"list_{name}s",
                             response_model=spec.page)
    if "log" not in skip:
        paging = [_param("limit", LimitQuery, 100), _param("cursor", str | None, None)]
        router.add_api_route(f"{path}/decisions", _endpoint(
            log, [_param(key, uuid.UUID), *common, *paging],
            DecisionList, spec.docs.get("log", f"The {noun}'s decision log, in order.")),
            methods=["GET"], operation_id=f"list_{name}_decisions", name=f"list_{name}_decisions",
            response_model=DecisionList)
    if "delete" not in skip:
        router.add_api_route(path, _endpoint(delete, [_param(key, uuid.UUID), *common], Response,
                                             f"Delete a {noun} with its stored data and decision log; its "
                                             "queued or running jobs are cancelled."),
                             methods=["DELETE"], operation_id=f"delete_{name}", name=f"delete_{name}",
                             status_code=status.HTTP_204_NO_CONTENT, response_class=Response,
                             responses={404: {"description": f"no such {noun}"}})
