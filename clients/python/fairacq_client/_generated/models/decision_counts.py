from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="DecisionCounts")



@_attrs_define
class DecisionCounts:
    """ 
        Attributes:
            accepted (int):
            accepted_by_leaf (list[int]):
            by_leaf (list[int]):
            total (int): distinct candidate ids decided
     """

    accepted: int
    accepted_by_leaf: list[int]
    by_leaf: list[int]
    total: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        accepted = self.accepted

        accepted_by_leaf = self.accepted_by_leaf



        by_leaf = self.by_leaf



        total = self.total


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "accepted": accepted,
            "accepted_by_leaf": accepted_by_leaf,
            "by_leaf": by_leaf,
            "total": total,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        accepted = d.pop("accepted")

        accepted_by_leaf = cast(list[int], d.pop("accepted_by_leaf"))


        by_leaf = cast(list[int], d.pop("by_leaf"))


        total = d.pop("total")

        decision_counts = cls(
            accepted=accepted,
            accepted_by_leaf=accepted_by_leaf,
            by_leaf=by_leaf,
            total=total,
        )


        decision_counts.additional_properties = d
        return decision_counts

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
