"""Shared pieces of the web layer: routers with the transactional route, pagination, raw bodies."""

from __future__ import annotations

import uuid
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Query
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError

from service.endpoints import RawBody
from service.errors import Unprocessable
from service.routing import ServiceRoute

M = TypeVar("M", bound=BaseModel)

__all__ = ["LimitQuery", "RawBody", "Responses", "parse_cursor", "parse_json_body", "refusals", "resource_router"]

# A route's documented answers besides its success (FastAPI's ``responses``).
Responses = dict[int | str, dict[str, Any]]


def resource_router(prefix: str, tag: str) -> APIRouter:
    """A ``/v1`` router whose routes run in one transaction each."""
    return APIRouter(prefix=f"/v1{prefix}", tags=[tag], route_class=ServiceRoute)


def refusals(conflict: str, *, if_match: bool = True) -> Responses:
    """A route's documented refusals: 409 for ``conflict``, and 412 where it takes ``If-Match``."""
    answers: Responses = {409: {"description": conflict}}
    if if_match:
        answers[412] = {"description": "If-Match failed"}
    return answers


LimitQuery = Annotated[int, Query(ge=1, le=500, description="page size")]


def parse_cursor(cursor: str | None) -> uuid.UUID | None:
    if cursor is None:
        return None
    try:
        return uuid.UUID(cursor)
    except ValueError:
        raise Unprocessable("cursor must be the next_cursor value of a previous page",
                            errors=[{"loc": ["query", "cursor"], "msg": "not a valid cursor"}]) from None


def parse_json_body(model: type[M], body: bytes) -> M:
    """Validate a raw JSON body as ``model``, reporting errors as FastAPI does."""
    try:
        return model.model_validate_json(body or b"null")
    except ValidationError as exc:
        errors: list[Any] = [{**e, "loc": ("body", *e["loc"])} for e in exc.errors()]
        raise RequestValidationError(errors) from None
