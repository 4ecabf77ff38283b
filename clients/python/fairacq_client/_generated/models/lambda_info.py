from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="LambdaInfo")



@_attrs_define
class LambdaInfo:
    """ 
        Attributes:
            box (list[float]):
            groups (list[float | int | str]):
            label (float | int | str): a string or a number
     """

    box: list[float]
    groups: list[float | int | str]
    label: float | int | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        box = self.box



        groups = []
        for groups_item_data in self.groups:
            groups_item: float | int | str
            groups_item = groups_item_data
            groups.append(groups_item)



        label: float | int | str
        label = self.label


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "box": box,
            "groups": groups,
            "label": label,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        box = cast(list[float], d.pop("box"))


        groups = []
        _groups = d.pop("groups")
        for groups_item_data in (_groups):
            def _parse_groups_item(data: object) -> float | int | str:
                return cast(float | int | str, data)

            groups_item = _parse_groups_item(groups_item_data)

            groups.append(groups_item)


        def _parse_label(data: object) -> float | int | str:
            return cast(float | int | str, data)

        label = _parse_label(d.pop("label"))


        lambda_info = cls(
            box=box,
            groups=groups,
            label=label,
        )


        lambda_info.additional_properties = d
        return lambda_info

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
