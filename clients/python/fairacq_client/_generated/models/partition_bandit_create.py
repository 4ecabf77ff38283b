from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.partition_bandit_create_acceptance import PartitionBanditCreateAcceptance
from ..models.partition_bandit_create_batch_selection import PartitionBanditCreateBatchSelection
from ..models.partition_bandit_create_metric import PartitionBanditCreateMetric
from ..models.partition_bandit_create_reward import PartitionBanditCreateReward
from ..models.partition_bandit_create_reward_scale import PartitionBanditCreateRewardScale
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.bandit_model_spec import BanditModelSpec
  from ..models.partition_in import PartitionIn
  from ..models.partitioning_spec import PartitioningSpec





T = TypeVar("T", bound="PartitionBanditCreate")



@_attrs_define
class PartitionBanditCreate:
    """ 
        Attributes:
            batch_size (int):
            budget (int):
            acceptance (PartitionBanditCreateAcceptance | Unset): beyond the paper: 'objective' keeps a batch when ΔF/s_F +
                β·ΔA/s_A > 0 (each part divided by its reward_scale; needs accuracy_weight > 0) instead of only when |F| falls
                below the best ('fairness', the paper's rule); the δ guard applies to both Default:
                PartitionBanditCreateAcceptance.FAIRNESS.
            accuracy_tolerance (float | Unset): δ, beyond the paper: keep a batch only if accuracy stays within δ of the
                best kept accuracy (and F improves); null is the paper's rule. Feedback then needs accuracy_before/after
            accuracy_weight (float | Unset): β, beyond the paper: the reward adds β × the change in accuracy (each part
                divided by its reward_scale); 0 is the paper's reward. Feedback then needs accuracy_before/after Default: 0.0.
            alpha (float | Unset): α of eq. 2 Default: 0.1.
            batch_selection (PartitionBanditCreateBatchSelection | Unset):  Default:
                PartitionBanditCreateBatchSelection.RANDOM.
            fairness_threshold (float | Unset):  Default: 0.01.
            initial_fairness (float | Unset): F of the initial model (F⁰); default: the first feedback's fairness_before
            max_evaluations (int | Unset):
            metric (PartitionBanditCreateMetric | Unset):  Default: PartitionBanditCreateMetric.DEMOGRAPHIC_PARITY.
            model (BanditModelSpec | Unset): The parametric model of influence batches and managed runs.
            name (str | Unset):
            partitioning (PartitioningSpec | Unset):
            partitions (list[PartitionIn] | Unset):
            pending_ttl_seconds (int | Unset): how long a decision holds its batch with no feedback naming it before its
                items return to the pool and its budget to the bandit (it can be released sooner) Default: 3600.
            pool_dataset_id (UUID | Unset):
            reward (PartitionBanditCreateReward | Unset):  Default: PartitionBanditCreateReward.BASE_RATE_DISTANCE.
            reward_scale (PartitionBanditCreateRewardScale | Unset):  Default: PartitionBanditCreateRewardScale.NONE.
            seed (int | Unset):
            test_dataset_id (UUID | Unset): influence batches and managed runs
            train_dataset_id (UUID | Unset): influence batches and managed runs
            validation_dataset_id (UUID | Unset): where managed runs (and the guard of influence batches) measure accuracy;
                keep it apart from test_dataset_id
     """

    batch_size: int
    budget: int
    acceptance: PartitionBanditCreateAcceptance | Unset = PartitionBanditCreateAcceptance.FAIRNESS
    accuracy_tolerance: float | Unset = UNSET
    accuracy_weight: float | Unset = 0.0
    alpha: float | Unset = 0.1
    batch_selection: PartitionBanditCreateBatchSelection | Unset = PartitionBanditCreateBatchSelection.RANDOM
    fairness_threshold: float | Unset = 0.01
    initial_fairness: float | Unset = UNSET
    max_evaluations: int | Unset = UNSET
    metric: PartitionBanditCreateMetric | Unset = PartitionBanditCreateMetric.DEMOGRAPHIC_PARITY
    model: BanditModelSpec | Unset = UNSET
    name: str | Unset = UNSET
    partitioning: PartitioningSpec | Unset = UNSET
    partitions: list[PartitionIn] | Unset = UNSET
    pending_ttl_seconds: int | Unset = 3600
    pool_dataset_id: UUID | Unset = UNSET
    reward: PartitionBanditCreateReward | Unset = PartitionBanditCreateReward.BASE_RATE_DISTANCE
    reward_scale: PartitionBanditCreateRewardScale | Unset = PartitionBanditCreateRewardScale.NONE
    seed: int | Unset = UNSET
    test_dataset_id: UUID | Unset = UNSET
    train_dataset_id: UUID | Unset = UNSET
    validation_dataset_id: UUID | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.bandit_model_spec import BanditModelSpec # noqa: PLC0415
        from ..models.partition_in import PartitionIn # noqa: PLC0415
        from ..models.partitioning_spec import PartitioningSpec # noqa: PLC0415
        batch_size = self.batch_size

        budget = self.budget

        acceptance: str | Unset = UNSET
        if not isinstance(self.acceptance, Unset):
            acceptance = self.acceptance.value


        accuracy_tolerance = self.accuracy_tolerance

        accuracy_weight = self.accuracy_weight

        alpha = self.alpha

        batch_selection: str | Unset = UNSET
        if not isinstance(self.batch_selection, Unset):
            batch_selection = self.batch_selection.value


        fairness_threshold = self.fairness_threshold

        initial_fairness = self.initial_fairness

        max_evaluations = self.max_evaluations

        metric: str | Unset = UNSET
        if not isinstance(self.metric, Unset):
            metric = self.metric.value


        model: dict[str, Any] | Unset = UNSET
        if not isinstance(self.model, Unset):
            model = self.model.to_dict()

        name = self.name

        partitioning: dict[str, Any] | Unset = UNSET
        if not isinstance(self.partitioning, Unset):
            partitioning = self.partitioning.to_dict()

        partitions: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.partitions, Unset):
            partitions = []
            for partitions_item_data in self.partitions:
                partitions_item = partitions_item_data.to_dict()
                partitions.append(partitions_item)



        pending_ttl_seconds = self.pending_ttl_seconds

        pool_dataset_id: str | Unset = UNSET
        if not isinstance(self.pool_dataset_id, Unset):
            pool_dataset_id = str(self.pool_dataset_id)

        reward: str | Unset = UNSET
        if not isinstance(self.reward, Unset):
            reward = self.reward.value


        reward_scale: str | Unset = UNSET
        if not isinstance(self.reward_scale, Unset):
            reward_scale = self.reward_scale.value


        seed = self.seed

        test_dataset_id: str | Unset = UNSET
        if not isinstance(self.test_dataset_id, Unset):
            test_dataset_id = str(self.test_dataset_id)

        train_dataset_id: str | Unset = UNSET
        if not isinstance(self.train_dataset_id, Unset):
            train_dataset_id = str(self.train_dataset_id)

        validation_dataset_id: str | Unset = UNSET
        if not isinstance(self.validation_dataset_id, Unset):
            validation_dataset_id = str(self.validation_dataset_id)


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "batch_size": batch_size,
            "budget": budget,
        })
        if acceptance is not UNSET:
            field_dict["acceptance"] = acceptance
        if accuracy_tolerance is not UNSET:
            field_dict["accuracy_tolerance"] = accuracy_tolerance
        if accuracy_weight is not UNSET:
            field_dict["accuracy_weight"] = accuracy_weight
        if alpha is not UNSET:
            field_dict["alpha"] = alpha
        if batch_selection is not UNSET:
            field_dict["batch_selection"] = batch_selection
        if fairness_threshold is not UNSET:
            field_dict["fairness_threshold"] = fairness_threshold
        if initial_fairness is not UNSET:
            field_dict["initial_fairness"] = initial_fairness
        if max_evaluations is not UNSET:
            field_dict["max_evaluations"] = max_evaluations
        if metric is not UNSET:
            field_dict["metric"] = metric
        if model is not UNSET:
            field_dict["model"] = model
        if name is not UNSET:
            field_dict["name"] = name
        if partitioning is not UNSET:
            field_dict["partitioning"] = partitioning
        if partitions is not UNSET:
            field_dict["partitions"] = partitions
        if pending_ttl_seconds is not UNSET:
            field_dict["pending_ttl_seconds"] = pending_ttl_seconds
        if pool_dataset_id is not UNSET:
            field_dict["pool_dataset_id"] = pool_dataset_id
        if reward is not UNSET:
            field_dict["reward"] = reward
        if reward_scale is not UNSET:
            field_dict["reward_scale"] = reward_scale
        if seed is not UNSET:
            field_dict["seed"] = seed
        if test_dataset_id is not UNSET:
            field_dict["test_dataset_id"] = test_dataset_id
        if train_dataset_id is not UNSET:
            field_dict["train_dataset_id"] = train_dataset_id
        if validation_dataset_id is not UNSET:
            field_dict["validation_dataset_id"] = validation_dataset_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bandit_model_spec import BanditModelSpec # noqa: PLC0415
        from ..models.partition_in import PartitionIn # noqa: PLC0415
        from ..models.partitioning_spec import PartitioningSpec # noqa: PLC0415
        d = dict(src_dict)
        batch_size = d.pop("batch_size")

        budget = d.pop("budget")

        _acceptance = d.pop("acceptance", UNSET)
        acceptance: PartitionBanditCreateAcceptance | Unset
        if isinstance(_acceptance,  Unset):
            acceptance = UNSET
        else:
            acceptance = PartitionBanditCreateAcceptance(_acceptance)




        accuracy_tolerance = d.pop("accuracy_tolerance", UNSET)

        accuracy_weight = d.pop("accuracy_weight", UNSET)

        alpha = d.pop("alpha", UNSET)

        _batch_selection = d.pop("batch_selection", UNSET)
        batch_selection: PartitionBanditCreateBatchSelection | Unset
        if isinstance(_batch_selection,  Unset):
            batch_selection = UNSET
        else:
            batch_selection = PartitionBanditCreateBatchSelection(_batch_selection)




        fairness_threshold = d.pop("fairness_threshold", UNSET)

        initial_fairness = d.pop("initial_fairness", UNSET)

        max_evaluations = d.pop("max_evaluations", UNSET)

        _metric = d.pop("metric", UNSET)
        metric: PartitionBanditCreateMetric | Unset
        if isinstance(_metric,  Unset):
            metric = UNSET
        else:
            metric = PartitionBanditCreateMetric(_metric)




        _model = d.pop("model", UNSET)
        model: BanditModelSpec | Unset
        if isinstance(_model,  Unset):
            model = UNSET
        else:
            model = BanditModelSpec.from_dict(_model)




        name = d.pop("name", UNSET)

        _partitioning = d.pop("partitioning", UNSET)
        partitioning: PartitioningSpec | Unset
        if isinstance(_partitioning,  Unset):
            partitioning = UNSET
        else:
            partitioning = PartitioningSpec.from_dict(_partitioning)




        _partitions = d.pop("partitions", UNSET)
        partitions: list[PartitionIn] | Unset = UNSET
        if _partitions is not UNSET:
            partitions = []
            for partitions_item_data in _partitions:
                partitions_item = PartitionIn.from_dict(partitions_item_data)



                partitions.append(partitions_item)


        pending_ttl_seconds = d.pop("pending_ttl_seconds", UNSET)

        _pool_dataset_id = d.pop("pool_dataset_id", UNSET)
        pool_dataset_id: UUID | Unset
        if isinstance(_pool_dataset_id,  Unset):
            pool_dataset_id = UNSET
        else:
            pool_dataset_id = UUID(_pool_dataset_id)




        _reward = d.pop("reward", UNSET)
        reward: PartitionBanditCreateReward | Unset
        if isinstance(_reward,  Unset):
            reward = UNSET
        else:
            reward = PartitionBanditCreateReward(_reward)




        _reward_scale = d.pop("reward_scale", UNSET)
        reward_scale: PartitionBanditCreateRewardScale | Unset
        if isinstance(_reward_scale,  Unset):
            reward_scale = UNSET
        else:
            reward_scale = PartitionBanditCreateRewardScale(_reward_scale)




        seed = d.pop("seed", UNSET)

        _test_dataset_id = d.pop("test_dataset_id", UNSET)
        test_dataset_id: UUID | Unset
        if isinstance(_test_dataset_id,  Unset):
            test_dataset_id = UNSET
        else:
            test_dataset_id = UUID(_test_dataset_id)




        _train_dataset_id = d.pop("train_dataset_id", UNSET)
        train_dataset_id: UUID | Unset
        if isinstance(_train_dataset_id,  Unset):
            train_dataset_id = UNSET
        else:
            train_dataset_id = UUID(_train_dataset_id)




        _validation_dataset_id = d.pop("validation_dataset_id", UNSET)
        validation_dataset_id: UUID | Unset
        if isinstance(_validation_dataset_id,  Unset):
            validation_dataset_id = UNSET
        else:
            validation_dataset_id = UUID(_validation_dataset_id)




        partition_bandit_create = cls(
            batch_size=batch_size,
            budget=budget,
            acceptance=acceptance,
            accuracy_tolerance=accuracy_tolerance,
            accuracy_weight=accuracy_weight,
            alpha=alpha,
            batch_selection=batch_selection,
            fairness_threshold=fairness_threshold,
            initial_fairness=initial_fairness,
            max_evaluations=max_evaluations,
            metric=metric,
            model=model,
            name=name,
            partitioning=partitioning,
            partitions=partitions,
            pending_ttl_seconds=pending_ttl_seconds,
            pool_dataset_id=pool_dataset_id,
            reward=reward,
            reward_scale=reward_scale,
            seed=seed,
            test_dataset_id=test_dataset_id,
            train_dataset_id=train_dataset_id,
            validation_dataset_id=validation_dataset_id,
        )

        return partition_bandit_create

