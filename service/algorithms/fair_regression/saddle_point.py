"""The exponentiated-gradient saddle-point loop shared by Algorithms 1 and 2.

Both algorithms solve ``min_Q max_{λ ≥ 0, ‖λ‖₁ ≤ B} L(Q, λ)`` with
``L(Q, λ) = cost(Q) + λ · g(Q)``, where ``g`` stacks the constraint values (``g ≤ 0`` is
feasible): for SP the ``2 |A| N`` values ``±γ_{a,z} − ε̂_a`` (coordinates ``λ⁺`` then ``λ⁻``),
for BGL the ``|A|`` values ``γ_a^BGL − ζ̂_a``. A *problem* supplies ``best_response(λ)``
(one call to the supervised-learning oracle) and the loop does the rest:

1. ``λ_t = B exp(θ_t) / (1 + Σ exp(θ_t))``; ``h_t = Best_h(λ_t)``;
2. ``Q̂_t``, ``λ̂_t`` = averages of the ``h``'s and ``λ``'s so far;
3. duality gap ``max(ν̄, ν̲)`` with ``ν̄ = L(Q̂, Best_λ(Q̂)) − L(Q̂, λ̂)`` and
   ``ν̲ = L(Q̂, λ̂) − L(Best_h(λ̂), λ̂)``; stop when it is at most the tolerance ``ν``;
4. ``θ_{t+1} = θ_t + η g(h_t)``.

``Best_λ(Q)`` puts all of ``B`` on the most violated constraint, or returns 0 when none is
violated (Appendix F). Several practical choices come from the authors' reference
implementation (and fairlearn, which descends from it) rather than the pseudocode, whose
``η = ν/(8B)`` would need thousands of iterations: the learning rate starts at
``η = 2/B`` and shrinks by 0.8 when the best gap stops improving; the first oracle call
is at ``λ = 0`` (the unconstrained regressor); ``Best_h`` keeps every regressor found so
far and answers with the best of them when the oracle's heuristic answer is worse (and,
inside the gap, also asks the oracle at 2, 5 and 10 × λ̂); after each step a linear
program finds the best distribution over the regressors found so far (with its dual λ),
whose gap is compared with the averaged iterate's; and the loop runs at least 5
iterations. The returned ``Q`` is the candidate with the smallest gap seen.

References
----------
Agarwal, Dudík, Wu (2019), "Fair Regression", ICML — Algorithm 1 (Section 4.3), Algorithm 2
(Appendix D), Appendix F (Best_λ, evaluating L in O(|A| N)).
Agarwal, Beygelzimer, Dudík, Langford, Wallach (2018), "A Reductions Approach to Fair
Classification", ICML — Algorithm 1 and its reference code (learning-rate schedule, LP step).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from scipy.optimize import linprog

__all__ = ["Hypothesis", "SaddlePointResult", "solve_saddle_point"]

# A new oracle answer replaces the cached best only if it lowers the Lagrangian by more
# than floating-point noise (reference code: _PRECISION = 1e-12).
PRECISION = 1e-12
# Reference code's learning-rate schedule: η0 = ETA_MULTIPLIER / B; from iteration
# SHRINK_START on, every time t passes 1.6× the last check, shrink η by 0.8 unless the
# best gap fell below 0.8× its value at that check.
ETA_MULTIPLIER = 2.0
SHRINK_START = 5
SHRINK_CHECK_GROWTH = 1.6
SHRINK_REGRET = 0.8
SHRINK_ETA = 0.8
# ν̲ needs Best_h(λ̂), which the heuristic oracles can under-answer; like the reference
# code we also ask at 2, 5 and 10 times λ̂ (stopping early once the gap exceeds ν), and
# keep whichever regressor has the lowest L(·, λ̂).
GAP_MULTIPLIERS = (1.0, 2.0, 5.0, 10.0)
# A gap under ν in the first iterations mostly means the oracle has not yet answered
# anything better than the few regressors cached; fairlearn runs at least 5 (_MIN_ITER).
MIN_ITERATIONS = 5
# Distributions from the LP are renormalised after dropping weights below this.
WEIGHT_FLOOR = 1e-9


@dataclass
class Hypothesis:
    """One base regressor with its statistics on the training data."""

    regressor: Any
    cost: float
    violations: np.ndarray
    stats: dict[str, Any] = field(default_factory=dict)


class Problem(Protocol):
    n_constraints: int

    def best_response(self, lambda_: np.ndarray) -> Hypothesis: ...

    def default_tolerance(self, first: Hypothesis) -> float: ...


@dataclass
class SaddlePointResult:
    """Distribution ``weights`` over ``hypotheses``, its dual ``lambda_`` and duality ``gap``."""

    hypotheses: list[Hypothesis]
    weights: np.ndarray
    lambda_: np.ndarray
    gap: float
    iterations: int
    status: str
    tolerance: float
    bound_b: float
    oracle_calls: int
    gap_history: list[float]


class _Cache:
    """Regressors found so far, with ``cost`` and ``g`` stacked for O(k m) Lagrangians."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.items: list[Hypothesis] = []
        self.calls = 0

    def values(self, lambda_: np.ndarray) -> np.ndarray:
        return np.array([h.cost + h.violations @ lambda_ for h in self.items])

    def best_response(self, lambda_: np.ndarray) -> int:
        new = self.problem.best_response(lambda_)
        self.calls += 1
        if self.items:
            values = self.values(lambda_)
            best = int(np.argmin(values))
            if new.cost + new.violations @ lambda_ >= values[best] - PRECISION:
                return best
        self.items.append(new)
        return len(self.items) - 1

    def matrices(self) -> tuple[np.ndarray, np.ndarray]:
        return np.array([h.cost for h in self.items]), np.stack([h.violations for h in self.items])


