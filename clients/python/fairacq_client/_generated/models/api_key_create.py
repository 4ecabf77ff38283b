from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.api_key_create_scope import ApiKeyCreateScope
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="ApiKeyCreate")



@_attrs_define
class ApiKeyCreate:
    """ 
        Attributes:
            expires_at (datetime.datetime | Unset): when the key stops working (with a time zone)
            name (str | Unset): what the key is for (shown in lists)
            scope (ApiKeyCreateScope | Unset): admin keys may also manage the tenant's keys Default:
                ApiKeyCreateScope.PLAIN.
     """

    expires_at: datetime.datetime | Unset = UNSET
    name: str | Unset = UNSET
    scope: ApiKeyCreateScope | Unset = ApiKeyCreateScope.PLAIN





    def to_dict(self) -> dict[str, Any]:
        expires_at: str | Unset = UNSET
        if not isinstance(self.expires_at, Unset):
            expires_at = self.expires_at.isoformat()

        name = self.name

        scope: str | Unset = UNSET
        if not isinstance(self.scope, Unset):
            scope = self.scope.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if name is not UNSET:
            field_dict["name"] = name
        if scope is not UNSET:
            field_dict["scope"] = scope

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




        name = d.pop("name", UNSET)

        _scope = d.pop("scope", UNSET)
        scope: ApiKeyCreateScope | Unset
        if isinstance(_scope,  Unset):
            scope = UNSET
        else:
            scope = ApiKeyCreateScope(_scope)




        api_key_create = cls(
            expires_at=expires_at,
            name=name,
            scope=scope,
        )

        return api_key_create

