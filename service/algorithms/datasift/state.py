"""Plain-data records of a DataSift session: config, state, decision, feedback result.

Everything round-trips through ``to_dict()`` / ``from_dict()``. The dicts are
JSON-ready except ``BanditState.to_dict()["items"]``, the pool indices in
offer order, which stays a numpy int64 array (or ``None``) so that the service
can store it compressed once — it never changes after :func:`init_state`.

References
----------
Hasan, Pradhan, DataSift, Algorithm 1 and eq. 2 (the quantities kept here).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

import numpy as np

from service.algorithms.datasift.config import BanditConfig
from service.algorithms.validation import InputError, StateError

__all__ = [
    "BanditFinishedError",
    "BanditState",
    "DataSiftError",
    "Decision",
    "FeedbackResult",
    "StaleDecisionError",
]


class DataSiftError(StateError):
    """Base class of the session errors the HTTP layer maps to 409."""


class BanditFinishedError(DataSiftError):
    """``next`` or ``feedback`` after the bandit has stopped."""


class StaleDecisionError(DataSiftError):
    """Feedback for a decision that is not the current round's."""


class BanditReservedError(DataSiftError):
    """No decision can be made now: what is left (budget, evaluations, items) is held by pending ones."""


@dataclass(frozen=True, eq=False)
class BanditState:
    """Everything the bandit knows between two steps; never mutated.

    Partition j's pool items, in offer order, are
    ``items[offsets[j] : offsets[j] + sizes[j]]``; those still on offer are the
    window ``[start[j], end[j])`` of that slice. ``reward_sums`` are raw (ΔF
    units); ``reward_counts`` count the rewards credited, ``pulls`` the
    selections (n_j of eq. 2).

    Pending decisions: a decision takes its batch off offer when it is made
    (``reserve``); ``pending_pulls`` counts the unsettled decisions per partition and
    ``reserved`` the budget they hold. A released decision gives its batch back:
    ``returned`` lists, per partition, the offer positions (indices into the
    partition's offer order) of such items, offered again before the window.

    Beyond the paper (used only with ``accuracy_weight`` or ``accuracy_tolerance``):
    ``accuracy_sums`` are the raw (ΔA units) accuracy parts of the credited rewards,
    ``best_accuracy`` the best accuracy of a kept model and ``max_abs_accuracy_delta``
    the largest |ΔA| so far (the accuracy part's ``running_max`` scale). ``best_fairness``
    is F of the kept model: the best so far under Algorithm 1, and with
    ``acceptance="objective"`` whatever the last kept batch left it at.
    """

    partition_ids: tuple[str, ...]
    base_rate_difference: tuple[float, ...]
    distance: tuple[tuple[float, ...], ...]
    sizes: tuple[int, ...]
    start: tuple[int, ...]
    end: tuple[int, ...]
    items: np.ndarray | None
    reward_sums: tuple[float, ...]
    reward_counts: tuple[int, ...]
    pulls: tuple[int, ...]
    best_fairness: float | None = None
    max_abs_delta: float = 0.0
    budget_spent: int = 0
    evaluations: int = 0
    accepted_batches: int = 0
    influence_sign: int = 1
    done: bool = False
    stop_reason: str | None = None
    pending_pulls: tuple[int, ...] = ()
    reserved: int = 0
    returned: tuple[tuple[int, ...], ...] = ()
    accuracy_sums: tuple[float, ...] = ()
    best_accuracy: float | None = None
    max_abs_accuracy_delta: float = 0.0
    offsets: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "offsets", tuple(int(v) for v in np.cumsum((0,) + self.sizes[:-1])))
        k = len(self.partition_ids)
        for name, empty in (("pending_pulls", 0), ("returned", ()), ("accuracy_sums", 0.0)):
            if not getattr(self, name):  # a state stored before decisions could be pending
                object.__setattr__(self, name, (empty,) * k)

    @property
    def pending_decisions(self) -> int:
        return sum(self.pending_pulls)

    def remaining(self, j: int) -> int:
        """Items of partition j still on offer (not evaluated, not held by a pending decision)."""
        return self.end[j] - self.start[j] + len(self.returned[j])

    def offer_positions(self, j: int) -> np.ndarray:
        """Offer positions of partition j's items still on offer, in offer order: given-back ones first."""
        window = np.arange(self.start[j], self.end[j], dtype=np.int64)
        if not self.returned[j]:
            return window
        return np.concatenate([np.asarray(self.returned[j], dtype=np.int64), window])

    def partition_items(self, j: int) -> np.ndarray:
        """Pool indices still on offer in partition j, in offer order: given-back items first."""
        if self.items is None:
            raise InputError("this bandit does not know the pool's items")
        if not self.returned[j]:
            base = self.offsets[j]
            return self.items[base + self.start[j] : base + self.end[j]]
        return np.asarray(self.items[self.offsets[j] + self.offer_positions(j)])

    def round_batch_size(self, config: BanditConfig) -> int:
        """Items the next batch takes: ``min(batch_size, budget neither spent nor reserved)``."""
        return min(config.batch_size, config.budget - self.budget_spent - self.reserved)

    def with_stop_check(self, config: BanditConfig) -> BanditState:
        """A copy with ``done`` / ``stop_reason`` set by Algorithm 1's stopping rules.

        In order: |F_best| < threshold, budget spent, ``max_evaluations``
        reached, no partition holds a full batch.

        Reservations do not stop a bandit (a released decision gives its share back): the
        budget is spent when acquired items use it all, and the pool exhausted only when no
        decision is pending.
        """
        left = config.budget - self.budget_spent
        need = min(config.batch_size, left)
        reason = None
        if self.best_fairness is not None and abs(self.best_fairness) < config.fairness_threshold:
            reason = "fairness_threshold"
        elif left <= 0:
            reason = "budget"
        elif config.max_evaluations is not None and self.evaluations >= config.max_evaluations:
            reason = "max_evaluations"
        elif not self.pending_decisions and all(self.remaining(j) < need for j in range(len(self.partition_ids))):
            reason = "pool_exhausted"
        return replace(self, done=reason is not None, stop_reason=reason)

    def to_dict(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.init}
        data = {k: (list(v) if isinstance(v, tuple) else v) for k, v in data.items()}
        data["distance"] = [list(row) for row in self.distance]
        data["returned"] = [list(r) for r in self.returned]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BanditState:
        items = data.get("items")
        if items is not None:
            items = np.array(items, dtype=np.int64)
            items.flags.writeable = False
        best = data.get("best_fairness")
        return cls(
            partition_ids=tuple(str(v) for v in data["partition_ids"]),
            base_rate_difference=tuple(float(v) for v in data["base_rate_difference"]),
            distance=tuple(tuple(float(v) for v in row) for row in data["distance"]),
            sizes=tuple(int(v) for v in data["sizes"]),
            start=tuple(int(v) for v in data["start"]),
            end=tuple(int(v) for v in data["end"]),
            items=items,
            reward_sums=tuple(float(v) for v in data["reward_sums"]),
            reward_counts=tuple(int(v) for v in data["reward_counts"]),
            pulls=tuple(int(v) for v in data["pulls"]),
            best_fairness=None if best is None else float(best),
            max_abs_delta=float(data.get("max_abs_delta", 0.0)),
            budget_spent=int(data.get("budget_spent", 0)),
            evaluations=int(data.get("evaluations", 0)),
            accepted_batches=int(data.get("accepted_batches", 0)),
            influence_sign=int(data.get("influence_sign", 1)),
            done=bool(data.get("done", False)),
            stop_reason=data.get("stop_reason"),
            pending_pulls=tuple(int(v) for v in data.get("pending_pulls", ())),
            reserved=int(data.get("reserved", 0)),
            returned=tuple(tuple(int(i) for i in r) for r in data.get("returned", ())),
            accuracy_sums=tuple(float(v) for v in data.get("accuracy_sums", ())),
            best_accuracy=None if data.get("best_accuracy") is None else float(data["best_accuracy"]),
            max_abs_accuracy_delta=float(data.get("max_abs_accuracy_delta", 0.0)),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BanditState):
            return NotImplemented
        mine, theirs = self.to_dict(), other.to_dict()
        a, b = mine.pop("items"), theirs.pop("items")
        same_items = (a is None and b is None) or (a is not None and b is not None and np.array_equal(a, b))
        return same_items and mine == theirs


