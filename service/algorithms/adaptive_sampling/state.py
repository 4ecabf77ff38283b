"""Plain-data records of a group-sampler session: configuration, state and decision.

All three are frozen dataclasses whose ``to_dict()`` output is JSON (lists,
numbers, strings and ``null``) and whose ``from_dict()`` reads it back, so the
service can store them in a JSON column and the decision log. Per-group values
are tuples in the order of ``SamplerConfig.groups``.

References
----------
Shekhar, Fields, Ghavamzadeh, Javidi (2021), "Adaptive Sampling for Minimax Fair
Classification", NeurIPS, Algorithm 1 and eq. 6; SPEC §4.3 and §5.1.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import Any

import numpy as np

from service.algorithms.validation import InputError, StateError

__all__ = [
    "AOPT_PLUS_DEFAULT_C1",
    "BOUNDS",
    "MAX_GROUPS",
    "REASONS",
    "SAMPLER_LOSSES",
    "STRATEGIES",
    "BudgetExhaustedError",
    "Decision",
    "SamplerConfig",
    "SamplerState",
]

STRATEGIES = ("aopt", "aopt_plus", "epsilon_greedy", "greedy", "uniform")
REASONS = ("warmup", "forced_exploration", "ucb", "epsilon", "greedy", "uniform")
BOUNDS = ("empirical", "theoretical")
SAMPLER_LOSSES = ("zero_one", "log_loss")
# SPEC §3 limit on groups per session.
MAX_GROUPS = 64
# SPEC §4.3: c1 defaults to 0.1 for aopt_plus (and must be 0 for every other strategy).
AOPT_PLUS_DEFAULT_C1 = 0.1


class BudgetExhaustedError(StateError):
    """The session's budget is spent (``next``) or an observation would overspend it."""


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise InputError(message)


@dataclass(frozen=True)
class SamplerConfig:
    """Hyperparameters of one session (SPEC §4.3); validated once, here.

    ``c1=None`` and ``warmup_rounds=None`` take the strategy defaults (0.1 for
    ``aopt_plus`` and 0 otherwise; one round per group). ``trend_window`` keeps
    only the last values of each accuracy series for Mann–Kendall (``None``:
    all, as the paper does). ``bound_c``, ``bound_delta`` and ``bound_vc_dim``
    are C of Assumption 3, δ and the VC dimension of Remark 1, used only with
    ``bound="theoretical"`` (eq. 4); the default VC dimension 3 is that of
    linear classifiers in the plane, the paper's synthetic setting.
    """

    groups: tuple[str, ...]
    budget: int
    strategy: str = "aopt"
    c0: float = 0.1
    c1: float | None = None
    epsilon: float = 0.1
    xi: float = 0.5
    warmup_rounds: int | None = None
    bound: str = "empirical"
    batch_size: int = 1
    loss: str = "zero_one"
    trend_window: int | None = None
    bound_c: float = 0.5
    bound_delta: float = 0.05
    bound_vc_dim: int = 3

    def __post_init__(self) -> None:
        groups = tuple(self.groups)
        object.__setattr__(self, "groups", groups)
        _check(all(isinstance(g, str) and g for g in groups), "groups must be non-empty strings")
        _check(2 <= len(groups) <= MAX_GROUPS, f"give between 2 and {MAX_GROUPS} groups, got {len(groups)}")
        _check(len(set(groups)) == len(groups), "group names must be distinct")
        _check(self.strategy in STRATEGIES, f"strategy must be one of {list(STRATEGIES)}")
        _check(self.bound in BOUNDS, f"bound must be one of {list(BOUNDS)}")
        _check(self.loss in SAMPLER_LOSSES, f"loss must be one of {list(SAMPLER_LOSSES)}")
        c1 = self.c1 if self.c1 is not None else (AOPT_PLUS_DEFAULT_C1 if self.strategy == "aopt_plus" else 0.0)
        object.__setattr__(self, "c1", c1)
        if self.warmup_rounds is None:
            object.__setattr__(self, "warmup_rounds", len(groups))
        for name in ("c0", "c1", "epsilon", "xi", "bound_c", "bound_delta"):
            value = getattr(self, name)
            _check(isinstance(value, int | float) and math.isfinite(value), f"{name} must be a finite number")
        _check(self.c0 >= 0, "c0 must be >= 0")
        if self.strategy == "aopt_plus":
            _check(c1 > 0, "aopt_plus needs c1 > 0 (c1 = 0 is aopt)")
        else:
            _check(self.c1 == 0, "c1 is the Aopt+ trend weight; use strategy 'aopt_plus' or c1 = 0")
        _check(0 <= self.epsilon <= 1, "epsilon must be in [0, 1]")
        _check(0 <= self.xi < 1, "xi must be in [0, 1)")
        _check(self.bound_c > 0 and 0 < self.bound_delta < 1, "bound_c must be > 0 and bound_delta in (0, 1)")
        for name, low in (("budget", 1), ("batch_size", 1), ("warmup_rounds", 0), ("bound_vc_dim", 1)):
            value = getattr(self, name)
            _check(isinstance(value, int) and value >= low, f"{name} must be an integer >= {low}")
        if self.trend_window is not None:
            _check(isinstance(self.trend_window, int) and self.trend_window >= 3, "trend_window must be >= 3")

    @property
    def n_groups(self) -> int:
        return len(self.groups)

    def group_index(self, group: str | int) -> int:
        """Position of a group given by name or index; ``InputError`` for an unknown one."""
        if isinstance(group, int | np.integer) and not isinstance(group, bool):
            _check(0 <= group < self.n_groups, f"group index {group} out of range")
            return int(group)
        _check(group in self.groups, f"unknown group {group!r}; groups are {list(self.groups)}")
        return self.groups.index(group)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["groups"] = list(self.groups)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SamplerConfig:
        unknown = set(data) - {f.name for f in fields(cls)}
        _check(not unknown, f"unknown config fields {sorted(unknown)}")
        return cls(**{**data, "groups": tuple(data["groups"])})


