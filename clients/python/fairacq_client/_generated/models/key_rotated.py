from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.api_key_created import ApiKeyCreated
  from ..models.api_key_out import ApiKeyOut





T = TypeVar("T", bound="KeyRotated")



@_attrs_define
class KeyRotated:
    """ 
        Attributes:
            new (ApiKeyCreated):
            old (ApiKeyOut):
     """

    new: ApiKeyCreated
    old: ApiKeyOut
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.api_key_created import ApiKeyCreated # noqa: PLC0415
        from ..models.api_key_out import ApiKeyOut # noqa: PLC0415
        new = self.new.to_dict()

        old = self.old.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "new": new,
            "old": old,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.api_key_created import ApiKeyCreated # noqa: PLC0415
        from ..models.api_key_out import ApiKeyOut # noqa: PLC0415
        d = dict(src_dict)
        new = ApiKeyCreated.from_dict(d.pop("new"))




        old = ApiKeyOut.from_dict(d.pop("old"))




        key_rotated = cls(
            new=new,
            old=old,
        )


        key_rotated.additional_properties = d
        return key_rotated

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
