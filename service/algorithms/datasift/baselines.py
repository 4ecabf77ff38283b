"""The flat-pool baselines DataSift is compared with: Random, Entropy and Inf.

Each acquires a batch of K pool points per iteration, without the bandit and
without Algorithm 1's accept/reject rule, until the budget is spent:

* Random — K points drawn uniformly from what is left.
* Entropy — the K points whose prediction under the current model has the
  highest binary entropy H(p) = −(p log₂ p + (1 − p) log₂(1 − p)).
* Inf — the K remaining points with the most negative predicted influence on
  the fairness surrogate (ridge predictor of Algorithm 2, fitted once).

AutoData is the bandit with the distance-only reward
(``BanditConfig(reward="distance")``) and runs through
:func:`~service.algorithms.datasift.run.run_acquisition`.

References
----------
Hasan, Pradhan, DataSift, Section 4.1.2 (competing methods).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from service.algorithms.datasift.influence import fit_logistic
from service.algorithms.datasift.run import (
    AcquisitionResult,
    Evaluator,
    LabeledData,
    ProgressFn,
    StopFn,
    pool_influence,
)
from service.algorithms.validation import InputError

__all__ = ["BASELINES", "binary_entropy", "run_baseline", "select_batch"]

BASELINES = ("random", "entropy", "influence")
# Keeps log2 finite for predictions of exactly 0 or 1.
ENTROPY_EPS = 1e-12


def binary_entropy(p: np.ndarray) -> np.ndarray:
    """H(p) in bits for each predicted probability."""
    q = np.clip(np.asarray(p, dtype=float), ENTROPY_EPS, 1.0 - ENTROPY_EPS)
    return np.asarray(-(q * np.log2(q) + (1.0 - q) * np.log2(1.0 - q)))


def select_batch(
    strategy: str,
    remaining: np.ndarray,
    k: int,
    rng: np.random.Generator,
    *,
    score: np.ndarray | None = None,
) -> np.ndarray:
    """K of the ``remaining`` pool indices: random, or the K with the *highest* ``score``.

    ``score`` is indexed by pool index (entropy, or minus the predicted influence).
    Ties in the score keep the lower pool index first.
    """
    if strategy == "random":
        return np.sort(rng.choice(remaining, size=k, replace=False))
    if score is None:
        raise InputError(f"strategy {strategy!r} needs a score per pool item")
    order = np.argsort(-score[remaining], kind="stable")
    return remaining[order[:k]]


def run_baseline(
    strategy: str,
    pool: LabeledData,
    train: LabeledData,
    test: LabeledData,
    *,
    budget: int,
    batch_size: int,
    rng: np.random.Generator,
    metric: str = "demographic_parity",
    C: float = 1.0,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> AcquisitionResult:
    """Acquire ``budget`` points in batches of ``batch_size`` with a flat-pool baseline.

    The trajectory has the same fields as :func:`run_acquisition`'s; every
    batch is accepted and ``partition`` is ``None``.

    References
    ----------
    DataSift, Section 4.1.2 (Random, Entropy, Inf).
    """
    if strategy not in BASELINES:
        raise InputError(f"strategy must be one of {', '.join(BASELINES)}; got {strategy!r}")
    if batch_size < 1 or budget < 1:
        raise InputError("batch_size and budget must be positive integers")
    model = fit_logistic(train.X, train.y, C=C)
    evaluate = Evaluator(test, metric, model)
    fairness, accuracy = evaluate(model)
    initial = (fairness, accuracy)
    fixed_score = None
    if strategy == "influence":
        fixed_score = -pool_influence(model, train, test, pool, metric=metric, pair=evaluate.pair)
    available = np.ones(len(pool), bool)
    acquired: list[np.ndarray] = []
    X_cur, y_cur = train.X, train.y
    trajectory: list[dict[str, Any]] = []
    spent, stop_reason, best = 0, "budget", fairness
    while spent < budget:
        if should_stop is not None and should_stop():
            stop_reason = "cancelled"
            break
        remaining = np.flatnonzero(available)
        k = min(batch_size, budget - spent, len(remaining))
        if k == 0:
            stop_reason = "pool_exhausted"
            break
        score = fixed_score
        if strategy == "entropy":
            score = np.zeros(len(pool))
            score[remaining] = binary_entropy(model.predict_proba(pool.X[remaining]))
        batch = select_batch("random" if strategy == "random" else "score", remaining, k, rng, score=score)
        available[batch] = False
        X_cur = np.vstack([X_cur, pool.X[batch]])
        y_cur = np.concatenate([y_cur, pool.y[batch]])
        model = fit_logistic(X_cur, y_cur, C=C)
        fairness, accuracy = evaluate(model)
        best = fairness if abs(fairness) < abs(best) else best
        spent += k
        acquired.append(batch)
        trajectory.append({
            "round": len(trajectory) + 1,
            "partition": None,
            "accepted": True,
            "fairness": fairness,
            "accuracy": accuracy,
            "best_fairness": best,
            "n_acquired": spent,
        })
        if progress is not None and spent < budget:
            progress(spent / budget)
    if progress is not None and stop_reason != "cancelled":
        progress(1.0)
    return AcquisitionResult(
        acquired=np.concatenate(acquired) if acquired else np.zeros(0, dtype=np.int64),
        trajectory=trajectory,
        stop_reason=stop_reason,
        initial_fairness=initial[0],
        initial_accuracy=initial[1],
        final_fairness=fairness,
        final_accuracy=accuracy,
        evaluations=len(trajectory),
        details={"pair": evaluate.pair},
    )
