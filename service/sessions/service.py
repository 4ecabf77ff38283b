"""Glue shared by the session resources: the decision log page, ETags, counted-once reports."""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from fastapi import Response
from sqlalchemy.orm import Session

from service import jobs
from service.algorithms.validation import InputError, StateError
from service.errors import Conflict, InvalidInput, Unprocessable
from service.routing import REPLAY_HEADER
from service.sessions.models import SessionRecord
from service.sessions.repository import Entry, SessionRepository
from service.sessions.schemas import DecisionList, DecisionOut

__all__ = ["Step", "algorithm_errors", "decision_page", "delete_session", "report_once", "set_created", "set_etag"]

log = logging.getLogger(__name__)
T = TypeVar("T")

# str.isdigit() and int() also take other scripts' digits ("١" is 1): a cursor is ASCII.
SEQUENCE_CURSOR = re.compile(r"[0-9]{1,10}")
# decisions.sequence is an INTEGER column: 32 bits on PostgreSQL, which refuses a larger bound.
SEQUENCE_MAX = 2**31 - 1


@contextmanager
def algorithm_errors() -> Iterator[None]:
    """Translate the pure library's errors (service.algorithms.validation) at the boundary:
    ``InputError`` is 422 (``InvalidInput``, at its location, the body when it names none),
    ``StateError`` 409 (``Conflict``); a ``ValueError`` from numpy or scikit-learn on the
    request's data is 422 too, at the body."""
    try:
        yield
    except InputError as exc:
        where = exc.errors[0]["loc"] if exc.errors and exc.errors[0]["loc"] else ["body"]
        raise InvalidInput(exc.errors[0]["msg"] if exc.errors else str(exc), where) from None
    except StateError as exc:
        raise Conflict(str(exc)) from None
    except ValueError as exc:
        raise InvalidInput(str(exc), ["body"]) from None


def set_etag(response: Response, record: SessionRecord, *, replayed: bool = False) -> None:
    """The session's ETag, and ``Idempotent-Replayed: true`` when the answer is a counted report's first."""
    response.headers["ETag"] = f'"{record.version}"'
    if replayed:
        response.headers[REPLAY_HEADER] = "true"


def set_created(response: Response, record: SessionRecord, collection: str) -> None:
    """A new session's ``Location`` (``collection``: its router's prefix, ``/v1/group-samplers``) and ETag."""
    response.headers["Location"] = f"{collection}/{record.id}"
    set_etag(response, record)


def _sequence_cursor(cursor: str | None) -> int:
    """A decision page's cursor: a sequence number, ASCII digits that fit the column (``decisions.sequence``)."""
    if not cursor:
        return 0
    if not SEQUENCE_CURSOR.fullmatch(cursor) or int(cursor) > SEQUENCE_MAX:
        raise Unprocessable("cursor must be the next_cursor value of a previous page",
                            errors=[{"loc": ["query", "cursor"], "msg": "not a valid cursor"}])
    return int(cursor)


def decision_page(repo: SessionRepository, record: SessionRecord, limit: int, cursor: str | None,
                  kind: str | None = None) -> DecisionList:
    after = _sequence_cursor(cursor)
    items = repo.decisions(record, limit, after, kind)
    next_cursor = str(items[-1].sequence) if len(items) == limit else None
    return DecisionList(items=[DecisionOut.model_validate(d) for d in items], next_cursor=next_cursor)


@dataclass(frozen=True)
class Step:
    """What applying a report gives: the response, and the session's new state and status if they change."""

    response: dict[str, Any]
    state: dict[str, Any] | None = None
    status: str | None = None


def report_once(
    repo: SessionRepository,
    record: SessionRecord,
    client_ref: str,
    request: dict[str, Any],
    apply: Callable[[], Step],
    kind: str,
    *,
    may_be_logged: bool = True,
) -> tuple[dict[str, Any], bool]:
    """Apply a counted report once; a retry with the same client id gets the first answer.

    Returns the response and whether it was replayed. The same id with a different
    request body is refused (422), since it cannot be the same report. A caller that
    knows from the state that the report cannot be in the log yet passes
    ``may_be_logged=False`` to skip the lookup (the log's unique client id still
    refuses a second copy).
    """
    previous = repo.find_report(record, client_ref) if may_be_logged else None
    if previous is not None:
        previous_request, previous_response = previous
        if previous_request != request:
            raise Unprocessable(
                f"{client_ref.split(':', 1)[0]} {client_ref.split(':', 1)[1]!r} was already reported "
                "with different contents; use a new id for a new report"
            )
        return previous_response, True
    step = apply()
    repo.record(record, state=step.state, status=step.status,
                log=Entry(kind, request, step.response, client_ref=client_ref))
    return step.response, False


def delete_session(repo: SessionRepository, session_id: uuid.UUID,
                   on_delete: Callable[[Session, SessionRecord], None] | None = None) -> None:
    """Delete a session with its blobs, datasets links and decision log; cancel its unfinished jobs."""
    record = repo.get_for_update(session_id)
    jobs.cancel_for(repo.db, repo.tenant_id, record.id)
    if on_delete is not None:
        on_delete(repo.db, record)
    repo.delete(record)
