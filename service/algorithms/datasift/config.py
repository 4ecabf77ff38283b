"""A DataSift bandit's hyperparameters (:class:`BanditConfig`), the names they take, and input checks.

Three options go beyond the paper (all off by default, which is the paper's
Algorithm 1 exactly): ``accuracy_weight`` (β) adds the change in validation
accuracy to the shared reward, ``accuracy_tolerance`` (δ) keeps a batch only
when accuracy stays within δ of the best seen, and ``acceptance="objective"``
keeps a batch when the reward's scaled objective improves rather than only when
|F| falls. See :mod:`~service.algorithms.datasift.guard`.

References
----------
Hasan, Pradhan, DataSift, Algorithm 1, eq. 1 and eq. 2 (the quantities configured here).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

import numpy as np

from service.algorithms.validation import InputError

__all__ = ["ACCEPTANCES", "BATCH_SELECTIONS", "METRICS", "REWARDS", "REWARD_SCALES", "STOP_REASONS", "BanditConfig",
           "check_finite"]

METRICS = ("demographic_parity", "equal_opportunity", "equalized_odds")
REWARDS = ("base_rate_distance", "distance", "base_rate", "selected_only")
REWARD_SCALES = ("none", "running_max")
BATCH_SELECTIONS = ("random", "influence")
ACCEPTANCES = ("fairness", "objective")
STOP_REASONS = ("fairness_threshold", "budget", "max_evaluations", "pool_exhausted", "cancelled")


def check_finite(value: float, name: str) -> float:
    """``value`` as a float, or InputError when it is NaN or infinite."""
    value = float(value)
    if not np.isfinite(value):
        raise InputError(f"{name} must be a finite number")
    return value


def _choice(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise InputError(f"{name} must be one of {', '.join(allowed)}; got {value!r}")


@dataclass(frozen=True)
class BanditConfig:
    """Hyperparameters of one bandit (SPEC §4.4); validated on construction.

    Parameters
    ----------
    accuracy_weight : float
        β ≥ 0. Beyond the paper: every partition's reward becomes eq. 1 applied to
        ``ΔF / s_F + β · ΔA / s_A`` where ΔA is the change in validation accuracy
        and ``s_F``, ``s_A`` are each part's ``reward_scale`` (1, or the largest
        absolute change so far), so β weighs the two parts alike on any data set.
        0 (the default) is the paper's reward.
    accuracy_tolerance : float or None
        δ ≥ 0. Beyond the paper: a batch that Algorithm 1 would keep is kept only
        when validation accuracy after it is at least the best accuracy of a kept
        model so far minus δ; DataSift-Inf also offers first the candidates whose
        estimated accuracy influence stays within δ. ``None`` (the default) is the
        paper's Algorithm 1, which keeps a batch whenever |F| falls.
    acceptance : {"fairness", "objective"}
        Which improvement keeps a batch (the δ guard applies to both). ``"fairness"``
        (the default): |F| falls below the best, Algorithm 1 line 13. ``"objective"``
        (beyond the paper; needs β > 0): the reward's scaled objective improves,
        ``ΔF / s_F + β · ΔA / s_A > 0`` with ΔF, ΔA measured from the kept model and
        the scales including this batch's changes, so a batch whose accuracy gain
        outweighs a small fairness cost is kept instead of thrown away.
    """

    batch_size: int
    budget: int
    metric: str = "demographic_parity"
    reward: str = "base_rate_distance"
    reward_scale: str = "none"
    batch_selection: str = "random"
    alpha: float = 0.1
    fairness_threshold: float = 0.01
    max_evaluations: int | None = None
    accuracy_weight: float = 0.0
    accuracy_tolerance: float | None = None
    acceptance: str = "fairness"

    def __post_init__(self) -> None:
        _choice("metric", self.metric, METRICS)
        _choice("reward", self.reward, REWARDS)
        _choice("reward_scale", self.reward_scale, REWARD_SCALES)
        _choice("batch_selection", self.batch_selection, BATCH_SELECTIONS)
        _choice("acceptance", self.acceptance, ACCEPTANCES)
        if self.batch_size < 1 or self.budget < 1:
            raise InputError("batch_size and budget must be positive integers")
        if not (np.isfinite(self.alpha) and self.alpha >= 0):
            raise InputError("alpha must be a finite number >= 0")
        if not (np.isfinite(self.fairness_threshold) and self.fairness_threshold >= 0):
            raise InputError("fairness_threshold must be a finite number >= 0")
        if self.max_evaluations is not None and self.max_evaluations < 1:
            raise InputError("max_evaluations must be a positive integer or null")
        if not (np.isfinite(self.accuracy_weight) and self.accuracy_weight >= 0):
            raise InputError("accuracy_weight must be a finite number >= 0")
        if self.accuracy_tolerance is not None and not (
                np.isfinite(self.accuracy_tolerance) and self.accuracy_tolerance >= 0):
            raise InputError("accuracy_tolerance must be a finite number >= 0 or null")
        if self.acceptance == "objective" and self.accuracy_weight == 0:
            raise InputError("acceptance 'objective' needs accuracy_weight > 0 (with β = 0 the objective is ΔF "
                             "alone: use acceptance 'fairness')")

    @property
    def uses_accuracy(self) -> bool:
        """Whether feedback must carry accuracy (β > 0 or a guard): never in the paper's setting."""
        return self.accuracy_weight > 0 or self.accuracy_tolerance is not None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BanditConfig:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})
