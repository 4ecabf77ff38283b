"""Balanced filtering via non-disclosive proxies (Deng, Diana, Kearns, Roth).

Fit a proxy in a worker (``make_proxy(type, **params).fit(X, groups, rng=rng)``),
store ``proxy.to_params()`` (JSON ``meta`` + numpy ``arrays``), and decide on
the request path with ``proxy_from_params(params).decide(X, ids, seed)`` -- no
training and no cvxpy there. ``solve_sampling`` is Algorithm 1 on its own
(the stateless ``/v1/sampling-probabilities``).

Modules: ``qp`` (Algorithm 1, cached cvxpy problems), ``reference`` (an
independent projected-gradient solver), ``measures`` (A, disclosivity,
imbalance), ``tree`` and ``decide`` (node tables, vectorised routing, coins
fixed by candidate id), ``oracle`` and ``game`` (Definition 14, Algorithm 3),
``ab_tree`` and ``ab_split`` (Algorithm 4 and its split search), ``proxies`` (naive and QP baselines),
``interpolation`` (Appendix A.1.1), ``groups`` (disjoint and intersecting
groups), ``session`` (running counts), ``factory`` (proxies by name).
"""

from service.algorithms.balanced_filtering.ab_tree import ABTreeProxy, ABTreeRelaxedProxy
from service.algorithms.balanced_filtering.base import BaseProxy, Decisions, ProxyEvaluation
from service.algorithms.balanced_filtering.decide import assign_leaves, candidate_uniforms, decide
from service.algorithms.balanced_filtering.factory import PROXY_TYPES, make_proxy, proxy_from_params
from service.algorithms.balanced_filtering.game import GameSettings, SplitGameResult, play_split_game
from service.algorithms.balanced_filtering.groups import GroupEncoding, encode_groups, target_vector
from service.algorithms.balanced_filtering.interpolation import (
    ETAS,
    TradeoffPoint,
    interpolate_proxy,
    tradeoff_curve,
)
from service.algorithms.balanced_filtering.measures import (
    acceptance_rate,
    accepted_distribution,
    conditional_matrix,
    disclosivity,
    imbalance,
    min_imbalance_bound,
)
from service.algorithms.balanced_filtering.oracle import PairedRegressionOracle
from service.algorithms.balanced_filtering.proxies import (
    NaiveLogisticProxy,
    NaiveTreeProxy,
    QPLogisticProxy,
    QPTreeProxy,
)
from service.algorithms.balanced_filtering.qp import (
    SamplingQP,
    SamplingResult,
    get_sampling_qp,
    naive_sampling,
    solve_sampling,
)
from service.algorithms.balanced_filtering.reference import project_simplex, solve_sampling_reference
from service.algorithms.balanced_filtering.session import (
    FilterCounts,
    realized_imbalance,
    record_decisions,
    record_outcomes,
)
from service.algorithms.balanced_filtering.tree import ProxyTree, leaf_of, leaf_probabilities

__all__ = [
    "ABTreeProxy",
    "ABTreeRelaxedProxy",
    "BaseProxy",
    "Decisions",
    "ETAS",
    "FilterCounts",
    "GameSettings",
    "GroupEncoding",
    "NaiveLogisticProxy",
    "NaiveTreeProxy",
    "PROXY_TYPES",
    "PairedRegressionOracle",
    "ProxyEvaluation",
    "ProxyTree",
    "QPLogisticProxy",
    "QPTreeProxy",
    "SamplingQP",
    "SamplingResult",
    "SplitGameResult",
    "TradeoffPoint",
    "acceptance_rate",
    "accepted_distribution",
    "assign_leaves",
    "candidate_uniforms",
    "conditional_matrix",
    "decide",
    "disclosivity",
    "encode_groups",
    "get_sampling_qp",
    "imbalance",
    "interpolate_proxy",
    "leaf_of",
    "leaf_probabilities",
    "make_proxy",
    "min_imbalance_bound",
    "naive_sampling",
    "play_split_game",
    "project_simplex",
    "proxy_from_params",
    "realized_imbalance",
    "record_decisions",
    "record_outcomes",
    "solve_sampling",
    "solve_sampling_reference",
    "target_vector",
    "tradeoff_curve",
]
