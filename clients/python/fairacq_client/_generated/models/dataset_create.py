from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="DatasetCreate")



@_attrs_define
class DatasetCreate:
    """ 
        Attributes:
            features (list[list[float]]):
            groups (list[int | str] | Unset):
            ids (list[str] | Unset):
            labels (list[float] | Unset):
            name (str | Unset):
     """

    features: list[list[float]]
    groups: list[int | str] | Unset = UNSET
    ids: list[str] | Unset = UNSET
    labels: list[float] | Unset = UNSET
    name: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        features = []
        for features_item_data in self.features:
            features_item = features_item_data


            features.append(features_item)



        groups: list[int | str] | Unset = UNSET
        if not isinstance(self.groups, Unset):
            groups = []
            for groups_item_data in self.groups:
                groups_item: int | str
                groups_item = groups_item_data
                groups.append(groups_item)



        ids: list[str] | Unset = UNSET
        if not isinstance(self.ids, Unset):
            ids = self.ids



        labels: list[float] | Unset = UNSET
        if not isinstance(self.labels, Unset):
            labels = self.labels



        name = self.name


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "features": features,
        })
        if groups is not UNSET:
            field_dict["groups"] = groups
        if ids is not UNSET:
            field_dict["ids"] = ids
        if labels is not UNSET:
            field_dict["labels"] = labels
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        features = []
        _features = d.pop("features")
        for features_item_data in (_features):
            features_item = cast(list[float], features_item_data)

            features.append(features_item)


        _groups = d.pop("groups", UNSET)
        groups: list[int | str] | Unset = UNSET
        if _groups is not UNSET:
            groups = []
            for groups_item_data in _groups:
                def _parse_groups_item(data: object) -> int | str:
                    return cast(int | str, data)

                groups_item = _parse_groups_item(groups_item_data)

                groups.append(groups_item)


        ids = cast(list[str], d.pop("ids", UNSET))


        labels = cast(list[float], d.pop("labels", UNSET))


        name = d.pop("name", UNSET)

        dataset_create = cls(
            features=features,
            groups=groups,
            ids=ids,
            labels=labels,
            name=name,
        )

        return dataset_create

