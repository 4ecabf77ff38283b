"""The (alpha, beta)-proxy: a tree grown by Algorithm 4 from splits learned by Algorithm 3.

Start from a single leaf. While the target ``U`` is farther than
``stop_distance`` from the convex hull of ``A``'s rows, with ``U'`` the
closest point of the hull and ``d = (U - U') / ||U - U'||``:

1. take the leaves in order of how far their row reaches along ``d``;
2. for a leaf V (depth < ``max_depth``), play the split game (Algorithm 3,
   :mod:`.game`) whose objective pushes side 1 along ``d`` (Lemma 4) under the
   constraint that both new leaves are ``(alpha - epsilon)``-disclosive
   (Section 4.3's margin);
3. keep the first split whose new leaves are ``(alpha + epsilon)``-disclosive
   (Theorem 1), each hold at least ``min_leaf_weight`` of weight, and that
   shrinks the distance from ``U`` to the hull by the factor ``1 - gamma`` (the
   empirical test of the Remark after Lemma 3); if no leaf has one, stop.

Choices the paper leaves open, or where its text does not work as printed:

* ``progress``: Lemma 4 charges each point ``Z_j . (U' - U) - Q``. As
  printed, ``Q = ||U' - U|| f(gamma) + <R(V), U' - U>`` makes every cost
  negative whenever ``f > 0``, so the game's answer is the trivial split that
  keeps every point on side 1; the derivation from Lemma 3's condition (1)
  gives ``Q = <R(V), U' - U> - ||U' - U|| f(gamma)``. With that sign,
  ``progress="lemma3"`` asks side 1 to move ``f(gamma)`` (about 0.6 for
  gamma = 0.1) along ``d``, more than an alpha-box allows unless alpha is large,
  so the game mostly returns an empty side. The default ``progress="gamma"``
  asks for the first-order requirement of a ``1 - gamma`` step instead: side 1
  must reach ``margin * gamma * ||U - U'||`` beyond ``U'`` along ``d`` (cost
  ``<Z_j - U', -d> + margin gamma ||U - U'||``), trying each of ``margins`` in
  turn -- a larger margin asks for a smaller, purer side.
* ``max_iterations`` caps each game (the paper's ``T`` is astronomically
  large); a game that stops with its gap above ``epsilon`` is flagged
  ``stopped_short`` in ``splits_`` (the split is still verified as above).
* The relaxed proxy grows the same tree -- the stopping rule and the
  ``1 - gamma`` test use the distance to the hull, as SPEC section 5.3 fixes --
  and takes ``q`` from the relaxed QP. For disjoint groups and the uniform
  target the two proxies then accept the same distribution: ``p - U`` is
  orthogonal to ``U`` for every distribution ``p``, so the point of the cone
  closest to ``U`` is a multiple of the hull's closest point.

References
----------
Deng, Diana, Kearns, Roth, "Balanced Filtering via Non-Disclosive Proxies",
Definitions 6, 10-13, Lemmas 3-4, Algorithms 3-4, Theorems 1-2, Section 5 (the
relaxed proxy), Appendix A.1.2 (gamma = 0.1, depth 20, stop at 0.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from service.algorithms.balanced_filtering.ab_split import Leaf, build_tree, find_split, lemma3_f
from service.algorithms.balanced_filtering.base import BaseProxy
from service.algorithms.balanced_filtering.decide import assign_leaves
from service.algorithms.balanced_filtering.measures import conditional_matrix
from service.algorithms.balanced_filtering.oracle import RIDGE
from service.algorithms.balanced_filtering.qp import SamplingResult, solve_sampling
from service.algorithms.balanced_filtering.tree import LEAF, MIXTURE, ProxyTree, leaf_probabilities
from service.algorithms.validation import InputError

__all__ = ["ABTreeProxy", "ABTreeRelaxedProxy", "lemma3_f"]

class ABTreeProxy(BaseProxy):
    """(alpha, beta)-proxy tree (Algorithm 4); ``relaxed=True`` is the relaxed proxy.

    Parameters
    ----------
    alpha : float
        Disclosivity budget (Definition 5).
    gamma : float
        Each split must shrink the distance from ``U`` to the hull by ``1 - gamma``.
    epsilon : float
        Game accuracy (Theorem 1): the game targets ``alpha - epsilon``, a split
        is kept if its leaves are ``(alpha + epsilon)``-disclosive, and a game
        whose gap stays above ``epsilon`` is reported as stopped short.
    max_depth, stop_distance : int, float
        Appendix A.1.2's maximum height (20) and stopping distance (0.1).
    relaxed : bool
        Take ``q`` from the relaxed QP (no ``sum q = 1``); the tree is grown the same way.
    target : optional
        Target group shares (see :func:`~.groups.target_vector`); uniform by default.
    max_iterations, lambda_max, step_size : int, float, float
        Algorithm 3's iteration cap and dual bound / step (see :class:`~.game.GameSettings`).
    progress : {"gamma", "lemma3"}
        The split objective's required progress (see the module docstring).
    min_leaf_weight : float
        Least total weight (in training points) of a new leaf.
    ridge : float
        Relative ridge of the paired regressions.
    margins : tuple of float
        Progress thresholds tried in turn for each leaf (``progress="gamma"``).

    Attributes
    ----------
    tree_ : ProxyTree
    splits_ : list of dict
        Per kept split: node, depth, the game's iterations, gap, ``stopped_short``,
        objective, max_violation, the paper's T and lambda_max, the new leaves'
        disclosivity and shares, distance to the hull before and after.
    stop_reason_ : str
        ``within_stop_distance``, ``no_qualifying_split`` or ``max_depth``.
    games_played_, rejections_ : int, dict
        Games played in all, and candidate splits rejected per reason.
    hull_distance_ : float
        Distance from ``U`` to the hull of the final tree's rows (beta in-sample).
    """

    proxy_type = "ab_tree"

    def __init__(
        self,
        alpha: float = 0.1,
        gamma: float = 0.1,
        epsilon: float = 0.01,
        max_depth: int = 20,
        stop_distance: float = 0.1,
        relaxed: bool = False,
        target: Any = None,
        max_iterations: int = 300,
        lambda_max: float | None = None,
        step_size: float | None = None,
        progress: str = "gamma",
        min_leaf_weight: float = 30.0,
        ridge: float = RIDGE,
        margins: tuple[float, ...] = (1.0, 2.0, 4.0),
    ) -> None:
        self.alpha = alpha
        self.gamma = gamma
        self.epsilon = epsilon
        self.max_depth = max_depth
        self.stop_distance = stop_distance
        self.relaxed = relaxed
        self.target = target
        self.max_iterations = max_iterations
        self.lambda_max = lambda_max
        self.step_size = step_size
        self.progress = progress
        self.min_leaf_weight = min_leaf_weight
        self.ridge = ridge
        self.margins = margins

    # -- Algorithm 4 -------------------------------------------------------------------
    def _check_hyperparameters(self) -> None:
        checks = [
            ("alpha", self.alpha >= 0, "must be >= 0"),
            ("gamma", 0 < self.gamma < 1, "must be in (0, 1)"),
            ("epsilon", self.epsilon > 0, "must be > 0"),
            ("max_depth", self.max_depth >= 0, "must be >= 0"),
            ("stop_distance", self.stop_distance >= 0, "must be >= 0"),
            ("max_iterations", self.max_iterations >= 1, "must be >= 1"),
            ("min_leaf_weight", self.min_leaf_weight >= 0, "must be >= 0"),
            ("progress", self.progress in ("gamma", "lemma3"), "must be 'gamma' or 'lemma3'"),
            ("margins", len(self.margins) > 0 and min(self.margins) > 0, "must be positive numbers"),
        ]
        for name, ok, message in checks:
            if not ok:
                raise InputError(message, ("proxy", name))

    def _fit_proxy(self, X: np.ndarray, Z: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, SamplingResult]:
        self._check_hyperparameters()
        mean, scale = X.mean(axis=0), X.std(axis=0)
        scale[scale == 0] = 1.0
        X_std = np.hstack([(X - mean) / scale, np.ones((len(X), 1))])
        nodes: list[list[int]] = [[LEAF, -1, -1, -1]]  # feature, left, right, split index
        coefs: list[np.ndarray] = []
        phis: list[np.ndarray] = []
        leaves = [Leaf(node=0, depth=0, weights=np.ones(len(X)))]
        self.splits_: list[dict[str, Any]] = []
        self.games_played_ = 0
        self.rejections_ = {"small_leaf": 0, "disclosive": 0, "no_progress": 0}
        while True:
            A, r_hat = conditional_matrix(np.column_stack([leaf.weights for leaf in leaves]), Z)
            hull = solve_sampling(A, r_hat, self.target_)
            if hull.distance <= self.stop_distance:
                self.stop_reason_ = "within_stop_distance"
                break
            split = find_split(self, X_std, Z, leaves, A, r_hat, hull)
            if split is None:
                at_max = all(leaf.depth >= self.max_depth for leaf in leaves)
                self.stop_reason_ = "max_depth" if at_max else "no_qualifying_split"
                break
            j, game, oracle_coef, child1, child0, record = split
            leaf = leaves[j]
            left, right = len(nodes), len(nodes) + 1
            nodes[leaf.node] = [MIXTURE, left, right, len(coefs)]
            nodes += [[LEAF, -1, -1, -1], [LEAF, -1, -1, -1]]
            coefs.append(oracle_coef)
            phis.append(game.phi)
            leaves[j:j + 1] = [Leaf(left, leaf.depth + 1, child1), Leaf(right, leaf.depth + 1, child0)]
            self.splits_.append({"node": leaf.node, "depth": leaf.depth, **record})
        self.tree_ = build_tree(nodes, coefs, phis, leaves, mean, scale, Z.shape[1])
        self.n_leaves_ = len(leaves)
        self.hull_distance_ = hull.distance
        sampling = solve_sampling(A, r_hat, self.target_, relaxed=True) if self.relaxed else hull
        return np.column_stack([leaf.weights for leaf in leaves]), sampling

    # -- using the tree ------------------------------------------------------------------
    @property
    def any_stopped_short_(self) -> bool:
        return any(s["stopped_short"] for s in self.splits_)

    def leaf_probabilities(self, X: np.ndarray) -> np.ndarray:
        return leaf_probabilities(self.tree_, X)

    def assign_leaves(self, X: np.ndarray, candidate_ids: Sequence[Any] | np.ndarray, seed: int) -> np.ndarray:
        return assign_leaves(self.tree_, X, candidate_ids, seed)

    def _diagnostics(self) -> dict[str, Any]:
        return {
            "splits": self.splits_,
            "stop_reason": self.stop_reason_,
            "games_played": self.games_played_,
            "rejections": self.rejections_,
            "hull_distance": self.hull_distance_,
            "any_stopped_short": self.any_stopped_short_,
        }

    def _model_arrays(self) -> dict[str, np.ndarray]:
        return {f"tree.{k}": v for k, v in self.tree_.to_params().items()}

    def _load_model(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        self.tree_ = ProxyTree.from_params({k[5:]: v for k, v in arrays.items() if k.startswith("tree.")})
        diagnostics = meta.get("diagnostics", {})
        self.splits_ = list(diagnostics.get("splits", []))
        self.stop_reason_ = diagnostics.get("stop_reason", "")
        self.games_played_ = int(diagnostics.get("games_played", 0))
        self.rejections_ = dict(diagnostics.get("rejections", {}))
        self.hull_distance_ = float(diagnostics.get("hull_distance", float("nan")))


class ABTreeRelaxedProxy(ABTreeProxy):
    """The relaxed (alpha, beta)-proxy: the same tree with the relaxed QP (Section 5)."""

    proxy_type = "ab_tree_relaxed"

    def __init__(
        self,
        alpha: float = 0.1,
        gamma: float = 0.1,
        epsilon: float = 0.01,
        max_depth: int = 20,
        stop_distance: float = 0.1,
        relaxed: bool = True,
        target: Any = None,
        max_iterations: int = 300,
        lambda_max: float | None = None,
        step_size: float | None = None,
        progress: str = "gamma",
        min_leaf_weight: float = 30.0,
        ridge: float = RIDGE,
        margins: tuple[float, ...] = (1.0, 2.0, 4.0),
    ) -> None:
        super().__init__(
            alpha, gamma, epsilon, max_depth, stop_distance, relaxed, target, max_iterations,
            lambda_max, step_size, progress, min_leaf_weight, ridge, margins,
        )
