from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast
from uuid import UUID






T = TypeVar("T", bound="DatasetSource")



@_attrs_define
class DatasetSource:
    """ 
        Attributes:
            id (UUID):
            type_ (Literal['dataset']):
     """

    id: UUID
    type_: Literal['dataset']





    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        type_ = self.type_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))




        type_ = cast(Literal['dataset'] , d.pop("type"))
        if type_ != 'dataset':
            raise ValueError(f"type must match const 'dataset', got '{type_}'")

        dataset_source = cls(
            id=id,
            type_=type_,
        )

        return dataset_source

