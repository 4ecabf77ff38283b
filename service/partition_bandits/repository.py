"""Queries for partition bandits: the shared session repository plus the offer-order chunks."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from service import arrays
from service.algorithms.datasift import PartitionStats
from service.partition_bandits.models import KIND, OFFER_CHUNK, SessionBlob, SessionRecord, offer_blob
from service.sessions.models import SessionDataset
from service.sessions.repository import SessionRepository

__all__ = ["PartitionBanditRepository", "repository"]


class PartitionBanditRepository(SessionRepository):
    def put_partitions(self, record: SessionRecord, stats: list[PartitionStats]) -> None:
        """Store the arms as given: centroids as an array, ids, sizes and base-rate differences as meta."""
        self.put_blob(record, "partitions", {"centroids": np.array([p.centroid for p in stats], dtype=float)},
                      meta={"ids": [p.id for p in stats], "sizes": [p.size for p in stats],
                            "base_rate_difference": [p.base_rate_difference for p in stats]})

    def partitions(self, record: SessionRecord) -> list[PartitionStats]:
        """The arms as :meth:`put_partitions` stored them, in the bandit's order."""
        found = self.get_blob(record, "partitions")
        if found is None:
            raise LookupError(f"the partition bandit {record.id} has no partitions blob")
        centroids, meta = found[0]["centroids"], found[1].meta
        return [PartitionStats(pid, size, centroid.tolist(), brd) for pid, size, centroid, brd in zip(
            meta["ids"], meta["sizes"], centroids, meta["base_rate_difference"], strict=True)]

    def put_offer_order(self, record: SessionRecord, orders: list[np.ndarray], ids: np.ndarray | None) -> None:
        """Store each partition's pool rows (and ids, as UTF-8 bytes) in offer order, in chunks of ``OFFER_CHUNK``."""
        for j, rows in enumerate(orders):
            for c, lo in enumerate(range(0, len(rows), OFFER_CHUNK)):
                part = rows[lo:lo + OFFER_CHUNK].astype(np.int32)
                values = {"rows": part} if ids is None else {"rows": part, "ids": np.char.encode(ids[part], "utf-8")}
                self.db.add(SessionBlob(session_id=record.id, name=offer_blob(j, c), data=arrays.pack(values),
                                        meta={}, version=1))
        self.db.flush()

    def offer_window(self, record: SessionRecord, partition: int, lo: int, hi: int,
                     ) -> tuple[np.ndarray, np.ndarray | None]:
        """Rows (and ids) at offer positions ``[lo, hi)`` of one partition."""
        first, last = lo // OFFER_CHUNK, (hi - 1) // OFFER_CHUNK
        names = [offer_blob(partition, c) for c in range(first, last + 1)]
        blobs = {b.name: b.data for b in self.db.scalars(
            select(SessionBlob).where(SessionBlob.session_id == record.id, SessionBlob.name.in_(names)))}
        chunks = [arrays.unpack(blobs[name]) for name in names]
        rows = np.concatenate([c["rows"] for c in chunks])
        cut = slice(lo - first * OFFER_CHUNK, hi - first * OFFER_CHUNK)
        if "ids" not in chunks[0]:
            return rows[cut], None
        return rows[cut], np.char.decode(np.concatenate([c["ids"] for c in chunks])[cut], "utf-8")

    def offer_positions(self, record: SessionRecord, partition: int, positions: Sequence[int],
                        ) -> tuple[np.ndarray, np.ndarray | None]:
        """Rows (and ids) at these offer positions of one partition (a batch with given-back items
        is not one window)."""
        lo, hi = min(positions), max(positions) + 1
        rows, ids = self.offer_window(record, partition, lo, hi)
        picks = np.asarray(positions, dtype=np.int64) - lo
        return rows[picks], None if ids is None else ids[picks]

    def link_datasets(self, record: SessionRecord, datasets: dict[str, uuid.UUID]) -> None:
        """Mark datasets as used by the session (those already linked keep their role)."""
        linked = set(self.db.scalars(select(SessionDataset.dataset_id).where(SessionDataset.session_id == record.id)))
        for role, dataset_id in datasets.items():
            if dataset_id not in linked:
                self.db.add(SessionDataset(session_id=record.id, dataset_id=dataset_id, role=role))
                linked.add(dataset_id)
        self.db.flush()


def repository(db: Session, tenant_id: uuid.UUID) -> PartitionBanditRepository:
    return PartitionBanditRepository(db, tenant_id, KIND)
