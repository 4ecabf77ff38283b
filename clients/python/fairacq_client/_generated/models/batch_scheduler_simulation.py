from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.batch_scheduler_simulation_metric import BatchSchedulerSimulationMetric
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.fair_batch_policy import FairBatchPolicy
  from ..models.minibatch_policy import MinibatchPolicy
  from ..models.simulation_data import SimulationData





T = TypeVar("T", bound="BatchSchedulerSimulation")



@_attrs_define
class BatchSchedulerSimulation:
    """ 
        Attributes:
            budget (int): training epochs (a logistic regression trained by Adam)
            decision_type (Literal['batch_scheduler']):
            policies (list[FairBatchPolicy | MinibatchPolicy]):
            batch_size (int | Unset): examples per minibatch Default: 100.
            curve_points (int | Unset): points of each curve, evenly spaced Default: 10.
            data (SimulationData | Unset): The labeled table to replay, sent inline instead of ``dataset_id``.
            dataset_id (UUID | Unset): a stored dataset with groups and labels
            learning_rate (float | Unset): Adam's step size Default: 0.005.
            metric (BatchSchedulerSimulationMetric | Unset): FairBatch's measure, also the one compared Default:
                BatchSchedulerSimulationMetric.EQUAL_OPPORTUNITY.
            name (str | Unset):
            repetitions (int | Unset): random splits of the data, each replaying every policy Default: 20.
            seed (int | Unset):
            test_fraction (float | Unset): share of each group held out for scoring Default: 0.3.
     """

    budget: int
    decision_type: Literal['batch_scheduler']
    policies: list[FairBatchPolicy | MinibatchPolicy]
    batch_size: int | Unset = 100
    curve_points: int | Unset = 10
    data: SimulationData | Unset = UNSET
    dataset_id: UUID | Unset = UNSET
    learning_rate: float | Unset = 0.005
    metric: BatchSchedulerSimulationMetric | Unset = BatchSchedulerSimulationMetric.EQUAL_OPPORTUNITY
    name: str | Unset = UNSET
    repetitions: int | Unset = 20
    seed: int | Unset = UNSET
    test_fraction: float | Unset = 0.3





    def to_dict(self) -> dict[str, Any]:
        from ..models.fair_batch_policy import FairBatchPolicy # noqa: PLC0415
        from ..models.minibatch_policy import MinibatchPolicy # noqa: PLC0415
        from ..models.simulation_data import SimulationData # noqa: PLC0415
        budget = self.budget

        decision_type = self.decision_type

        policies = []
        for policies_item_data in self.policies:
            policies_item: dict[str, Any]
            if isinstance(policies_item_data, MinibatchPolicy):
                policies_item = policies_item_data.to_dict()
            else:
                policies_item = policies_item_data.to_dict()

            policies.append(policies_item)



        batch_size = self.batch_size

        curve_points = self.curve_points

        data: dict[str, Any] | Unset = UNSET
        if not isinstance(self.data, Unset):
            data = self.data.to_dict()

        dataset_id: str | Unset = UNSET
        if not isinstance(self.dataset_id, Unset):
            dataset_id = str(self.dataset_id)

        learning_rate = self.learning_rate

        metric: str | Unset = UNSET
        if not isinstance(self.metric, Unset):
            metric = self.metric.value


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
        if batch_size is not UNSET:
            field_dict["batch_size"] = batch_size
        if curve_points is not UNSET:
            field_dict["curve_points"] = curve_points
        if data is not UNSET:
            field_dict["data"] = data
        if dataset_id is not UNSET:
            field_dict["dataset_id"] = dataset_id
        if learning_rate is not UNSET:
            field_dict["learning_rate"] = learning_rate
        if metric is not UNSET:
            field_dict["metric"] = metric
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
        from ..models.fair_batch_policy import FairBatchPolicy # noqa: PLC0415
        from ..models.minibatch_policy import MinibatchPolicy # noqa: PLC0415
        from ..models.simulation_data import SimulationData # noqa: PLC0415
        d = dict(src_dict)
        budget = d.pop("budget")

        decision_type = cast(Literal['batch_scheduler'] , d.pop("decision_type"))
        if decision_type != 'batch_scheduler':
            raise ValueError(f"decision_type must match const 'batch_scheduler', got '{decision_type}'")

        policies = []
        _policies = d.pop("policies")
        for policies_item_data in (_policies):
            def _parse_policies_item(data: object) -> FairBatchPolicy | MinibatchPolicy:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    policies_item_type_0 = MinibatchPolicy.from_dict(data)



                    return policies_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                policies_item_type_1 = FairBatchPolicy.from_dict(data)



                return policies_item_type_1

            policies_item = _parse_policies_item(policies_item_data)

            policies.append(policies_item)


        batch_size = d.pop("batch_size", UNSET)

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




        learning_rate = d.pop("learning_rate", UNSET)

        _metric = d.pop("metric", UNSET)
        metric: BatchSchedulerSimulationMetric | Unset
        if isinstance(_metric,  Unset):
            metric = UNSET
        else:
            metric = BatchSchedulerSimulationMetric(_metric)




        name = d.pop("name", UNSET)

        repetitions = d.pop("repetitions", UNSET)

        seed = d.pop("seed", UNSET)

        test_fraction = d.pop("test_fraction", UNSET)

        batch_scheduler_simulation = cls(
            budget=budget,
            decision_type=decision_type,
            policies=policies,
            batch_size=batch_size,
            curve_points=curve_points,
            data=data,
            dataset_id=dataset_id,
            learning_rate=learning_rate,
            metric=metric,
            name=name,
            repetitions=repetitions,
            seed=seed,
            test_fraction=test_fraction,
        )

        return batch_scheduler_simulation

