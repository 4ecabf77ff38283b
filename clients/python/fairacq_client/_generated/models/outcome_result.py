from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.realized import Realized





T = TypeVar("T", bound="OutcomeResult")



@_attrs_define
class OutcomeResult:
    """ 
        Attributes:
            counted (int): outcomes counted by this call
            realized (Realized):
            received (int):
            repeated (int): outcomes already counted (same id, same group)
     """

    counted: int
    realized: Realized
    received: int
    repeated: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.realized import Realized # noqa: PLC0415
        counted = self.counted

        realized = self.realized.to_dict()

        received = self.received

        repeated = self.repeated


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "counted": counted,
            "realized": realized,
            "received": received,
            "repeated": repeated,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.realized import Realized # noqa: PLC0415
        d = dict(src_dict)
        counted = d.pop("counted")

        realized = Realized.from_dict(d.pop("realized"))




        received = d.pop("received")

        repeated = d.pop("repeated")

        outcome_result = cls(
            counted=counted,
            realized=realized,
            received=received,
            repeated=repeated,
        )


        outcome_result.additional_properties = d
        return outcome_result

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
