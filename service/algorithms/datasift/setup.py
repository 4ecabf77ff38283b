"""Building a DataSift bandit's state: partitions, the pool's offer order, influence re-sorting.

References
----------
Hasan, Pradhan, DataSift, Algorithm 1 (lines 1–7, initialisation) and
Algorithm 2 (partitions sorted by predicted influence).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from service.algorithms.datasift.config import BanditConfig, check_finite
from service.algorithms.datasift.guard import guarded_order
from service.algorithms.datasift.partitions import PartitionStats, normalized_distances
from service.algorithms.datasift.state import BanditState
from service.algorithms.validation import InputError

__all__ = ["init_state", "reorder_remaining"]


def init_state(
    config: BanditConfig,
    partitions: Sequence[PartitionStats],
    *,
    assignment: np.ndarray | None = None,
    rng: np.random.Generator | None = None,
    influence: np.ndarray | None = None,
    influence_sign: int = 1,
    initial_fairness: float | None = None,
    within_guard: np.ndarray | None = None,
    guard_side: str | None = None,
) -> BanditState:
    """A fresh bandit over ``partitions``.

    Parameters
    ----------
    assignment : int array, optional
        Partition index of every pool item (a :class:`Partitioning`'s). Without
        it the pool is unknown (client-made partitions) and only counts are kept.
    rng : Generator
        Shuffles each partition's items for random batches (needed with ``assignment``).
    influence : float array, optional
        Predicted influence of every pool item on the fairness surrogate
        (needed for ``batch_selection="influence"``); items are then offered
        from the most negative upwards, or from the other end when the
        current fairness has the sign opposite to ``influence_sign``.
    influence_sign : {1, -1}
        Sign of a reported fairness value for which a negative influence
        reduces |F| (1 when fairness is reported as the surrogate's gap).
    initial_fairness : float, optional
        F of the model trained on the initial training set (F⁰ of Algorithm 1);
        otherwise the first feedback's ``fairness_before`` is used.
    within_guard : bool array, optional
        Beyond the paper (``accuracy_tolerance``): per pool item, whether its
        estimated accuracy influence is within the guard
        (:func:`~service.algorithms.datasift.guard.within_guard`). Influence batches
        then rank by fairness influence among those items first; the others are
        offered only after every guarded item of the wanted sign
        (:func:`~service.algorithms.datasift.guard.guarded_order`).
    guard_side : {None, "front", "back"}
        Beyond the paper: ``None`` lays the guard's tiers out for both ends; ``"front"``
        or ``"back"`` for an order built for one end (a managed run's objective order),
        every guarded item before any other from that end.

    References
    ----------
    DataSift, Algorithm 1 (lines 1–7) and Algorithm 2 (lines 4–8).
    """
    g = len(partitions)
    if g == 0:
        raise InputError("at least one partition is needed")
    sizes = np.array([p.size for p in partitions], dtype=np.int64)
    centroids = np.array([p.centroid for p in partitions], dtype=float)
    if centroids.ndim != 2:
        raise InputError("every centroid must have the same length")
    items = None
    if assignment is not None:
        assignment = np.asarray(assignment, dtype=np.int64)
        if assignment.min() < 0 or assignment.max() >= g or np.any(np.bincount(assignment, minlength=g) != sizes):
            raise InputError("assignment does not match the partitions' sizes")
        items = _ordered_items(config, assignment, g, rng, influence, within_guard, guard_side)
    elif config.batch_selection == "influence":
        raise InputError("influence batches need the pool (an assignment and predicted influence)")
    state = BanditState(
        partition_ids=tuple(p.id for p in partitions),
        base_rate_difference=tuple(abs(float(p.base_rate_difference)) for p in partitions),
        distance=tuple(tuple(row) for row in normalized_distances(centroids).tolist()),
        sizes=tuple(int(s) for s in sizes),
        start=(0,) * g,
        end=tuple(int(s) for s in sizes),
        items=items,
        reward_sums=(0.0,) * g,
        reward_counts=(0,) * g,
        pulls=(0,) * g,
        best_fairness=None if initial_fairness is None else check_finite(initial_fairness, "initial_fairness"),
        influence_sign=1 if influence_sign >= 0 else -1,
    )
    return state.with_stop_check(config)


def _ordered_items(
    config: BanditConfig, assignment: np.ndarray, g: int, rng: np.random.Generator | None,
    influence: np.ndarray | None, within: np.ndarray | None = None, side: str | None = None,
) -> np.ndarray:
    if config.batch_selection == "influence":
        if influence is None or len(influence) != len(assignment):
            raise InputError("batch_selection='influence' needs one predicted influence per pool item")
        key = np.asarray(influence, dtype=float)
        if not np.all(np.isfinite(key)):
            raise InputError("predicted influence must be finite")
        # by partition, then the guard's tier (all 0 without a guard), then ascending influence
        order = np.lexsort((key, guarded_order(key, within, side), assignment))
    else:
        if rng is None:
            raise InputError("random batches need rng to shuffle the pool")
        order = np.lexsort((rng.permutation(len(assignment)), assignment))
    order = order.astype(np.int64)
    order.flags.writeable = False
    return order


def reorder_remaining(state: BanditState, influence: np.ndarray, within: np.ndarray | None = None,
                      side: str | None = None) -> BanditState:
    """A copy of ``state`` whose items still on offer are re-sorted by a new ``influence``.

    For a managed DataSift-Inf run that recomputes influence at the current
    model after a batch is kept; items already offered keep their places.
    ``within`` and ``side`` (beyond the paper) are the accuracy guard's flag per pool
    item and the end the order is built for, as ``within_guard`` and ``guard_side`` in
    :func:`init_state`.

    References
    ----------
    DataSift, Algorithm 2 (lines 4–6, re-run at the current model).
    """
    if state.items is None:
        raise InputError("this bandit does not know the pool's items")
    influence = np.asarray(influence, dtype=float)
    tiers = guarded_order(influence, within, side)
    items = state.items.copy()
    for j in range(len(state.partition_ids)):
        lo, hi = state.offsets[j] + state.start[j], state.offsets[j] + state.end[j]
        window = items[lo:hi]
        items[lo:hi] = window[np.lexsort((influence[window], tiers[window]))]
    items.flags.writeable = False
    return replace(state, items=items)
