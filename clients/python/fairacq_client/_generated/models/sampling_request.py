from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="SamplingRequest")



@_attrs_define
class SamplingRequest:
    """ 
        Attributes:
            conditional_matrix (list[list[float]]): A (leaves × groups): each row a distribution over groups (rows of empty
                leaves may be all zero)
            leaf_rates (list[float]): r̂ per leaf, summing to 1
            relaxed (bool | Unset): drop Σq = 1 (the relaxed proxy, Section 5) Default: False.
            target (list[float] | Unset): U over the groups (columns); default uniform
     """

    conditional_matrix: list[list[float]]
    leaf_rates: list[float]
    relaxed: bool | Unset = False
    target: list[float] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        conditional_matrix = []
        for conditional_matrix_item_data in self.conditional_matrix:
            conditional_matrix_item = conditional_matrix_item_data


            conditional_matrix.append(conditional_matrix_item)



        leaf_rates = self.leaf_rates



        relaxed = self.relaxed

        target: list[float] | Unset = UNSET
        if not isinstance(self.target, Unset):
            target = self.target




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "conditional_matrix": conditional_matrix,
            "leaf_rates": leaf_rates,
        })
        if relaxed is not UNSET:
            field_dict["relaxed"] = relaxed
        if target is not UNSET:
            field_dict["target"] = target

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        conditional_matrix = []
        _conditional_matrix = d.pop("conditional_matrix")
        for conditional_matrix_item_data in (_conditional_matrix):
            conditional_matrix_item = cast(list[float], conditional_matrix_item_data)

            conditional_matrix.append(conditional_matrix_item)


        leaf_rates = cast(list[float], d.pop("leaf_rates"))


        relaxed = d.pop("relaxed", UNSET)

        target = cast(list[float], d.pop("target", UNSET))


        sampling_request = cls(
            conditional_matrix=conditional_matrix,
            leaf_rates=leaf_rates,
            relaxed=relaxed,
            target=target,
        )

        return sampling_request