@dataclass(frozen=True)
class SamplerState:
    """What a session has learned so far; replaced, never changed, by each step.

    ``counts`` are N_z (training samples acquired per group), ``group_losses``
    and ``group_accuracies`` the latest reported L̂_z and accuracies (``None``
    until reported), ``accuracy_history`` the series Mann–Kendall reads (kept
    for ``aopt_plus`` only) and ``mk_s`` its statistic S_z. ``round`` counts
    applied observations; ``budget_spent`` is Σ N_z. ``pending`` are the samples that
    unsettled decisions reserved per group (P_z) and ``pending_decisions`` how many
    decisions hold them: a strategy counts N_z + P_z wherever it counts samples, while
    losses come from reported data only.
    """

    counts: tuple[int, ...]
    group_losses: tuple[float | None, ...]
    group_accuracies: tuple[float | None, ...]
    accuracy_history: tuple[tuple[float, ...], ...]
    mk_s: tuple[int, ...]
    round: int = 0
    budget_spent: int = 0
    pending: tuple[int, ...] = ()
    pending_decisions: int = 0

    def __post_init__(self) -> None:
        if not self.pending:  # a state stored before decisions could be pending
            object.__setattr__(self, "pending", (0,) * len(self.counts))

    @classmethod
    def initial(cls, config: SamplerConfig) -> SamplerState:
        m = config.n_groups
        return cls((0,) * m, (None,) * m, (None,) * m, ((),) * m, (0,) * m)

    @property
    def reserved(self) -> int:
        """Samples held by pending decisions, Σ P_z."""
        return sum(self.pending)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "budget_spent": self.budget_spent,
            "counts": list(self.counts),
            "group_losses": list(self.group_losses),
            "group_accuracies": list(self.group_accuracies),
            "accuracy_history": [list(h) for h in self.accuracy_history],
            "mk_s": list(self.mk_s),
            "pending": list(self.pending),
            "pending_decisions": self.pending_decisions,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SamplerState:
        return cls(
            counts=tuple(int(c) for c in data["counts"]),
            group_losses=tuple(None if v is None else float(v) for v in data["group_losses"]),
            group_accuracies=tuple(None if v is None else float(v) for v in data["group_accuracies"]),
            accuracy_history=tuple(tuple(float(v) for v in h) for h in data["accuracy_history"]),
            mk_s=tuple(int(s) for s in data["mk_s"]),
            round=int(data["round"]),
            budget_spent=int(data["budget_spent"]),
            pending=tuple(int(p) for p in data.get("pending", ())),
            pending_decisions=int(data.get("pending_decisions", 0)),
        )


@dataclass(frozen=True)
class Decision:
    """Which group to sample next and why.

    ``round`` is the 1-based round the decision is for, ``batch_size`` how many
    samples to acquire (the configured batch, cut to the remaining budget),
    ``budget_remaining`` the samples left before this batch, and
    ``scores`` maps each group to ``{loss, bonus, trend, ucb}`` with
    ``ucb = loss + bonus + trend`` (``None`` where undefined, e.g. no loss yet).
    ``note`` says in words why the group was chosen.
    """

    round: int
    group_index: int
    group: str
    reason: str
    batch_size: int
    budget_remaining: int
    scores: dict[str, dict[str, float | None]]
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Decision:
        return cls(**data)
