"""Interactive mode's setup: the space a pool is partitioned in, and a fresh bandit over that pool.

A partition bandit's worker loads the pool (and, for DataSift-Inf, the initial
training set and the test set), calls :func:`partition_space` and
:func:`prepare_pool`, and stores what comes back: the partitioning, the bandit's
first state, the predicted influence and the group pair fairness is signed by.

References
----------
Hasan, Pradhan, "Data Acquisition for Improving Model Fairness using
Reinforcement Learning" (DataSift): Section 4.1.3 (partitions), Algorithm 1
(lines 1–7) and Algorithm 2 (lines 1–8, influence).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from service.algorithms.datasift.config import BanditConfig
from service.algorithms.datasift.guard import needs_accuracy_influence, offer_key, pool_accuracy_influence
from service.algorithms.datasift.influence import fit_logistic
from service.algorithms.datasift.partitions import Partitioning, partition_pool
from service.algorithms.datasift.run import Evaluator, LabeledData, pool_influence
from service.algorithms.datasift.setup import init_state
from service.algorithms.datasift.state import BanditState
from service.algorithms.validation import InputError

__all__ = ["MIN_FEATURE_STD", "InfluenceData", "PreparedPool", "partition_space", "prepare_pool", "standardized"]

# Standard deviations below this are treated as constant columns (left unscaled): dividing by
# a rounding-error spread would blow noise up to unit scale and dominate the GMM.
MIN_FEATURE_STD = 1e-12


def standardized(X: np.ndarray) -> np.ndarray:
    """Each column centred and divided by its standard deviation (constant columns only centred)."""
    std = X.std(axis=0)
    return np.asarray((X - X.mean(axis=0)) / np.where(std > MIN_FEATURE_STD, std, 1.0))


def partition_space(
    X: np.ndarray,
    group_codes: np.ndarray | None,
    n_groups: int,
    *,
    method: str,
    include_groups: bool,
    standardize: bool,
) -> np.ndarray:
    """The features the GMM clusters: optionally with one-hot groups, optionally z-scored.

    Parameters
    ----------
    X : (n, d) array
        Pool features.
    group_codes : int array of length n, optional
        Each row's group as an index into ``0..n_groups - 1``.
    method : str
        The partitioning method; only ``"gmm"`` clusters a space, so any other
        method gets ``X`` back unchanged.
    include_groups : bool
        Append the standardised group indicators (clustering on them keeps
        groups apart in the partitions); ignored without ``group_codes``.
    standardize : bool
        z-score every column of the result (the GMM and eq. 1's distances are
        scale-dependent).

    References
    ----------
    DataSift, Section 4.1.3.
    """
    if method != "gmm":
        return X
    if include_groups and group_codes is not None:
        onehot = (group_codes[:, None] == np.arange(n_groups)[None, :]).astype(float)
        X = np.hstack([X, standardized(onehot)])
    return standardized(X) if standardize else X


@dataclass(frozen=True)
class InfluenceData:
    """What DataSift-Inf orders a pool with: the initial training set, the test set, the labelled pool, and ``C``.

    ``validation`` (beyond the paper) is needed with ``accuracy_tolerance`` or
    ``acceptance="objective"``: each pool item's influence on soft accuracy is estimated there.
    """

    train: LabeledData
    test: LabeledData
    pool: LabeledData
    C: float = 1.0
    validation: LabeledData | None = None


@dataclass(frozen=True)
class PreparedPool:
    """A fresh bandit over a partitioned pool, with what it was built from.

    ``influence`` is each pool item's predicted influence and ``pair`` the
    ``(higher, lower)`` group pair fairness is signed by (both ``None`` unless
    ``batch_selection="influence"``; ``pair`` is also ``None`` when the metric
    has no pair).
    """

    state: BanditState
    partitioning: Partitioning
    influence: np.ndarray | None
    pair: tuple[str, str] | None


def prepare_pool(
    config: BanditConfig,
    space: np.ndarray,
    labels: np.ndarray | None,
    groups: np.ndarray | None,
    rng: np.random.Generator,
    *,
    method: str = "gmm",
    max_components: int = 10,
    column: int | None = None,
    max_partitions: int | None = None,
    initial_fairness: float | None = None,
    influence_data: InfluenceData | None = None,
) -> PreparedPool:
    """Partition the pool, order each partition's items and build the bandit's first state.

    Parameters
    ----------
    config : BanditConfig
    space : (n, d) array
        The pool in the space it is partitioned in (:func:`partition_space`).
    labels, groups : arrays of length n, optional
        Used for the partitions' base-rate differences.
    rng : numpy.random.Generator
        Seeds the GMM, then the order of each partition's items.
    method, max_components, column
        As :func:`~service.algorithms.datasift.partitions.partition_pool`.
    max_partitions : int, optional
        Refuse a pool that splits into more partitions (:class:`InputError`).
    initial_fairness : float, optional
        F⁰ of Algorithm 1 (see :func:`~service.algorithms.datasift.setup.init_state`).
    influence_data : InfluenceData
        Needed for ``batch_selection="influence"``: a logistic model is fitted on
        ``train``, the group pair is oriented on ``test`` and the pool items are
        ordered by their predicted influence.

    Raises
    ------
    InputError
        The pool splits into too many partitions, or DataSift-Inf lacks its data.

    References
    ----------
    DataSift, Section 4.1.3, Algorithm 1 (lines 1–7), Algorithm 2 (lines 1–8).
    """
    partitioning = partition_pool(space, labels, groups, rng=rng, method=method, max_components=max_components,
                                  column=column)
    if max_partitions is not None and len(partitioning.partitions) > max_partitions:
        raise InputError(f"the pool splits into {len(partitioning.partitions)} partitions; at most "
                         f"{max_partitions} are allowed (choose a column with fewer values)")
    influence = key = pair = within = None
    if config.batch_selection == "influence":
        if influence_data is None:
            raise InputError("batch_selection='influence' needs the training set, the test set and a labelled pool")
        data = influence_data
        model = fit_logistic(data.train.X, data.train.y, C=data.C)
        pair = Evaluator(data.test, config.metric, model).pair
        influence = pool_influence(model, data.train, data.test, data.pool, metric=config.metric, pair=pair)
        accuracy_influence = None
        if needs_accuracy_influence(config):
            if data.validation is None:
                raise InputError("the accuracy guard (accuracy_tolerance) and objective acceptance of influence "
                                 "batches need a validation set")
            accuracy_influence = pool_accuracy_influence(
                model, data.train.X, data.train.y, data.validation.X, data.validation.y, data.pool.X, data.pool.y)
        key, within = offer_key(config, influence, accuracy_influence, len(data.train))
    state = init_state(config, partitioning.partitions, assignment=partitioning.assignment, rng=rng,
                       influence=key, initial_fairness=initial_fairness, within_guard=within)
    return PreparedPool(state, partitioning, influence, pair)
