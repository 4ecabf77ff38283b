"""Losses of the fair-regression paper and the min–max label scaling (SPEC §5.5).

Every loss ``ℓ(y, u)`` takes a label ``y ∈ [0, 1]`` and a prediction ``u ∈ [0, 1]``,
has values in ``[0, 1]`` and is 1-Lipschitz in each argument:

* ``square``   — ``(y − u)² / 2`` (Example 1; the factor 1/2 makes it 1-Lipschitz);
* ``absolute`` — ``|y − u|``;
* ``logistic`` — the rescaled negative log-likelihood of Example 2,
  ``log(1 + exp(−C (2y − 1)(2u − 1))) / (2 log(1 + e^C))``, whose probability model is
  ``P(Y = 1 | x) = 1 / (1 + exp(−C (2u − 1)))``.

Labels are min–max scaled to ``[0, 1]`` before fitting and the scaling is kept with
the fitted predictor so that predictions come back on the caller's scale.

References
----------
Agarwal, Dudík, Wu (2019), "Fair Regression: Quantitative Definitions and
Reduction-based Algorithms", ICML — Section 2 (1-Lipschitz losses), Example 1
(square loss), Example 2 (rescaled logistic loss).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from service.algorithms.validation import InputError

__all__ = ["LOGISTIC_C", "LOSS_NAMES", "LabelScaling", "Loss", "get_loss"]

# C of Example 2. The paper only asks C > 1; 5 is the authors' reference code's
# value (_LOGISTIC_C = 5), so probabilities range over [0.0067, 0.9933].
LOGISTIC_C = 5.0

LOSS_NAMES = ("square", "absolute", "logistic")


@dataclass(frozen=True)
class Loss:
    """A 1-Lipschitz loss on ``[0, 1] × [0, 1]``; ``c`` is Example 2's C (logistic only)."""

    name: str
    c: float = LOGISTIC_C

    def __call__(self, y: np.ndarray, u: np.ndarray) -> np.ndarray:
        """``ℓ(y, u)`` elementwise (broadcasting); ``u`` is clipped to ``[0, 1]`` first."""
        y = np.asarray(y, dtype=float)
        u = np.clip(np.asarray(u, dtype=float), 0.0, 1.0)
        if self.name == "square":
            return np.asarray(0.5 * (y - u) ** 2)
        if self.name == "absolute":
            return np.asarray(np.abs(y - u))
        margin = self.c * (2.0 * y - 1.0) * (2.0 * u - 1.0)
        return np.asarray(np.logaddexp(0.0, -margin) / (2.0 * np.logaddexp(0.0, self.c)))

    def logit(self, u: np.ndarray) -> np.ndarray:
        """The logistic model's log-odds ``C (2u − 1)`` of a prediction (Example 2)."""
        return self.c * (2.0 * np.asarray(u, dtype=float) - 1.0)


def get_loss(name: str, logistic_c: float = LOGISTIC_C) -> Loss:
    """The loss called ``name``; raises :class:`InputError` for an unknown name or C ≤ 1."""
    if name not in LOSS_NAMES:
        raise InputError(f"unknown loss {name!r}; use one of {list(LOSS_NAMES)}", ("loss",))
    if name == "logistic" and not (np.isfinite(logistic_c) and logistic_c > 1.0):
        raise InputError("the logistic loss needs C > 1 (Example 2)", ("logistic_c",))
    return Loss(name, float(logistic_c))


@dataclass(frozen=True)
class LabelScaling:
    """Min–max scaling of labels to ``[0, 1]``: ``y_unit = (y − minimum) / (maximum − minimum)``."""

    minimum: float
    maximum: float

    @classmethod
    def fit(cls, y: np.ndarray) -> LabelScaling:
        lo, hi = float(np.min(y)), float(np.max(y))
        if not hi > lo:
            raise InputError("labels are all equal; a regressor needs at least two distinct labels",
                             ("labels",))
        return cls(lo, hi)

    def to_unit(self, y: np.ndarray) -> np.ndarray:
        return np.clip((np.asarray(y, dtype=float) - self.minimum) / (self.maximum - self.minimum), 0.0, 1.0)

    def from_unit(self, u: np.ndarray) -> np.ndarray:
        return self.minimum + np.asarray(u, dtype=float) * (self.maximum - self.minimum)
