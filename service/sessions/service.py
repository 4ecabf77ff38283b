"""Glue shared by the session resources: the decision log page, ETags, counted-once reports."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import Response
from sqlalchemy.orm import Session

from service.algorithms.validation import InputError
from service.errors import Conflict, NotReady, Unprocessable
from service.fields import INT64_MAX
from service.jobs.repository import JobRepository
from service.ops.metrics import DECISIONS
from service.sessions.models import SessionRecord
from service.sessions.repository import SessionRepository
from service.sessions.schemas import DecisionList, DecisionOut

__all__ = ["algorithm_errors", "decision_page", "job_backed_status", "record_decision", "report_once",
           "require_job_done", "set_etag"]

# str.isdigit() and int() also take other scripts' digits ("١" is 1): a cursor is ASCII.
SEQUENCE_CURSOR = re.compile(r"[0-9]{1,19}")


def job_backed_status(db: Session, tenant_id: uuid.UUID, record: SessionRecord, pending: str,
                      work: str) -> tuple[str, str | None]:
    """Status and error of a session waiting on a job: ``failed`` when the job failed or was cancelled.

    ``pending`` is the session's status while its job runs (``fitting``, ``partitioning``);
    ``work`` names that job in messages.
    """
    if record.status != pending or record.job_id is None:
        return record.status, None
    job = JobRepository(db, tenant_id).get(record.job_id)
    if job.status == "failed":
        return "failed", job.error
    if job.status == "cancelled":
        return "failed", f"the {work} job was cancelled"
    return pending, None


def require_job_done(db: Session, tenant_id: uuid.UUID, record: SessionRecord, pending: str, work: str,
                     waiting: str) -> None:
    """409 while the session's job runs (``waiting`` says what for) or after it failed."""
    status, error = job_backed_status(db, tenant_id, record, pending, work)
    if status == pending:
        raise NotReady(f"{waiting} (job {record.job_id}); retry when status is ready")
    if status == "failed":
        raise Conflict(f"{work} failed: {error}")


@contextmanager
def algorithm_errors(*, conflicts: tuple[type[Exception], ...] = ()) -> Iterator[None]:
    """Translate the pure library's errors: ``conflicts`` become 409, other ValueErrors 422."""
    try:
        yield
    except InputError:
        raise
    except conflicts as exc:
        raise Conflict(str(exc)) from None
    except ValueError as exc:
        raise Unprocessable(str(exc), errors=[{"loc": ["body"], "msg": str(exc)}]) from None


def set_etag(response: Response, record: SessionRecord) -> None:
    response.headers["ETag"] = f'"{record.version}"'


def _sequence_cursor(cursor: str | None) -> int:
    """A decision page's cursor: a sequence number, ASCII digits that fit the int64 column."""
    if not cursor:
        return 0
    if not SEQUENCE_CURSOR.fullmatch(cursor) or int(cursor) > INT64_MAX:
        raise Unprocessable("cursor must be the next_cursor value of a previous page",
                            errors=[{"loc": ["query", "cursor"], "msg": "not a valid cursor"}])
    return int(cursor)


def decision_page(repo: SessionRepository, record: SessionRecord, limit: int, cursor: str | None,
                  kind: str | None = None) -> DecisionList:
    after = _sequence_cursor(cursor)
    items = repo.decisions(record, limit, after, kind)
    next_cursor = str(items[-1].sequence) if len(items) == limit else None
    return DecisionList(items=[DecisionOut.model_validate(d) for d in items], next_cursor=next_cursor)


def record_decision(repo: SessionRepository, record: SessionRecord, kind: str, request: dict[str, Any],
                    response: dict[str, Any], *, client_ref: str | None = None, **kwargs: Any) -> None:
    repo.log(record, kind, request, response, client_ref=client_ref, **kwargs)
    DECISIONS.labels(repo.kind + "." + kind).inc()


def report_once(
    repo: SessionRepository,
    record: SessionRecord,
    client_ref: str,
    request: dict[str, Any],
    apply: Callable[[], dict[str, Any]],
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
    response = apply()
    record_decision(repo, record, kind, request, response, client_ref=client_ref)
    return response, False
