"""Fitted base regressors ``f : X → [0, 1]`` as plain parameters, predicted in numpy.

Both kinds compute a raw score and map it to ``[0, 1]`` with a stored affine map and a
clip, ``f(x) = clip(output_offset + output_scale · raw(x), 0, 1)``:

* :class:`LinearRegressor` — ``raw(x) = x · coef + intercept`` (least squares: scale 1,
  offset 0; logistic: the log-odds ``s`` with ``u = 1/2 + s / (2C)``, Example 2);
* :class:`TreeEnsembleRegressor` — a gradient-boosted ensemble,
  ``raw(x) = init + learning_rate · Σ_t value_t(leaf_t(x))``. The trees of one ensemble are
  concatenated into node arrays ``feature, threshold, left, right, value`` (``left = right =
  -1`` at a leaf; child indices are local to the tree) with ``tree_offsets`` giving the
  first node of each tree. A sample goes left when ``x[feature] <= threshold`` with ``x``
  rounded to float32 first, exactly as scikit-learn's trees compare, so predictions from
  the parameters equal the fitted scikit-learn model's bit for bit.

``to_params()`` returns a dict of JSON scalars and numpy arrays; ``regressor_from_params``
accepts the same dict (arrays may also be lists, e.g. after a JSON round trip). Nothing
is ever pickled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from service.algorithms.validation import InputError

__all__ = ["LinearRegressor", "TreeEnsembleRegressor", "regressor_from_params"]

# Rows per block when walking the trees, so that the (rows × trees) node-index matrix
# stays around 16 MB however many rows are predicted at once.
TREE_PREDICT_BLOCK = 20_000


def _unit(raw: np.ndarray, scale: float, offset: float) -> np.ndarray:
    return np.clip(offset + scale * raw, 0.0, 1.0)


@dataclass(frozen=True)
class LinearRegressor:
    """``f(x) = clip(output_offset + output_scale · (x · coef + intercept), 0, 1)``."""

    coef: np.ndarray
    intercept: float
    output_scale: float = 1.0
    output_offset: float = 0.0

    @property
    def n_features(self) -> int:
        return len(self.coef)

    def raw(self, X: np.ndarray) -> np.ndarray:
        return np.asarray(X @ self.coef + self.intercept)

    def predict(self, X: np.ndarray) -> np.ndarray:
        return _unit(self.raw(X), self.output_scale, self.output_offset)

    def to_params(self) -> dict[str, Any]:
        return {"type": "linear", "coef": np.asarray(self.coef, dtype=float),
                "intercept": float(self.intercept), "output_scale": float(self.output_scale),
                "output_offset": float(self.output_offset)}


@dataclass(frozen=True)
class TreeEnsembleRegressor:
    """A boosted tree ensemble stored as concatenated node arrays (see the module docstring)."""

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray
    tree_offsets: np.ndarray
    init: float
    learning_rate: float
    n_features: int
    output_scale: float = 1.0
    output_offset: float = 0.0

    @classmethod
    def from_sklearn(cls, model: Any, n_features: int, output_scale: float = 1.0,
                     output_offset: float = 0.0) -> TreeEnsembleRegressor:
        """Read the node tables of a fitted ``GradientBoostingRegressor``/binary ``…Classifier``."""
        trees = [stage[0].tree_ for stage in model.estimators_]
        sizes = np.array([t.node_count for t in trees], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        # The init estimator's raw score is the same for every row; scikit-learn keeps it
        # behind a private method, so the round-trip tests pin this down.
        probe = np.zeros((1, n_features))
        init = float(np.ravel(model._raw_predict_init(probe))[0])
        return cls(
            feature=np.concatenate([t.feature for t in trees]).astype(np.int32),
            threshold=np.concatenate([t.threshold for t in trees]).astype(float),
            left=np.concatenate([t.children_left for t in trees]).astype(np.int32),
            right=np.concatenate([t.children_right for t in trees]).astype(np.int32),
            value=np.concatenate([t.value.reshape(-1) for t in trees]).astype(float),
            tree_offsets=offsets, init=init, learning_rate=float(model.learning_rate),
            n_features=n_features, output_scale=output_scale, output_offset=output_offset)

    @property
    def n_trees(self) -> int:
        return len(self.tree_offsets)

    def raw(self, X: np.ndarray) -> np.ndarray:
        X32 = np.asarray(X, dtype=np.float32).astype(float)
        out = np.full(len(X32), self.init, dtype=float)
        if self.n_trees == 0:
            return out
        offsets = self.tree_offsets.astype(np.int64)
        left = np.where(self.left >= 0, self.left.astype(np.int64) + self._owner_offset(), -1)
        right = np.where(self.right >= 0, self.right.astype(np.int64) + self._owner_offset(), -1)
        for start in range(0, len(X32), TREE_PREDICT_BLOCK):
            block = X32[start:start + TREE_PREDICT_BLOCK]
            rows = np.arange(len(block))[:, None]
            node = np.broadcast_to(offsets, (len(block), self.n_trees)).copy()
            while True:
                inner = left[node] >= 0
                if not inner.any():
                    break
                go_left = block[rows, np.maximum(self.feature[node], 0)] <= self.threshold[node]
                node = np.where(inner, np.where(go_left, left[node], right[node]), node)
            leaf_values = self.value[node]
            acc = out[start:start + TREE_PREDICT_BLOCK]
            for t in range(self.n_trees):  # stage by stage, the order scikit-learn sums in
                acc += self.learning_rate * leaf_values[:, t]
        return out

    def _owner_offset(self) -> np.ndarray:
        sizes = np.diff(np.append(self.tree_offsets, len(self.feature)))
        return np.repeat(self.tree_offsets.astype(np.int64), sizes)

    def predict(self, X: np.ndarray) -> np.ndarray:
        return _unit(self.raw(X), self.output_scale, self.output_offset)

    def to_params(self) -> dict[str, Any]:
        return {"type": "gradient_boosting", "init": float(self.init),
                "learning_rate": float(self.learning_rate), "n_features": int(self.n_features),
                "output_scale": float(self.output_scale), "output_offset": float(self.output_offset),
                "feature": self.feature, "threshold": self.threshold, "left": self.left,
                "right": self.right, "value": self.value, "tree_offsets": self.tree_offsets}


Regressor = LinearRegressor | TreeEnsembleRegressor


def regressor_from_params(params: dict[str, Any]) -> Regressor:
    """Rebuild a regressor from :meth:`to_params` output; raises ``InputError`` if malformed."""
    kind = params.get("type")
    scale = float(params.get("output_scale", 1.0))
    offset = float(params.get("output_offset", 0.0))
    if kind == "linear":
        return LinearRegressor(np.asarray(params["coef"], dtype=float), float(params["intercept"]),
                               scale, offset)
    if kind == "gradient_boosting":
        arrays = {k: np.asarray(params[k]) for k in ("feature", "threshold", "left", "right", "value")}
        n_nodes = len(arrays["feature"])
        if any(len(a) != n_nodes for a in arrays.values()):
            raise InputError("gradient_boosting params: node arrays differ in length")
        return TreeEnsembleRegressor(
            feature=arrays["feature"].astype(np.int32), threshold=arrays["threshold"].astype(float),
            left=arrays["left"].astype(np.int32), right=arrays["right"].astype(np.int32),
            value=arrays["value"].astype(float),
            tree_offsets=np.asarray(params["tree_offsets"], dtype=np.int64).reshape(-1),
            init=float(params["init"]), learning_rate=float(params["learning_rate"]),
            n_features=int(params["n_features"]), output_scale=scale, output_offset=offset)
    raise InputError(f"unknown regressor type {kind!r}; expected 'linear' or 'gradient_boosting'")
