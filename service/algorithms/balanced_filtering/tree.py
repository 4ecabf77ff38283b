"""Proxy trees as plain node tables, and routing points to their leaves.

One table holds both kinds of tree the filters use:

* axis-aligned splits from scikit-learn (naive and QP tree proxies):
  ``feature[node] >= 0``, go left when ``x[feature] <= threshold`` -- compared
  in float32 as scikit-learn does, so leaves match ``DecisionTreeClassifier``;
* randomised linear splits of the (alpha, beta)-proxy (``feature[node] ==
  MIXTURE``): the uniform distribution over T linear classifiers learned by
  Algorithm 3 (a randomised splitting function, Definition 9). Classifier t
  sends ``x`` left (the split's side "1") when ``[x_std, 1] @ coef @ phi_t < 0``,
  where ``x_std = (x - feature_mean) / feature_scale``, ``coef`` maps features
  to the paired regressions' predictions (Definition 14) and ``phi_t`` is the
  cost vector of round t.

``leaf_index`` is the proxy value of a leaf (several leaves may share one, as
when a tree's proxy is its predicted group). Routing through a randomised split
needs one uniform number per point and tree level: ``leaf_of(tree, X, u)``
picks classifier ``floor(u * T)``; :func:`leaf_probabilities` gives the exact
distribution over leaves instead.

References
----------
Deng, Diana, Kearns, Roth, "Balanced Filtering via Non-Disclosive Proxies",
Definitions 9-12 (randomised splits, sample weights, vertex split), Section 4.3.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from service.algorithms.validation import InputError

__all__ = ["LEAF", "MIXTURE", "ProxyTree", "leaf_of", "leaf_probabilities", "tree_from_sklearn"]

LEAF = -1
MIXTURE = -2

_ARRAYS = (
    "feature", "threshold", "left", "right", "leaf_index", "split_index",
    "split_coef", "split_phi", "split_offset", "feature_mean", "feature_scale",
)


@dataclass(frozen=True, eq=False)
class ProxyTree:
    """A proxy tree's node table (see the module docstring for the semantics)."""

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    leaf_index: np.ndarray
    split_index: np.ndarray
    split_coef: np.ndarray
    split_phi: np.ndarray
    split_offset: np.ndarray
    feature_mean: np.ndarray
    feature_scale: np.ndarray
    n_leaves: int

    @property
    def n_features(self) -> int:
        return len(self.feature_mean)

    @property
    def n_nodes(self) -> int:
        return len(self.feature)

    @cached_property
    def depth(self) -> int:
        """Number of splits on the longest root-to-leaf path."""
        depth = np.zeros(self.n_nodes, dtype=np.int64)
        for node in range(self.n_nodes):  # children always have larger ids than parents
            if self.feature[node] != LEAF:
                depth[self.left[node]] = depth[self.right[node]] = depth[node] + 1
        return int(depth.max())

    @cached_property
    def randomised(self) -> bool:
        return bool(np.any(self.feature == MIXTURE))

    def mixture(self, node: int) -> tuple[np.ndarray, np.ndarray]:
        """``(coef, phi)`` of a randomised split: (n_features + 1, B) and (T, B)."""
        s = int(self.split_index[node])
        return self.split_coef[s], self.split_phi[self.split_offset[s]:self.split_offset[s + 1]]

    def summary(self) -> list[dict[str, Any]]:
        """JSON-friendly node list (for showing a tree; ``to_params`` is what decides)."""
        nodes = []
        for node in range(self.n_nodes):
            feat = int(self.feature[node])
            entry: dict[str, Any] = {"node": node}
            if feat == LEAF:
                entry.update(kind="leaf", leaf=int(self.leaf_index[node]))
            else:
                entry.update(left=int(self.left[node]), right=int(self.right[node]))
                if feat >= 0:
                    entry.update(kind="axis", feature=feat, threshold=float(self.threshold[node]))
                else:
                    entry.update(kind="randomised", classifiers=len(self.mixture(node)[1]))
            nodes.append(entry)
        return nodes

    def to_params(self) -> dict[str, np.ndarray]:
        """Plain arrays (store with ``np.savez_compressed``; load with ``allow_pickle=False``)."""
        params = {name: np.asarray(getattr(self, name)) for name in _ARRAYS}
        params["n_leaves"] = np.asarray(self.n_leaves, dtype=np.int64)
        return params

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> ProxyTree:
        ints = {"feature", "left", "right", "leaf_index", "split_index", "split_offset"}
        values = {
            name: np.asarray(params[name], dtype=np.int64 if name in ints else np.float64)
            for name in _ARRAYS
        }
        n_nodes = len(values["feature"])
        if any(len(values[n]) != n_nodes for n in ("threshold", "left", "right", "leaf_index", "split_index")):
            raise InputError("tree node arrays must all have one entry per node")
        return cls(**values, n_leaves=int(np.asarray(params["n_leaves"])))


