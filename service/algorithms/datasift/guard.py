"""Accuracy beyond the paper: the β-weighted accuracy reward and the δ acceptance guard.

DataSift's Algorithm 1 keeps a batch whenever |F| falls and eq. 1 rewards the fall
alone, so a run can buy fairness with accuracy (the paper's Table 2 shows such
losses). Two options of :class:`~service.algorithms.datasift.config.BanditConfig`
counter it; both are off by default, which leaves every step the paper's.

* **Accuracy-aware reward** (``accuracy_weight`` β): eq. 1 shares
  ``ΔF / s_F + β · ΔA / s_A`` instead of ΔF, where ΔA = accuracy_after −
  accuracy_before on a validation split and each part is divided by its own
  ``reward_scale`` (1 with ``"none"``, the largest |ΔF| resp. |ΔA| so far with
  ``"running_max"``). Scaling the parts separately is what makes β mean the same
  on every data set: with ``running_max`` both parts lie in [−1, 1].
* **Acceptance guard** (``accuracy_tolerance`` δ): a batch Algorithm 1 would keep
  is kept only when accuracy_after ≥ A_best − δ, with A_best the best accuracy of
  a kept model so far (the initial model counts: the first ``accuracy_before``).
  For DataSift-Inf the offer order puts first the candidates whose *estimated*
  accuracy influence keeps a batch of them within δ (:func:`within_guard`,
  :func:`guarded_order`).
* **Objective acceptance** (``acceptance="objective"``, needs β > 0): the
  improvement that keeps a batch is the reward's own, ``ΔF / s_F + β · ΔA / s_A > 0``
  (:func:`objective_change`), still under the δ guard. The fairness rule throws
  away every batch whose |F| does not fall, however much accuracy it buys; on a
  pool where the labels come at a price that wastes most of them (COMPAS: 352 of
  800 points kept). Measured from the kept model and scaled with this batch's
  changes included, each part lies in [−1, 1], so with β = 1 a batch that costs
  the largest fairness change seen so far is never kept. DataSift-Inf then ranks
  by the same objective estimated from influence (:func:`objective_key`): ranking
  by fairness influence alone offers first the batches that objective rejects. A
  managed run's objective order is one-sided (rebuilt when F changes sign), so
  there every candidate within the guard is offered before any outside it.

Accuracy is whatever accuracy-side number the client reports, higher being
better; managed runs use accuracy on a validation split kept apart from the test
split that reports results.

References
----------
Hasan, Pradhan, DataSift, eq. 1 and Algorithm 1 (which this extends); the authors'
later code adds an accuracy term to the reward that the paper does not describe.
"""

from __future__ import annotations

import numpy as np

from service.algorithms.datasift.config import BanditConfig, check_finite
from service.algorithms.datasift.influence import InfluenceRegressor, LogisticModel, accuracy_surrogate, influence
from service.algorithms.validation import InputError

__all__ = ["accuracy_pair", "guard_accepts", "guarded_order", "needs_accuracy_influence", "objective_change",
           "objective_key", "offer_key", "pool_accuracy_influence", "reward_sums", "within_guard"]


def accuracy_pair(config: BanditConfig, before: float | None, after: float | None) -> tuple[float, float] | None:
    """The reported (accuracy_before, accuracy_after), checked; ``None`` when the config does not use accuracy.

    Raises
    ------
    InputError
        When the config uses accuracy and a value is missing or not finite (the message names it).
    """
    if not config.uses_accuracy:
        return None
    for name, value in (("accuracy_before", before), ("accuracy_after", after)):
        if value is None:
            raise InputError(f"{name} is required: this bandit uses accuracy (accuracy_weight > 0 or "
                             "accuracy_tolerance set)")
    assert before is not None and after is not None
    return check_finite(before, "accuracy_before"), check_finite(after, "accuracy_after")


