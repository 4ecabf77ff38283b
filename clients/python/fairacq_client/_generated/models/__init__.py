""" Contains all the data models used in inputs/outputs """

from .api_key_create import ApiKeyCreate
from .api_key_create_scope import ApiKeyCreateScope
from .api_key_created import ApiKeyCreated
from .api_key_created_scope import ApiKeyCreatedScope
from .api_key_created_status import ApiKeyCreatedStatus
from .api_key_list import ApiKeyList
from .api_key_out import ApiKeyOut
from .api_key_out_scope import ApiKeyOutScope
from .api_key_out_status import ApiKeyOutStatus
from .api_key_rotate import ApiKeyRotate
from .balanced_filter_create import BalancedFilterCreate
from .balanced_filter_create_target_type_0 import BalancedFilterCreateTargetType0
from .balanced_filter_create_target_type_1_item import BalancedFilterCreateTargetType1Item
from .balanced_filter_list import BalancedFilterList
from .balanced_filter_out import BalancedFilterOut
from .balanced_filter_out_target import BalancedFilterOutTarget
from .balanced_filter_policy import BalancedFilterPolicy
from .balanced_filter_simulation import BalancedFilterSimulation
from .balanced_filter_simulation_target import BalancedFilterSimulationTarget
from .bandit_model_spec import BanditModelSpec
from .bandit_next_decision import BanditNextDecision
from .bandit_next_decision_reason import BanditNextDecisionReason
from .bandit_next_decision_scores import BanditNextDecisionScores
from .batch_scheduler_create import BatchSchedulerCreate
from .batch_scheduler_create_metric import BatchSchedulerCreateMetric
from .batch_scheduler_list import BatchSchedulerList
from .batch_scheduler_out import BatchSchedulerOut
from .batch_scheduler_out_metric import BatchSchedulerOutMetric
from .batch_scheduler_simulation import BatchSchedulerSimulation
from .batch_scheduler_simulation_metric import BatchSchedulerSimulationMetric
from .bootstrap import Bootstrap
from .bootstrap_out import BootstrapOut
from .bounded_group_loss_constraint import BoundedGroupLossConstraint
from .bounded_group_loss_constraint_bounds_type_0 import BoundedGroupLossConstraintBoundsType0
from .candidate import Candidate
from .candidate_decision import CandidateDecision
from .cell_batch_count import CellBatchCount
from .cell_count import CellCount
from .cell_loss import CellLoss
from .cell_probability import CellProbability
from .connection_create import ConnectionCreate
from .connection_create_session_type import ConnectionCreateSessionType
from .connection_created import ConnectionCreated
from .connection_created_session_type import ConnectionCreatedSessionType
from .connection_options import ConnectionOptions
from .connection_out import ConnectionOut
from .connection_out_session_type import ConnectionOutSessionType
from .data_sift_policy import DataSiftPolicy
from .data_sift_policy_batch_selection import DataSiftPolicyBatchSelection
from .data_sift_policy_reward import DataSiftPolicyReward
from .data_sift_policy_reward_scale import DataSiftPolicyRewardScale
from .dataset_create import DatasetCreate
from .dataset_csv_upload import DatasetCsvUpload
from .dataset_list import DatasetList
from .dataset_out import DatasetOut
from .dataset_out_encoding_type_0 import DatasetOutEncodingType0
from .dataset_source import DatasetSource
from .decision_batch import DecisionBatch
from .decision_batch_request import DecisionBatchRequest
from .decision_counts import DecisionCounts
from .decision_list import DecisionList
from .decision_log_source import DecisionLogSource
from .decision_log_source_resource import DecisionLogSourceResource
from .decision_out import DecisionOut
from .decision_out_request import DecisionOutRequest
from .decision_out_response import DecisionOutResponse
from .decision_request import DecisionRequest
from .delivery_list import DeliveryList
from .delivery_out import DeliveryOut
from .delivery_out_event_type import DeliveryOutEventType
from .delivery_out_status import DeliveryOutStatus
from .diagnostics import Diagnostics
from .diagnostics_rejections_type_0 import DiagnosticsRejectionsType0
from .diagnostics_splits_type_0_item import DiagnosticsSplitsType0Item
from .epoch_report import EpochReport
from .epoch_result import EpochResult
from .export_create import ExportCreate
from .export_create_format import ExportCreateFormat
from .export_list import ExportList
from .export_out import ExportOut
from .export_out_format import ExportOutFormat
from .fair_batch_policy import FairBatchPolicy
from .fair_regression_create import FairRegressionCreate
from .fair_regression_create_loss import FairRegressionCreateLoss
from .fair_regression_create_oracle import FairRegressionCreateOracle
from .fair_regression_list import FairRegressionList
from .fair_regression_out import FairRegressionOut
from .fair_regression_out_loss import FairRegressionOutLoss
from .fair_regression_out_oracle import FairRegressionOutOracle
from .feedback_report import FeedbackReport
from .feedback_result import FeedbackResult
from .feedback_result_rewards import FeedbackResultRewards
from .field_mapping import FieldMapping
from .filter_training_data import FilterTrainingData
from .fit_result import FitResult
from .fit_result_group_losses import FitResultGroupLosses
from .fit_result_status import FitResultStatus
from .frontier_point import FrontierPoint
from .group_sampler_create import GroupSamplerCreate
from .group_sampler_create_loss import GroupSamplerCreateLoss
from .group_sampler_create_mode import GroupSamplerCreateMode
from .group_sampler_create_strategy import GroupSamplerCreateStrategy
from .group_sampler_decisions import GroupSamplerDecisions
from .group_sampler_list import GroupSamplerList
from .group_sampler_out import GroupSamplerOut
from .group_sampler_out_counts import GroupSamplerOutCounts
from .group_sampler_out_group_accuracies import GroupSamplerOutGroupAccuracies
from .group_sampler_out_group_losses import GroupSamplerOutGroupLosses
from .group_sampler_out_loss import GroupSamplerOutLoss
from .group_sampler_out_mixture import GroupSamplerOutMixture
from .group_sampler_out_mode import GroupSamplerOutMode
from .group_sampler_out_pending import GroupSamplerOutPending
from .group_sampler_out_strategy import GroupSamplerOutStrategy
from .group_sampler_release import GroupSamplerRelease
from .group_sampler_release_counts import GroupSamplerReleaseCounts
from .group_sampler_release_group_losses import GroupSamplerReleaseGroupLosses
from .group_sampler_release_mixture import GroupSamplerReleaseMixture
from .group_sampler_release_pending import GroupSamplerReleasePending
from .group_sampler_simulation import GroupSamplerSimulation
from .group_sampler_simulation_loss import GroupSamplerSimulationLoss
from .group_sampler_simulation_metric import GroupSamplerSimulationMetric
from .group_sampler_simulation_model import GroupSamplerSimulationModel
from .group_score import GroupScore
from .health_response_health import HealthResponseHealth
from .history_entry import HistoryEntry
from .interval_out import IntervalOut
from .job_list import JobList
from .job_out import JobOut
from .job_out_result_type_0 import JobOutResultType0
from .job_resource import JobResource
from .job_status import JobStatus
from .key_rotated import KeyRotated
from .label_mapping import LabelMapping
from .lambda_info import LambdaInfo
from .last_run import LastRun
from .learner_spec import LearnerSpec
from .learner_spec_params import LearnerSpecParams
from .learner_spec_type import LearnerSpecType
from .ledger_counts import LedgerCounts
from .list_webhook_deliveries_of_tenant_status import ListWebhookDeliveriesOfTenantStatus
from .metric_ci import MetricCI
from .metric_ci_by_group import MetricCIByGroup
from .metric_ci_details import MetricCIDetails
from .metric_ci_details_additional_property import MetricCIDetailsAdditionalProperty
from .metric_out import MetricOut
from .metric_out_by_group import MetricOutByGroup
from .metric_out_details import MetricOutDetails
from .metric_out_details_additional_property import MetricOutDetailsAdditionalProperty
from .metrics_request import MetricsRequest
from .metrics_request_loss import MetricsRequestLoss
from .metrics_request_metrics_item import MetricsRequestMetricsItem
from .metrics_response import MetricsResponse
from .metrics_response_counts import MetricsResponseCounts
from .metrics_response_metrics import MetricsResponseMetrics
from .minibatch_policy import MinibatchPolicy
from .model_params import ModelParams
from .observation_report import ObservationReport
from .observation_report_group_accuracies import ObservationReportGroupAccuracies
from .observation_report_group_losses import ObservationReportGroupLosses
from .observation_result import ObservationResult
from .observation_result_counts import ObservationResultCounts
from .observation_result_group_losses import ObservationResultGroupLosses
from .observation_result_mixture import ObservationResultMixture
from .observation_result_pending import ObservationResultPending
from .outcome import Outcome
from .outcome_report import OutcomeReport
from .outcome_result import OutcomeResult
from .params_out import ParamsOut
from .params_out_bound import ParamsOutBound
from .partition_bandit_create import PartitionBanditCreate
from .partition_bandit_create_acceptance import PartitionBanditCreateAcceptance
from .partition_bandit_create_batch_selection import PartitionBanditCreateBatchSelection
from .partition_bandit_create_metric import PartitionBanditCreateMetric
from .partition_bandit_create_reward import PartitionBanditCreateReward
from .partition_bandit_create_reward_scale import PartitionBanditCreateRewardScale
from .partition_bandit_decisions import PartitionBanditDecisions
from .partition_bandit_list import PartitionBanditList
from .partition_bandit_out import PartitionBanditOut
from .partition_bandit_out_metric import PartitionBanditOutMetric
from .partition_bandit_out_partitioning_type_0 import PartitionBanditOutPartitioningType0
from .partition_bandit_out_reward import PartitionBanditOutReward
from .partition_bandit_release import PartitionBanditRelease
from .partition_bandit_simulation import PartitionBanditSimulation
from .partition_bandit_simulation_metric import PartitionBanditSimulationMetric
from .partition_bandit_simulation_model import PartitionBanditSimulationModel
from .partition_in import PartitionIn
from .partition_out import PartitionOut
from .partition_score import PartitionScore
from .partitioning_spec import PartitioningSpec
from .partitioning_spec_method import PartitioningSpecMethod
from .pending_out import PendingOut
from .policy_spec import PolicySpec
from .policy_spec_strategy import PolicySpecStrategy
from .prediction_request import PredictionRequest
from .prediction_request_mode import PredictionRequestMode
from .prediction_request_scale import PredictionRequestScale
from .prediction_result import PredictionResult
from .prediction_result_mode import PredictionResultMode
from .prediction_result_scale import PredictionResultScale
from .problem import Problem
from .problem_error import ProblemError
from .proxy_out import ProxyOut
from .proxy_out_hyperparameters import ProxyOutHyperparameters
from .proxy_out_tree_type_0_item import ProxyOutTreeType0Item
from .proxy_out_type import ProxyOutType
from .proxy_out_versions_type_0 import ProxyOutVersionsType0
from .proxy_spec import ProxySpec
from .proxy_spec_progress import ProxySpecProgress
from .proxy_spec_type import ProxySpecType
from .random_batch_policy import RandomBatchPolicy
from .realized import Realized
from .realized_group_counts import RealizedGroupCounts
from .realized_group_shares import RealizedGroupShares
from .regression_data import RegressionData
from .run_request import RunRequest
from .sample_set import SampleSet
from .sampler_model_spec import SamplerModelSpec
from .sampler_next_decision import SamplerNextDecision
from .sampler_next_decision_reason import SamplerNextDecisionReason
from .sampler_next_decision_scores import SamplerNextDecisionScores
from .sampler_params import SamplerParams
from .sampler_params_bound import SamplerParamsBound
from .sampling import Sampling
from .sampling_request import SamplingRequest
from .sampling_response import SamplingResponse
from .session_status import SessionStatus
from .simulation_data import SimulationData
from .simulation_list import SimulationList
from .simulation_out import SimulationOut
from .simulation_out_config import SimulationOutConfig
from .simulation_out_decision_type import SimulationOutDecisionType
from .simulation_out_results_type_0 import SimulationOutResultsType0
from .skipped_item import SkippedItem
from .statistical_parity_constraint import StatisticalParityConstraint
from .training_out import TrainingOut
from .webhook_create import WebhookCreate
from .webhook_create_event_types_item import WebhookCreateEventTypesItem
from .webhook_created import WebhookCreated
from .webhook_created_event_types_item import WebhookCreatedEventTypesItem
from .webhook_list import WebhookList
from .webhook_out import WebhookOut
from .webhook_out_event_types_item import WebhookOutEventTypesItem

