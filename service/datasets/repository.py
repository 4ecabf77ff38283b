"""Every query on datasets."""

from __future__ import annotations

import uuid

from sqlalchemy import exists, select
from sqlalchemy.orm import Session, undefer

from service.datasets.models import Dataset
from service.errors import NotFound
from service.pages import in_list_order
from service.sessions.models import SessionDataset

__all__ = ["DatasetRepository"]


class DatasetRepository:
    def __init__(self, db: Session, tenant_id: uuid.UUID) -> None:
        self.db = db
        self.tenant_id = tenant_id

    def add(self, dataset: Dataset) -> Dataset:
        dataset.tenant_id = self.tenant_id
        self.db.add(dataset)
        self.db.flush()
        return dataset

    def get(self, dataset_id: uuid.UUID, *, with_arrays: bool = False) -> Dataset:
        query = select(Dataset).where(Dataset.id == dataset_id, Dataset.tenant_id == self.tenant_id)
        if with_arrays:
            query = query.options(undefer(Dataset.arrays))
        dataset = self.db.scalar(query)
        if dataset is None:
            raise NotFound(f"no dataset with id {dataset_id}")
        return dataset

    def list(self, limit: int, after: uuid.UUID | None) -> list[Dataset]:
        query = select(Dataset).where(Dataset.tenant_id == self.tenant_id)
        anchor = None if after is None else self.get(after)
        return list(self.db.scalars(in_list_order(query, Dataset.created_at, Dataset.id, anchor, limit)))

    def in_use(self, dataset_id: uuid.UUID) -> bool:
        return bool(self.db.scalar(select(exists().where(SessionDataset.dataset_id == dataset_id))))

    def delete(self, dataset: Dataset) -> None:
        self.db.delete(dataset)
        self.db.flush()
