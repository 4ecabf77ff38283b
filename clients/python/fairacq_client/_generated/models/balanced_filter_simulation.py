from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.balanced_filter_policy import BalancedFilterPolicy
  from ..models.balanced_filter_simulation_target import BalancedFilterSimulationTarget
  from ..models.simulation_data import SimulationData





T = TypeVar("T", bound="BalancedFilterSimulation")



@_attrs_define
class BalancedFilterSimulation:
    """ 
        Attributes:
            budget (int): candidates each filter decides on
            decision_type (Literal['balanced_filter']):
            policies (list[BalancedFilterPolicy]):
            curve_points (int | Unset): points of each curve, evenly spaced Default: 10.
            data (SimulationData | Unset): The labeled table to replay, sent inline instead of ``dataset_id``.
            dataset_id (UUID | Unset): a stored dataset with groups and labels
            name (str | Unset):
            repetitions (int | Unset): random splits of the data, each replaying every policy Default: 20.
            seed (int | Unset):
            target (BalancedFilterSimulationTarget | Unset): U: {group: share} of accepted points; default uniform
            test_fraction (float | Unset): share of each group held out for scoring Default: 0.3.
     """

    budget: int
    decision_type: Literal['balanced_filter']
    policies: list[BalancedFilterPolicy]
    curve_points: int | Unset = 10
    data: SimulationData | Unset = UNSET
    dataset_id: UUID | Unset = UNSET
    name: str | Unset = UNSET
    repetitions: int | Unset = 20
    seed: int | Unset = UNSET
    target: BalancedFilterSimulationTarget | Unset = UNSET
    test_fraction: float | Unset = 0.3





    def to_dict(self) -> dict[str, Any]:
        from ..models.balanced_filter_policy import BalancedFilterPolicy # noqa: PLC0415
        from ..models.balanced_filter_simulation_target import BalancedFilterSimulationTarget # noqa: PLC0415
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

        name = self.name

        repetitions = self.repetitions

        seed = self.seed

        target: dict[str, Any] | Unset = UNSET
        if not isinstance(self.target, Unset):
            target = self.target.to_dict()

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
        if name is not UNSET:
            field_dict["name"] = name
        if repetitions is not UNSET:
            field_dict["repetitions"] = repetitions
        if seed is not UNSET:
            field_dict["seed"] = seed
        if target is not UNSET:
            field_dict["target"] = target
        if test_fraction is not UNSET:
            field_dict["test_fraction"] = test_fraction

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.balanced_filter_policy import BalancedFilterPolicy # noqa: PLC0415
        from ..models.balanced_filter_simulation_target import BalancedFilterSimulationTarget # noqa: PLC0415
        from ..models.simulation_data import SimulationData # noqa: PLC0415
        d = dict(src_dict)
        budget = d.pop("budget")

        decision_type = cast(Literal['balanced_filter'] , d.pop("decision_type"))
        if decision_type != 'balanced_filter':
            raise ValueError(f"decision_type must match const 'balanced_filter', got '{decision_type}'")

        policies = []
        _policies = d.pop("policies")
        for policies_item_data in (_policies):
            policies_item = BalancedFilterPolicy.from_dict(policies_item_data)



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




        name = d.pop("name", UNSET)

        repetitions = d.pop("repetitions", UNSET)

        seed = d.pop("seed", UNSET)

        _target = d.pop("target", UNSET)
        target: BalancedFilterSimulationTarget | Unset
        if isinstance(_target,  Unset):
            target = UNSET
        else:
            target = BalancedFilterSimulationTarget.from_dict(_target)




        test_fraction = d.pop("test_fraction", UNSET)

        balanced_filter_simulation = cls(
            budget=budget,
            decision_type=decision_type,
            policies=policies,
            curve_points=curve_points,
            data=data,
            dataset_id=dataset_id,
            name=name,
            repetitions=repetitions,
            seed=seed,
            target=target,
            test_fraction=test_fraction,
        )

        return balanced_filter_simulation

