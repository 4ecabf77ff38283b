"""DataSift: data acquisition for model fairness with a bandit over pool partitions (Hasan, Pradhan).

Interactive mode is two pure steps on plain data: :func:`next_decision` picks a
partition and its batch, :func:`apply_feedback` keeps or rejects the batch and
shares the reward. Managed mode runs the whole acquisition with
:func:`run_acquisition` (DataSift and DataSift-Inf) on a pool split by
:func:`partition_pool`.

Modules: ``steps`` (Algorithm 1's steps, eq. 2's UCB choice), ``state`` (configuration,
state, records and the session errors), ``setup`` (a fresh bandit, item order),
``config`` (the hyperparameters), ``guard`` (beyond the paper: the accuracy-aware reward and
acceptance guard), ``rewards`` (eq. 1 and eq. 2), ``partitions`` (the GMM or by-column pool split),
``pool`` (the partitioning space and a fresh bandit over a pool, for the partitioning job),
``influence`` (the logistic model, fairness surrogate and influence of eq. 5),
``run`` (managed mode end to end), ``baselines`` (the flat-pool baselines of the paper's
experiments).
"""

from service.algorithms.datasift.baselines import BASELINES, run_baseline
from service.algorithms.datasift.config import (
    ACCEPTANCES,
    BATCH_SELECTIONS,
    METRICS,
    REWARD_SCALES,
    REWARDS,
    STOP_REASONS,
    BanditConfig,
)
from service.algorithms.datasift.guard import needs_accuracy_influence, pool_accuracy_influence, within_guard
from service.algorithms.datasift.influence import LogisticModel, fit_logistic
from service.algorithms.datasift.partitions import Partitioning, PartitionStats, partition_pool
from service.algorithms.datasift.pool import InfluenceData, PreparedPool, partition_space, prepare_pool
from service.algorithms.datasift.rewards import shared_rewards, ucb_scores
from service.algorithms.datasift.run import AcquisitionResult, Evaluator, LabeledData, pool_influence, run_acquisition
from service.algorithms.datasift.setup import init_state, reorder_remaining
from service.algorithms.datasift.state import (
    BanditFinishedError,
    BanditReservedError,
    BanditState,
    DataSiftError,
    Decision,
    FeedbackResult,
    StaleDecisionError,
)
from service.algorithms.datasift.steps import apply_feedback, next_decision, partition_scores, release, reserve

__all__ = [
    "ACCEPTANCES",
    "BASELINES",
    "BATCH_SELECTIONS",
    "METRICS",
    "REWARDS",
    "REWARD_SCALES",
    "STOP_REASONS",
    "AcquisitionResult",
    "BanditConfig",
    "BanditFinishedError",
    "BanditReservedError",
    "BanditState",
    "DataSiftError",
    "Decision",
    "Evaluator",
    "FeedbackResult",
    "InfluenceData",
    "LabeledData",
    "LogisticModel",
    "PartitionStats",
    "Partitioning",
    "PreparedPool",
    "StaleDecisionError",
    "apply_feedback",
    "fit_logistic",
    "init_state",
    "needs_accuracy_influence",
    "next_decision",
    "partition_pool",
    "partition_scores",
    "release",
    "reserve",
    "partition_space",
    "pool_accuracy_influence",
    "pool_influence",
    "prepare_pool",
    "reorder_remaining",
    "run_acquisition",
    "run_baseline",
    "shared_rewards",
    "ucb_scores",
    "within_guard",
]
