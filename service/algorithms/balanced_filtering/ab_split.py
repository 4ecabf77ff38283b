"""Algorithm 4's split search for the (alpha, beta)-proxy tree (see :mod:`.ab_tree`).

:func:`find_split` plays the split game (Algorithm 3) leaf by leaf and keeps the
first split that :func:`check_split` accepts; :func:`build_tree` turns the grown
leaves into a :class:`~.tree.ProxyTree`. Both take the proxy being fitted for its
hyperparameters and count games and rejections on it.

References
----------
Deng, Diana, Kearns, Roth, "Balanced Filtering via Non-Disclosive Proxies",
Lemmas 3-4, Algorithms 3-4, Theorem 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from service.algorithms.balanced_filtering.game import GameSettings, SplitGameResult, play_split_game
from service.algorithms.balanced_filtering.oracle import PairedRegressionOracle
from service.algorithms.balanced_filtering.qp import SamplingResult, solve_sampling
from service.algorithms.balanced_filtering.tree import ProxyTree

if TYPE_CHECKING:
    from service.algorithms.balanced_filtering.ab_tree import ABTreeProxy

__all__ = ["WEIGHT_FLOOR", "Leaf", "build_tree", "check_split", "find_split", "lemma3_f"]

# Points whose weight at a node is below this are not part of it (weights are
# products of split probabilities; 1e-12 of one point is far below any count).
WEIGHT_FLOOR = 1e-12


def lemma3_f(gamma: float, distance_to_vertex: float) -> float:
    """``f(gamma)`` of Lemma 3 for ``||R(V) - U'||`` = ``distance_to_vertex``."""
    g = 2.0 * gamma - gamma**2
    inner = max((gamma**2 - 2.0 * gamma) * distance_to_vertex**2 + 2.0, 0.0)
    value = 2.0 - distance_to_vertex**2 + 2.0 * distance_to_vertex * (1.0 - gamma) * np.sqrt(inner)
    return float(np.sqrt(g) * np.sqrt(max(value, 0.0)))


@dataclass
class Leaf:
    """A leaf while the tree grows: its node, depth and every point's weight in it."""

    node: int
    depth: int
    weights: np.ndarray


def find_split(
    proxy: ABTreeProxy, X_std: np.ndarray, Z: np.ndarray, leaves: list[Leaf], A: np.ndarray, r_hat: np.ndarray,
    hull: SamplingResult,
) -> tuple[int, SplitGameResult, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]] | None:
    """Algorithm 4's search: the first leaf (and margin) whose split passes every test."""
    U, U_prime, distance = proxy.target_, hull.closest_point, hull.distance
    d = (U - U_prime) / distance
    reach = (A - U_prime) @ d
    margins = proxy.margins if proxy.progress == "gamma" else (0.0,)
    settings = GameSettings(proxy.epsilon, proxy.max_iterations, proxy.lambda_max, proxy.step_size)
    for j in sorted(range(len(leaves)), key=lambda i: (-reach[i], -r_hat[i])):
        leaf = leaves[j]
        if leaf.depth >= proxy.max_depth or leaf.weights.sum() < 2 * proxy.min_leaf_weight:
            continue
        rows = np.flatnonzero(leaf.weights > WEIGHT_FLOOR)
        w, Zv = leaf.weights[rows], Z[rows]
        oracle = PairedRegressionOracle(X_std[rows], w, Zv, proxy.ridge)
        for margin in margins:
            if proxy.progress == "gamma":
                offset = float(U_prime @ d) + margin * proxy.gamma * distance
            else:
                offset = float(A[j] @ d) + lemma3_f(proxy.gamma, float(np.linalg.norm(A[j] - U_prime)))
            game = play_split_game(
                oracle, w, Zv, proxy.base_rates_, max(proxy.alpha - proxy.epsilon, 0.0), -d, offset, settings
            )
            proxy.games_played_ += 1
            child1 = np.zeros(len(leaf.weights))
            child1[rows] = w * game.h_bar
            record = check_split(proxy, j, A, r_hat, leaf.weights, child1, Z, distance)
            if record is not None:
                return j, game, oracle.coef, child1, leaf.weights - child1, {**game.summary(), **record}
    return None


def check_split(
    proxy: ABTreeProxy, j: int, A: np.ndarray, r_hat: np.ndarray, weights: np.ndarray, child1: np.ndarray,
    Z: np.ndarray, distance: float,
) -> dict[str, Any] | None:
    """The tests of step 3; the record of a passing split, else ``None`` (counted by reason)."""
    child0 = weights - child1
    mass1, mass0 = float(child1.sum()), float(child0.sum())
    if min(mass1, mass0) < max(proxy.min_leaf_weight, WEIGHT_FLOOR):
        proxy.rejections_["small_leaf"] += 1
        return None
    rows = np.vstack([child1 @ Z / mass1, child0 @ Z / mass0])
    leaf_disclosivity = float(np.max(np.abs(rows - proxy.base_rates_)))
    if leaf_disclosivity > proxy.alpha + proxy.epsilon:
        proxy.rejections_["disclosive"] += 1
        return None
    n = len(weights)
    A_new = np.vstack([A[:j], rows, A[j + 1:]])
    r_new = np.concatenate([r_hat[:j], [mass1 / n, mass0 / n], r_hat[j + 1:]])
    after = solve_sampling(A_new, r_new, proxy.target_).distance
    if after > (1.0 - proxy.gamma) * distance:
        proxy.rejections_["no_progress"] += 1
        return None
    return {
        "leaf_disclosivity": leaf_disclosivity,
        "distance_before": distance,
        "distance_after": after,
        "side_shares": [mass1 / n, mass0 / n],
    }


def build_tree(
    nodes: list[list[int]], coefs: list[np.ndarray], phis: list[np.ndarray], leaves: list[Leaf], mean: np.ndarray,
    scale: np.ndarray, n_groups: int,
) -> ProxyTree:
    """The node table of a grown tree: mixture splits with their oracle coefficients and φ, then the leaves."""
    table = np.array(nodes, dtype=np.int64)
    leaf_index = np.full(len(nodes), -1, dtype=np.int64)
    for index, leaf in enumerate(leaves):
        leaf_index[leaf.node] = index
    basis = n_groups + 1
    return ProxyTree(
        feature=table[:, 0],
        threshold=np.zeros(len(nodes)),
        left=table[:, 1],
        right=table[:, 2],
        leaf_index=leaf_index,
        split_index=table[:, 3],
        split_coef=np.array(coefs) if coefs else np.zeros((0, len(mean) + 1, basis)),
        split_phi=np.vstack(phis) if phis else np.zeros((0, basis)),
        split_offset=np.concatenate([[0], np.cumsum([len(p) for p in phis])]).astype(np.int64),
        feature_mean=mean,
        feature_scale=scale,
        n_leaves=len(leaves),
    )
