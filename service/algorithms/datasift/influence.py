"""First-order influence of training points on a fairness surrogate (DataSift-Inf).

For L2-regularised logistic regression with parameters θ = (w, b) the training
objective (scikit-learn's, divided by ``C·n``) is

    L(θ) = 1/n Σ_i ℓ(x_i, y_i; θ) + 1/(2·C·n) ‖w‖²,

and the influence of up-weighting a point d on a differentiable function F(θ) is
(Koh & Liang 2017; DataSift eq. 4–5)

    I_F(d) = −∇F(θ)ᵀ H⁻¹ ∇ℓ(d; θ),   H = ∇²L(θ).

F is the fairness *surrogate*: the difference between two groups' mean predicted
positive probabilities on the test set (the pair with the largest gap, so it is
also the largest pairwise gap when there are more than two groups). Adding d to
n training points changes F by about ``I_F(d) / n``; a negative influence makes
the surrogate, and with it the disparity, smaller.

Algorithm 2 then fits a ridge regression from (features, label) to influence on
the training set and predicts the influence of pool points
(:class:`InfluenceRegressor`).

References
----------
Hasan, Pradhan, "Data Acquisition for Improving Model Fairness using
Reinforcement Learning" (DataSift), Section 3.3, eq. 4, eq. 5 and Algorithm 2.
Koh, Liang (2017), "Understanding black-box predictions via influence functions".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve
from sklearn.linear_model import LogisticRegression, Ridge

from service.algorithms.validation import InputError

__all__ = [
    "FairnessSurrogate",
    "InfluenceRegressor",
    "LogisticModel",
    "accuracy_surrogate",
    "fairness_influence",
    "influence",
    "fairness_surrogate",
    "fit_logistic",
]

# Iteration cap and tolerance for the L-BFGS fit: the influence formula assumes
# θ is the exact minimiser, so fit more tightly than scikit-learn's default 1e-4.
LOGISTIC_MAX_ITER = 2000
LOGISTIC_TOL = 1e-6
# Added to the Hessian's diagonal when it is numerically singular (separable data,
# constant columns); small against the 1/(C·n) ridge term of any realistic fit.
HESSIAN_DAMPING = 1e-8
# Rows of the surrogate per metric: which test labels enter the group means.
_SURROGATE_ROWS = {"demographic_parity": (None,), "equal_opportunity": (1,), "equalized_odds": (1, 0)}


@dataclass(frozen=True)
class LogisticModel:
    """A fitted L2-regularised logistic regression as plain parameters."""

    coef: np.ndarray
    intercept: float
    C: float

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        return np.asarray(np.asarray(X, dtype=float) @ self.coef + self.intercept)

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """P(y = 1 | x) for each row."""
        return _sigmoid(self.decision_function(X))

    def to_params(self) -> dict[str, Any]:
        return {"coef": self.coef.tolist(), "intercept": float(self.intercept), "C": float(self.C)}

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> LogisticModel:
        return cls(np.asarray(params["coef"], dtype=float), float(params["intercept"]), float(params["C"]))


@dataclass(frozen=True)
class FairnessSurrogate:
    """F(θ) = mean P(ŷ=1) of group ``pair[0]`` minus that of ``pair[1]`` on the chosen rows."""

    value: float
    gradient: np.ndarray  # with respect to (w, b)
    pair: tuple[str, str]
    label: int | None  # test rows used: all (None) or those with this label


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # overflow-free logistic function


def _with_bias(X: np.ndarray) -> np.ndarray:
    X = np.asarray(X, dtype=float)
    return np.hstack([X, np.ones((X.shape[0], 1))])


def fit_logistic(
    X: np.ndarray, y: np.ndarray, *, C: float = 1.0, sample_weight: np.ndarray | None = None
) -> LogisticModel:
    """Fit scikit-learn's L2-regularised logistic regression (L-BFGS) and return its parameters."""
    model = LogisticRegression(C=C, max_iter=LOGISTIC_MAX_ITER, tol=LOGISTIC_TOL)
    model.fit(np.asarray(X, dtype=float), np.asarray(y, dtype=int), sample_weight=sample_weight)
    return LogisticModel(model.coef_[0].copy(), float(model.intercept_[0]), float(C))


def _group_gap(
    p: np.ndarray, Xb: np.ndarray, groups: np.ndarray, pair: tuple[str, str] | None
) -> tuple[float, np.ndarray, tuple[str, str]]:
    keys = sorted({str(g) for g in groups})
    means = {g: float(p[groups == g].mean()) for g in keys}
    if pair is None:
        pair = (max(keys, key=means.__getitem__), min(keys, key=means.__getitem__))
    a, b = (groups == pair[0]), (groups == pair[1])
    slope = (p * (1.0 - p))[:, None] * Xb
    gradient = slope[a].mean(axis=0) - slope[b].mean(axis=0)
    return means[pair[0]] - means[pair[1]], gradient, pair


