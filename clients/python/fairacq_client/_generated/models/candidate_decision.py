from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="CandidateDecision")



@_attrs_define
class CandidateDecision:
    """ 
        Attributes:
            accept (bool):
            id (int | str):
            leaf (int):
            probability (float): ρ of the candidate's leaf
     """

    accept: bool
    id: int | str
    leaf: int
    probability: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        accept = self.accept

        id: int | str
        id = self.id

        leaf = self.leaf

        probability = self.probability


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "accept": accept,
            "id": id,
            "leaf": leaf,
            "probability": probability,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        accept = d.pop("accept")

        def _parse_id(data: object) -> int | str:
            return cast(int | str, data)

        id = _parse_id(d.pop("id"))


        leaf = d.pop("leaf")

        probability = d.pop("probability")

        candidate_decision = cls(
            accept=accept,
            id=id,
            leaf=leaf,
            probability=probability,
        )


        candidate_decision.additional_properties = d
        return candidate_decision

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
