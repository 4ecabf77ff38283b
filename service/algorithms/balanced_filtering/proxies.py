"""The baseline proxies of Section 5: a classifier trained to predict the group.

* naive tree / naive logistic: the proxy value is the predicted group (for
  intersecting groups: the predicted combination of groups), and every
  predicted group contributes equally to the accepted sample;
* QP tree / QP logistic: the same proxy with Algorithm 1's sampling
  probabilities (``relaxed=True`` for the relaxed QP).

The tree is scikit-learn's ``DecisionTreeClassifier`` stored as a
:class:`~.tree.ProxyTree` whose leaves carry their predicted group; the
multinomial logistic regression is stored as its coefficients in the original
feature units, and its "leaf" is the argmax class -- so both decide through the
same path as the (alpha, beta)-proxy. Proxy value ``j`` is the ``j``-th
combination of groups present in the training data (``classes_``).

References
----------
Deng, Diana, Kearns, Roth, "Balanced Filtering via Non-Disclosive Proxies",
Section 5, proxies (1) and (2).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier

from service.algorithms.balanced_filtering.base import BaseProxy, joint_codes
from service.algorithms.balanced_filtering.decide import assign_leaves
from service.algorithms.balanced_filtering.measures import conditional_matrix
from service.algorithms.balanced_filtering.qp import SamplingResult, naive_sampling, solve_sampling
from service.algorithms.balanced_filtering.tree import ProxyTree, leaf_probabilities, tree_from_sklearn
from service.algorithms.validation import InputError

__all__ = ["NaiveLogisticProxy", "NaiveTreeProxy", "QPLogisticProxy", "QPTreeProxy"]


class _GroupClassifierProxy(BaseProxy):
    naive: bool = False

    def _sampling(self, membership: np.ndarray, Z: np.ndarray) -> SamplingResult:
        A, r_hat = conditional_matrix(membership, Z, self.n_leaves_)
        if self.naive:
            return naive_sampling(A, r_hat, self.target_)
        return solve_sampling(A, r_hat, self.target_, relaxed=self.relaxed)

    def _classes(self, Z: np.ndarray) -> np.ndarray:
        classes, labels = np.unique(joint_codes(self.groups_, Z), return_inverse=True)
        self.classes_ = classes
        self.n_leaves_ = len(classes)
        return labels


class _TreeProxy(_GroupClassifierProxy):
    def __init__(self, max_depth: int | None = 20, min_samples_leaf: int = 1, target: Any = None,
                 relaxed: bool = False) -> None:
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.target = target
        self.relaxed = relaxed

    def _fit_proxy(self, X: np.ndarray, Z: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, SamplingResult]:
        labels = self._classes(Z)
        model = DecisionTreeClassifier(
            max_depth=self.max_depth,
            min_samples_leaf=self.min_samples_leaf,
            random_state=int(rng.integers(2**31 - 1)),
        ).fit(X, labels)
        self.tree_ = tree_from_sklearn(model, X.shape[1])
        membership = self.tree_.leaf_index[model.apply(X)]
        return membership, self._sampling(membership, Z)

    def leaf_probabilities(self, X: np.ndarray) -> np.ndarray:
        return leaf_probabilities(self.tree_, X)

    def assign_leaves(self, X: np.ndarray, candidate_ids: Sequence[Any] | np.ndarray, seed: int) -> np.ndarray:
        return assign_leaves(self.tree_, X, candidate_ids, seed)

    def _model_arrays(self) -> dict[str, np.ndarray]:
        return {"classes": self.classes_, **{f"tree.{k}": v for k, v in self.tree_.to_params().items()}}

    def _load_model(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        self.classes_ = np.asarray(arrays["classes"], dtype=np.int64)
        self.tree_ = ProxyTree.from_params({k[5:]: v for k, v in arrays.items() if k.startswith("tree.")})


class _LogisticProxy(_GroupClassifierProxy):
    def __init__(self, C: float = 1.0, max_iter: int = 1000, target: Any = None, relaxed: bool = False) -> None:
        self.C = C
        self.max_iter = max_iter
        self.target = target
        self.relaxed = relaxed

    def _fit_proxy(self, X: np.ndarray, Z: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, SamplingResult]:
        labels = self._classes(Z)
        if self.n_leaves_ < 2:
            raise InputError("the training data must contain at least two groups", ("groups",))
        mean, scale = X.mean(axis=0), X.std(axis=0)
        scale[scale == 0] = 1.0
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            model = LogisticRegression(C=self.C, max_iter=self.max_iter).fit((X - mean) / scale, labels)
        self.converged_ = not any(issubclass(w.category, ConvergenceWarning) for w in caught)
        coef = model.coef_ / scale
        intercept = model.intercept_ - coef @ mean
        if self.n_leaves_ == 2:  # scikit-learn keeps one row for two classes: logit of class 1
            coef, intercept = np.vstack([np.zeros_like(coef), coef]), np.append(0.0, intercept)
        self.coef_, self.intercept_ = coef, intercept
        membership = self._predict(X)
        return membership, self._sampling(membership, Z)

    def _predict(self, X: np.ndarray) -> np.ndarray:
        return np.asarray(np.argmax(X @ self.coef_.T + self.intercept_, axis=1))

    def leaf_probabilities(self, X: np.ndarray) -> np.ndarray:
        out = np.zeros((len(X), self.n_leaves_))
        out[np.arange(len(X)), self._predict(X)] = 1.0
        return out

    def assign_leaves(self, X: np.ndarray, candidate_ids: Sequence[Any] | np.ndarray, seed: int) -> np.ndarray:
        return self._predict(X)

    def _diagnostics(self) -> dict[str, Any]:
        return {"converged": self.converged_}

    def _model_arrays(self) -> dict[str, np.ndarray]:
        return {"classes": self.classes_, "logistic.coef": self.coef_, "logistic.intercept": self.intercept_}

    def _load_model(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        self.converged_ = bool(meta.get("diagnostics", {}).get("converged", True))
        self.classes_ = np.asarray(arrays["classes"], dtype=np.int64)
        self.coef_ = np.asarray(arrays["logistic.coef"], dtype=float)
        self.intercept_ = np.asarray(arrays["logistic.intercept"], dtype=float)


class NaiveTreeProxy(_TreeProxy):
    """Decision tree predicting the group; each predicted group contributes equally."""

    proxy_type = "naive_tree"
    naive = True


class QPTreeProxy(_TreeProxy):
    """Decision tree predicting the group, with Algorithm 1's sampling probabilities."""

    proxy_type = "qp_tree"


class NaiveLogisticProxy(_LogisticProxy):
    """Multinomial logistic regression predicting the group; predicted groups contribute equally."""

    proxy_type = "naive_logistic"
    naive = True


class QPLogisticProxy(_LogisticProxy):
    """Multinomial logistic regression predicting the group, with Algorithm 1's probabilities."""

    proxy_type = "qp_logistic"