def fairness_surrogate(
    model: LogisticModel,
    X_test: np.ndarray,
    groups_test: np.ndarray,
    labels_test: np.ndarray | None = None,
    *,
    metric: str = "demographic_parity",
    pair: tuple[str, str] | None = None,
) -> FairnessSurrogate:
    """The smooth fairness surrogate and its gradient at ``model``.

    Demographic parity uses every test row, equal opportunity the rows with
    y = 1, equalized odds whichever of y = 1 and y = 0 has the larger gap. With
    ``pair=None`` the pair is (highest, lowest) group mean, so ``value >= 0``.

    References
    ----------
    DataSift, Section 2 (F as a difference of positive rates) and Section 3.3.1.
    """
    if metric not in _SURROGATE_ROWS:
        raise InputError(f"unknown metric {metric!r}; use one of {sorted(_SURROGATE_ROWS)}")
    groups = np.asarray(groups_test).astype(str)
    Xb = _with_bias(X_test)
    p = _sigmoid(Xb @ np.append(model.coef, model.intercept))
    best: FairnessSurrogate | None = None
    for label in _SURROGATE_ROWS[metric]:
        rows = np.ones(len(p), bool) if label is None else np.asarray(labels_test) == label
        present = set(groups[rows].tolist())
        if len(present) < 2 or (pair is not None and not set(pair) <= present):
            continue
        value, gradient, used = _group_gap(p[rows], Xb[rows], groups[rows], pair)
        if best is None or abs(value) > abs(best.value):
            best = FairnessSurrogate(value, gradient, used, label)
    if best is None:
        raise InputError("the fairness surrogate needs test rows from at least two groups")
    return best


def accuracy_surrogate(model: LogisticModel, X: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """Soft accuracy A(θ) = mean P(ŷ = y) on (X, y), and its gradient with respect to (w, b).

    Beyond the paper: the smooth stand-in for accuracy that the accuracy guard's
    influence uses (as the fairness surrogate stands in for F), in accuracy units:
    ∂P(ŷ = y)/∂θ = (2y − 1)·σ(1 − σ)·x.
    """
    Xb = _with_bias(X)
    p = _sigmoid(Xb @ np.append(model.coef, model.intercept))
    sign = 2.0 * np.asarray(y, dtype=float) - 1.0
    value = float(np.mean(np.where(sign > 0, p, 1.0 - p)))
    return value, np.asarray(((sign * p * (1.0 - p))[:, None] * Xb).mean(axis=0))


def fairness_influence(
    model: LogisticModel,
    X_train: np.ndarray,
    y_train: np.ndarray,
    surrogate: FairnessSurrogate,
) -> np.ndarray:
    """I(x) = −∇F(θ)ᵀ H⁻¹ ∇ℓ(x, θ) for every training row (eq. 5).

    The Hessian is that of the mean training loss plus the ridge term
    ``1/(C·n)`` on the weights (not on the intercept), matching :func:`fit_logistic`.

    References
    ----------
    DataSift, eq. 4 and eq. 5; Koh & Liang (2017), eq. 2.
    """
    return influence(model, X_train, y_train, surrogate.gradient)


def influence(model: LogisticModel, X_train: np.ndarray, y_train: np.ndarray, gradient: np.ndarray) -> np.ndarray:
    """I(x) = −gᵀ H⁻¹ ∇ℓ(x, θ) for every training row, for any function's gradient g at θ (eq. 5's machinery)."""
    Xb = _with_bias(X_train)
    y = np.asarray(y_train, dtype=float)
    n, d = Xb.shape
    p = _sigmoid(Xb @ np.append(model.coef, model.intercept))
    hessian = (Xb * (p * (1.0 - p))[:, None]).T @ Xb / n
    ridge = np.full(d, 1.0 / (model.C * n))
    ridge[-1] = 0.0
    hessian[np.diag_indices(d)] += ridge
    try:
        v = cho_solve(cho_factor(hessian), gradient)
    except LinAlgError:
        hessian[np.diag_indices(d)] += HESSIAN_DAMPING
        v = np.linalg.lstsq(hessian, gradient, rcond=None)[0]
    # ∇ℓ(x) = (σ(θᵀx) − y)·x, so −∇Fᵀ H⁻¹ ∇ℓ(x) = −(σ − y)·(xᵀ v).
    return np.asarray(-(p - y) * (Xb @ v))


class InfluenceRegressor:
    """Ridge regression from (features, label) to influence (Algorithm 2, lines 1–3).

    Parameters
    ----------
    alpha : float
        Ridge penalty.
    interactions : bool
        Also use label × feature products. The exact influence of logistic
        regression, −(σ(θᵀx) − y)·xᵀv, changes sign with the label, which a
        model linear in (x, y) cannot express; the products let it.
    """

    def __init__(self, alpha: float = 1.0, interactions: bool = True) -> None:
        self.alpha = alpha
        self.interactions = interactions

    def _design(self, X: np.ndarray, labels: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=float)
        y = np.asarray(labels, dtype=float)[:, None]
        blocks = [X, y, y * X] if self.interactions else [X, y]
        return np.hstack(blocks)

    def fit(self, X: np.ndarray, labels: np.ndarray, influence: np.ndarray) -> InfluenceRegressor:
        ridge = Ridge(alpha=self.alpha).fit(self._design(X, labels), np.asarray(influence, dtype=float))
        self.coef_ = ridge.coef_.copy()
        self.intercept_ = float(ridge.intercept_)
        return self

    def predict(self, X: np.ndarray, labels: np.ndarray) -> np.ndarray:
        return np.asarray(self._design(X, labels) @ self.coef_ + self.intercept_)

    def to_params(self) -> dict[str, Any]:
        return {
            "alpha": self.alpha,
            "interactions": self.interactions,
            "coef": self.coef_.tolist(),
            "intercept": self.intercept_,
        }

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> InfluenceRegressor:
        model = cls(alpha=float(params["alpha"]), interactions=bool(params["interactions"]))
        model.coef_ = np.asarray(params["coef"], dtype=float)
        model.intercept_ = float(params["intercept"])
        return model
