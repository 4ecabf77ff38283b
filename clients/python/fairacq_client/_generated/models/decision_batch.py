from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.candidate_decision import CandidateDecision





T = TypeVar("T", bound="DecisionBatch")



@_attrs_define
class DecisionBatch:
    """ 
        Attributes:
            decisions (list[CandidateDecision]): in request order
            new (int): candidate ids decided (and counted) by this call
            repeated (int): entries answered from an earlier decision of the same id
     """

    decisions: list[CandidateDecision]
    new: int
    repeated: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.candidate_decision import CandidateDecision # noqa: PLC0415
        decisions = []
        for decisions_item_data in self.decisions:
            decisions_item = decisions_item_data.to_dict()
            decisions.append(decisions_item)



        new = self.new

        repeated = self.repeated


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "decisions": decisions,
            "new": new,
            "repeated": repeated,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.candidate_decision import CandidateDecision # noqa: PLC0415
        d = dict(src_dict)
        decisions = []
        _decisions = d.pop("decisions")
        for decisions_item_data in (_decisions):
            decisions_item = CandidateDecision.from_dict(decisions_item_data)



            decisions.append(decisions_item)


        new = d.pop("new")

        repeated = d.pop("repeated")

        decision_batch = cls(
            decisions=decisions,
            new=new,
            repeated=repeated,
        )


        decision_batch.additional_properties = d
        return decision_batch

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
