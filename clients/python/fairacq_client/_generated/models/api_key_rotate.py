from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="ApiKeyRotate")



@_attrs_define
class ApiKeyRotate:
    """ 
        Attributes:
            expires_at (datetime.datetime | Unset): when the new key stops working
            grace_seconds (int | Unset): how long the old key keeps working (0: it stops now) Default: 86400.
     """

    expires_at: datetime.datetime | Unset = UNSET
    grace_seconds: int | Unset = 86400





    def to_dict(self) -> dict[str, Any]:
        expires_at: str | Unset = UNSET
        if not isinstance(self.expires_at, Unset):
            expires_at = self.expires_at.isoformat()

        grace_seconds = self.grace_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if grace_seconds is not UNSET:
            field_dict["grace_seconds"] = grace_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _expires_at = d.pop("expires_at", UNSET)
        expires_at: datetime.datetime | Unset
        if isinstance(_expires_at,  Unset):
            expires_at = UNSET
        else:
            expires_at = datetime.datetime.fromisoformat(_expires_at)




        grace_seconds = d.pop("grace_seconds", UNSET)

        api_key_rotate = cls(
            expires_at=expires_at,
            grace_seconds=grace_seconds,
        )

        return api_key_rotate

