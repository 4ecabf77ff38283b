"""Proxies: the paired-regression oracle, the split game, the (alpha, beta)-tree and the baselines."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from service.algorithms.balanced_filtering import (
    PROXY_TYPES,
    ABTreeProxy,
    GameSettings,
    NaiveLogisticProxy,
    NaiveTreeProxy,
    PairedRegressionOracle,
    QPLogisticProxy,
    QPTreeProxy,
    make_proxy,
    play_split_game,
    proxy_from_params,
    solve_sampling,
)
from service.algorithms.balanced_filtering.ab_tree import lemma3_f
from service.algorithms.balanced_filtering.game import paper_game_bounds
from service.algorithms.balanced_filtering.measures import conditional_matrix
from service.algorithms.validation import InputError

TOL = 1e-6


def synthetic(n: int = 2000, seed: int = 0):
    """Three groups with shares (0.7, 0.2, 0.1); x0 and x1 shift with the group, x2 is noise."""
    rng = np.random.default_rng(seed)
    z = rng.choice(3, size=n, p=[0.7, 0.2, 0.1])
    X = np.column_stack([
        np.array([0.0, 1.5, -1.5])[z] + rng.normal(size=n),
        np.array([0.0, 0.0, 2.0])[z] + rng.normal(size=n),
        rng.normal(size=n),
        (rng.random(n) < 0.3).astype(float),
    ])
    return X, np.array(["a", "b", "c"])[z]


def accept_all_imbalance(groups) -> float:
    shares = np.unique(groups, return_counts=True)[1] / len(groups)
    return float(np.linalg.norm(shares - 1 / len(shares)))


def test_oracle_is_the_least_squares_fit_of_the_costs():
    # Definition 14: h(x) = 1 where the fitted cost of side 1 is below side 0's (zero).
    rng = np.random.default_rng(1)
    X = np.column_stack([rng.normal(size=(300, 3)), np.ones(300)])
    w = rng.uniform(0.2, 1.0, 300)
    Z = np.eye(3)[rng.integers(0, 3, 300)]
    oracle = PairedRegressionOracle(X, w, Z, ridge=0.0)
    for _ in range(5):
        phi = rng.normal(size=4)
        costs = w * (Z @ phi[:3] + phi[3])
        direct = X @ np.linalg.lstsq(X, costs, rcond=None)[0]
        assert np.array_equal(oracle.best_response(phi), direct < 0)


def test_paper_bounds_and_lemma3_by_hand():
    # m = 100, K = 2, alpha = 0.1, eps = 0.1: lambda_max = 100 * 1 / (2 * 0.1) + 2 = 502,
    # T = ceil((2 * 2 * 100 * 1.1 * 502 / 0.1)^2) = 2208800^2.
    rounds, lam = paper_game_bounds(100, 2, 0.1, 0.1)
    assert lam == pytest.approx(502.0) and rounds == pytest.approx(2208800.0**2)
    # f(0.1) at ||R(V) - U'|| = 0: sqrt(0.19) sqrt(2) = 0.61644; at 0.5:
    # sqrt(0.19) sqrt(2 - 0.25 + 2 * 0.5 * 0.9 * sqrt(-0.19 * 0.25 + 2)) = 0.75594.
    assert lemma3_f(0.1, 0.0) == pytest.approx(0.6164414, abs=TOL)
    assert lemma3_f(0.1, 0.5) == pytest.approx(0.7559375, abs=TOL)


def _game_inputs(alpha: float):
    X, groups = synthetic(1500)
    Z = np.eye(3)[np.searchsorted(["a", "b", "c"], groups)]
    Xs = np.column_stack([(X - X.mean(0)) / X.std(0), np.ones(len(X))])
    w = np.ones(len(X))
    r = Z.mean(0)
    d = (np.full(3, 1 / 3) - r) / np.linalg.norm(np.full(3, 1 / 3) - r)
    return PairedRegressionOracle(Xs, w, Z), w, Z, r, alpha, -d, float(r @ d) + 0.05


def test_game_keeps_lambda_in_its_box_and_constraints_nearly_hold():
    oracle, w, Z, r, alpha, cost, offset = _game_inputs(0.15)
    result = play_split_game(oracle, w, Z, r, alpha, cost, offset, GameSettings(max_iterations=400))
    assert np.all(result.lambda_ >= 0)
    assert np.linalg.norm(result.lambda_) <= result.lambda_max + TOL
    assert np.all((result.h_bar >= 0) & (result.h_bar <= 1))
    assert result.phi.shape == (result.iterations, 4)
    side1 = w * result.h_bar
    shares = side1 @ Z / side1.sum(), (w - side1) @ Z / (w - side1).sum()
    assert max(np.max(np.abs(s - r)) for s in shares) <= alpha + 0.01
    assert result.max_violation <= 0.01


def test_game_without_binding_constraints_stops_at_the_first_check():
    # alpha = 1 makes every constraint slack: lambda stays 0, every round plays the
    # same classifier, and the gap is 0 at the first check (round 10).
    oracle, w, Z, r, _, cost, offset = _game_inputs(1.0)
    result = play_split_game(oracle, w, Z, r, 1.0, cost, offset, GameSettings())
    assert result.iterations == 10 and result.gap == pytest.approx(0.0, abs=1e-12)
    assert not result.stopped_short and result.status == "converged"
    assert np.all(result.lambda_ == 0)


def test_game_at_its_cap_says_it_stopped_short():
    oracle, w, Z, r, _, cost, offset = _game_inputs(0.02)
    result = play_split_game(oracle, w, Z, r, 0.02, cost, offset, GameSettings(max_iterations=3))
    assert result.iterations == 3 and result.stopped_short and result.status == "iteration_cap"
    assert result.gap > 0.01 and "cap of 3 rounds" in result.message
    assert result.paper_iterations > 1e20


@pytest.mark.parametrize("alpha", [0.1, 0.3])
def test_ab_tree_is_alpha_disclosive_and_every_split_makes_progress(alpha):
    X, groups = synthetic()
    proxy = ABTreeProxy(alpha=alpha, min_leaf_weight=10).fit(X, groups)
    assert proxy.n_leaves_ >= 2 and len(proxy.splits_) == proxy.n_leaves_ - 1
    assert proxy.disclosivity_ <= alpha + proxy.epsilon
    for split in proxy.splits_:
        assert split["distance_after"] <= (1 - proxy.gamma) * split["distance_before"] + TOL
        assert split["leaf_disclosivity"] <= alpha + proxy.epsilon
    assert proxy.imbalance_ < accept_all_imbalance(groups)
    assert proxy.stop_reason_ in ("within_stop_distance", "no_qualifying_split", "max_depth")
    hull = solve_sampling(proxy.conditional_matrix_, proxy.leaf_rates_)
    assert proxy.hull_distance_ == pytest.approx(hull.distance, abs=TOL)
    assert proxy.imbalance_ == pytest.approx(hull.distance, abs=1e-4)
    # The stored tree reproduces the training weights the game produced.
    Z = proxy.groups_.indicators(groups)
    matrix, rates = conditional_matrix(proxy.leaf_probabilities(X), Z)
    assert matrix == pytest.approx(proxy.conditional_matrix_, abs=TOL)
    assert rates == pytest.approx(proxy.leaf_rates_, abs=TOL)


def test_alpha_zero_cannot_split():
    X, groups = synthetic()
    proxy = ABTreeProxy(alpha=0.0).fit(X, groups)
    assert proxy.n_leaves_ == 1 and proxy.disclosivity_ == 0.0
    assert proxy.rho_ == pytest.approx([1.0]) and proxy.acceptance_rate_ == pytest.approx(1.0)
    assert proxy.imbalance_ == pytest.approx(accept_all_imbalance(groups))


def test_relaxed_tree_accepts_the_same_distribution_for_disjoint_groups():
    # p - U is orthogonal to U for every distribution p, so the cone's closest point is a
    # multiple of the hull's: same tree, same accepted distribution, q scaled.
    X, groups = synthetic()
    exact = make_proxy("ab_tree", alpha=0.3, min_leaf_weight=10).fit(X, groups)
    relaxed = make_proxy("ab_tree_relaxed", alpha=0.3, min_leaf_weight=10).fit(X, groups)
    assert relaxed.relaxed and relaxed.n_leaves_ == exact.n_leaves_
    assert relaxed.sampling_.accepted_distribution == pytest.approx(exact.sampling_.accepted_distribution,
                                                                    abs=1e-4)
    assert relaxed.sampling_.distance <= exact.sampling_.distance + TOL


def test_lemma3_progress_still_yields_a_disclosive_tree():
    X, groups = synthetic()
    proxy = ABTreeProxy(alpha=0.3, progress="lemma3").fit(X, groups)
    assert proxy.disclosivity_ <= 0.3 + proxy.epsilon
    for bad in ({"progress": "nonsense"}, {"gamma": 1.0}, {"max_iterations": 0}, {"epsilon": 0.0}):
        with pytest.raises(InputError) as info:
            ABTreeProxy(**bad).fit(X, groups)
        assert info.value.errors[0]["loc"] == ["proxy", next(iter(bad))]


def test_separable_groups_give_pure_leaves():
    # x0 is the group itself: every baseline predicts perfectly, A = I, r = (0.75, 0.25).
    # Disclosivity = |1 - 0.75| vs |0 - 0.75| -> 0.75; equal contributions balance exactly.
    X = np.column_stack([np.repeat([0.0, 1.0], [750, 250]), np.random.default_rng(2).normal(size=1000)])
    groups = np.repeat(["x", "y"], [750, 250])
    for cls in (NaiveTreeProxy, QPTreeProxy, NaiveLogisticProxy, QPLogisticProxy):
        proxy = cls().fit(X, groups)
        assert proxy.conditional_matrix_ == pytest.approx(np.eye(2), abs=TOL)
        assert proxy.disclosivity_ == pytest.approx(0.75)
        assert proxy.imbalance_ == pytest.approx(0.0, abs=TOL)
        assert proxy.rho_ == pytest.approx([1 / 3, 1.0], abs=TOL)  # q = (1/2, 1/2) over (0.75, 0.25)


@pytest.mark.parametrize("proxy_type", sorted(PROXY_TYPES))
def test_params_round_trip_and_decisions_replay(proxy_type):
    X, groups = synthetic()
    proxy = make_proxy(proxy_type, alpha=0.3).fit(X, groups, rng=np.random.default_rng(4))
    params = proxy.to_params()
    meta = json.loads(json.dumps(params["meta"]))
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **params["arrays"])
    buffer.seek(0)
    loaded = proxy_from_params({"meta": meta, "arrays": dict(np.load(buffer, allow_pickle=False))})
    assert type(loaded) is type(proxy)
    assert json.dumps(loaded.get_params(), sort_keys=True) == json.dumps(proxy.get_params(), sort_keys=True)
    ids = [f"cand-{i}" for i in range(1500)]
    first, again = proxy.decide(X[:1500], ids, 3), loaded.decide(X[:1500], ids, 3)
    assert np.array_equal(first.leaf, again.leaf) and np.array_equal(first.accept, again.accept)
    assert np.array_equal(first.probability, proxy.rho_[first.leaf])
    split = loaded.decide(X[700:1500], ids[700:], 3)
    assert np.array_equal(split.accept, first.accept[700:])
    ours, theirs = proxy.evaluate(X, groups), loaded.evaluate(X, groups)
    assert ours.imbalance == pytest.approx(theirs.imbalance) and ours.disclosivity == theirs.disclosivity
    assert ours.disclosivity == pytest.approx(proxy.disclosivity_, abs=TOL)
    assert meta["versions"]["numpy"] == np.__version__


def test_fitting_is_deterministic_given_rng():
    X, groups = synthetic()
    a = make_proxy("qp_tree", max_depth=5).fit(X, groups, rng=np.random.default_rng(8))
    b = make_proxy("qp_tree", max_depth=5).fit(X, groups, rng=np.random.default_rng(8))
    assert np.array_equal(a.tree_.threshold, b.tree_.threshold) and np.array_equal(a.q_, b.q_)


def test_make_proxy_passes_known_parameters_only():
    proxy = make_proxy("naive_tree", alpha=0.2, gamma=0.1, max_depth=7, stop_distance=None)
    assert isinstance(proxy, NaiveTreeProxy) and proxy.max_depth == 7
    assert make_proxy("ab_tree", alpha=0.2, epsilon=None).epsilon == 0.01
    with pytest.raises(InputError):
        make_proxy("random_forest")
    with pytest.raises(InputError):
        make_proxy("ab_tree", depth=3)


def test_intersecting_groups_use_a_uniform_target_within_each_class():
    X, race = synthetic()
    sex = np.where(X[:, 3] > 0, "f", "m")  # x3 is the sex column: perfectly predictable
    groups = np.column_stack([race, sex])
    proxy = ABTreeProxy(alpha=0.3, min_leaf_weight=10).fit(X, groups)
    assert proxy.target_ == pytest.approx([1 / 3] * 3 + [0.5] * 2)
    assert proxy.conditional_matrix_.sum(axis=1) == pytest.approx(np.full(proxy.n_leaves_, 2.0))
    assert proxy.disclosivity_ <= 0.3 + proxy.epsilon
    qp = QPTreeProxy(max_depth=4).fit(X, groups)
    assert qp.n_leaves_ == 6  # the six combinations of race and sex present
    assert qp.imbalance_ < np.linalg.norm(qp.base_rates_ - qp.target_)


def test_inputs_are_checked_at_the_boundary():
    X, groups = synthetic(300)
    proxy = QPLogisticProxy().fit(X, groups)
    with pytest.raises(InputError):
        proxy.decide(X[:, :3], [str(i) for i in range(300)], 0)
    with pytest.raises(InputError):
        proxy.decide(X, ["just-one"], 0)
    with pytest.raises(InputError):
        proxy.evaluate(X, np.full(300, "z"))
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(InputError):
        QPTreeProxy().fit(bad, groups)
