from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from uuid import UUID






T = TypeVar("T", bound="PartitionBanditRelease")



@_attrs_define
class PartitionBanditRelease:
    """ 
        Attributes:
            budget_remaining (int):
            decision_id (UUID):
            partition (str):
            released (int): items back on offer, and budget back to the bandit
     """

    budget_remaining: int
    decision_id: UUID
    partition: str
    released: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        budget_remaining = self.budget_remaining

        decision_id = str(self.decision_id)

        partition = self.partition

        released = self.released


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "budget_remaining": budget_remaining,
            "decision_id": decision_id,
            "partition": partition,
            "released": released,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        budget_remaining = d.pop("budget_remaining")

        decision_id = UUID(d.pop("decision_id"))




        partition = d.pop("partition")

        released = d.pop("released")

        partition_bandit_release = cls(
            budget_remaining=budget_remaining,
            decision_id=decision_id,
            partition=partition,
            released=released,
        )


        partition_bandit_release.additional_properties = d
        return partition_bandit_release

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
