from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.outcome import Outcome





T = TypeVar("T", bound="OutcomeReport")



@_attrs_define
class OutcomeReport:
    """ 
        Attributes:
            outcomes (list[Outcome]): at most FAIRACQ_MAX_CANDIDATES (10,000)
     """

    outcomes: list[Outcome]





    def to_dict(self) -> dict[str, Any]:
        from ..models.outcome import Outcome # noqa: PLC0415
        outcomes = []
        for outcomes_item_data in self.outcomes:
            outcomes_item = outcomes_item_data.to_dict()
            outcomes.append(outcomes_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "outcomes": outcomes,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.outcome import Outcome # noqa: PLC0415
        d = dict(src_dict)
        outcomes = []
        _outcomes = d.pop("outcomes")
        for outcomes_item_data in (_outcomes):
            outcomes_item = Outcome.from_dict(outcomes_item_data)



            outcomes.append(outcomes_item)


        outcome_report = cls(
            outcomes=outcomes,
        )

        return outcome_report

