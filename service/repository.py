"""What every tenant's repository shares (polar's ``kit/repository/base.py``): one model, one tenant's rows.

A repository is built from a session and a tenant; its queries read and write that
tenant's rows only, so another tenant's row is as missing as one that never was (404).
A subclass names its model and the noun of its messages, and adds its own queries on
:meth:`TenantRepository._select`. Session resources have their own
(:class:`service.sessions.repository.SessionRepository`: rows of one kind, locked for update).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from service.errors import NotFound
from service.pages import in_list_order

__all__ = ["TenantRepository"]


class _Owned(Protocol):
    """What the queries here need of a row. Not ``Row``'s bound: mypy finds a mapped class meets it as an
    argument, but not as a type argument."""

    id: uuid.UUID
    created_at: datetime
    tenant_id: uuid.UUID


Row = TypeVar("Row")


class TenantRepository(Generic[Row]):
    """Add, get (404 otherwise; locked for update), list oldest first and delete the tenant's rows of ``model``."""

    model: ClassVar[type[Any]]  # mapped with id, tenant_id and created_at columns
    noun: ClassVar[str]  # a missing row is "no <noun> with id ..."

    def __init__(self, db: Session, tenant_id: uuid.UUID) -> None:
        self.db = db
        self.tenant_id = tenant_id

    def _select(self) -> Select[Row]:
        """The tenant's rows, to narrow further."""
        return select(self.model).where(self.model.tenant_id == self.tenant_id)

    def _one(self, query: Select[Row], row_id: uuid.UUID) -> Row:
        row = self.db.scalar(query.where(self.model.id == row_id))
        if row is None:
            raise NotFound(f"no {self.noun} with id {row_id}")
        return row

    def _page(self, query: Select[Row], limit: int, after: uuid.UUID | None) -> list[Row]:
        """One list page of ``query``'s rows, oldest first, after the row ``after`` (a cursor)."""
        anchor = None if after is None else cast(_Owned, self.get(after))
        model = self.model
        return list(self.db.scalars(in_list_order(query, model.created_at, model.id, anchor, limit)))

    def add(self, row: Row) -> Row:
        cast(_Owned, row).tenant_id = self.tenant_id
        self.db.add(row)
        self.db.flush()
        return row

    def get(self, row_id: uuid.UUID) -> Row:
        return self._one(self._select(), row_id)

    def get_for_update(self, row_id: uuid.UUID) -> Row:
        """The row, locked until the transaction ends (PostgreSQL; SQLite's writer holds the whole database)."""
        return self._one(self._select().with_for_update(), row_id)

    def list(self, limit: int, after: uuid.UUID | None) -> list[Row]:
        return self._page(self._select(), limit, after)

    def delete(self, row: Row) -> None:
        self.db.delete(row)
        self.db.flush()
