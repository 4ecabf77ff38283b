from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.group_sampler_simulation_loss import GroupSamplerSimulationLoss
from ..models.group_sampler_simulation_metric import GroupSamplerSimulationMetric
from ..models.group_sampler_simulation_model import GroupSamplerSimulationModel
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.policy_spec import PolicySpec
  from ..models.simulation_data import SimulationData





T = TypeVar("T", bound="GroupSamplerSimulation")



@_attrs_define
class GroupSamplerSimulation:
    """ 
        Attributes:
            budget (int): training samples each policy acquires
            decision_type (Literal['group_sampler']):
            policies (list[PolicySpec]):
            curve_points (int | Unset): points of each curve, evenly spaced Default: 10.
            data (SimulationData | Unset): The labeled table to replay, sent inline instead of ``dataset_id``.
            dataset_id (UUID | Unset): a stored dataset with groups and labels
            loss (GroupSamplerSimulationLoss | Unset): the loss the samplers are fed Default:
                GroupSamplerSimulationLoss.ZERO_ONE.
            metric (GroupSamplerSimulationMetric | Unset): what the recommendation compares: worst-group accuracy or worst-
                group log loss Default: GroupSamplerSimulationMetric.ACCURACY.
            model (GroupSamplerSimulationModel | Unset): the scikit-learn model scored at each curve point Default:
                GroupSamplerSimulationModel.LOGISTIC_REGRESSION.
            name (str | Unset):
            repetitions (int | Unset): random splits of the data, each replaying every policy Default: 20.
            seed (int | Unset):
            test_fraction (float | Unset): share of each group held out for scoring Default: 0.3.
     """

    budget: int
    decision_type: Literal['group_sampler']
    policies: list[PolicySpec]
    curve_points: int | Unset = 10
    data: SimulationData | Unset = UNSET
    dataset_id: UUID | Unset = UNSET
    loss: GroupSamplerSimulationLoss | Unset = GroupSamplerSimulationLoss.ZERO_ONE
    metric: GroupSamplerSimulationMetric | Unset = GroupSamplerSimulationMetric.ACCURACY
    model: GroupSamplerSimulationModel | Unset = GroupSamplerSimulationModel.LOGISTIC_REGRESSION
    name: str | Unset = UNSET
    repetitions: int | Unset = 20
    seed: int | Unset = UNSET
    test_fraction: float | Unset = 0.3





    def to_dict(self) -> dict[str, Any]:
        from ..models.policy_spec import PolicySpec # noqa: PLC0415
        from ..models.simulation_data import SimulationData # noqa: PLC0415
        budget = self.budget

        decision_type = self.decision_type

        policies = []
        for policies_item_data in self.policies:
            policies_item = policies_item_data.to_dict()
            policies.append(policies_item)



        curve_points = self.curve_points

        data: dict[str, Any] | Unset = UNSET
        if not isinstance(self.data, Unset):
            data = self.data.to_dict()

        dataset_id: str | Unset = UNSET
        if not isinstance(self.dataset_id, Unset):
            dataset_id = str(self.dataset_id)

        loss: str | Unset = UNSET
        if not isinstance(self.loss, Unset):
            loss = self.loss.value


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
        if loss is not UNSET:
            field_dict["loss"] = loss
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
        from ..models.policy_spec import PolicySpec # noqa: PLC0415
        from ..models.simulation_data import SimulationData # noqa: PLC0415
        d = dict(src_dict)
        budget = d.pop("budget")

        decision_type = cast(Literal['group_sampler'] , d.pop("decision_type"))
        if decision_type != 'group_sampler':
            raise ValueError(f"decision_type must match const 'group_sampler', got '{decision_type}'")

        policies = []
        _policies = d.pop("policies")
        for policies_item_data in (_policies):
            policies_item = PolicySpec.from_dict(policies_item_data)



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




        _loss = d.pop("loss", UNSET)
        loss: GroupSamplerSimulationLoss | Unset
        if isinstance(_loss,  Unset):
            loss = UNSET
        else:
            loss = GroupSamplerSimulationLoss(_loss)




        _metric = d.pop("metric", UNSET)
        metric: GroupSamplerSimulationMetric | Unset
        if isinstance(_metric,  Unset):
            metric = UNSET
        else:
            metric = GroupSamplerSimulationMetric(_metric)




        _model = d.pop("model", UNSET)
        model: GroupSamplerSimulationModel | Unset
        if isinstance(_model,  Unset):
            model = UNSET
        else:
            model = GroupSamplerSimulationModel(_model)




        name = d.pop("name", UNSET)

        repetitions = d.pop("repetitions", UNSET)

        seed = d.pop("seed", UNSET)

        test_fraction = d.pop("test_fraction", UNSET)

        group_sampler_simulation = cls(
            budget=budget,
            decision_type=decision_type,
            policies=policies,
            curve_points=curve_points,
            data=data,
            dataset_id=dataset_id,
            loss=loss,
            metric=metric,
            model=model,
            name=name,
            repetitions=repetitions,
            seed=seed,
            test_fraction=test_fraction,
        )

        return group_sampler_simulation

