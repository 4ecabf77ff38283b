from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="PendingOut")



@_attrs_define
class PendingOut:
    """ A decision that holds its batch until it is reported on, released or expires.

        Attributes:
            arm (str): the group or partition it chose
            decision_id (UUID):
            expires_at (datetime.datetime):
            sequence (int): its place in the session's decision log
            size (int): samples or pool items it holds
     """

    arm: str
    decision_id: UUID
    expires_at: datetime.datetime
    sequence: int
    size: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        arm = self.arm

        decision_id = str(self.decision_id)

        expires_at = self.expires_at.isoformat()

        sequence = self.sequence

        size = self.size


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "arm": arm,
            "decision_id": decision_id,
            "expires_at": expires_at,
            "sequence": sequence,
            "size": size,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        arm = d.pop("arm")

        decision_id = UUID(d.pop("decision_id"))




        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))




        sequence = d.pop("sequence")

        size = d.pop("size")

        pending_out = cls(
            arm=arm,
            decision_id=decision_id,
            expires_at=expires_at,
            sequence=sequence,
            size=size,
        )


        pending_out.additional_properties = d
        return pending_out

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
