from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="PartitionIn")



@_attrs_define
class PartitionIn:
    """ A client-made partition (an arm of the bandit).

        Attributes:
            base_rate_difference (float): ΔBR within the partition (eq. 1)
            centroid (list[float]):
            id (int | str): reported back as a string
            size (int): pool items in the partition
     """

    base_rate_difference: float
    centroid: list[float]
    id: int | str
    size: int





    def to_dict(self) -> dict[str, Any]:
        base_rate_difference = self.base_rate_difference

        centroid = self.centroid



        id: int | str
        id = self.id

        size = self.size


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "base_rate_difference": base_rate_difference,
            "centroid": centroid,
            "id": id,
            "size": size,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        base_rate_difference = d.pop("base_rate_difference")

        centroid = cast(list[float], d.pop("centroid"))


        def _parse_id(data: object) -> int | str:
            return cast(int | str, data)

        id = _parse_id(d.pop("id"))


        size = d.pop("size")

        partition_in = cls(
            base_rate_difference=base_rate_difference,
            centroid=centroid,
            id=id,
            size=size,
        )

        return partition_in

