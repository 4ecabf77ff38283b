"""Proxy trees as node tables, vectorised routing, and coins fixed by candidate id."""

from __future__ import annotations

import io

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier

from service.algorithms.balanced_filtering.decide import assign_leaves, candidate_uniforms, decide
from service.algorithms.balanced_filtering.tree import (
    LEAF,
    MIXTURE,
    ProxyTree,
    leaf_of,
    leaf_probabilities,
    tree_from_sklearn,
)

TOL = 1e-9


def mixture_tree() -> ProxyTree:
    """Root: a randomised split of two classifiers on x; leaves 0 (left) and 1 (right).

    coef maps x to the score x_std * 1 + 0 (one basis column); classifier 0 has
    phi = +1 (left when x < 0), classifier 1 phi = -1 (left when x > 0). So
    P(left | x) = 1/2 for x != 0 and 0 for x = 0 (neither score is negative).
    """
    return ProxyTree(
        feature=np.array([MIXTURE, LEAF, LEAF]),
        threshold=np.zeros(3),
        left=np.array([1, -1, -1]),
        right=np.array([2, -1, -1]),
        leaf_index=np.array([-1, 0, 1]),
        split_index=np.array([0, -1, -1]),
        split_coef=np.array([[[1.0], [0.0]]]),
        split_phi=np.array([[1.0], [-1.0]]),
        split_offset=np.array([0, 2]),
        feature_mean=np.zeros(1),
        feature_scale=np.ones(1),
        n_leaves=2,
    )


def test_sklearn_trees_route_exactly_like_scikit_learn():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 4))
    X[:, 3] = np.round(X[:, 3], 1)  # ties and values sitting exactly on thresholds
    y = (X[:, 0] + X[:, 3] > 0).astype(int) + (X[:, 1] > 1).astype(int)
    model = DecisionTreeClassifier(max_depth=6, random_state=0).fit(X, y)
    tree = tree_from_sklearn(model, 4)
    X_new = np.vstack([X, rng.normal(size=(400, 4)), np.tile(model.tree_.threshold[:1], (1, 4))])
    assert np.array_equal(leaf_of(tree, X_new), model.predict(X_new))
    assert tree.n_leaves == 3 and not tree.randomised
    assert tree.depth == model.get_depth()
    probs = leaf_probabilities(tree, X_new)
    assert np.array_equal(probs.argmax(axis=1), model.predict(X_new)) and np.all(probs.sum(axis=1) == 1)


def test_randomised_split_probabilities_by_hand():
    tree = mixture_tree()
    X = np.array([[-1.0], [0.0], [2.0]])
    # x = -1: classifier 0 left, 1 right -> 1/2; x = 0: both right -> 0; x = 2: 1/2.
    assert leaf_probabilities(tree, X) == pytest.approx(np.array([[0.5, 0.5], [0.0, 1.0], [0.5, 0.5]]))
    # u < 1/2 picks classifier 0 (left iff x < 0), u >= 1/2 classifier 1 (left iff x > 0).
    u = np.array([[0.2], [0.2], [0.2]])
    assert leaf_of(tree, X, u).tolist() == [0, 1, 1]
    assert leaf_of(tree, X, 1.0 - u).tolist() == [1, 1, 0]
    with pytest.raises(ValueError, match="uniform"):
        leaf_of(tree, X)


def test_standardisation_is_applied_before_randomised_splits():
    base = mixture_tree()
    shifted = ProxyTree(**{**base.to_params(), "feature_mean": np.array([10.0]), "n_leaves": 2})
    X = np.array([[9.0], [11.0]])  # x_std = -1 and +1
    assert leaf_of(shifted, X, np.array([[0.2], [0.2]])).tolist() == [0, 1]


def test_node_tables_round_trip_through_npz_without_pickle():
    tree = mixture_tree()
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **tree.to_params())
    buffer.seek(0)
    loaded = ProxyTree.from_params(dict(np.load(buffer, allow_pickle=False)))
    X = np.linspace(-2, 2, 9)[:, None]
    assert loaded.n_leaves == 2 and loaded.depth == 1 and loaded.randomised
    assert loaded.summary() == [
        {"node": 0, "left": 1, "right": 2, "kind": "randomised", "classifiers": 2},
        {"node": 1, "kind": "leaf", "leaf": 0},
        {"node": 2, "kind": "leaf", "leaf": 1},
    ]
    assert np.array_equal(leaf_probabilities(loaded, X), leaf_probabilities(tree, X))


def test_candidate_coins_are_pinned():
    # Values recorded when the hash was written: changing it changes every filter's answers.
    u = candidate_uniforms(["a", "candidate-42", "7"], 0, 2)
    assert u == pytest.approx(np.array(
        [[0.6427374327961344, 0.25079780555705067],
         [0.1449202042629112, 0.5166171757302808],
         [0.72758456064326, 0.622147110105308]]),
        abs=TOL,
    )
    assert candidate_uniforms(["a"], 2**40 + 3, 1)[0, 0] == pytest.approx(0.6695045496860421, abs=TOL)


def test_coins_depend_only_on_seed_and_id():
    ids = [f"id-{i}" for i in range(2000)]
    u = candidate_uniforms(ids, 11, 3)
    shuffled = np.random.default_rng(1).permutation(2000)
    again = candidate_uniforms([ids[i] for i in shuffled] + ["a-much-longer-candidate-identifier" * 3], 11, 3)
    assert np.array_equal(again[:2000], u[shuffled])
    assert np.array_equal(candidate_uniforms([7, "7"], 11, 1)[0], candidate_uniforms([7, "7"], 11, 1)[1])
    assert not np.allclose(candidate_uniforms(ids, 12, 1)[:, 0], u[:, 0])
    # Distinct streams and a flat distribution: mean 1/2 and sd 1/sqrt(12) ~ 0.2887.
    assert abs(np.corrcoef(u[:, 0], u[:, 1])[0, 1]) < 0.08
    assert u.mean() == pytest.approx(0.5, abs=0.01)
    assert u.std() == pytest.approx(1 / np.sqrt(12), abs=0.01)


def test_decide_accepts_with_the_leaf_probability_and_replays():
    ids = np.array([f"c{i}" for i in range(20000)])
    leaves = np.arange(20000) % 3
    rho = np.array([0.0, 0.3, 1.0])
    accept, probability = decide(rho, leaves, ids, 4)
    assert np.array_equal(probability, rho[leaves])
    assert not accept[leaves == 0].any() and accept[leaves == 2].all()
    assert accept[leaves == 1].mean() == pytest.approx(0.3, abs=0.015)
    replay, _ = decide(rho, leaves[::-1], ids[::-1], 4)
    assert np.array_equal(replay[::-1], accept)


def test_assign_leaves_samples_the_randomised_split_per_id():
    tree = mixture_tree()
    X = np.full((4000, 1), -1.0)
    ids = [f"x{i}" for i in range(4000)]
    leaves = assign_leaves(tree, X, ids, 9)
    assert np.array_equal(leaves, assign_leaves(tree, X, ids, 9))
    assert (leaves == 0).mean() == pytest.approx(0.5, abs=0.025)
    # The routing stream is not the acceptance stream (stream 0).
    coin = candidate_uniforms(ids, 9, 2)
    assert np.array_equal(leaves == 0, coin[:, 1] < 0.5)
