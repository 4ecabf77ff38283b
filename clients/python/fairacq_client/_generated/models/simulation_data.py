from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="SimulationData")



@_attrs_define
class SimulationData:
    """ The labeled table to replay, sent inline instead of ``dataset_id``.

        Attributes:
            features (list[list[float]]):
            groups (list[int | str]): the group of each row
            labels (list[float]): 0/1 labels, one per row
     """

    features: list[list[float]]
    groups: list[int | str]
    labels: list[float]





    def to_dict(self) -> dict[str, Any]:
        features = []
        for features_item_data in self.features:
            features_item = features_item_data


            features.append(features_item)



        groups = []
        for groups_item_data in self.groups:
            groups_item: int | str
            groups_item = groups_item_data
            groups.append(groups_item)



        labels = self.labels




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "features": features,
            "groups": groups,
            "labels": labels,
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
            def _parse_groups_item(data: object) -> int | str:
                return cast(int | str, data)

            groups_item = _parse_groups_item(groups_item_data)

            groups.append(groups_item)


        labels = cast(list[float], d.pop("labels"))


        simulation_data = cls(
            features=features,
            groups=groups,
            labels=labels,
        )

        return simulation_data

