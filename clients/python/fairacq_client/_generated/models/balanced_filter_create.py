from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.balanced_filter_create_target_type_0 import BalancedFilterCreateTargetType0
  from ..models.balanced_filter_create_target_type_1_item import BalancedFilterCreateTargetType1Item
  from ..models.filter_training_data import FilterTrainingData
  from ..models.proxy_spec import ProxySpec





T = TypeVar("T", bound="BalancedFilterCreate")



@_attrs_define
class BalancedFilterCreate:
    """ 
        Attributes:
            groups (list[int | str] | list[list[int | str]]): the group names (2–64), or one list per group class for
                intersecting groups
            proxy (ProxySpec): The proxy to learn (SPEC §5.3); fields a type does not use are ignored.
            name (str | Unset):
            seed (int | Unset):
            target (BalancedFilterCreateTargetType0 | list[BalancedFilterCreateTargetType1Item] | None | Unset): U: {group:
                share} (one per class for intersecting groups); default uniform
            training (FilterTrainingData | Unset): Training points sent inline: features and each point's group (a list per
                point for intersecting groups).
            training_dataset_id (UUID | Unset):
     """

    groups: list[int | str] | list[list[int | str]]
    proxy: ProxySpec
    name: str | Unset = UNSET
    seed: int | Unset = UNSET
    target: BalancedFilterCreateTargetType0 | list[BalancedFilterCreateTargetType1Item] | None | Unset = UNSET
    training: FilterTrainingData | Unset = UNSET
    training_dataset_id: UUID | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.balanced_filter_create_target_type_0 import BalancedFilterCreateTargetType0 # noqa: PLC0415
        from ..models.balanced_filter_create_target_type_1_item import BalancedFilterCreateTargetType1Item # noqa: PLC0415
        from ..models.filter_training_data import FilterTrainingData # noqa: PLC0415
        from ..models.proxy_spec import ProxySpec # noqa: PLC0415
        groups: list[int | str] | list[list[int | str]]
        if isinstance(self.groups, list):
            groups = []
            for groups_type_0_item_data in self.groups:
                groups_type_0_item: int | str
                groups_type_0_item = groups_type_0_item_data
                groups.append(groups_type_0_item)


        else:
            groups = []
            for groups_type_1_item_data in self.groups:
                groups_type_1_item = []
                for groups_type_1_item_item_data in groups_type_1_item_data:
                    groups_type_1_item_item: int | str
                    groups_type_1_item_item = groups_type_1_item_item_data
                    groups_type_1_item.append(groups_type_1_item_item)


                groups.append(groups_type_1_item)




        proxy = self.proxy.to_dict()

        name = self.name

        seed = self.seed

        target: dict[str, Any] | list[dict[str, Any]] | None | Unset
        if isinstance(self.target, Unset):
            target = UNSET
        elif isinstance(self.target, BalancedFilterCreateTargetType0):
            target = self.target.to_dict()
        elif isinstance(self.target, list):
            target = []
            for target_type_1_item_data in self.target:
                target_type_1_item = target_type_1_item_data.to_dict()
                target.append(target_type_1_item)


        else:
            target = self.target

        training: dict[str, Any] | Unset = UNSET
        if not isinstance(self.training, Unset):
            training = self.training.to_dict()

        training_dataset_id: str | Unset = UNSET
        if not isinstance(self.training_dataset_id, Unset):
            training_dataset_id = str(self.training_dataset_id)


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "groups": groups,
            "proxy": proxy,
        })
        if name is not UNSET:
            field_dict["name"] = name
        if seed is not UNSET:
            field_dict["seed"] = seed
        if target is not UNSET:
            field_dict["target"] = target
        if training is not UNSET:
            field_dict["training"] = training
        if training_dataset_id is not UNSET:
            field_dict["training_dataset_id"] = training_dataset_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.balanced_filter_create_target_type_0 import BalancedFilterCreateTargetType0 # noqa: PLC0415
        from ..models.balanced_filter_create_target_type_1_item import BalancedFilterCreateTargetType1Item # noqa: PLC0415
        from ..models.filter_training_data import FilterTrainingData # noqa: PLC0415
        from ..models.proxy_spec import ProxySpec # noqa: PLC0415
        d = dict(src_dict)
        def _parse_groups(data: object) -> list[int | str] | list[list[int | str]]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                groups_type_0 = []
                _groups_type_0 = data
                for groups_type_0_item_data in (_groups_type_0):
                    def _parse_groups_type_0_item(data: object) -> int | str:
                        return cast(int | str, data)

                    groups_type_0_item = _parse_groups_type_0_item(groups_type_0_item_data)

                    groups_type_0.append(groups_type_0_item)

                return groups_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            groups_type_1 = []
            _groups_type_1 = data
            for groups_type_1_item_data in (_groups_type_1):
                groups_type_1_item = []
                _groups_type_1_item = groups_type_1_item_data
                for groups_type_1_item_item_data in (_groups_type_1_item):
                    def _parse_groups_type_1_item_item(data: object) -> int | str:
                        return cast(int | str, data)

                    groups_type_1_item_item = _parse_groups_type_1_item_item(groups_type_1_item_item_data)

                    groups_type_1_item.append(groups_type_1_item_item)

                groups_type_1.append(groups_type_1_item)

            return groups_type_1

        groups = _parse_groups(d.pop("groups"))


        proxy = ProxySpec.from_dict(d.pop("proxy"))




        name = d.pop("name", UNSET)

        seed = d.pop("seed", UNSET)

        def _parse_target(data: object) -> BalancedFilterCreateTargetType0 | list[BalancedFilterCreateTargetType1Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                target_type_0 = BalancedFilterCreateTargetType0.from_dict(data)



                return target_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, list):
                    raise TypeError()
                target_type_1 = []
                _target_type_1 = data
                for target_type_1_item_data in (_target_type_1):
                    target_type_1_item = BalancedFilterCreateTargetType1Item.from_dict(target_type_1_item_data)



                    target_type_1.append(target_type_1_item)

                return target_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BalancedFilterCreateTargetType0 | list[BalancedFilterCreateTargetType1Item] | None | Unset, data)

        target = _parse_target(d.pop("target", UNSET))


        _training = d.pop("training", UNSET)
        training: FilterTrainingData | Unset
        if isinstance(_training,  Unset):
            training = UNSET
        else:
            training = FilterTrainingData.from_dict(_training)




        _training_dataset_id = d.pop("training_dataset_id", UNSET)
        training_dataset_id: UUID | Unset
        if isinstance(_training_dataset_id,  Unset):
            training_dataset_id = UNSET
        else:
            training_dataset_id = UUID(_training_dataset_id)




        balanced_filter_create = cls(
            groups=groups,
            proxy=proxy,
            name=name,
            seed=seed,
            target=target,
            training=training,
            training_dataset_id=training_dataset_id,
        )

        return balanced_filter_create

