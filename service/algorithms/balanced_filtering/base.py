"""What every proxy shares: fitting flow, measures, decisions and plain parameters.

A proxy maps features to a proxy value (a "leaf": a tree leaf, or the
predicted group of a classifier) and carries the conditional matrix ``A``,
leaf rates ``r_hat``, target ``U`` and Algorithm 1's ``q`` and ``rho``. Its
parameters are plain arrays plus a JSON-able ``meta`` dict, never a pickle:
``to_params()`` returns ``{"meta": {...}, "arrays": {name: ndarray}}`` and
:func:`proxy_from_params` rebuilds a proxy that decides without scikit-learn
or cvxpy.

References
----------
Deng, Diana, Kearns, Roth, "Balanced Filtering via Non-Disclosive Proxies",
Algorithms 1-2, Definitions 2 and 5.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from sklearn.base import BaseEstimator

from service.algorithms.balanced_filtering.decide import decide
from service.algorithms.balanced_filtering.groups import GroupEncoding, encode_groups, target_vector
from service.algorithms.balanced_filtering.measures import (
    acceptance_rate,
    accepted_distribution,
    conditional_matrix,
    disclosivity,
    imbalance,
)
from service.algorithms.balanced_filtering.qp import SamplingResult
from service.algorithms.validation import InputError, as_matrix

__all__ = ["BaseProxy", "Decisions", "ProxyEvaluation", "library_versions"]

_SAMPLING_SCALARS = (
    "imbalance", "acceptance_rate", "distance", "in_hull", "relaxed", "status", "solver",
    "message", "iterations", "gap",
)
_SAMPLING_ARRAYS = ("q", "rho", "accepted_distribution", "closest_point")


def library_versions() -> dict[str, str]:
    """Versions of the libraries that shape a fitted proxy (stored with its parameters)."""
    return {name: importlib.metadata.version(name) for name in ("numpy", "scikit-learn", "cvxpy")}


@dataclass
class Decisions:
    """Algorithm 2 for a batch: each candidate's leaf, answer and acceptance probability."""

    leaf: np.ndarray
    accept: np.ndarray
    probability: np.ndarray


@dataclass
class ProxyEvaluation:
    """A proxy measured on a sample (in sample from ``fit``, out of sample from ``evaluate``)."""

    conditional_matrix: np.ndarray
    leaf_rates: np.ndarray
    base_rates: np.ndarray
    accepted_distribution: np.ndarray
    disclosivity: float
    imbalance: float
    acceptance_rate: float


def evaluate_membership(membership: np.ndarray, Z: np.ndarray, rho: np.ndarray, target: np.ndarray,
                        n_leaves: int) -> ProxyEvaluation:
    A, r_hat = conditional_matrix(membership, Z, n_leaves)
    base = Z.mean(axis=0)
    return ProxyEvaluation(
        conditional_matrix=A,
        leaf_rates=r_hat,
        base_rates=base,
        accepted_distribution=accepted_distribution(A, r_hat, rho),
        disclosivity=disclosivity(A, base, r_hat),
        imbalance=imbalance(A, r_hat, rho, target),
        acceptance_rate=acceptance_rate(r_hat, rho),
    )


def joint_codes(encoding: GroupEncoding, Z: np.ndarray) -> np.ndarray:
    """One integer per row for its combination of groups (its group, for disjoint groups)."""
    code = np.zeros(len(Z), dtype=np.int64)
    radix = 1
    for block in encoding.blocks:
        code += radix * np.argmax(Z[:, block], axis=1)
        radix *= block.stop - block.start
    return code