def tree_from_sklearn(estimator: Any, n_features: int) -> ProxyTree:
    """Node table of a fitted ``DecisionTreeClassifier``; a leaf's proxy value is its predicted class."""
    t = estimator.tree_
    is_leaf = t.children_left < 0
    n_classes = t.value.shape[2]
    return ProxyTree(
        feature=np.where(is_leaf, LEAF, t.feature).astype(np.int64),
        threshold=np.where(is_leaf, 0.0, t.threshold).astype(np.float64),
        left=t.children_left.astype(np.int64),
        right=t.children_right.astype(np.int64),
        leaf_index=np.where(is_leaf, np.argmax(t.value[:, 0, :], axis=1), -1).astype(np.int64),
        split_index=np.full(t.node_count, -1, dtype=np.int64),
        split_coef=np.zeros((0, n_features + 1, 1)),
        split_phi=np.zeros((0, 1)),
        split_offset=np.zeros(1, dtype=np.int64),
        feature_mean=np.zeros(n_features),
        feature_scale=np.ones(n_features),
        n_leaves=int(n_classes),
    )


def _standardised(tree: ProxyTree, X: np.ndarray) -> np.ndarray:
    return np.asarray((X - tree.feature_mean) / tree.feature_scale)


def _mixture_scores(tree: ProxyTree, node: int, X_std: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    coef, phi = tree.mixture(node)
    return X_std @ coef[:-1] + coef[-1], phi


def leaf_of(tree: ProxyTree, X: np.ndarray, uniforms: np.ndarray | None = None) -> np.ndarray:
    """Leaf (proxy value) of each row, vectorised level by level: O(depth) numpy passes.

    Parameters
    ----------
    tree : ProxyTree
    X : ndarray, shape (n, n_features)
    uniforms : ndarray, shape (n, depth), optional
        Needed when the tree has randomised splits: column ``level`` picks the
        classifier used at that level (see :func:`assign_leaves` for uniforms
        derived from candidate ids).
    """
    n = X.shape[0]
    node = np.zeros(n, dtype=np.int64)
    X32 = X.astype(np.float32) if np.any(tree.feature >= 0) else X
    X_std = None
    if tree.randomised:
        if uniforms is None:
            raise InputError("this tree has randomised splits: pass one uniform per row and level")
        X_std = _standardised(tree, X)
    for level in range(tree.depth):
        feat = tree.feature[node]
        axis = np.flatnonzero(feat >= 0)
        if len(axis):
            at = node[axis]
            go_left = X32[axis, feat[axis]] <= tree.threshold[at]
            node[axis] = np.where(go_left, tree.left[at], tree.right[at])
        mixed = np.flatnonzero(feat == MIXTURE)
        if len(mixed):
            assert X_std is not None and uniforms is not None, "a tree with mixture nodes is randomised"
            at = node[mixed]
            for split_node in np.unique(at):
                rows = mixed[at == split_node]
                scores, phi = _mixture_scores(tree, int(split_node), X_std[rows])
                pick = np.minimum((uniforms[rows, level] * len(phi)).astype(np.int64), len(phi) - 1)
                go_left = np.einsum("ij,ij->i", scores, phi[pick]) < 0
                node[rows] = np.where(go_left, tree.left[split_node], tree.right[split_node])
    return tree.leaf_index[node]


def leaf_probabilities(tree: ProxyTree, X: np.ndarray) -> np.ndarray:
    """``P(leaf = j | x)`` for each row, shape (n, n_leaves); one-hot for deterministic trees."""
    n = X.shape[0]
    out = np.zeros((n, tree.n_leaves))
    if not tree.randomised:
        out[np.arange(n), leaf_of(tree, X)] = 1.0
        return out
    X32 = X.astype(np.float32)
    X_std = _standardised(tree, X)
    stack = [(0, np.arange(n), np.ones(n))]
    while stack:
        node, rows, p = stack.pop()
        feat = tree.feature[node]
        if feat == LEAF:
            out[rows, tree.leaf_index[node]] += p
            continue
        if feat >= 0:
            p_left = (X32[rows, feat] <= tree.threshold[node]).astype(float)
        else:
            scores, phi = _mixture_scores(tree, node, X_std[rows])
            p_left = np.mean(scores @ phi.T < 0, axis=1)
        for child, share in ((tree.left[node], p_left), (tree.right[node], 1.0 - p_left)):
            keep = share > 0
            if keep.any():
                stack.append((int(child), rows[keep], p[keep] * share[keep]))
    return out
