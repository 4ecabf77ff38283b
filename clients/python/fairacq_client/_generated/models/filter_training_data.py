from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="FilterTrainingData")



@_attrs_define
class FilterTrainingData:
    """ Training points sent inline: features and each point's group (a list per point for intersecting groups).

        Attributes:
            features (list[list[float]]):
            groups (list[int | list[int | str] | str]):
     """

    features: list[list[float]]
    groups: list[int | list[int | str] | str]





    def to_dict(self) -> dict[str, Any]:
        features = []
        for features_item_data in self.features:
            features_item = features_item_data


            features.append(features_item)



        groups = []
        for groups_item_data in self.groups:
            groups_item: int | list[int | str] | str
            if isinstance(groups_item_data, list):
                groups_item = []
                for groups_item_type_2_item_data in groups_item_data:
                    groups_item_type_2_item: int | str
                    groups_item_type_2_item = groups_item_type_2_item_data
                    groups_item.append(groups_item_type_2_item)


            else:
                groups_item = groups_item_data
            groups.append(groups_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "features": features,
            "groups": groups,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        features = []
        _features = d.pop("features")
        for features_item_data in (_features):
            features_item = cast(list[float], features_item_data)

            features.append(features_item)


        groups = []
        _groups = d.pop("groups")
        for groups_item_data in (_groups):
            def _parse_groups_item(data: object) -> int | list[int | str] | str:
                try:
                    if not isinstance(data, list):
                        raise TypeError()
                    groups_item_type_2 = []
                    _groups_item_type_2 = data
                    for groups_item_type_2_item_data in (_groups_item_type_2):
                        def _parse_groups_item_type_2_item(data: object) -> int | str:
                            return cast(int | str, data)

                        groups_item_type_2_item = _parse_groups_item_type_2_item(groups_item_type_2_item_data)

                        groups_item_type_2.append(groups_item_type_2_item)

                    return groups_item_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                return cast(int | list[int | str] | str, data)

            groups_item = _parse_groups_item(groups_item_data)

            groups.append(groups_item)


        filter_training_data = cls(
            features=features,
            groups=groups,
        )

        return filter_training_data

