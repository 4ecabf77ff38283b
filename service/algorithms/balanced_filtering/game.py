"""Learning one split: the Lagrangian game of Algorithm 3.

For a node V with weights ``w`` (Definition 10), a randomised split ``h`` sends
point j to side 1 with probability ``h_j``. With masses ``M1_k = sum_j w_j h_j
Z_jk``, ``m1 = sum_j w_j h_j`` (side 0: the rest), Program (3) reads, divided
by the node's mass ``W`` so that every term is a share in [-1, 1]:

    minimise   F(h) = (1/W) sum_j w_j h_j (Z_j . a + a_0)
    subject to (M1_k - (r_k + alpha) m1) / W <= 0,  ((r_k - alpha) m1 - M1_k) / W <= 0,
               and the same for side 0, for every group k.

The ``4K`` constraints are exactly ``|P(z = k | side) - r_k| <= alpha`` for
both sides (multiplied out by the side's mass), i.e. Definition 5 for the two
new leaves. The Learner best-responds with the CSC oracle; the Auditor runs
projected gradient ascent on ``lambda >= 0, ||lambda||_2 <= lambda_max`` with
step ``eta_t = step_size / sqrt(t)``. The split is the uniform mixture of the
Learner's classifiers (Algorithm 3's output); the duality gap of the averaged
play (Definition 17) is checked every few rounds and the game stops once it is
at most ``epsilon`` -- or at ``max_iterations``, the cap that replaces the
paper's ``T``, in which case the result says it stopped short.

References
----------
Deng, Diana, Kearns, Roth, "Balanced Filtering via Non-Disclosive Proxies",
Program (3), Lemma 4, Algorithm 3, Theorem 1; Appendix A.3 (Definition 17,
Theorem 4, Algorithm 5 / Theorem 6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from service.algorithms.balanced_filtering.oracle import PairedRegressionOracle

__all__ = ["GameSettings", "SplitGameResult", "paper_game_bounds", "play_split_game"]


@dataclass(frozen=True)
class GameSettings:
    """Iteration cap and step sizes of Algorithm 3.

    ``lambda_max`` defaults to the paper's ``m (K - 1) / (K epsilon) + 2`` with the
    objective taken per unit of node mass (``m = 1``); ``step_size`` to
    ``lambda_max / sqrt(4K)``, Zinkevich's ``D / G`` for constraints bounded by 1.
    """

    epsilon: float = 0.01
    max_iterations: int = 300
    lambda_max: float | None = None
    step_size: float | None = None
    check_every: int = 10

    def resolved(self, n_groups: int) -> tuple[float, float]:
        lam = self.lambda_max
        if lam is None:
            lam = (n_groups - 1) / (n_groups * self.epsilon) + 2.0
        step = self.step_size if self.step_size is not None else lam / np.sqrt(4 * n_groups)
        return float(lam), float(step)


@dataclass
class SplitGameResult:
    """The learned randomised split and how well the game converged."""

    phi: np.ndarray
    h_bar: np.ndarray
    iterations: int
    gap: float
    stopped_short: bool
    objective: float
    max_violation: float
    lambda_: np.ndarray
    lambda_max: float
    step_size: float
    paper_iterations: float
    paper_lambda_max: float
    status: str
    message: str

    def summary(self) -> dict[str, Any]:
        return {
            "iterations": self.iterations,
            "gap": self.gap,
            "stopped_short": self.stopped_short,
            "objective": self.objective,
            "max_violation": self.max_violation,
            "lambda_max": self.lambda_max,
            "step_size": self.step_size,
            "paper_iterations": self.paper_iterations,
            "paper_lambda_max": self.paper_lambda_max,
            "status": self.status,
            "message": self.message,
        }


def paper_game_bounds(n_points: float, n_groups: int, alpha: float, epsilon: float) -> tuple[float, float]:
    """Algorithm 3's ``(T, lambda_max)`` for a node of ``m`` points, reported next to the cap."""
    lambda_max = n_points * (n_groups - 1) / (n_groups * epsilon) + 2.0
    T = float(np.ceil((2.0 * n_groups * n_points * (1.0 + alpha) * lambda_max / epsilon) ** 2))
    return T, lambda_max


