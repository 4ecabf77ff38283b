from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="LedgerCounts")



@_attrs_define
class LedgerCounts:
    """ 
        Attributes:
            counted (int): of them, those the session has counted (in an observation or an outcome)
            ignored (int): annotations without a usable label, task or group (see docs/labelstudio.md)
            pending (int): sampler rows waiting for their group's next observation
            received (int): distinct annotation ids received
            updates (int): ANNOTATION_UPDATED deliveries of annotations already received
     """

    counted: int
    ignored: int
    pending: int
    received: int
    updates: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        counted = self.counted

        ignored = self.ignored

        pending = self.pending

        received = self.received

        updates = self.updates


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "counted": counted,
            "ignored": ignored,
            "pending": pending,
            "received": received,
            "updates": updates,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        counted = d.pop("counted")

        ignored = d.pop("ignored")

        pending = d.pop("pending")

        received = d.pop("received")

        updates = d.pop("updates")

        ledger_counts = cls(
            counted=counted,
            ignored=ignored,
            pending=pending,
            received=received,
            updates=updates,
        )


        ledger_counts.additional_properties = d
        return ledger_counts

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
