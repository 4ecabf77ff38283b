"""The managed DataSift run: the whole acquisition loop with model retraining.

A worker job calls :func:`run_acquisition`; it drives the same
:func:`~service.algorithms.datasift.next_decision` and
:func:`~service.algorithms.datasift.apply_feedback` as the interactive mode,
training L2-regularised logistic regression on the training set plus the
candidate batch and measuring the fairness metric on the test set (Algorithm 1).

Fairness is signed for two groups: F = rate(a) − rate(b) with (a, b) fixed from
the initial model so that F⁰ ≥ 0; a later negative F means the model now
favours the other group. With more than two groups (and for equalized odds) F is
the largest pairwise gap, always ≥ 0.

References
----------
Hasan, Pradhan, DataSift, Algorithm 1, Algorithm 2 and Section 4.1.3.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from service.algorithms import metrics
from service.algorithms.datasift.config import BanditConfig
from service.algorithms.datasift.guard import needs_accuracy_influence, offer_key, pool_accuracy_influence
from service.algorithms.datasift.influence import (
    InfluenceRegressor,
    LogisticModel,
    fairness_influence,
    fairness_surrogate,
    fit_logistic,
)
from service.algorithms.datasift.partitions import Partitioning, partition_pool
from service.algorithms.datasift.setup import init_state, reorder_remaining
from service.algorithms.datasift.steps import apply_feedback, next_decision
from service.algorithms.validation import InputError

__all__ = ["AcquisitionResult", "Evaluator", "LabeledData", "pool_influence", "run_acquisition"]

ProgressFn = Callable[[float], None]
StopFn = Callable[[], bool]


@dataclass(frozen=True)
class LabeledData:
    """Features, binary labels and group values of one dataset (train, test or pool)."""

    X: np.ndarray
    y: np.ndarray
    groups: np.ndarray

    def __post_init__(self) -> None:
        X = np.asarray(self.X, dtype=float)
        if X.ndim != 2 or len(X) == 0 or not np.all(np.isfinite(X)):
            raise InputError("features must be a non-empty 2-D array of finite numbers")
        if len(self.y) != len(X) or len(self.groups) != len(X):
            raise InputError("features, labels and groups must have the same number of rows")
        if not np.isin(self.y, (0, 1)).all():
            raise InputError("labels must be 0 or 1")
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "y", np.asarray(self.y, dtype=int))
        object.__setattr__(self, "groups", np.asarray(self.groups).astype(str))

    def __len__(self) -> int:
        return len(self.y)


@dataclass
class AcquisitionResult:
    """Acquired pool indices (in order), the per-round trajectory and why the run stopped."""

    acquired: np.ndarray
    trajectory: list[dict[str, Any]]
    stop_reason: str
    initial_fairness: float
    initial_accuracy: float
    final_fairness: float
    final_accuracy: float
    evaluations: int
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "acquired": self.acquired.tolist(),
            "trajectory": list(self.trajectory),
            "stop_reason": self.stop_reason,
            "initial_fairness": self.initial_fairness,
            "initial_accuracy": self.initial_accuracy,
            "final_fairness": self.final_fairness,
            "final_accuracy": self.final_accuracy,
            "evaluations": self.evaluations,
        }


class Evaluator:
    """Signed fairness and accuracy of a model on the test set, with a fixed group orientation."""

    def __init__(self, test: LabeledData, metric: str, model: LogisticModel) -> None:
        self.test, self.metric = test, metric
        self.pair: tuple[str, str] | None = None
        rates = self._result(model.predict_proba(test.X))
        if not np.isfinite(rates.disparity) or any(not np.isfinite(v) for v in rates.by_group.values()):
            raise InputError(f"{metric} is undefined on the test set: every group needs rows (with y = 1 "
                             "for equal opportunity, with both labels for equalized odds)")
        keys = sorted(rates.by_group)
        if len(keys) < 2:
            raise InputError("the test set needs rows from at least two groups")
        if len(keys) == 2 and metric != "equalized_odds":
            hi = max(keys, key=lambda g: (rates.by_group[g], g))
            self.pair = (hi, keys[1] if hi == keys[0] else keys[0])

    def _result(self, proba: np.ndarray) -> metrics.MetricResult:
        t = self.test
        if self.metric == "demographic_parity":
            return metrics.demographic_parity(proba, t.groups)
        if self.metric == "equal_opportunity":
            return metrics.equal_opportunity(proba, t.y, t.groups)
        return metrics.equalized_odds(proba, t.y, t.groups)

    def __call__(self, model: LogisticModel) -> tuple[float, float]:
        proba = model.predict_proba(self.test.X)
        accuracy, r = float(((proba >= metrics.POSITIVE_THRESHOLD) == self.test.y).mean()), self._result(proba)
        signed = r.disparity if self.pair is None else r.by_group[self.pair[0]] - r.by_group[self.pair[1]]
        return float(signed), accuracy


def pool_influence(
    model: LogisticModel,
    train: LabeledData,
    test: LabeledData,
    pool: LabeledData,
    *,
    metric: str = "demographic_parity",
    pair: tuple[str, str] | None = None,
) -> np.ndarray:
    """Predicted influence of each pool point on the fairness surrogate.

    Influence of the training points at ``model`` (eq. 5), a ridge regression
    from (features, label) to it, and its prediction for the pool.

    References
    ----------
    DataSift, Algorithm 2, lines 1–5.
    """
    surrogate = fairness_surrogate(model, test.X, test.groups, test.y, metric=metric, pair=pair)
    influence = fairness_influence(model, train.X, train.y, surrogate)
    return InfluenceRegressor().fit(train.X, train.y, influence).predict(pool.X, pool.y)


def run_acquisition(
    pool: LabeledData,
    train: LabeledData,
    test: LabeledData,
    config: BanditConfig,
    rng: np.random.Generator,
    *,
    partitioning: Partitioning | None = None,
    C: float = 1.0,
    max_components: int = 10,
    refresh_influence: bool = False,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
    validation: LabeledData | None = None,
) -> AcquisitionResult:
    """Run DataSift (``batch_selection="random"``) or DataSift-Inf (``"influence"``) to the end.

    Parameters
    ----------
    pool, train, test : LabeledData
        The data pool (with labels), the initial training set and the test set
        on which fairness decides.
    config : BanditConfig
    rng : numpy.random.Generator
        Seeds partitioning, the batch order and tie-breaking.
    partitioning : Partitioning, optional
        The pool's partitions; by default GMM with BIC over 2..``max_components``
        on ``pool.X``.
    C : float
        Inverse L2 strength of the logistic regression (scikit-learn's ``C``).
    refresh_influence : bool
        DataSift-Inf only: after a kept batch, recompute influence at the new model and
        re-sort what is left (Algorithm 2 computes it once: False).
    progress : callable, optional
        Called with the fraction done (0..1) after every round, and with 1.0
        when the run ends (not when it is cancelled).
    should_stop : callable, optional
        Polled before every round; when it returns True the run stops (``"cancelled"``).
    validation : LabeledData, optional
        Beyond the paper: where accuracy is measured for ``accuracy_weight`` /
        ``accuracy_tolerance`` (required by them), apart from ``test``. DataSift-Inf then
        estimates each pool point's influence on soft validation accuracy; it ranks within
        the guard first and, with ``acceptance="objective"``, by the estimated objective
        (:func:`~service.algorithms.datasift.guard.objective_key`, re-sorted when F changes sign,
        so one-sided: every item within the guard before any outside it).

    Returns
    -------
    AcquisitionResult
        ``trajectory`` has one entry per evaluated batch: ``round``, ``partition``, ``accepted``,
        ``fairness`` and ``accuracy`` of the model trained with that batch, ``best_fairness`` and
        ``n_acquired`` after it (and ``validation_accuracy`` with a validation split).

    References
    ----------
    DataSift, Algorithm 1 and Algorithm 2.
    """
    if config.uses_accuracy and validation is None:
        raise InputError("accuracy_weight and accuracy_tolerance need a validation split to measure accuracy on")

    def valid_accuracy(fitted: LogisticModel) -> float | None:
        return None if validation is None else float(
            ((fitted.predict_proba(validation.X) >= metrics.POSITIVE_THRESHOLD) == validation.y).mean())

    model = fit_logistic(train.X, train.y, C=C)
    evaluate = Evaluator(test, config.metric, model)
    fairness, accuracy = initial = evaluate(model)
    valid = initial_valid = valid_accuracy(model)
    guarded = needs_accuracy_influence(config) and validation is not None
    if partitioning is None:
        partitioning = partition_pool(pool.X, pool.y, pool.groups, rng=rng, max_components=max_components)
    if len(partitioning.assignment) != len(pool):
        raise InputError("the partitioning does not match the pool")
    influence = key = within = accuracy_influence = None
    ordered_front, n_fit = True, len(train)  # the evaluator orients F⁰ >= 0: batches come from the front
    if config.batch_selection == "influence":
        influence = pool_influence(model, train, test, pool, metric=config.metric, pair=evaluate.pair)
        if guarded and validation is not None:
            accuracy_influence = pool_accuracy_influence(model, train.X, train.y, validation.X, validation.y,
                                                         pool.X, pool.y)
        key, within = offer_key(config, influence, accuracy_influence, n_fit)
    side = "front" if config.acceptance == "objective" else None  # one-sided: re-sorted when F changes sign
    state = init_state(config, partitioning.partitions, assignment=partitioning.assignment, rng=rng,
                       influence=key, initial_fairness=fairness, within_guard=within, guard_side=side)
    cap = config.max_evaluations or max(1, math.ceil(len(pool) / config.batch_size))
    acquired: list[np.ndarray] = []
    trajectory: list[dict[str, Any]] = []
    X_cur, y_cur, done_fraction, stop_reason = train.X, train.y, 0.0, state.stop_reason
    while not state.done:
        if should_stop is not None and should_stop():
            stop_reason = "cancelled"
            break
        decision = next_decision(config, state, rng)
        batch = np.asarray(decision.item_indices, dtype=np.int64)
        X_new = np.vstack([X_cur, pool.X[batch]])
        y_new = np.concatenate([y_cur, pool.y[batch]])
        candidate = fit_logistic(X_new, y_new, C=C)
        after, after_accuracy = evaluate(candidate)
        after_valid = valid_accuracy(candidate)
        state, result = apply_feedback(config, state, decision, fairness, after, accuracy_before=valid,
                                       accuracy_after=after_valid)
        if result.accepted:
            X_cur, y_cur, fairness, accuracy, valid = X_new, y_new, after, after_accuracy, after_valid
            acquired.append(batch)
            refresh, front = refresh_influence and influence is not None, fairness * state.influence_sign >= 0
            flipped = influence is not None and config.acceptance == "objective" and front != ordered_front
            if (refresh or flipped) and not state.done:  # the objective's order is one-sided: re-sort on a flip
                if refresh:
                    current, n_fit = LabeledData(X_cur, y_cur, np.zeros(len(y_cur))), len(y_cur)
                    influence = pool_influence(candidate, current, test, pool, metric=config.metric,
                                               pair=evaluate.pair)
                    if guarded and validation is not None:
                        accuracy_influence = pool_accuracy_influence(candidate, X_cur, y_cur, validation.X,
                                                                     validation.y, pool.X, pool.y)
                assert influence is not None
                key, within = offer_key(config, influence, accuracy_influence, n_fit, front)
                side = side and ("front" if front else "back")
                state, ordered_front = reorder_remaining(state, key, within, side), front
        trajectory.append({
            "round": decision.round,
            "partition": decision.partition,
            "accepted": result.accepted,
            "fairness": after,
            "accuracy": after_accuracy,
            "best_fairness": result.best_fairness,
            "n_acquired": state.budget_spent,
            **({} if after_valid is None else {"validation_accuracy": after_valid}),
        })
        stop_reason = state.stop_reason
        done_fraction = max(done_fraction, state.budget_spent / config.budget, state.evaluations / cap)
        if progress is not None and not state.done:
            progress(min(done_fraction, 1.0))
    if progress is not None and stop_reason != "cancelled":
        progress(1.0)
    return AcquisitionResult(
        acquired=np.concatenate(acquired) if acquired else np.zeros(0, dtype=np.int64),
        trajectory=trajectory,
        stop_reason=str(stop_reason),
        initial_fairness=initial[0],
        initial_accuracy=initial[1],
        final_fairness=fairness, final_accuracy=accuracy,
        evaluations=state.evaluations,
        details={"partitions": len(partitioning.partitions), "pair": evaluate.pair,
                 "initial_validation_accuracy": initial_valid, "final_validation_accuracy": valid},
    )