def play_split_game(
    oracle: PairedRegressionOracle,
    weights: np.ndarray,
    Z: np.ndarray,
    base_rates: np.ndarray,
    alpha: float,
    cost: np.ndarray,
    cost_offset: float,
    settings: GameSettings,
) -> SplitGameResult:
    """Algorithm 3 for one node.

    Parameters
    ----------
    oracle : PairedRegressionOracle
        Fitted on the node's points.
    weights, Z : ndarray
        The node's points' weights (positive) and group indicators.
    base_rates : ndarray, shape (K,)
        ``r``: population shares the new leaves must stay within ``alpha`` of.
    alpha : float
        Disclosivity budget the game enforces.
    cost, cost_offset : ndarray (K,), float
        The objective's per-point cost ``Z_j . a + a_0`` (Lemma 4).
    settings : GameSettings

    References
    ----------
    Algorithm 3; Program (3); Definition 17 (the gap reported).
    """
    K = Z.shape[1]
    lam_max, step = settings.resolved(K)
    W = float(weights.sum())
    WZ = weights @ Z
    hi, lo = base_rates + alpha, base_rates - alpha

    def masses(h: np.ndarray) -> tuple[np.ndarray, float]:
        wh = weights * h
        return wh @ Z, float(wh.sum())

    def constraints(M1: np.ndarray, m1: float) -> np.ndarray:
        M0, m0 = WZ - M1, W - m1
        return np.stack([M1 - hi * m1, lo * m1 - M1, M0 - hi * m0, lo * m0 - M0]) / W

    def objective(M1: np.ndarray, m1: float) -> float:
        return float(M1 @ cost + m1 * cost_offset) / W

    def phi_of(lam: np.ndarray) -> np.ndarray:
        up1, low1, up0, low0 = lam
        phi = cost + up1 - low1 - up0 + low0
        phi0 = cost_offset - up1 @ hi + low1 @ lo + up0 @ hi - low0 @ lo
        return np.append(phi, phi0)

    def lagrangian(M1: np.ndarray, m1: float, lam: np.ndarray) -> float:
        return objective(M1, m1) + float(np.sum(lam * constraints(M1, m1)))

    def gap_of(M1: np.ndarray, m1: float, lam: np.ndarray) -> float:
        value = lagrangian(M1, m1, lam)
        best = lagrangian(*masses(oracle.best_response(phi_of(lam))), lam)
        g = constraints(M1, m1)
        auditor = lam_max * float(np.linalg.norm(np.maximum(g, 0.0))) - float(np.sum(lam * g))
        return max(value - best, 0.0) + max(auditor, 0.0)

    lam = np.zeros((4, K))
    phis, h_sum = [], np.zeros(len(weights))
    M_sum, m_sum, lam_sum = np.zeros(K), 0.0, np.zeros((4, K))
    gap, t = np.inf, 0
    for t in range(1, settings.max_iterations + 1):
        phi = phi_of(lam)
        h = oracle.best_response(phi)
        M1, m1 = masses(h)
        phis.append(phi)
        h_sum += h
        M_sum += M1
        m_sum += m1
        lam_sum += lam
        lam = np.maximum(lam + step / np.sqrt(t) * constraints(M1, m1), 0.0)
        norm = np.linalg.norm(lam)
        if norm > lam_max:
            lam *= lam_max / norm
        if t % settings.check_every == 0 or t == settings.max_iterations:
            gap = gap_of(M_sum / t, m_sum / t, lam_sum / t)
            if gap <= settings.epsilon:
                break
    M_bar, m_bar = M_sum / t, m_sum / t
    T_paper, lam_paper = paper_game_bounds(len(weights), K, alpha, settings.epsilon)
    stopped_short = bool(gap > settings.epsilon)
    return SplitGameResult(
        phi=np.array(phis),
        h_bar=h_sum / t,
        iterations=t,
        gap=float(gap),
        stopped_short=stopped_short,
        objective=objective(M_bar, m_bar),
        max_violation=float(np.max(constraints(M_bar, m_bar))),
        lambda_=lam_sum / t,
        lambda_max=lam_max,
        step_size=step,
        paper_iterations=T_paper,
        paper_lambda_max=lam_paper,
        status="iteration_cap" if stopped_short else "converged",
        message=(
            f"stopped at the cap of {settings.max_iterations} rounds with gap {gap:.3g} > epsilon "
            f"{settings.epsilon:g} (the paper's T is {T_paper:.3g})"
            if stopped_short
            else f"gap {gap:.3g} <= epsilon after {t} rounds"
        ),
    )
