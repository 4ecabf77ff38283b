"""Every query on datasets."""

from __future__ import annotations

import uuid

from sqlalchemy import exists, select
from sqlalchemy.orm import undefer

from service.datasets.models import Dataset
from service.repository import TenantRepository
from service.sessions.models import SessionDataset

__all__ = ["DatasetRepository"]


class DatasetRepository(TenantRepository[Dataset]):
    model, noun = Dataset, "dataset"

    def get_with_arrays(self, dataset_id: uuid.UUID) -> Dataset:
        """The dataset with its arrays loaded (they are deferred otherwise)."""
        return self._one(self._select().options(undefer(Dataset.arrays)), dataset_id)

    def in_use(self, dataset_id: uuid.UUID) -> bool:
        return bool(self.db.scalar(select(exists().where(SessionDataset.dataset_id == dataset_id))))
