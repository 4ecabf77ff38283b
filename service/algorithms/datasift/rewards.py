"""The two formulas of the DataSift bandit: eq. 1's shared reward and eq. 2's UCB.

Pure numpy over per-partition arrays; the session steps in
:mod:`service.algorithms.datasift` call them.

References
----------
Hasan, Pradhan, DataSift, eq. 1 (reward shared by every partition) and eq. 2 (UCB).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["shared_rewards", "ucb_scores"]


def ucb_scores(
    reward_sums: npt.ArrayLike,
    reward_counts: npt.ArrayLike,
    pulls: npt.ArrayLike,
    alpha: float,
    scale: float = 1.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean reward R_j, bonus α·sqrt(2 ln(n / (n_j + 1))) and UCB_j = R_j + bonus (eq. 2).

    R_j is the mean of the rewards credited to j, divided by ``scale``; the
    logarithm is clipped at 0 so that a partition pulled in every round has no
    bonus rather than an imaginary one.

    References
    ----------
    DataSift, eq. 2 and the aggregated score R_i^k of Section 3.2.
    """
    sums = np.asarray(reward_sums, dtype=float)
    counts = np.asarray(reward_counts, dtype=float)
    pulls = np.asarray(pulls, dtype=float)
    mean = np.divide(sums, counts, out=np.zeros_like(sums), where=counts > 0) / scale
    n = pulls.sum()
    ratio = np.where(n > 0, n / (pulls + 1.0), 1.0)
    bonus = alpha * np.sqrt(2.0 * np.maximum(np.log(ratio), 0.0))
    return mean, bonus, mean + bonus


def shared_rewards(
    delta: float,
    selected: int,
    base_rate_difference: np.ndarray,
    distance: np.ndarray,
    reward: str,
) -> tuple[np.ndarray, np.ndarray]:
    """Rewards credited to every partition after evaluating one from ``selected`` (eq. 1).

    ``base_rate_distance``: r_j = ΔF / ((1 + |ΔBR_j|)(1 + dist(C_i, C_j)));
    ``distance`` (AutoData-style) drops the base-rate factor, ``base_rate`` the
    distance factor; ``selected_only`` credits ΔF to the selected partition alone.

    Returns
    -------
    rewards, credited : arrays of length g
        ``credited[j]`` says whether j's running mean takes the reward.

    References
    ----------
    DataSift, eq. 1.
    """
    br = 1.0 + np.abs(np.asarray(base_rate_difference, dtype=float))
    dist = 1.0 + np.asarray(distance, dtype=float)[selected]
    g = len(br)
    if reward == "selected_only":
        rewards = np.zeros(g)
        rewards[selected] = delta
        return rewards, np.arange(g) == selected
    denominators = {"base_rate_distance": br * dist, "distance": dist, "base_rate": br}
    return delta / denominators[reward], np.ones(g, bool)