@dataclass(frozen=True)
class Decision:
    """What ``next`` answers: the partition, its batch and every partition's scores."""

    round: int
    partition: str
    partition_index: int
    reason: str  # "untried" | "ucb"
    batch_size: int
    take: str  # which end of the partition's window the batch came from: "front" | "back"
    item_indices: tuple[int, ...] | None
    scores: dict[str, dict[str, Any]]
    positions: tuple[int, ...] | None = None  # the batch's offer positions in its partition

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["item_indices"] = None if self.item_indices is None else list(self.item_indices)
        data["positions"] = None if self.positions is None else list(self.positions)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Decision:
        items, positions = data.get("item_indices"), data.get("positions")
        return cls(
            round=int(data["round"]),
            partition=str(data["partition"]),
            partition_index=int(data["partition_index"]),
            reason=str(data["reason"]),
            batch_size=int(data["batch_size"]),
            take=str(data["take"]),
            item_indices=None if items is None else tuple(int(i) for i in items),
            scores=dict(data.get("scores", {})),
            positions=None if positions is None else tuple(int(p) for p in positions),
        )


@dataclass(frozen=True)
class FeedbackResult:
    """What ``feedback`` answers (SPEC §4.4); ``rewards`` is eq. 1's credit per partition.

    The accuracy fields are ``None`` unless the config uses accuracy (beyond the paper):
    ``delta_accuracy`` = accuracy_after − accuracy_before, ``best_accuracy`` the best of a
    kept model, ``accuracy_guard_rejected`` whether the guard refused a batch that
    Algorithm 1 alone would have kept.
    """

    accepted: bool
    delta_fairness: float
    rewards: dict[str, float]
    best_fairness: float
    budget_remaining: int
    done: bool
    stop_reason: str | None
    delta_accuracy: float | None = None
    best_accuracy: float | None = None
    accuracy_guard_rejected: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
