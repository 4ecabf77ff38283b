"""Managed mode of a group sampler: warm-started logistic regression and per-group validation.

Each round the service refits on every training sample acquired so far,
starting from the previous coefficients (a few Newton steps when little has
changed), then measures each group's validation loss L̂_z and accuracy; those
feed :func:`service.algorithms.adaptive_sampling.apply_observation`. The fitted
model is plain arrays (``to_params`` / ``from_params``), never a pickle.

References
----------
Shekhar, Fields, Ghavamzadeh, Javidi (2021), "Adaptive Sampling for Minimax Fair
Classification", NeurIPS: Algorithm 1 line 13 (ERM on D_t), eq. 4 and eq. 6
(first term, the loss on D_z); Section 5 (logistic regression, exact version).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import expit

from service.algorithms.metrics import loss_values
from service.algorithms.validation import InputError

__all__ = [
    "FitResult",
    "GroupEvaluation",
    "ManagedFit",
    "WarmStartLogisticRegression",
    "evaluate_groups",
    "fit_and_evaluate",
]

# A weak penalty on the intercept keeps the fit finite when every label so far is
# the same (common in the first rounds); 1e-4 moves the intercept of any real
# fit by far less than the validation noise.
INTERCEPT_L2 = 1e-4
# Newton converges quadratically, so a tight gradient tolerance costs about one
# extra step; per sample it is far below anything the validation losses resolve.
GRADIENT_TOL = 1e-8
# Armijo constant and the smallest step tried before giving up on a line search.
ARMIJO = 1e-4
MIN_STEP = 1e-8
# The service's loss names and the shared metrics' names for them.
_METRIC_LOSS = {"zero_one": "zero_one", "log_loss": "log"}


@dataclass(frozen=True)
class FitResult:
    """Outcome of one fit: ``status`` is ``converged`` or ``max_iter``; ``gap`` the final max |gradient| / n."""

    status: str
    message: str
    iterations: int
    gap: float


class WarmStartLogisticRegression:
    """L2-regularised logistic regression fitted by damped Newton steps from a warm start.

    Minimises ``Σ_i log(1 + exp(s_i)) − y_i s_i + l2/2 ‖w‖² + INTERCEPT_L2/2 b²``
    with ``s_i = w·x_i + b`` (``l2 = 1`` is scikit-learn's ``C = 1``).

    Parameters
    ----------
    l2 : float
        Penalty on the coefficients.
    max_iter : int
        Newton steps at most per fit.
    tol : float
        Stop when max |gradient| <= ``tol`` · max(n, 1).

    References
    ----------
    Shekhar et al. (2021), Section 5: logistic regression retrained every round.
    """

    def __init__(self, l2: float = 1.0, max_iter: int = 50, tol: float = GRADIENT_TOL) -> None:
        self.l2 = l2
        self.max_iter = max_iter
        self.tol = tol

    def fit(
        self, X: np.ndarray, y: np.ndarray, coef_init: np.ndarray | None = None, intercept_init: float = 0.0
    ) -> WarmStartLogisticRegression:
        X, y = _check_xy(X, y)
        n, d = X.shape
        if coef_init is not None:
            coef_init = np.asarray(coef_init, dtype=float).ravel()
            if coef_init.shape != (d,):
                raise InputError(f"coef_init has {coef_init.size} values for {d} features")
        return self.fit_augmented(np.hstack([X, np.ones((n, 1))]), y, coef_init, intercept_init)

    def fit_augmented(
        self, Xa: np.ndarray, y: np.ndarray, coef_init: np.ndarray | None = None, intercept_init: float = 0.0
    ) -> WarmStartLogisticRegression:
        """:meth:`fit` on checked data whose last column is all ones (the intercept's).

        For a caller that keeps the augmented matrix between refits (a replay adding rows
        to a buffer) instead of building it anew each time; the arithmetic is :meth:`fit`'s.
        """
        n, d = Xa.shape[0], Xa.shape[1] - 1
        penalty = np.r_[np.full(d, self.l2), INTERCEPT_L2]
        theta = np.zeros(d + 1) if coef_init is None else np.r_[coef_init, float(intercept_init)]

        def objective(th: np.ndarray) -> tuple[float, np.ndarray]:
            s = Xa @ th
            return float(np.sum(np.logaddexp(0.0, s) - y * s) + 0.5 * penalty @ th**2), s

        value, s = objective(theta)
        status, iterations, gap = "max_iter", 0, np.inf
        for iterations in range(self.max_iter + 1):  # the count is reported
            p = expit(s)
            grad = Xa.T @ (p - y) + penalty * theta
            gap = float(np.max(np.abs(grad)) / max(n, 1))
            if gap <= self.tol or iterations == self.max_iter:
                status = "converged" if gap <= self.tol else "max_iter"
                break
            hessian = (Xa * (p * (1.0 - p))[:, None]).T @ Xa + np.diag(penalty)
            step = np.linalg.solve(hessian, grad)
            decrease, t = float(grad @ step), 1.0
            while True:
                candidate, s_candidate = objective(theta - t * step)
                if candidate <= value - ARMIJO * t * decrease or t < MIN_STEP:
                    break
                t /= 2.0
            theta, value, s = theta - t * step, candidate, s_candidate
        self.coef_ = theta[:d].copy()
        self.intercept_ = float(theta[d])
        self.n_iter_ = iterations
        self.result_ = FitResult(status, f"{status} after {iterations} Newton steps", iterations, gap)
        return self

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        return np.asarray(X, dtype=float) @ self.coef_ + self.intercept_

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        p = expit(self.decision_function(X))
        return np.column_stack([1.0 - p, p])

    def predict(self, X: np.ndarray) -> np.ndarray:
        return (self.decision_function(X) >= 0).astype(int)

    def to_params(self) -> dict[str, np.ndarray]:
        return {"coef": self.coef_.copy(), "intercept": np.array([self.intercept_])}

    @classmethod
    def from_params(cls, params: dict[str, np.ndarray], **hyperparameters: Any) -> WarmStartLogisticRegression:
        model = cls(**hyperparameters)
        model.coef_ = np.asarray(params["coef"], dtype=float).ravel().copy()
        model.intercept_ = float(np.asarray(params["intercept"], dtype=float).ravel()[0])
        return model


def _check_xy(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float).ravel()
    if X.ndim != 2 or X.shape[0] != y.size or y.size == 0:
        raise InputError(f"need a non-empty 2-D feature matrix and one label per row, got {X.shape} and {y.size}")
    if not (np.isfinite(X).all() and np.isin(y, (0.0, 1.0)).all()):
        raise InputError("features must be finite and labels 0 or 1")
    return X, y


@dataclass(frozen=True)
class GroupEvaluation:
    """Per-group validation ``losses``, ``accuracies`` and sizes (``nan`` for a group without data)."""

    losses: np.ndarray
    accuracies: np.ndarray
    counts: np.ndarray

    def reported(self) -> tuple[list[float | None], list[float | None]]:
        """Losses and accuracies as ``apply_observation`` takes them (``None`` for no data)."""

        def plain(values: np.ndarray) -> list[float | None]:
            return [float(v) if np.isfinite(v) else None for v in values]

        return plain(self.losses), plain(self.accuracies)


def evaluate_groups(
    model: WarmStartLogisticRegression,
    X: np.ndarray,
    y: np.ndarray,
    group_index: np.ndarray,
    n_groups: int,
    loss: str,
) -> GroupEvaluation:
    """Mean ``loss`` (``zero_one`` or ``log_loss``) and accuracy of ``model`` on each group's validation data.

    References
    ----------
    Shekhar et al. (2021), eq. 6 first term: ``1/|D_z| Σ_{(x,y) ∈ D_z} ℓ(f̂_t, x, y)``.
    """
    group_index = np.asarray(group_index, dtype=int)
    p = model.predict_proba(X)[:, 1]
    y = np.asarray(y, dtype=float)
    per_example = loss_values(p, y, _METRIC_LOSS[loss])
    correct = ((p >= 0.5) == (y >= 0.5)).astype(float)
    counts = np.bincount(group_index, minlength=n_groups).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        losses = np.bincount(group_index, per_example, minlength=n_groups) / counts
        accuracies = np.bincount(group_index, correct, minlength=n_groups) / counts
    return GroupEvaluation(losses, accuracies, counts)


@dataclass(frozen=True)
class ManagedFit:
    """A managed-mode refit: the model (``params`` to store, ``result`` of the solver) and its evaluation."""

    model: WarmStartLogisticRegression
    evaluation: GroupEvaluation

    @property
    def params(self) -> dict[str, np.ndarray]:
        return self.model.to_params()

    @property
    def result(self) -> FitResult:
        return self.model.result_


def fit_and_evaluate(
    train_X: np.ndarray,
    train_y: np.ndarray,
    val_X: np.ndarray,
    val_y: np.ndarray,
    val_group_index: np.ndarray,
    n_groups: int,
    loss: str,
    previous: dict[str, np.ndarray] | None = None,
    l2: float = 1.0,
    max_iter: int = 50,
) -> ManagedFit:
    """Refit on all training samples (warm-started from ``previous`` params) and evaluate per group.

    ``val_group_index`` gives each validation row's group as an index into the
    session's groups. ``ManagedFit.evaluation.reported()`` is what
    ``apply_observation`` takes; ``ManagedFit.params`` is what to store and to
    pass as ``previous`` next time.

    References
    ----------
    Shekhar et al. (2021), Algorithm 1 line 13 and eq. 6.
    """
    init = previous or {}
    model = WarmStartLogisticRegression(l2=l2, max_iter=max_iter)
    model.fit(train_X, train_y, init.get("coef"), float(np.ravel(init.get("intercept", [0.0]))[0]))
    return ManagedFit(model, evaluate_groups(model, val_X, val_y, val_group_index, n_groups, loss))
