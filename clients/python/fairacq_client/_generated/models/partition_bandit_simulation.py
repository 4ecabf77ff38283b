from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.partition_bandit_simulation_metric import PartitionBanditSimulationMetric
from ..models.partition_bandit_simulation_model import PartitionBanditSimulationModel
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.data_sift_policy import DataSiftPolicy
  from ..models.random_batch_policy import RandomBatchPolicy
  from ..models.simulation_data import SimulationData





T = TypeVar("T", bound="PartitionBanditSimulation")



@_attrs_define
class PartitionBanditSimulation:
    """ 
        Attributes:
            budget (int): pool points each policy acquires
            decision_type (Literal['partition_bandit']):
            policies (list[DataSiftPolicy | RandomBatchPolicy]):
            curve_points (int | Unset): points of each curve, evenly spaced Default: 10.
            data (SimulationData | Unset): The labeled table to replay, sent inline instead of ``dataset_id``.
            dataset_id (UUID | Unset): a stored dataset with groups and labels
            initial_size (int | Unset): rows each repetition trains on before acquiring Default: 50.
            max_partitions (int | Unset): GMM components tried (BIC picks among 2..this) Default: 8.
            metric (PartitionBanditSimulationMetric | Unset): the fairness measure decided and compared Default:
                PartitionBanditSimulationMetric.DEMOGRAPHIC_PARITY.
            model (PartitionBanditSimulationModel | Unset): the scikit-learn model scored at each curve point Default:
                PartitionBanditSimulationModel.LOGISTIC_REGRESSION.
            name (str | Unset):
            repetitions (int | Unset): random splits of the data, each replaying every policy Default: 20.
            seed (int | Unset):
            test_fraction (float | Unset): share of each group held out for scoring Default: 0.3.
     """

    budget: int
    decision_type: Literal['partition_bandit']
    policies: list[DataSiftPolicy | RandomBatchPolicy]
    curve_points: int | Unset = 10
    data: SimulationData | Unset = UNSET
    dataset_id: UUID | Unset = UNSET
    initial_size: int | Unset = 50
    max_partitions: int | Unset = 8
    metric: PartitionBanditSimulationMetric | Unset = PartitionBanditSimulationMetric.DEMOGRAPHIC_PARITY
    model: PartitionBanditSimulationModel | Unset = PartitionBanditSimulationModel.LOGISTIC_REGRESSION
    name: str | Unset = UNSET
    repetitions: int | Unset = 20
    seed: int | Unset = UNSET
    test_fraction: float | Unset = 0.3





    def to_dict(self) -> dict[str, Any]:
        from ..models.data_sift_policy import DataSiftPolicy # noqa: PLC0415
        from ..models.random_batch_policy import RandomBatchPolicy # noqa: PLC0415
        from ..models.simulation_data import SimulationData # noqa: PLC0415
        budget = self.budget

        decision_type = self.decision_type

        policies = []
        for policies_item_data in self.policies:
            policies_item: dict[str, Any]
            if isinstance(policies_item_data, RandomBatchPolicy):
                policies_item = policies_item_data.to_dict()
            else:
                policies_item = policies_item_data.to_dict()

            policies.append(policies_item)



        curve_points = self.curve_points

        data: dict[str, Any] | Unset = UNSET
        if not isinstance(self.data, Unset):
            data = self.data.to_dict()

        dataset_id: str | Unset = UNSET
        if not isinstance(self.dataset_id, Unset):
            dataset_id = str(self.dataset_id)

        initial_size = self.initial_size

        max_partitions = self.max_partitions

        metric: str | Unset = UNSET
        if not isinstance(self.metric, Unset):
            metric = self.metric.value


        model: str | Unset = UNSET
        if not isinstance(self.model, Unset):
            model = self.model.value


        name = self.name

        repetitions = self.repetitions

        seed = self.seed

        test_fraction = self.test_fraction


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "budget": budget,
            "decision_type": decision_type,
            "policies": policies,
        })
        if curve_points is not UNSET:
            field_dict["curve_points"] = curve_points
        if data is not UNSET:
            field_dict["data"] = data
        if dataset_id is not UNSET:
            field_dict["dataset_id"] = dataset_id
        if initial_size is not UNSET:
            field_dict["initial_size"] = initial_size
        if max_partitions is not UNSET:
            field_dict["max_partitions"] = max_partitions
        if metric is not UNSET:
            field_dict["metric"] = metric
        if model is not UNSET:
            field_dict["model"] = model
        if name is not UNSET:
            field_dict["name"] = name
        if repetitions is not UNSET:
            field_dict["repetitions"] = repetitions
        if seed is not UNSET:
            field_dict["seed"] = seed
        if test_fraction is not UNSET:
            field_dict["test_fraction"] = test_fraction

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.data_sift_policy import DataSiftPolicy # noqa: PLC0415
        from ..models.random_batch_policy import RandomBatchPolicy # noqa: PLC0415
        from ..models.simulation_data import SimulationData # noqa: PLC0415
        d = dict(src_dict)
        budget = d.pop("budget")

        decision_type = cast(Literal['partition_bandit'] , d.pop("decision_type"))
        if decision_type != 'partition_bandit':
            raise ValueError(f"decision_type must match const 'partition_bandit', got '{decision_type}'")

        policies = []
        _policies = d.pop("policies")
        for policies_item_data in (_policies):
            def _parse_policies_item(data: object) -> DataSiftPolicy | RandomBatchPolicy:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    policies_item_type_0 = RandomBatchPolicy.from_dict(data)



                    return policies_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                policies_item_type_1 = DataSiftPolicy.from_dict(data)



                return policies_item_type_1

            policies_item = _parse_policies_item(policies_item_data)

            policies.append(policies_item)


        curve_points = d.pop("curve_points", UNSET)

        _data = d.pop("data", UNSET)
        data: SimulationData | Unset
        if isinstance(_data,  Unset):
            data = UNSET
        else:
            data = SimulationData.from_dict(_data)




        _dataset_id = d.pop("dataset_id", UNSET)
        dataset_id: UUID | Unset
        if isinstance(_dataset_id,  Unset):
            dataset_id = UNSET
        else:
            dataset_id = UUID(_dataset_id)




        initial_size = d.pop("initial_size", UNSET)

        max_partitions = d.pop("max_partitions", UNSET)

        _metric = d.pop("metric", UNSET)
        metric: PartitionBanditSimulationMetric | Unset
        if isinstance(_metric,  Unset):
            metric = UNSET
        else:
            metric = PartitionBanditSimulationMetric(_metric)




        _model = d.pop("model", UNSET)
        model: PartitionBanditSimulationModel | Unset
        if isinstance(_model,  Unset):
            model = UNSET
        else:
            model = PartitionBanditSimulationModel(_model)




        name = d.pop("name", UNSET)

        repetitions = d.pop("repetitions", UNSET)

        seed = d.pop("seed", UNSET)

        test_fraction = d.pop("test_fraction", UNSET)

        partition_bandit_simulation = cls(
            budget=budget,
            decision_type=decision_type,
            policies=policies,
            curve_points=curve_points,
            data=data,
            dataset_id=dataset_id,
            initial_size=initial_size,
            max_partitions=max_partitions,
            metric=metric,
            model=model,
            name=name,
            repetitions=repetitions,
            seed=seed,
            test_fraction=test_fraction,
        )

        return partition_bandit_simulation