def guard_accepts(config: BanditConfig, best_accuracy: float, accuracy_after: float) -> bool:
    """Whether accuracy_after is within δ of the best kept accuracy (always True without a guard)."""
    if config.accuracy_tolerance is None:
        return True
    return accuracy_after >= best_accuracy - config.accuracy_tolerance


def objective_change(config: BanditConfig, delta_fairness: float, delta_accuracy: float, fairness_scale: float,
                     accuracy_scale: float) -> float:
    """ΔF / s_F + β · ΔA / s_A, the scaled change the reward shares; ``acceptance="objective"`` keeps a batch when > 0.

    Worked example (β = 1, running_max scales s_F = 0.04, s_A = 0.02): |F| 0.20 → 0.21 and
    accuracy 0.600 → 0.615 give −0.01/0.04 + 0.015/0.02 = 0.5 > 0 (kept; Algorithm 1 rejects it);
    |F| 0.20 → 0.19 and accuracy 0.600 → 0.582 give 0.25 − 0.9 = −0.65 (rejected; Algorithm 1 keeps it).
    """
    return float(delta_fairness / fairness_scale + config.accuracy_weight * delta_accuracy / accuracy_scale)


def reward_sums(config: BanditConfig, fairness_sums: np.ndarray, accuracy_sums: np.ndarray,
                fairness_scale: float, accuracy_scale: float) -> np.ndarray:
    """Per partition: Σ r_j(ΔF) / s_F + β · Σ r_j(ΔA) / s_A (eq. 1 is linear, so sums of shares suffice)."""
    return (np.asarray(fairness_sums, dtype=float) / fairness_scale
            + config.accuracy_weight * np.asarray(accuracy_sums, dtype=float) / accuracy_scale)


def within_guard(accuracy_influence: np.ndarray, n_train: int, batch_size: int, tolerance: float) -> np.ndarray:
    """Candidates whose estimated accuracy influence keeps a batch of them within δ.

    Adding a point d to n training points changes a smooth accuracy by about
    I_A(d) / n (first-order influence, as eq. 5 does for F); a batch of K points
    like d changes it by K · I_A(d) / n. d is within the guard when that is ≥ −δ,
    i.e. ``I_A(d) >= −δ · n / K``.
    """
    if n_train < 1 or batch_size < 1 or not (np.isfinite(tolerance) and tolerance >= 0):
        raise InputError("within_guard needs n_train >= 1, batch_size >= 1 and a finite tolerance >= 0")
    influence = np.asarray(accuracy_influence, dtype=float)
    return np.asarray(influence >= -tolerance * n_train / batch_size)


def guarded_order(influence: np.ndarray, within: np.ndarray | None, side: str | None = None) -> np.ndarray:
    """Sort key tiers for DataSift-Inf's offer order with the guard; sort by (tier, influence).

    Two-sided (``side=None``): batches are taken from the front (most negative
    influence first) or, when F has the other sign, from the back, so candidates
    outside the guard go in the middle, after every candidate within it whose
    influence has the wanted sign, from either end: tier 0 within with influence
    < 0, 1 outside, 2 within with influence ≥ 0.

    One-sided (``side="front"`` or ``"back"``, for an order that is rebuilt when F
    changes sign): every candidate within the guard comes before any outside it,
    from that end: front 0 within, 1 outside; back 0 outside, 1 within. An item
    outside the guard is estimated to break the guard, which rejects its batch
    whatever the fairness gain; one within it whose key has the unwanted sign is
    only estimated to fall short of a soft objective, and those nearest zero come first.

    Without ``within`` every item is tier 0, which is Algorithm 2's order.
    """
    influence = np.asarray(influence, dtype=float)
    if within is None:
        return np.zeros(len(influence), dtype=np.int64)
    within = np.asarray(within, dtype=bool)
    if len(within) != len(influence):
        raise InputError("the accuracy guard needs one flag per pool item")
    if side is not None:
        if side not in ("front", "back"):
            raise InputError(f"side must be 'front', 'back' or None; got {side!r}")
        return np.where(within == (side == "back"), 1, 0).astype(np.int64)
    return np.where(within, np.where(influence < 0, 0, 2), 1).astype(np.int64)