__all__ = (
    "ApiKeyCreate",
    "ApiKeyCreated",
    "ApiKeyCreatedScope",
    "ApiKeyCreatedStatus",
    "ApiKeyCreateScope",
    "ApiKeyList",
    "ApiKeyOut",
    "ApiKeyOutScope",
    "ApiKeyOutStatus",
    "ApiKeyRotate",
    "BalancedFilterCreate",
    "BalancedFilterCreateTargetType0",
    "BalancedFilterCreateTargetType1Item",
    "BalancedFilterList",
    "BalancedFilterOut",
    "BalancedFilterOutTarget",
    "BalancedFilterPolicy",
    "BalancedFilterSimulation",
    "BalancedFilterSimulationTarget",
    "BanditModelSpec",
    "BanditNextDecision",
    "BanditNextDecisionReason",
    "BanditNextDecisionScores",
    "BatchSchedulerCreate",
    "BatchSchedulerCreateMetric",
    "BatchSchedulerList",
    "BatchSchedulerOut",
    "BatchSchedulerOutMetric",
    "BatchSchedulerSimulation",
    "BatchSchedulerSimulationMetric",
    "Bootstrap",
    "BootstrapOut",
    "BoundedGroupLossConstraint",
    "BoundedGroupLossConstraintBoundsType0",
    "Candidate",
    "CandidateDecision",
    "CellBatchCount",
    "CellCount",
    "CellLoss",
    "CellProbability",
    "ConnectionCreate",
    "ConnectionCreated",
    "ConnectionCreatedSessionType",
    "ConnectionCreateSessionType",
    "ConnectionOptions",
    "ConnectionOut",
    "ConnectionOutSessionType",
    "DatasetCreate",
    "DatasetCsvUpload",
    "DatasetList",
    "DatasetOut",
    "DatasetOutEncodingType0",
    "DatasetSource",
    "DataSiftPolicy",
    "DataSiftPolicyBatchSelection",
    "DataSiftPolicyReward",
    "DataSiftPolicyRewardScale",
    "DecisionBatch",
    "DecisionBatchRequest",
    "DecisionCounts",
    "DecisionList",
    "DecisionLogSource",
    "DecisionLogSourceResource",
    "DecisionOut",
    "DecisionOutRequest",
    "DecisionOutResponse",
    "DecisionRequest",
    "DeliveryList",
    "DeliveryOut",
    "DeliveryOutEventType",
    "DeliveryOutStatus",
    "Diagnostics",
    "DiagnosticsRejectionsType0",
    "DiagnosticsSplitsType0Item",
    "EpochReport",
    "EpochResult",
    "ExportCreate",
    "ExportCreateFormat",
    "ExportList",
    "ExportOut",
    "ExportOutFormat",
    "FairBatchPolicy",
    "FairRegressionCreate",
    "FairRegressionCreateLoss",
    "FairRegressionCreateOracle",
    "FairRegressionList",
    "FairRegressionOut",
    "FairRegressionOutLoss",
    "FairRegressionOutOracle",
    "FeedbackReport",
    "FeedbackResult",
    "FeedbackResultRewards",
    "FieldMapping",
    "FilterTrainingData",
    "FitResult",
    "FitResultGroupLosses",
    "FitResultStatus",
    "FrontierPoint",
    "GroupSamplerCreate",
    "GroupSamplerCreateLoss",
    "GroupSamplerCreateMode",
    "GroupSamplerCreateStrategy",
    "GroupSamplerDecisions",
    "GroupSamplerList",
    "GroupSamplerOut",
    "GroupSamplerOutCounts",
    "GroupSamplerOutGroupAccuracies",
    "GroupSamplerOutGroupLosses",
    "GroupSamplerOutLoss",
    "GroupSamplerOutMixture",
    "GroupSamplerOutMode",
    "GroupSamplerOutPending",
    "GroupSamplerOutStrategy",
    "GroupSamplerRelease",
    "GroupSamplerReleaseCounts",
    "GroupSamplerReleaseGroupLosses",
    "GroupSamplerReleaseMixture",
    "GroupSamplerReleasePending",
    "GroupSamplerSimulation",
    "GroupSamplerSimulationLoss",
    "GroupSamplerSimulationMetric",
    "GroupSamplerSimulationModel",
    "GroupScore",
    "HealthResponseHealth",
    "HistoryEntry",
    "IntervalOut",
    "JobList",
    "JobOut",
    "JobOutResultType0",
    "JobResource",
    "JobStatus",
    "KeyRotated",
    "LabelMapping",
    "LambdaInfo",
    "LastRun",
    "LearnerSpec",
    "LearnerSpecParams",
    "LearnerSpecType",
    "LedgerCounts",
    "ListWebhookDeliveriesOfTenantStatus",
    "MetricCI",
    "MetricCIByGroup",
    "MetricCIDetails",
    "MetricCIDetailsAdditionalProperty",
    "MetricOut",
    "MetricOutByGroup",
    "MetricOutDetails",
    "MetricOutDetailsAdditionalProperty",
    "MetricsRequest",
    "MetricsRequestLoss",
    "MetricsRequestMetricsItem",
    "MetricsResponse",
    "MetricsResponseCounts",
    "MetricsResponseMetrics",
    "MinibatchPolicy",
    "ModelParams",
    "ObservationReport",
    "ObservationReportGroupAccuracies",
    "ObservationReportGroupLosses",
    "ObservationResult",
    "ObservationResultCounts",
    "ObservationResultGroupLosses",
    "ObservationResultMixture",
    "ObservationResultPending",
    "Outcome",
    "OutcomeReport",
    "OutcomeResult",
    "ParamsOut",
    "ParamsOutBound",
    "PartitionBanditCreate",
    "PartitionBanditCreateAcceptance",
    "PartitionBanditCreateBatchSelection",
    "PartitionBanditCreateMetric",
    "PartitionBanditCreateReward",
    "PartitionBanditCreateRewardScale",
    "PartitionBanditDecisions",
    "PartitionBanditList",
    "PartitionBanditOut",
    "PartitionBanditOutMetric",
    "PartitionBanditOutPartitioningType0",
    "PartitionBanditOutReward",
    "PartitionBanditRelease",
    "PartitionBanditSimulation",
    "PartitionBanditSimulationMetric",
    "PartitionBanditSimulationModel",
    "PartitionIn",
    "PartitioningSpec",
    "PartitioningSpecMethod",
    "PartitionOut",
    "PartitionScore",
    "PendingOut",
    "PolicySpec",
    "PolicySpecStrategy",
    "PredictionRequest",
    "PredictionRequestMode",
    "PredictionRequestScale",
    "PredictionResult",
    "PredictionResultMode",
    "PredictionResultScale",
    "Problem",
    "ProblemError",
    "ProxyOut",
    "ProxyOutHyperparameters",
    "ProxyOutTreeType0Item",
    "ProxyOutType",
    "ProxyOutVersionsType0",
    "ProxySpec",
    "ProxySpecProgress",
    "ProxySpecType",
    "RandomBatchPolicy",
    "Realized",
    "RealizedGroupCounts",
    "RealizedGroupShares",
    "RegressionData",
    "RunRequest",
    "SamplerModelSpec",
    "SamplerNextDecision",
    "SamplerNextDecisionReason",
    "SamplerNextDecisionScores",
    "SamplerParams",
    "SamplerParamsBound",
    "SampleSet",
    "Sampling",
    "SamplingRequest",
    "SamplingResponse",
    "SessionStatus",
    "SimulationData",
    "SimulationList",
    "SimulationOut",
    "SimulationOutConfig",
    "SimulationOutDecisionType",
    "SimulationOutResultsType0",
    "SkippedItem",
    "StatisticalParityConstraint",
    "TrainingOut",
    "WebhookCreate",
    "WebhookCreated",
    "WebhookCreatedEventTypesItem",
    "WebhookCreateEventTypesItem",
    "WebhookList",
    "WebhookOut",
    "WebhookOutEventTypesItem",
)
