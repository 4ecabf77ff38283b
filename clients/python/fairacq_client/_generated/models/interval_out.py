from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="IntervalOut")



@_attrs_define
class IntervalOut:
    """ 
        Attributes:
            lower (float | None):
            upper (float | None):
     """

    lower: float | None
    upper: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        lower: float | None
        lower = self.lower

        upper: float | None
        upper = self.upper


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "lower": lower,
            "upper": upper,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_lower(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        lower = _parse_lower(d.pop("lower"))


        def _parse_upper(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        upper = _parse_upper(d.pop("upper"))


        interval_out = cls(
            lower=lower,
            upper=upper,
        )


        interval_out.additional_properties = d
        return interval_out

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