def _gap(cache: _Cache, weights: np.ndarray, lambda_: np.ndarray, bound_b: float, nu: float) -> float:
    costs, g = cache.matrices()
    cost_q, g_q = weights @ costs[: len(weights)], weights @ g[: len(weights)]
    lagrangian = cost_q + lambda_ @ g_q
    high = cost_q + bound_b * max(0.0, float(g_q.max()))
    low = lagrangian
    for mul in GAP_MULTIPLIERS:
        cache.best_response(mul * lambda_)
        low = min(low, float(cache.values(lambda_).min()))
        if max(lagrangian - low, high - lagrangian) > nu:
            break
    return float(max(lagrangian - low, high - lagrangian))


def _linprog(cache: _Cache, bound_b: float) -> tuple[np.ndarray, np.ndarray] | None:
    """Best ``Q`` over the cached regressors, ``min cost·Q + B ξ`` s.t. ``g Q ≤ ξ``, and its dual λ."""
    costs, g = cache.matrices()
    k, m = g.shape
    result = linprog(np.append(costs, bound_b), A_ub=np.hstack([g.T, -np.ones((m, 1))]), b_ub=np.zeros(m),
                     A_eq=np.append(np.ones(k), 0.0)[None, :], b_eq=[1.0], bounds=[(0, None)] * (k + 1),
                     method="highs")
    if result.status != 0:
        return None
    weights = np.where(result.x[:k] > WEIGHT_FLOOR, result.x[:k], 0.0)
    return weights / weights.sum(), np.maximum(-result.ineqlin.marginals, 0.0)


def _lambda(theta: np.ndarray, bound_b: float) -> np.ndarray:
    top = max(0.0, float(theta.max()))
    e = np.exp(theta - top)
    return np.asarray(bound_b * e / (np.exp(-top) + e.sum()))


def solve_saddle_point(
    problem: Problem,
    *,
    bound_b: float,
    tolerance: float | None,
    max_iterations: int,
    linprog_step: bool = True,
    progress: Callable[[float], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> SaddlePointResult:
    """Run the exponentiated-gradient loop (see the module docstring) on ``problem``."""
    cache = _Cache(problem)
    theta = np.zeros(problem.n_constraints)
    counts: list[float] = []
    lambda_sum = np.zeros(problem.n_constraints)
    eta = ETA_MULTIPLIER / bound_b
    nu = tolerance
    best: tuple[float, np.ndarray, np.ndarray] | None = None
    gaps_eg: list[float] = []
    history: list[float] = []
    last_check, last_gap = SHRINK_START, np.inf
    status, t = "max_iterations", 0
    for t in range(max_iterations):
        if should_stop is not None and should_stop():
            status = "cancelled"
            break
        if t == 0:
            cache.best_response(np.zeros(problem.n_constraints))  # unconstrained regressor, as in the reference
        lambda_t = _lambda(theta, bound_b)
        chosen = cache.best_response(lambda_t)
        if nu is None:
            nu = problem.default_tolerance(cache.items[chosen])
        counts += [0.0] * (len(cache.items) - len(counts))
        counts[chosen] += 1.0
        lambda_sum += lambda_t
        q_eg, lambda_eg = np.array(counts) / (t + 1), lambda_sum / (t + 1)
        candidates = [(_gap(cache, q_eg, lambda_eg, bound_b, nu), q_eg, lambda_eg)]
        gaps_eg.append(candidates[0][0])
        if linprog_step and t > 0:
            solved = _linprog(cache, bound_b)
            if solved is not None:
                candidates.append((_gap(cache, solved[0], solved[1], bound_b, nu), *solved))
        gap, q, lam = min(candidates, key=lambda c: c[0])
        history.append(float(gap))
        if best is None or gap <= best[0]:
            best = (float(gap), q, lam)
        if gap <= nu and t + 1 >= MIN_ITERATIONS:
            status = "converged"
            if progress is not None:
                progress(1.0)
            break
        if t >= last_check * SHRINK_CHECK_GROWTH:
            if min(gaps_eg) > last_gap * SHRINK_REGRET:
                eta *= SHRINK_ETA
            last_check, last_gap = t, min(gaps_eg)
        theta = theta + eta * cache.items[chosen].violations
        if progress is not None:
            progress((t + 1) / max_iterations)
    iterations = len(history)
    if best is None:
        return SaddlePointResult(cache.items, np.zeros(0), np.zeros(problem.n_constraints), float("inf"),
                                 0, status, float(nu or 0.0), bound_b, cache.calls, history)
    weights = np.zeros(len(cache.items))
    weights[: len(best[1])] = best[1]
    return SaddlePointResult(cache.items, weights, best[2], best[0], iterations, status,
                             float(nu or 0.0), bound_b, cache.calls, history)