def pool_accuracy_influence(model: LogisticModel, train_X: np.ndarray, train_y: np.ndarray, valid_X: np.ndarray,
                            valid_y: np.ndarray, pool_X: np.ndarray, pool_y: np.ndarray) -> np.ndarray:
    """Estimated influence of each pool point on soft validation accuracy, the way Algorithm 2 estimates F's.

    The influence of the training points on
    :func:`~service.algorithms.datasift.influence.accuracy_surrogate` (eq. 5's formula with
    the accuracy gradient), a ridge regression from (features, label) to it, its prediction for the pool.
    """
    _, gradient = accuracy_surrogate(model, valid_X, valid_y)
    train_influence = influence(model, train_X, train_y, gradient)
    return InfluenceRegressor().fit(train_X, train_y, train_influence).predict(pool_X, pool_y)


def objective_key(config: BanditConfig, fairness_influence: np.ndarray, accuracy_influence: np.ndarray,
                  front: bool = True) -> np.ndarray:
    """DataSift-Inf's sort key under ``acceptance="objective"``: the objective estimated from influence.

    A batch of K items like d changes F by about K · I_F(d) / n and accuracy by
    K · I_A(d) / n (eq. 5), so ΔF / s_F + β · ΔA / s_A by K / n · (∓I_F / s_F + β · I_A / s_A),
    where the sign is − while batches come from the front (F of ``influence_sign``'s sign:
    a negative I_F makes |F| fall) and + from the back. Items are offered in ascending
    key from the front and descending from the back, so the key is
    ``I_F / s_F − β · I_A / s_A`` (front) or ``I_F / s_F + β · I_A / s_A`` (back). The
    scales follow ``reward_scale``: the largest |I| over the pool with ``running_max``
    (each part in [−1, 1], as the reward's), 1 with ``none``.
    """
    f, a = np.asarray(fairness_influence, dtype=float), np.asarray(accuracy_influence, dtype=float)
    if f.shape != a.shape:
        raise InputError("objective_key needs one fairness and one accuracy influence per pool item")

    def scale(values: np.ndarray) -> float:
        largest = float(np.max(np.abs(values))) if len(values) else 0.0
        return largest if config.reward_scale == "running_max" and largest > 0 else 1.0

    sign = -1.0 if front else 1.0
    return np.asarray(f / scale(f) + sign * config.accuracy_weight * a / scale(a))


def offer_key(config: BanditConfig, fairness_influence: np.ndarray, accuracy_influence: np.ndarray | None,
              n_train: int, front: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """DataSift-Inf's (sort key, guard flags): Algorithm 2's fairness influence, or :func:`objective_key`
    with ``acceptance="objective"``; the δ guard's :func:`within_guard` flags when δ is set."""
    if accuracy_influence is None:
        if config.acceptance == "objective" or config.accuracy_tolerance is not None:
            raise InputError("this DataSift-Inf bandit needs each pool item's accuracy influence (a validation set)")
        return np.asarray(fairness_influence, dtype=float), None
    key = (objective_key(config, fairness_influence, accuracy_influence, front) if config.acceptance == "objective"
           else np.asarray(fairness_influence, dtype=float))
    within = None if config.accuracy_tolerance is None else within_guard(
        accuracy_influence, n_train, config.batch_size, config.accuracy_tolerance)
    return key, within


def needs_accuracy_influence(config: BanditConfig) -> bool:
    """Whether DataSift-Inf's order uses the accuracy influence (the δ guard or the objective)."""
    return config.batch_selection == "influence" and (
        config.accuracy_tolerance is not None or config.acceptance == "objective")
