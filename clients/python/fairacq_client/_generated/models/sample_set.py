from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="SampleSet")



@_attrs_define
class SampleSet:
    """ 
        Attributes:
            features (list[list[float]]):
            labels (list[float]): 0 or 1, one per row
     """

    features: list[list[float]]
    labels: list[float]





    def to_dict(self) -> dict[str, Any]:
        features = []
        for features_item_data in self.features:
            features_item = features_item_data


            features.append(features_item)



        labels = self.labels




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "features": features,
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


        labels = cast(list[float], d.pop("labels"))


        sample_set = cls(
            features=features,
            labels=labels,
        )

        return sample_set

