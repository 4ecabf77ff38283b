from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.candidate import Candidate





T = TypeVar("T", bound="DecisionRequest")



@_attrs_define
class DecisionRequest:
    """ 
        Attributes:
            candidates (list[Candidate]): at most FAIRACQ_MAX_CANDIDATES (10,000)
     """

    candidates: list[Candidate]





    def to_dict(self) -> dict[str, Any]:
        from ..models.candidate import Candidate # noqa: PLC0415
        candidates = []
        for candidates_item_data in self.candidates:
            candidates_item = candidates_item_data.to_dict()
            candidates.append(candidates_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "candidates": candidates,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.candidate import Candidate # noqa: PLC0415
        d = dict(src_dict)
        candidates = []
        _candidates = d.pop("candidates")
        for candidates_item_data in (_candidates):
            candidates_item = Candidate.from_dict(candidates_item_data)



            candidates.append(candidates_item)


        decision_request = cls(
            candidates=candidates,
        )

        return decision_request

