"""Algorithm 1: the sampling QP, its relaxation, the solver fallback and the reference solver."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from service.algorithms.balanced_filtering.qp import (
    get_sampling_qp,
    naive_sampling,
    solve_sampling,
)
from service.algorithms.balanced_filtering.reference import (
    optimality_gap,
    project_simplex,
    solve_sampling_reference,
)
from service.algorithms.validation import InputError

TOL = 1e-6


def test_pure_leaves_reach_the_target_exactly():
    # A = I, r_hat = (0.8, 0.2), U = (0.5, 0.5): q = (0.5, 0.5);
    # rho = q / r_hat = (0.625, 2.5) -> / 2.5 = (0.25, 1.0);
    # acceptance rate = 0.8 * 0.25 + 0.2 * 1 = 0.4; accepted = (0.2, 0.2) / 0.4 = (0.5, 0.5).
    result = solve_sampling(np.eye(2), np.array([0.8, 0.2]))
    assert result.q == pytest.approx([0.5, 0.5], abs=TOL)
    assert result.rho == pytest.approx([0.25, 1.0], abs=TOL)
    assert result.acceptance_probabilities is result.rho
    assert result.acceptance_rate == pytest.approx(0.4, abs=TOL)
    assert result.accepted_distribution == pytest.approx([0.5, 0.5], abs=TOL)
    assert result.imbalance == pytest.approx(0.0, abs=TOL)
    assert result.in_hull and result.status == "optimal" and result.solver == "CLARABEL"
    assert result.rho.max() == pytest.approx(1.0)


def test_target_outside_the_hull_goes_to_the_nearest_vertex():
    # Rows (0.9, 0.1) and (0.7, 0.3); the hull is the segment between them and
    # (0.7, 0.3) is closest to (0.5, 0.5): q = (0, 1), distance = sqrt(0.2^2 + 0.2^2).
    A = np.array([[0.9, 0.1], [0.7, 0.3]])
    result = solve_sampling(A, np.array([0.5, 0.5]))
    assert result.q == pytest.approx([0.0, 1.0], abs=TOL)
    assert result.rho == pytest.approx([0.0, 1.0], abs=TOL)
    assert result.distance == pytest.approx(np.sqrt(0.08), abs=TOL)
    assert result.imbalance == pytest.approx(np.sqrt(0.08), abs=TOL)
    assert result.closest_point == pytest.approx([0.7, 0.3], abs=TOL)
    assert not result.in_hull
    assert result.gap <= TOL


def test_relaxed_qp_measures_the_cone_but_accepts_the_hull_point():
    # Rows e1, e2 and U = (1/3, 1/3, 1/3). Hull: closest point (1/2, 1/2, 0), at
    # sqrt(2 (1/6)^2 + (1/3)^2) = sqrt(6)/6. Cone: q = (1/3, 1/3), qA = (1/3, 1/3, 0),
    # distance 1/3; normalised, the accepted distribution is still (1/2, 1/2, 0).
    A = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    rates = np.array([0.5, 0.5])
    exact = solve_sampling(A, rates)
    relaxed = solve_sampling(A, rates, relaxed=True)
    assert exact.distance == pytest.approx(np.sqrt(6) / 6, abs=TOL)
    assert relaxed.q == pytest.approx([1 / 3, 1 / 3], abs=TOL)
    assert relaxed.distance == pytest.approx(1 / 3, abs=TOL)
    assert relaxed.accepted_distribution == pytest.approx([0.5, 0.5, 0.0], abs=TOL)
    assert relaxed.imbalance == pytest.approx(exact.imbalance, abs=TOL)
    assert relaxed.relaxed and not exact.relaxed


def test_empty_leaves_get_no_mass_and_custom_targets_are_used():
    # Leaf 1 is empty; leaves 0 and 2 are pure. Target (0.25, 0.75): q = (0.25, 0, 0.75),
    # rho = (0.25 / 0.5, 0, 0.75 / 0.5) = (0.5, 0, 1.5) -> (1/3, 0, 1).
    A = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    result = solve_sampling(A, np.array([0.5, 0.0, 0.5]), target=np.array([0.25, 0.75]))
    assert result.q == pytest.approx([0.25, 0.0, 0.75], abs=TOL)
    assert result.rho == pytest.approx([1 / 3, 0.0, 1.0], abs=TOL)
    assert result.accepted_distribution == pytest.approx([0.25, 0.75], abs=TOL)


def test_naive_sampling_weights_every_nonempty_leaf_equally():
    # q = (1/2, 0, 1/2) on the two non-empty leaves; rho = (0.5 / 0.8, 0, 0.5 / 0.2) -> (0.25, 0, 1).
    A = np.array([[0.9, 0.1], [0.5, 0.5], [0.2, 0.8]])
    result = naive_sampling(A, np.array([0.8, 0.0, 0.2]))
    assert result.q == pytest.approx([0.5, 0.0, 0.5])
    assert result.rho == pytest.approx([0.25, 0.0, 1.0])
    # accepted = (0.2 (0.9, 0.1) + 0.2 (0.2, 0.8)) / 0.4 = (0.55, 0.45)
    assert result.accepted_distribution == pytest.approx([0.55, 0.45])
    assert result.solver == "naive"


def test_problems_are_cached_per_shape_and_resolved_with_new_values():
    assert get_sampling_qp(3, 2) is get_sampling_qp(3, 2)
    assert get_sampling_qp(3, 2) is not get_sampling_qp(3, 2, True)
    first = solve_sampling(np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]), np.full(3, 1 / 3))
    second = solve_sampling(np.array([[0.9, 0.1], [0.8, 0.2], [0.7, 0.3]]), np.full(3, 1 / 3))
    assert first.in_hull and not second.in_hull
    assert second.closest_point == pytest.approx([0.7, 0.3], abs=TOL)


def test_solver_falls_back_in_order_and_finally_to_projected_gradient():
    A, rates = np.array([[0.9, 0.1], [0.2, 0.8]]), np.array([0.5, 0.5])
    fallback = solve_sampling(A, rates, solvers=("NO_SUCH_SOLVER", "OSQP"))
    assert fallback.solver == "OSQP"
    assert fallback.attempts[0].startswith("NO_SUCH_SOLVER")
    last = solve_sampling(A, rates, solvers=("NO_SUCH_SOLVER",))
    assert last.solver == "projected_gradient"
    # (0.9, 0.1) and (0.2, 0.8) straddle (0.5, 0.5): q = (3/7, 4/7).
    for result in (fallback, last):
        assert result.q == pytest.approx([3 / 7, 4 / 7], abs=1e-5)


def test_cvxpy_agrees_with_the_reference_solver_on_random_instances():
    rng = np.random.default_rng(3)
    worst = 0.0
    for _ in range(40):
        L, K = int(rng.integers(2, 30)), int(rng.integers(2, 8))
        A = rng.dirichlet(np.full(K, rng.uniform(0.3, 3.0)), size=L)
        U = rng.dirichlet(np.ones(K))
        for relaxed in (False, True):
            ours = solve_sampling(A, rng.dirichlet(np.ones(L)), U, relaxed=relaxed)
            ref = solve_sampling_reference(A, U, relaxed=relaxed)
            worst = max(worst, abs(ours.distance**2 - ref.objective))
            assert ref.converged
            assert np.all(ours.q >= 0) and (relaxed or ours.q.sum() == pytest.approx(1.0))
    assert worst <= TOL


def test_concurrent_solves_of_one_shape_do_not_mix_data():
    rng = np.random.default_rng(5)
    problems = [rng.dirichlet(np.ones(4), size=6) for _ in range(8)]
    rates = np.full(6, 1 / 6)
    expected = [solve_sampling(A, rates).q for A in problems]
    results: dict[int, np.ndarray] = {}

    def work(i: int) -> None:
        for _ in range(5):
            results[i] = solve_sampling(problems[i], rates).q

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(8):
        assert results[i] == pytest.approx(expected[i], abs=TOL)


def test_simplex_projection_by_hand():
    assert project_simplex(np.array([1.0, 1.0])) == pytest.approx([0.5, 0.5])
    assert project_simplex(np.array([2.0, 0.0])) == pytest.approx([1.0, 0.0])
    assert project_simplex(np.array([0.2, 0.3, 0.5])) == pytest.approx([0.2, 0.3, 0.5])
    # (0.5, 0.5, -1): shift by 0 leaves (0.5, 0.5, 0) on the simplex.
    assert project_simplex(np.array([0.5, 0.5, -1.0])) == pytest.approx([0.5, 0.5, 0.0])


def test_optimality_gap_vanishes_only_at_the_optimum():
    A = np.array([[0.9, 0.1], [0.7, 0.3]])
    U = np.array([0.5, 0.5])
    assert optimality_gap(A, U, np.array([0.0, 1.0]), relaxed=False) == pytest.approx(0.0, abs=1e-12)
    # At q = (1, 0): grad = 2 A (qA - U) = 2 (0.9*0.4 - 0.1*0.4, 0.7*0.4 - 0.3*0.4) = (0.64, 0.32); gap 0.32.
    assert optimality_gap(A, U, np.array([1.0, 0.0]), relaxed=False) == pytest.approx(0.32)


@pytest.mark.parametrize(
    ("A", "rates", "loc"),
    [
        (np.array([[np.nan, 1.0]]), np.array([1.0]), "conditional_matrix"),
        (np.array([[-0.1, 1.1]]), np.array([1.0]), "conditional_matrix"),
        (np.array([[0.5, 0.5]]), np.array([1.0, 0.0]), "leaf_rates"),
        (np.array([[0.5, 0.5]]), np.array([0.0]), "leaf_rates"),
    ],
)
def test_bad_input_is_rejected_with_its_location(A, rates, loc):
    with pytest.raises(InputError) as info:
        solve_sampling(A, rates)
    assert info.value.errors[0]["loc"] == [loc]