class BaseProxy(BaseEstimator):
    """Common flow; subclasses implement ``_fit_proxy``, ``leaf_probabilities``, ``assign_leaves``."""

    proxy_type: ClassVar[str] = ""

    # -- fitting -------------------------------------------------------------------
    def fit(
        self,
        X: Any,
        groups: Any,
        *,
        group_values: Sequence[Any] | None = None,
        rng: np.random.Generator | None = None,
    ) -> BaseProxy:
        """Learn the proxy from features and the training points' groups; returns ``self``.

        ``groups`` is one label per row, or one row of labels per group class
        (intersecting groups, Appendix A.2). ``rng`` seeds any randomness
        (scikit-learn's tie-breaking in trees); default ``default_rng(0)``.
        """
        X = as_matrix(X, ("features",))
        if len(np.asarray(groups, dtype=object)) != len(X):
            raise InputError(f"must have one entry per row of features ({len(X)})", ("groups",))
        encoding, Z = encode_groups(groups, group_values)
        self.groups_ = encoding
        self.n_features_in_ = X.shape[1]
        self.target_ = target_vector(encoding, self.target)
        self.base_rates_ = Z.mean(axis=0)
        rng = rng if rng is not None else np.random.default_rng(0)
        membership, sampling = self._fit_proxy(X, Z, rng)
        self._set_sampling(sampling)
        self.training_ = evaluate_membership(membership, Z, self.rho_, self.target_, self.n_leaves_)
        self.conditional_matrix_ = self.training_.conditional_matrix
        self.leaf_rates_ = self.training_.leaf_rates
        self.disclosivity_ = self.training_.disclosivity
        self.imbalance_ = self.training_.imbalance
        self.acceptance_rate_ = self.training_.acceptance_rate
        return self

    def _fit_proxy(self, X: np.ndarray, Z: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, SamplingResult]:
        """Fit the proxy; set ``n_leaves_``; return (training membership, SamplingResult)."""
        raise NotImplementedError

    def _set_sampling(self, sampling: SamplingResult) -> None:
        self.sampling_ = sampling
        self.q_ = sampling.q
        self.rho_ = sampling.rho

    # -- using a fitted proxy --------------------------------------------------------
    def leaf_probabilities(self, X: np.ndarray) -> np.ndarray:
        """``P(proxy value = j | x)``, shape (n, n_leaves)."""
        raise NotImplementedError

    def assign_leaves(self, X: np.ndarray, candidate_ids: Sequence[Any] | np.ndarray, seed: int) -> np.ndarray:
        """Each candidate's proxy value; random choices are fixed by ``(seed, id)``."""
        raise NotImplementedError

    def check_features(self, X: Any) -> np.ndarray:
        return as_matrix(X, ("features",), n_features=self.n_features_in_)

    def decide(self, X: Any, candidate_ids: Sequence[Any] | np.ndarray, seed: int) -> Decisions:
        """Algorithm 2 for a batch of candidates: no training, no solver, O(depth) numpy work."""
        X = self.check_features(X)
        if len(candidate_ids) != len(X):
            raise InputError(f"need one id per candidate ({len(X)})", ("candidates",))
        leaves = self.assign_leaves(X, candidate_ids, seed)
        accept, probability = decide(self.rho_, leaves, candidate_ids, seed)
        return Decisions(leaf=leaves, accept=accept, probability=probability)

    def evaluate(self, X: Any, groups: Any) -> ProxyEvaluation:
        """Disclosivity, imbalance and acceptance rate of this proxy and ``rho`` on another sample."""
        X = self.check_features(X)
        Z = self.groups_.indicators(groups)
        if len(Z) != len(X):
            raise InputError(f"must have one entry per row of features ({len(X)})", ("groups",))
        return evaluate_membership(self.leaf_probabilities(X), Z, self.rho_, self.target_, self.n_leaves_)

    # -- plain parameters ------------------------------------------------------------
    def _model_arrays(self) -> dict[str, np.ndarray]:
        raise NotImplementedError

    def _load_model(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        raise NotImplementedError

    def _diagnostics(self) -> dict[str, Any]:
        return {}

    def to_params(self) -> dict[str, Any]:
        """``{"meta": JSON-able dict, "arrays": {name: ndarray}}`` describing the fitted proxy."""
        hyper = {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in self.get_params().items()}
        s = self.sampling_
        arrays = {
            "conditional_matrix": self.conditional_matrix_,
            "leaf_rates": self.leaf_rates_,
            "target": self.target_,
            "base_rates": self.base_rates_,
            **{f"sampling.{name}": getattr(s, name) for name in _SAMPLING_ARRAYS},
            **self._model_arrays(),
        }
        meta = {
            "type": self.proxy_type,
            "hyperparameters": hyper,
            "groups": self.groups_.to_dict(),
            "group_names": self.groups_.names,
            "n_features": int(self.n_features_in_),
            "n_leaves": int(self.n_leaves_),
            "disclosivity": float(self.disclosivity_),
            "imbalance": float(self.imbalance_),
            "acceptance_rate": float(self.acceptance_rate_),
            "sampling": {name: getattr(s, name) for name in _SAMPLING_SCALARS},
            "diagnostics": self._diagnostics(),
            "versions": library_versions(),
        }
        return {"meta": meta, "arrays": {k: np.asarray(v) for k, v in arrays.items()}}

    @classmethod
    def _from_params(cls, params: dict[str, Any]) -> BaseProxy:
        meta, arrays = params["meta"], params["arrays"]
        proxy = cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in meta["hyperparameters"].items()})
        proxy.groups_ = GroupEncoding.from_dict(meta["groups"])
        proxy.n_features_in_ = int(meta["n_features"])
        proxy.n_leaves_ = int(meta["n_leaves"])
        proxy.target_ = np.asarray(arrays["target"], dtype=float)
        proxy.base_rates_ = np.asarray(arrays["base_rates"], dtype=float)
        proxy.conditional_matrix_ = np.asarray(arrays["conditional_matrix"], dtype=float)
        proxy.leaf_rates_ = np.asarray(arrays["leaf_rates"], dtype=float)
        proxy.disclosivity_ = float(meta["disclosivity"])
        proxy.imbalance_ = float(meta["imbalance"])
        proxy.acceptance_rate_ = float(meta["acceptance_rate"])
        array_fields: dict[str, Any] = {name: np.asarray(arrays[f"sampling.{name}"], dtype=float)
                                        for name in _SAMPLING_ARRAYS}
        sampling = SamplingResult(**array_fields, **meta["sampling"])
        proxy._set_sampling(sampling)
        proxy._load_model(arrays, meta)
        return proxy
