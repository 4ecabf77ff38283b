"""A group sampler's stored config and state, typed: the only module that reads or writes their JSON.

``config``: ``mode``, the library's ``SamplerConfig`` (``sampler``) and the managed
model's hyperparameters (``model``, managed mode only). ``state``: the library's
``SamplerState`` (``sampler``) and, in managed mode, the bookkeeping of stored
samples and fits (``managed``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from service.algorithms.adaptive_sampling import SamplerConfig, SamplerState
from service.pages import readable
from service.sessions.models import SessionRecord

__all__ = ["DEFAULT_PENDING_TTL_SECONDS", "Managed", "SamplerSession", "load"]

NOUN = "group sampler"
# How long a decision holds its batch when nobody reports on it: an annotator's task of an hour.
DEFAULT_PENDING_TTL_SECONDS = 3600.0


@dataclass(frozen=True)
class Managed:
    """Managed mode's bookkeeping: samples stored as blobs ``samples:<k>``, fits applied."""

    n_features: int | None = None
    observations: int = 0  # samples blobs stored so far
    fitted_observations: int = 0  # of them, how many the current model was fitted on
    model_version: int = 0  # fits applied so far
    train_rows: int = 0
    validation_rows: tuple[int, ...] = ()

    @classmethod
    def initial(cls, n_groups: int) -> Managed:
        return cls(validation_rows=(0,) * n_groups)

    @property
    def fit_pending(self) -> bool:
        return self.observations > self.fitted_observations

    def to_dict(self) -> dict[str, Any]:
        return {"n_features": self.n_features, "observations": self.observations,
                "fitted_observations": self.fitted_observations, "model_version": self.model_version,
                "train_rows": self.train_rows, "validation_rows": list(self.validation_rows)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Managed:
        return cls(n_features=data["n_features"], observations=int(data["observations"]),
                   fitted_observations=int(data["fitted_observations"]), model_version=int(data["model_version"]),
                   train_rows=int(data["train_rows"]), validation_rows=tuple(int(v) for v in data["validation_rows"]))


@dataclass(frozen=True)
class SamplerSession:
    """Everything stored about one sampler: what the client configured and where it stands."""

    mode: str  # "reported" or "managed"
    sampler: SamplerConfig
    state: SamplerState
    model: dict[str, Any] | None = None  # managed mode: {"type", "params"}
    managed: Managed | None = field(default=None)
    pending_ttl_seconds: float = DEFAULT_PENDING_TTL_SECONDS  # a pending decision's life
    next_expiry: datetime | None = None  # no pending decision expires before this (None: none pending)

    @property
    def is_managed(self) -> bool:
        return self.mode == "managed"

    @property
    def exhausted(self) -> bool:
        return self.state.budget_spent >= self.sampler.budget

    def with_state(self, state: SamplerState, managed: Managed | None = None) -> SamplerSession:
        return replace(self, state=state, managed=managed if managed is not None else self.managed)

    def config_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "sampler": self.sampler.to_dict(), "model": self.model,
                "pending_ttl_seconds": self.pending_ttl_seconds}

    def state_json(self) -> dict[str, Any]:
        return {"sampler": self.state.to_dict(), "managed": None if self.managed is None else self.managed.to_dict(),
                "next_expiry": None if self.next_expiry is None else self.next_expiry.isoformat()}


def load(record: SessionRecord) -> SamplerSession:
    """The sampler stored in ``record`` (a CorruptState problem when it cannot be read)."""

    def read() -> SamplerSession:
        config, state = record.config, record.state
        managed, expiry = state.get("managed"), state.get("next_expiry")
        return SamplerSession(mode=config["mode"], sampler=SamplerConfig.from_dict(config["sampler"]),
                              state=SamplerState.from_dict(state["sampler"]), model=config.get("model"),
                              managed=None if managed is None else Managed.from_dict(managed),
                              pending_ttl_seconds=float(config.get("pending_ttl_seconds",
                                                                   DEFAULT_PENDING_TTL_SECONDS)),
                              next_expiry=None if expiry is None else datetime.fromisoformat(expiry))

    return readable(record, NOUN, read)
