from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Candidate")



@_attrs_define
class Candidate:
    """ 
        Attributes:
            features (list[float]):
            id (int | str): the same id always gets the same answer (compared as a string)
     """

    features: list[float]
    id: int | str





    def to_dict(self) -> dict[str, Any]:
        features = self.features



        id: int | str
        id = self.id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "features": features,
            "id": id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        features = cast(list[float], d.pop("features"))


        def _parse_id(data: object) -> int | str:
            return cast(int | str, data)

        id = _parse_id(d.pop("id"))


        candidate = cls(
            features=features,
            id=id,
        )

        return candidate

