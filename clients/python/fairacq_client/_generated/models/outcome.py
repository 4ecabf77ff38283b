from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Outcome")



@_attrs_define
class Outcome:
    """ 
        Attributes:
            group (int | list[int | str] | str): its group (a list, one per class, for intersecting groups)
            id (int | str): an accepted candidate's id
     """

    group: int | list[int | str] | str
    id: int | str





    def to_dict(self) -> dict[str, Any]:
        group: int | list[int | str] | str
        if isinstance(self.group, list):
            group = []
            for group_type_2_item_data in self.group:
                group_type_2_item: int | str
                group_type_2_item = group_type_2_item_data
                group.append(group_type_2_item)


        else:
            group = self.group

        id: int | str
        id = self.id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "group": group,
            "id": id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_group(data: object) -> int | list[int | str] | str:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                group_type_2 = []
                _group_type_2 = data
                for group_type_2_item_data in (_group_type_2):
                    def _parse_group_type_2_item(data: object) -> int | str:
                        return cast(int | str, data)

                    group_type_2_item = _parse_group_type_2_item(group_type_2_item_data)

                    group_type_2.append(group_type_2_item)

                return group_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | list[int | str] | str, data)

        group = _parse_group(d.pop("group"))


        def _parse_id(data: object) -> int | str:
            return cast(int | str, data)

        id = _parse_id(d.pop("id"))


        outcome = cls(
            group=group,
            id=id,
        )

        return outcome

