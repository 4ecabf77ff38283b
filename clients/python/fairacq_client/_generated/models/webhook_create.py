from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_create_event_types_item import WebhookCreateEventTypesItem
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="WebhookCreate")



@_attrs_define
class WebhookCreate:
    """ 
        Attributes:
            event_types (list[WebhookCreateEventTypesItem]): the events to receive
            url (str): where events are POSTed (http or https)
            description (str | Unset):
     """

    event_types: list[WebhookCreateEventTypesItem]
    url: str
    description: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        event_types = []
        for event_types_item_data in self.event_types:
            event_types_item = event_types_item_data.value
            event_types.append(event_types_item)



        url = self.url

        description = self.description


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "event_types": event_types,
            "url": url,
        })
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        event_types = []
        _event_types = d.pop("event_types")
        for event_types_item_data in (_event_types):
            event_types_item = WebhookCreateEventTypesItem(event_types_item_data)



            event_types.append(event_types_item)


        url = d.pop("url")

        description = d.pop("description", UNSET)

        webhook_create = cls(
            event_types=event_types,
            url=url,
            description=description,
        )

        return webhook_create

