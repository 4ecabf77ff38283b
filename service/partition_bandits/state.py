"""A partition bandit's stored config and state, typed; the only module that reads or builds their JSON.

::

    config  {"bandit": BanditConfig, "pool_dataset_id", "train_dataset_id", "test_dataset_id",
             "validation_dataset_id": id or null,
             "partitioning": {method, max_components, column, standardize, include_groups} or null,
             "model": {type, C}, "initial_fairness": F⁰ or null}
    state   {"bandit": BanditState without its items, or null while the pool is partitioned,
             "pool": {"ids": bool} or null (no pool), "partitioning": {method, k, bic} or null,
             "influence_pair": [higher, lower] or null, "last_run": the last managed run's summary or null}

The pool's items in offer order are session blobs (``models.py``), never JSON.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from service.algorithms import datasift
from service.pages import readable
from service.partition_bandits.models import SessionRecord

__all__ = ["NOUN", "Config", "LastRun", "ModelConfig", "PartitioningConfig", "PartitioningSummary", "PoolInfo",
           "State", "load"]

NOUN = "partition bandit"
# How long a decision holds its batch when nobody reports on it (the same as group samplers).
DEFAULT_PENDING_TTL_SECONDS = 3600.0


def _id(value: str | None) -> uuid.UUID | None:
    return None if value is None else uuid.UUID(value)


def _text(value: uuid.UUID | None) -> str | None:
    return None if value is None else str(value)


@dataclass(frozen=True)
class PartitioningConfig:
    """How a pool is partitioned; ``column`` is the resolved feature index (``method="column"``)."""

    method: str
    max_components: int
    column: int | None
    standardize: bool
    include_groups: bool

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PartitioningConfig:
        return cls(method=data["method"], max_components=int(data["max_components"]), column=data["column"],
                   standardize=bool(data["standardize"]), include_groups=bool(data["include_groups"]))


@dataclass(frozen=True)
class ModelConfig:
    """The parametric model of influence batches and managed runs."""

    type: str
    C: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ModelConfig:
        return cls(type=data["type"], C=float(data["C"]))


@dataclass(frozen=True)
class Config:
    """What the client asked for; never changes after creation."""

    bandit: datasift.BanditConfig
    pool_dataset_id: uuid.UUID | None
    train_dataset_id: uuid.UUID | None
    test_dataset_id: uuid.UUID | None
    partitioning: PartitioningConfig | None
    model: ModelConfig
    initial_fairness: float | None
    pending_ttl_seconds: float = DEFAULT_PENDING_TTL_SECONDS
    validation_dataset_id: uuid.UUID | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"bandit": self.bandit.to_dict(), "pool_dataset_id": _text(self.pool_dataset_id),
                "train_dataset_id": _text(self.train_dataset_id), "test_dataset_id": _text(self.test_dataset_id),
                "partitioning": None if self.partitioning is None else self.partitioning.to_dict(),
                "model": self.model.to_dict(), "initial_fairness": self.initial_fairness,
                "pending_ttl_seconds": self.pending_ttl_seconds,
                "validation_dataset_id": _text(self.validation_dataset_id)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Config:
        partitioning, fairness = data["partitioning"], data["initial_fairness"]
        return cls(bandit=datasift.BanditConfig.from_dict(data["bandit"]),
                   pool_dataset_id=_id(data["pool_dataset_id"]), train_dataset_id=_id(data["train_dataset_id"]),
                   test_dataset_id=_id(data["test_dataset_id"]),
                   partitioning=None if partitioning is None else PartitioningConfig.from_dict(partitioning),
                   model=ModelConfig.from_dict(data["model"]),
                   initial_fairness=None if fairness is None else float(fairness),
                   pending_ttl_seconds=float(data.get("pending_ttl_seconds", DEFAULT_PENDING_TTL_SECONDS)),
                   validation_dataset_id=_id(data.get("validation_dataset_id")))


@dataclass(frozen=True)
class PoolInfo:
    """What the bandit knows of its pool: whether the pool has ids (else rows are offered by index)."""

    ids: bool

    def to_dict(self) -> dict[str, Any]:
        return {"ids": self.ids}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PoolInfo:
        return cls(ids=bool(data["ids"]))


@dataclass(frozen=True)
class PartitioningSummary:
    """What the partitioning job found: the method, k, and the BIC of each k tried (gmm)."""

    method: str
    k: int
    bic: dict[str, float]

    def to_dict(self) -> dict[str, Any]:
        return {"method": self.method, "k": self.k, "bic": dict(self.bic)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PartitioningSummary:
        return cls(method=data["method"], k=int(data["k"]), bic={str(k): float(v) for k, v in data["bic"].items()})


@dataclass(frozen=True)
class LastRun:
    """The last managed run's outcome (its acquired rows and trajectory are the blob ``run``)."""

    job_id: uuid.UUID
    stop_reason: str
    n_acquired: int
    evaluations: int
    initial_fairness: float
    final_fairness: float
    initial_accuracy: float
    final_accuracy: float
    initial_validation_accuracy: float | None = None
    final_validation_accuracy: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "job_id": str(self.job_id)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LastRun:
        return cls(job_id=uuid.UUID(data["job_id"]), stop_reason=data["stop_reason"],
                   n_acquired=int(data["n_acquired"]), evaluations=int(data["evaluations"]),
                   initial_fairness=data["initial_fairness"], final_fairness=data["final_fairness"],
                   initial_accuracy=data["initial_accuracy"], final_accuracy=data["final_accuracy"],
                   initial_validation_accuracy=data.get("initial_validation_accuracy"),
                   final_validation_accuracy=data.get("final_validation_accuracy"))


@dataclass(frozen=True)
class State:
    """The bandit's state; ``bandit`` is None until the pool is partitioned."""

    bandit: datasift.BanditState | None
    pool: PoolInfo | None = None
    partitioning: PartitioningSummary | None = None
    influence_pair: tuple[str, str] | None = None
    last_run: LastRun | None = None
    next_expiry: datetime | None = None  # no pending decision expires before this (None: none pending)

    def to_dict(self) -> dict[str, Any]:
        bandit = None
        if self.bandit is not None:
            bandit = self.bandit.to_dict()
            bandit.pop("items")  # the offer order is stored once, as blobs
        return {"bandit": bandit, "pool": None if self.pool is None else self.pool.to_dict(),
                "partitioning": None if self.partitioning is None else self.partitioning.to_dict(),
                "influence_pair": None if self.influence_pair is None else list(self.influence_pair),
                "last_run": None if self.last_run is None else self.last_run.to_dict(),
                "next_expiry": None if self.next_expiry is None else self.next_expiry.isoformat()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        bandit, pool, summary, pair, run = (data[k] for k in ("bandit", "pool", "partitioning", "influence_pair",
                                                              "last_run"))
        if pair is not None and len(pair) != 2:
            raise ValueError(f"influence_pair must name two groups; got {pair!r}")
        return cls(bandit=None if bandit is None else datasift.BanditState.from_dict(bandit),
                   pool=None if pool is None else PoolInfo.from_dict(pool),
                   partitioning=None if summary is None else PartitioningSummary.from_dict(summary),
                   influence_pair=None if pair is None else (str(pair[0]), str(pair[1])),
                   last_run=None if run is None else LastRun.from_dict(run),
                   next_expiry=None if data.get("next_expiry") is None else datetime.fromisoformat(data["next_expiry"]))


def load(record: SessionRecord) -> tuple[Config, State]:
    """The bandit's typed config and state; a row that cannot be read is a corrupt-state problem."""
    return readable(record, NOUN, lambda: (Config.from_dict(record.config), State.from_dict(record.state)))
