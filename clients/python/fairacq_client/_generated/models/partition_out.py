from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="PartitionOut")



@_attrs_define
class PartitionOut:
    """ 
        Attributes:
            base_rate_difference (float):
            bonus (float):
            centroid (list[float]):
            eligible (bool):
            id (str):
            pulls (int):
            remaining (int):
            reward (float):
            size (int):
            ucb (float):
     """

    base_rate_difference: float
    bonus: float
    centroid: list[float]
    eligible: bool
    id: str
    pulls: int
    remaining: int
    reward: float
    size: int
    ucb: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        base_rate_difference = self.base_rate_difference

        bonus = self.bonus

        centroid = self.centroid



        eligible = self.eligible

        id = self.id

        pulls = self.pulls

        remaining = self.remaining

        reward = self.reward

        size = self.size

        ucb = self.ucb


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "base_rate_difference": base_rate_difference,
            "bonus": bonus,
            "centroid": centroid,
            "eligible": eligible,
            "id": id,
            "pulls": pulls,
            "remaining": remaining,
            "reward": reward,
            "size": size,
            "ucb": ucb,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        base_rate_difference = d.pop("base_rate_difference")

        bonus = d.pop("bonus")

        centroid = cast(list[float], d.pop("centroid"))


        eligible = d.pop("eligible")

        id = d.pop("id")

        pulls = d.pop("pulls")

        remaining = d.pop("remaining")

        reward = d.pop("reward")

        size = d.pop("size")

        ucb = d.pop("ucb")

        partition_out = cls(
            base_rate_difference=base_rate_difference,
            bonus=bonus,
            centroid=centroid,
            eligible=eligible,
            id=id,
            pulls=pulls,
            remaining=remaining,
            reward=reward,
            size=size,
            ucb=ucb,
        )


        partition_out.additional_properties = d
        return partition_out

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
