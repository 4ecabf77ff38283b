"""A balanced filter's stored config and state, typed: the only module that reads or writes their JSON.

``config`` (fixed at creation): the groups as given, their ``encoding``, the
target ``U``, the ``proxy`` type with its hyperparameters, and where the
``training`` data is. ``state``: the fitted ``model``'s headline numbers (its
parameters are blob ``proxy``) and the running ``counts``; both are ``null``
until the fit job stores them. The JSON keeps the shape rows have always had.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from service.algorithms.balanced_filtering import FilterCounts, GroupEncoding
from service.pages import readable
from service.sessions.models import SessionRecord

__all__ = ["NOUN", "FilterConfig", "FilterState", "Fitted", "ModelSummary", "ProxyConfig", "TrainingSource", "load",
           "load_fitted"]

NOUN = "balanced filter"


def _as_json(value: Any) -> Any:
    """Tuples back to the lists JSON stores (hyperparameters such as ``margins``, nested groups)."""
    return [_as_json(v) for v in value] if isinstance(value, (list, tuple)) else value


@dataclass(frozen=True)
class ProxyConfig:
    """The proxy to learn: its type and every hyperparameter, defaults filled in (as the library reports them)."""

    type: str
    hyperparameters: Mapping[str, Any] = field(default_factory=dict)  # JSON values: lists, not tuples

    @classmethod
    def of(cls, proxy_type: str, params: Mapping[str, Any]) -> ProxyConfig:
        """From an estimator's ``get_params()`` (the target is the filter's own, not a hyperparameter)."""
        return cls(proxy_type, {k: _as_json(v) for k, v in params.items() if k != "target"})

    def library_params(self) -> dict[str, Any]:
        """The hyperparameters as ``make_proxy`` takes them (sequences as tuples)."""
        return {k: tuple(v) if isinstance(v, list) else v for k, v in self.hyperparameters.items()}

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, **self.hyperparameters}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ProxyConfig:
        return cls(str(data["type"]), {k: v for k, v in data.items() if k != "type"})


@dataclass(frozen=True)
class TrainingSource:
    """Where the training data is (a dataset, or blob ``training`` when sent inline) and its size."""

    dataset_id: uuid.UUID | None
    n_rows: int
    n_features: int

    def to_dict(self) -> dict[str, Any]:
        return {"dataset_id": None if self.dataset_id is None else str(self.dataset_id),
                "n_rows": self.n_rows, "n_features": self.n_features}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TrainingSource:
        dataset_id = data["dataset_id"]
        return cls(None if dataset_id is None else uuid.UUID(dataset_id), int(data["n_rows"]), int(data["n_features"]))


@dataclass(frozen=True)
class FilterConfig:
    """What the client asked for, checked: fixed for the filter's life."""

    groups: tuple[Any, ...]  # as given: names, or a tuple of names per group class
    encoding: GroupEncoding
    target: tuple[float, ...]  # U over the encoding's columns
    proxy: ProxyConfig
    training: TrainingSource

    @classmethod
    def of(cls, groups: Sequence[Any], encoding: GroupEncoding, target: Sequence[float], proxy: ProxyConfig,
           training: TrainingSource) -> FilterConfig:
        """From the request's ``groups`` (names, or a list per group class) and the checked parts."""
        return cls(tuple(tuple(g) if isinstance(g, list) else g for g in groups), encoding,
                   tuple(float(v) for v in target), proxy, training)

    @property
    def given_groups(self) -> list[Any]:
        """The groups as the client gave them (JSON lists)."""
        return _as_json(self.groups)

    @property
    def group_values(self) -> list[list[Any]]:
        """Each class's group values, as the proxy's ``fit`` takes them."""
        return [list(values) for values in self.encoding.values]

    def to_dict(self) -> dict[str, Any]:
        return {"groups": self.given_groups, "encoding": self.encoding.to_dict(), "target": list(self.target),
                "proxy": self.proxy.to_dict(), "training": self.training.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FilterConfig:
        config = cls.of(data["groups"], GroupEncoding.from_dict(data["encoding"]), data["target"],
                        ProxyConfig.from_dict(data["proxy"]), TrainingSource.from_dict(data["training"]))
        if len(config.target) != config.encoding.n_groups:
            raise ValueError(f"the target has {len(config.target)} shares for {config.encoding.n_groups} groups")
        return config


@dataclass(frozen=True)
class ModelSummary:
    """The fitted proxy's headline numbers, kept in the state (the parameters are blob ``proxy``)."""

    version: int  # blob ``proxy``'s version: the key of the process's proxy cache
    type: str
    n_leaves: int
    n_features: int
    disclosivity: float | None
    imbalance: float | None
    acceptance_rate: float | None
    in_hull: bool
    stop_reason: str | None
    any_stopped_short: bool | None

    @classmethod
    def of(cls, meta: Mapping[str, Any], version: int) -> ModelSummary:
        """From a fitted proxy's (JSON-safe) ``to_params()`` meta."""
        diagnostics = meta["diagnostics"]
        return cls(version=version, type=meta["type"], n_leaves=int(meta["n_leaves"]),
                   n_features=int(meta["n_features"]), disclosivity=meta["disclosivity"],
                   imbalance=meta["imbalance"], acceptance_rate=meta["acceptance_rate"],
                   in_hull=bool(meta["sampling"]["in_hull"]), stop_reason=diagnostics.get("stop_reason"),
                   any_stopped_short=diagnostics.get("any_stopped_short"))

    def to_dict(self) -> dict[str, Any]:
        return {"version": self.version, "type": self.type, "n_leaves": self.n_leaves, "n_features": self.n_features,
                "disclosivity": self.disclosivity, "imbalance": self.imbalance,
                "acceptance_rate": self.acceptance_rate, "in_hull": self.in_hull, "stop_reason": self.stop_reason,
                "any_stopped_short": self.any_stopped_short}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ModelSummary:
        return cls(version=int(data["version"]), type=str(data["type"]), n_leaves=int(data["n_leaves"]),
                   n_features=int(data["n_features"]), disclosivity=data["disclosivity"],
                   imbalance=data["imbalance"], acceptance_rate=data["acceptance_rate"],
                   in_hull=bool(data["in_hull"]), stop_reason=data["stop_reason"],
                   any_stopped_short=data["any_stopped_short"])


@dataclass(frozen=True)
class FilterState:
    """Where the filter stands: nothing before its fit; then the model and the counts of decisions and outcomes."""

    model: ModelSummary | None = None
    counts: FilterCounts | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"model": None if self.model is None else self.model.to_dict(),
                "counts": None if self.counts is None else self.counts.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FilterState:
        model = None if data["model"] is None else ModelSummary.from_dict(data["model"])
        counts = None if data["counts"] is None else FilterCounts.from_dict(data["counts"])
        if (model is None) != (counts is None):
            raise ValueError("the state has a model without counts, or counts without a model")
        if model is not None and counts is not None and len(counts.by_leaf) != model.n_leaves:
            raise ValueError(f"the counts have {len(counts.by_leaf)} leaves; the model has {model.n_leaves}")
        return cls(model, counts)


@dataclass(frozen=True)
class Fitted:
    """A ready filter's state: the model and counts are there."""

    model: ModelSummary
    counts: FilterCounts

    def with_counts(self, counts: FilterCounts) -> Fitted:
        return Fitted(self.model, counts)

    def to_dict(self) -> dict[str, Any]:
        return FilterState(self.model, self.counts).to_dict()


def load(record: SessionRecord) -> tuple[FilterConfig, FilterState]:
    """The filter stored in ``record`` (a CorruptState problem when it cannot be read)."""
    return readable(record, NOUN, lambda: (FilterConfig.from_dict(record.config), FilterState.from_dict(record.state)))


def load_fitted(record: SessionRecord) -> tuple[FilterConfig, Fitted]:
    """A ready filter's config and fitted state (a CorruptState problem when the fit is not stored)."""

    def read() -> tuple[FilterConfig, Fitted]:
        config, state = FilterConfig.from_dict(record.config), FilterState.from_dict(record.state)
        if state.model is None or state.counts is None:
            raise ValueError("the filter is ready but its state holds no fitted model")
        return config, Fitted(state.model, state.counts)

    return readable(record, NOUN, read)
