from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.decision_log_source_resource import DecisionLogSourceResource
from typing import Literal, cast
from uuid import UUID






T = TypeVar("T", bound="DecisionLogSource")



@_attrs_define
class DecisionLogSource:
    """ 
        Attributes:
            id (UUID):
            resource (DecisionLogSourceResource): the session's collection, as in its URL
            type_ (Literal['decision_log']):
     """

    id: UUID
    resource: DecisionLogSourceResource
    type_: Literal['decision_log']





    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        resource = self.resource.value

        type_ = self.type_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "resource": resource,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))




        resource = DecisionLogSourceResource(d.pop("resource"))




        type_ = cast(Literal['decision_log'] , d.pop("type"))
        if type_ != 'decision_log':
            raise ValueError(f"type must match const 'decision_log', got '{type_}'")

        decision_log_source = cls(
            id=id,
            resource=resource,
            type_=type_,
        )

        return decision_log_source

