"""Fair regression by reductions (Agarwal, Dudík, Wu 2019): statistical parity and bounded group loss.

Entry points (pure, deterministic given ``rng``; no I/O):

* :func:`fit_statistical_parity` — Algorithm 1 with the least-squares, loss-minimisation or
  cost-sensitive oracle;
* :func:`sweep` — Algorithm 1 over a list of slacks, with the Pareto frontier;
* :func:`fit_bounded_group_loss` — Algorithm 2 with its infeasibility check;
* :class:`FairRegressionPredictor` — the fitted distribution ``Q`` over base regressors,
  ``predict(X, mode="expected" | "randomized", rng)``, ``to_params()`` / ``from_params()``;
* :func:`evaluate_predictor`, :func:`sp_disparity`, :func:`group_losses` — the paper's
  measures on any data;
* :class:`StatisticalParityRegressor`, :class:`BoundedGroupLossRegressor` — the same fits as
  scikit-learn-style estimators (``fit(X, y, groups)`` returns ``self``).

Module map: ``losses`` (1-Lipschitz losses, label scaling), ``discretization`` (Section 4.1),
``regressors`` / ``linear_learner`` / ``boosting_learner`` / ``learners`` (base class and
oracles' learners), ``saddle_point`` (the shared exponentiated-gradient loop),
``sp_problem`` + ``statistical_parity`` (Algorithm 1), ``bounded_group_loss`` (Algorithm 2),
``predictor``, ``evaluation``, ``results``, ``inputs``, ``estimators``.
"""

from service.algorithms.fair_regression.boosting_learner import GradientBoostingLearner
from service.algorithms.fair_regression.bounded_group_loss import fit_bounded_group_loss
from service.algorithms.fair_regression.estimators import BoundedGroupLossRegressor, StatisticalParityRegressor
from service.algorithms.fair_regression.evaluation import evaluate_predictor, group_losses, sp_disparity
from service.algorithms.fair_regression.learners import LEARNER_TYPES, make_learner
from service.algorithms.fair_regression.linear_learner import LinearLearner
from service.algorithms.fair_regression.losses import LOGISTIC_C, LOSS_NAMES, LabelScaling, Loss, get_loss
from service.algorithms.fair_regression.predictor import (
    PARAMS_FORMAT,
    PREDICTION_MODES,
    FairRegressionPredictor,
    join_params,
    split_params,
)
from service.algorithms.fair_regression.results import FairRegressionResult, SweepResult
from service.algorithms.fair_regression.sp_problem import ORACLES
from service.algorithms.fair_regression.statistical_parity import (
    fit_statistical_parity,
    pareto_frontier,
    sweep,
)

__all__ = [
    "LEARNER_TYPES",
    "LOGISTIC_C",
    "LOSS_NAMES",
    "ORACLES",
    "PARAMS_FORMAT",
    "PREDICTION_MODES",
    "BoundedGroupLossRegressor",
    "FairRegressionPredictor",
    "FairRegressionResult",
    "GradientBoostingLearner",
    "LabelScaling",
    "LinearLearner",
    "Loss",
    "StatisticalParityRegressor",
    "SweepResult",
    "evaluate_predictor",
    "fit_bounded_group_loss",
    "fit_statistical_parity",
    "get_loss",
    "group_losses",
    "join_params",
    "make_learner",
    "pareto_frontier",
    "split_params",
    "sp_disparity",
    "sweep",
]
