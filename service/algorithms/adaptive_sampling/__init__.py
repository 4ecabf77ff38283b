"""Adaptive sampling for minimax fair classification (Shekhar, Fields, Ghavamzadeh, Javidi 2021).

A group sampler's session is two pure steps on plain data: :func:`next_decision`
chooses the group to sample next and :func:`apply_observation` learns from the
losses of the retrained model. Managed mode refits the model itself with
:func:`fit_and_evaluate`. :func:`summary` is the session's counts, mixture and
losses.

Modules: ``steps`` (the decision rules of Algorithm 1, eq. 4 and eq. 6), ``state``
(configuration, state and decision records), ``scores`` (the UCB terms), ``trend``
(the Mann-Kendall statistic of the trend term), ``summary`` (where a session stands),
``model`` (managed mode's warm-started logistic regression and per-group losses).
"""

from service.algorithms.adaptive_sampling.model import (
    FitResult,
    GroupEvaluation,
    ManagedFit,
    WarmStartLogisticRegression,
    evaluate_groups,
    fit_and_evaluate,
)
from service.algorithms.adaptive_sampling.scores import ScoreComponents, score_components
from service.algorithms.adaptive_sampling.state import (
    AOPT_PLUS_DEFAULT_C1,
    REASONS,
    STRATEGIES,
    BudgetExhaustedError,
    Decision,
    SamplerConfig,
    SamplerState,
)
from service.algorithms.adaptive_sampling.steps import apply_observation, draws_random, next_decision, release, reserve
from service.algorithms.adaptive_sampling.summary import SamplerSummary, summary

__all__ = [
    "AOPT_PLUS_DEFAULT_C1",
    "REASONS",
    "STRATEGIES",
    "BudgetExhaustedError",
    "Decision",
    "FitResult",
    "GroupEvaluation",
    "ManagedFit",
    "SamplerConfig",
    "SamplerState",
    "SamplerSummary",
    "ScoreComponents",
    "WarmStartLogisticRegression",
    "apply_observation",
    "draws_random",
    "evaluate_groups",
    "fit_and_evaluate",
    "next_decision",
    "release",
    "reserve",
    "score_components",
    "summary",
]
