"""DataSift's pool setup: the partitioning space and a fresh bandit over a partitioned pool."""

from __future__ import annotations

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from service.algorithms.datasift import (
    BanditConfig,
    InfluenceData,
    LabeledData,
    Partitioning,
    fit_logistic,
    init_state,
    partition_pool,
    partition_space,
    pool_influence,
    prepare_pool,
)
from service.algorithms.datasift.pool import standardized
from service.algorithms.datasift.run import Evaluator
from service.algorithms.validation import InputError

TOL = 1e-12


@pytest.fixture(autouse=True)
def _one_blas_thread():
    with threadpool_limits(1):
        yield


# ----------------------------------------------------------------------------- the space


def test_standardized_by_hand_and_constant_columns_are_only_centred():
    # column 0: mean 2, population std sqrt(8/3) -> (-2, 0, 2) / 1.632993; column 1: constant 5 -> 0
    X = np.array([[0.0, 5.0], [2.0, 5.0], [4.0, 5.0]])
    np.testing.assert_allclose(standardized(X), [[-1.224745, 0.0], [0.0, 0.0], [1.224745, 0.0]], atol=1e-6)


def test_partition_space_appends_standardized_group_indicators_by_hand():
    # groups (0, 1, 1, 0): each indicator has mean 0.5 and std 0.5 -> ±1; X = (0, 2, 4, 6) is left as is
    X = np.array([[0.0], [2.0], [4.0], [6.0]])
    codes = np.array([0, 1, 1, 0])
    space = partition_space(X, codes, 2, method="gmm", include_groups=True, standardize=False)
    np.testing.assert_allclose(space, [[0, 1, -1], [2, -1, 1], [4, -1, 1], [6, 1, -1]], atol=TOL)
    # a group with no rows is a constant (zero) column, centred only
    space3 = partition_space(X, codes, 3, method="gmm", include_groups=True, standardize=False)
    np.testing.assert_allclose(space3[:, 3], 0.0, atol=TOL)
    # standardize z-scores the features too: (0, 2, 4, 6) has mean 3 and std sqrt(5)
    z = partition_space(X, codes, 2, method="gmm", include_groups=True, standardize=True)
    np.testing.assert_allclose(z[:, 0], (X[:, 0] - 3) / np.sqrt(5), atol=TOL)
    np.testing.assert_allclose(z[:, 1:], space[:, 1:], atol=TOL)


def test_partition_space_leaves_other_methods_and_missing_groups_alone():
    X = np.array([[1.0, 7.0], [3.0, 8.0]])
    assert partition_space(X, np.array([0, 1]), 2, method="column", include_groups=True, standardize=True) is X
    assert partition_space(X, None, 0, method="gmm", include_groups=True, standardize=False) is X


# ----------------------------------------------------------------------------- a fresh bandit


def _pool(seed: int = 0, n: int = 300) -> LabeledData:
    rng = np.random.default_rng(seed)
    groups = np.where(rng.random(n) < 0.5, "a", "b")
    X = rng.normal(size=(n, 2)) + np.where(groups == "a", 1.5, -1.5)[:, None]
    y = (rng.random(n) < 1 / (1 + np.exp(-X[:, 0]))).astype(int)
    return LabeledData(X, y, groups)


def test_prepare_pool_equals_partitioning_then_init_state():
    pool = _pool()
    config = BanditConfig(batch_size=10, budget=50)
    prepared = prepare_pool(config, pool.X, pool.y, pool.groups, np.random.default_rng(3), max_components=3,
                            initial_fairness=0.2)
    rng = np.random.default_rng(3)
    partitioning = partition_pool(pool.X, pool.y, pool.groups, rng=rng, max_components=3)
    state = init_state(config, partitioning.partitions, assignment=partitioning.assignment, rng=rng,
                       initial_fairness=0.2)
    assert prepared.influence is None and prepared.pair is None
    assert prepared.partitioning.assignment.tolist() == partitioning.assignment.tolist()
    got, want = prepared.state.to_dict(), state.to_dict()
    np.testing.assert_array_equal(got.pop("items"), want.pop("items"))
    assert got == want


def test_prepare_pool_orders_by_influence_as_algorithm_2():
    pool, train, test = _pool(1), _pool(2, 120), _pool(3, 200)
    config = BanditConfig(batch_size=10, budget=50, batch_selection="influence")
    column_space = np.column_stack([pool.X, (pool.groups == "a").astype(float)])
    prepared = prepare_pool(config, column_space, pool.y, pool.groups, np.random.default_rng(4), method="column",
                            column=2, influence_data=InfluenceData(train, test, pool, C=0.5))
    model = fit_logistic(train.X, train.y, C=0.5)
    pair = Evaluator(test, config.metric, model).pair
    influence = pool_influence(model, train, test, pool, metric=config.metric, pair=pair)
    assert prepared.pair == pair and pair is not None
    np.testing.assert_array_equal(prepared.influence, influence)
    # column 2 is the group indicator: partition "0" is group b, "1" is group a
    assert [p.id for p in prepared.partitioning.partitions] == ["0", "1"]
    assert [p.size for p in prepared.partitioning.partitions] == [int((pool.groups == "b").sum()),
                                                                   int((pool.groups == "a").sum())]
    # within each partition the items are offered from the most negative influence up
    for offset, size in zip(prepared.state.offsets, prepared.state.sizes, strict=True):
        offered = influence[prepared.state.items[offset:offset + size]]
        assert (np.diff(offered) >= 0).all()


def test_prepare_pool_refuses_too_many_partitions_and_influence_without_data():
    pool = _pool()
    space = np.column_stack([pool.X, np.arange(len(pool)) % 5])
    with pytest.raises(InputError, match="splits into 5 partitions; at most 4"):
        prepare_pool(BanditConfig(batch_size=5, budget=10), space, pool.y, pool.groups, np.random.default_rng(0),
                     method="column", column=2, max_partitions=4)
    ok = prepare_pool(BanditConfig(batch_size=5, budget=10), space, pool.y, pool.groups, np.random.default_rng(0),
                      method="column", column=2, max_partitions=5)
    assert isinstance(ok.partitioning, Partitioning) and len(ok.partitioning.partitions) == 5
    with pytest.raises(InputError, match="needs the training set"):
        prepare_pool(BanditConfig(batch_size=5, budget=10, batch_selection="influence"), space, pool.y, pool.groups,
                     np.random.default_rng(0), method="column", column=2)
