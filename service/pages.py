"""Lists that survive a damaged row, and the problem a damaged row is.

Every list of stored rows (sessions, datasets, jobs) renders each row with
:func:`readable`: a row whose stored data cannot be rendered is named under the
page's ``skipped`` instead of failing the page, and its own GET answers
:class:`CorruptState`. :func:`page` builds a list page with its ``next_cursor``, and
:func:`in_list_order` the query of one: oldest first, by id among rows created at once.
"""

from __future__ import annotations

import functools
import logging
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Annotated, Any, Protocol, TypeVar

from pydantic import BaseModel, Field
from sqlalchemy import Select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import InstrumentedAttribute

from service.errors import ServiceError

__all__ = ["CorruptState", "Skipped", "SkippedItem", "in_list_order", "page", "readable", "render_page"]

log = logging.getLogger(__name__)
T = TypeVar("T")


class SkippedItem(BaseModel):
    """A stored row a list could not show (its stored state is damaged): named, not fatal to the page."""

    id: uuid.UUID
    error: str = Field(description="why the row cannot be read; GET it for the same answer as a problem")


Skipped = Annotated[list[SkippedItem], Field(
    default_factory=list, description="rows of this page that cannot be read (a damaged stored state), by id; the "
    "page's other items and its cursor are unaffected")]


class CorruptState(ServiceError):
    """A stored row that cannot be read back (a damaged state or config): 500, of its own type.

    It is the server's fault, so a 5xx, but a precise one: the problem names the row and
    says why, the row's decision log stays readable, and nothing else is affected — lists
    show every other row and name this one under ``skipped`` (:func:`render_page`).
    """

    status, title, slug = 500, "Stored state unreadable", "corrupt-state"


# How much of the underlying error a corrupt-state problem repeats.
CORRUPT_REASON_CHARS = 200


class _Row(Protocol):
    id: uuid.UUID


def readable(row: _Row, what: str, render: Callable[[], T]) -> T:
    """``render()`` of a stored row, or :class:`CorruptState` naming it when its stored data cannot be rendered.

    Database errors pass through (they are not the row's content), and so does any
    ``ServiceError`` the rendering raises on purpose.
    """
    try:
        return render()
    except (SQLAlchemyError, ServiceError):
        raise
    except Exception as exc:
        log.exception("stored %s %s cannot be rendered", what, row.id)
        reason = f"{type(exc).__name__}: {exc}"[:CORRUPT_REASON_CHARS]
        raise CorruptState(f"the stored {what} {row.id} cannot be read ({reason}); its decision log is still "
                           "readable; tell the operator") from exc


R = TypeVar("R", bound=_Row)


def render_page(rows: Sequence[R], what: str, render: Callable[[R], T]) -> tuple[list[T], list[SkippedItem]]:
    """A list page: every row rendered, and each that cannot be (:func:`readable`) named instead of failing."""
    items: list[T] = []
    skipped: list[SkippedItem] = []
    for row in rows:
        try:
            items.append(readable(row, what, functools.partial(render, row)))
        except ServiceError as exc:  # CorruptState, or another error the row's rendering raised
            skipped.append(SkippedItem(id=row.id, error=exc.detail))
    return items, skipped


def page(rows: Sequence[R], limit: int, what: str, render: Callable[[R], T]) -> dict[str, Any]:
    """A list page's fields: the rendered rows, the cursor of the next page (a full page has one,
    the id of its last row), and the rows that could not be rendered."""
    items, skipped = render_page(rows, what, render)
    return {"items": items, "next_cursor": str(rows[-1].id) if len(rows) == limit else None, "skipped": skipped}


Q = TypeVar("Q", bound=Select[Any])


class _Listed(Protocol):
    id: uuid.UUID
    created_at: datetime


def in_list_order(query: Q, created_at: InstrumentedAttribute[datetime], id_: InstrumentedAttribute[uuid.UUID],
                  after: _Listed | None, limit: int) -> Q:
    """``query`` as a list page: ``limit`` rows, oldest first (by id among rows created at once),
    those after the row ``after`` (the previous page's last) when it is given."""
    if after is not None:
        query = query.where((created_at > after.created_at) | ((created_at == after.created_at) & (id_ > after.id)))
    return query.order_by(created_at, id_).limit(limit)
